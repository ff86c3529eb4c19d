"""The review for people: each hand trick by trick with its marks, the costly decisions with the better action,
then each seat's and team's totals and the luck of the deal."""

from __future__ import annotations

from collections import defaultdict

from rich import box
from rich.table import Table

from ...core.cards import card_name
from ...core.stats import Estimate
from ...reference.hand import team_of
from ..format import MARK_SYMBOLS, estimate_cell, estimate_text, score_text, suit_label
from .console import console

__all__ = ["print_review"]


def _action(action) -> str:
    if isinstance(action, list | tuple):
        return " ".join(str(a) for a in action)
    return str(action)


def _marked(text: str, graded) -> str:
    if graded is None or graded.mark is None:
        return text
    style = {"doubtful": "yellow", "bad": "red", "very bad": "bold red"}[graded.mark]
    return f"[{style}]{text}{MARK_SYMBOLS[graded.mark]}[/]"


def _cost(estimate: Estimate, percent: bool = False) -> str:
    return estimate_text(estimate.value, estimate.se, percent)


def _cell(estimate: Estimate, percent: bool = False) -> str:
    """The compact form for the tables: ``0.41(5)`` is 0.41 ± 0.05 (percentages without the sign)."""
    return estimate_cell(estimate.value, estimate.se, percent)


def _listed(line: str) -> str:
    """A line listing actions, ended with a full stop unless its last action ends with a mark: "seat 3 3?" and
    not "seat 3 3?." (a mark is the action's annotation, as in chess)."""
    return line if line.endswith("[/]") else line + "."


def _taken_and_best(g) -> tuple[str, str]:
    """The action taken and the best; for a keep only the cards they differ by."""
    taken, best = g.decision.taken, g.best
    if g.decision.kind == "keep" and isinstance(best, list):
        return (" ".join(c for c in taken if c not in best) or "=",
                " ".join(c for c in best if c not in taken) or "=")
    return _action(taken), _action(best)


def print_review(review) -> None:
    """Every hand of ``review`` (:class:`smear_sim.analysis.review.Review`), then the totals and the luck."""
    out = console()
    by_hand = defaultdict(dict)  # (record, deal) -> {(kind, position): graded}
    for g in review.decisions:
        d = g.decision
        key = d.plays if d.kind == "card" else (d.calls if d.kind == "call" else d.seat)
        by_hand[g.record, g.deal][d.kind, key] = g
    luck = {(x.record, x.deal): x for x in review.luck}
    several = len(review.hands) > 1
    for h in review.hands:
        graded = by_hand[h.record, h.deal]
        record, result = h.hand, h.result
        title = f"Record {h.record + 1}, deal {h.deal + 1}" if several else "The hand"
        out.print(f"[bold]{title}[/]: seat {record.dealer} deals at {score_text(*record.scores_before)} (team 0, "
                  "team 1).")
        calls = []
        for position, call in enumerate(record.bids):
            seat = (record.dealer + 1 + position) % 4
            calls.append(f"seat {seat} {_marked(str(call), graded.get(('call', position)))}")
        out.print(_listed("Calls: " + ", ".join(calls)))
        if result.bidder is None:
            out.print("All four passed: the hand is thrown in.")
        else:
            trump = _marked(suit_label(result.trump), graded.get(("trump", result.bidder)))
            out.print(f"Trump {trump} named by seat {result.bidder}, who bid {result.bid}.")
            keeps = []
            for seat in range(4):
                g = graded.get(("keep", seat))
                if g is not None:
                    keeps.append(f"seat {seat} {_marked(_action(g.decision.taken), g)}")
            if keeps:
                out.print(_listed("Kept: " + "; ".join(keeps)))
            tricks = Table(box=box.SIMPLE, padding=(0, 1, 0, 0))
            for name in ("#", "leader", "cards (in play order)", "won by"):
                tricks.add_column(name, justify="right" if name == "#" else "left")
            for number, trick in enumerate(result.tricks):
                cards = []
                for i, c in enumerate(trick.cards):
                    name = card_name(c)
                    text = f"[bold]{name}[/]" if trick.seat_of(i) == trick.winner else name
                    cards.append(_marked(text, graded.get(("card", 4 * number + i))))
                tricks.add_row(str(number + 1), f"seat {trick.leader}", "  ".join(cards), f"seat {trick.winner}")
            out.print(tricks)
        after = result.scores_after
        out.print(f"Score after: {score_text(*after)}" + (f"; team {result.winner} wins the game." if
                                                              result.winner is not None else "."))
        costly = [g for g in graded.values() if g.mark is not None]
        costly.sort(key=lambda g: (g.decision.calls, g.decision.kind != "call", g.decision.plays))
        if costly:
            table = Table(title="Costly decisions", box=box.SIMPLE, padding=(0, 1, 0, 0), title_justify="left",
                          caption="cost: best minus taken, points and P(win) in %; a keep shows the cards that "
                                  "differ", caption_justify="left")
            for name in ("seat", "decision", "trick", "taken", "best", "points", "P(win) %", "mark"):
                table.add_column(name, justify="left" if name in ("decision", "taken", "best", "mark") else "right")
            for g in costly:
                d = g.decision
                taken, best = _taken_and_best(g)
                table.add_row(str(d.seat), d.kind, "" if d.trick is None else str(d.trick), taken, best,
                              _cell(g.points), _cell(g.win, True), _marked(g.mark, g))
            out.print(table)
        else:
            out.print(f"No decision cost {_threshold()} of P(win) or more.")
        if (h.record, h.deal) in luck:
            x = luck[h.record, h.deal]
            out.print(f"Luck of the deal: team 0 {_signed(x.points[0])} points, {_signed(x.win[0], True)} P(win).")
        out.print()
    _print_totals(out, review)


def _signed(estimate: Estimate, percent: bool = False) -> str:
    text = _cost(estimate, percent)
    return text if text.startswith("-") else f"+{text}"


def _marks():
    from ...analysis.review import MARKS  # the one definition of the thresholds

    return MARKS


def _threshold() -> str:
    return f"{_marks()[-1][1]:g}"


def _print_totals(out, review) -> None:
    seats, teams = review.seat_totals(), review.team_totals()
    table = Table(title="Decisions graded", box=box.SIMPLE, padding=(0, 1, 0, 0), title_justify="left",
                  caption="cost: the best action's value minus the taken one's, summed, in points and P(win) (%); "
                          "mean: per decision; marks by P(win) cost: "
                          + ", ".join(f"{name} {MARK_SYMBOLS[name]} ≥ {threshold:g}"
                                      for name, threshold in reversed(_marks())) + " (docs/formats.md)",
                  caption_justify="left")
    for name in ("", "decisions", "points", "P(win) %", "mean %", "?!", "?", "??"):
        table.add_column(name, justify="left" if name == "" else "right")
    rows = [(f"seat {s} (team {team_of(s)})", t) for s, t in enumerate(seats)]
    rows += [(f"team {team}", t) for team, t in enumerate(teams)]
    for label, t in rows:
        table.add_row(label, str(t.decisions), _cell(t.points), _cell(t.win, True), _cell(t.mean_win, True),
                      *(str(t.marks[name]) for name in ("doubtful", "bad", "very bad")))
    out.print(table)
    if review.luck:
        lucks = review.luck_totals()
        out.print("Luck, summed over the deals (the cards dealt against an average deal): " + "; ".join(
            f"team {team} {_signed(points)} points, {_signed(win, True)} P(win)"
            for team, (points, win) in enumerate(lucks)) + ".")
    samples = "each hint's default precision" if review.samples is None else f"{review.samples:,} worlds a decision"
    out.print(f"Seed {review.seed}, {samples}; {review.seconds:.1f} s.")
