"""Renderers for one hand's analysis: its bids, the moon, and the calls at a place in the auction."""

from __future__ import annotations

from rich import box
from rich.table import Table

from ...core import layout as L
from ...core.cards import card_name
from ..format import (
    estimate_text,
    score_text,
    suit_label,
)
from .console import console, estimate_pair


def print_hand(analysis) -> None:
    out = console()
    data = analysis.to_json()
    rules = analysis.rules
    out.print(f"[bold]{' '.join(data['hand'])}[/] as bidder: {analysis.samples:,} deals, seed {analysis.seed}, "
              f"{analysis.policy} play" + (" (stopped at the requested precision)"
                                           if analysis.stopped_by == "precision" else ""))
    if rules.changed():
        out.print(f"Rules: {rules.summary()}")
    if data["trump"]["fixed"]:
        out.print(f"Trump fixed: {suit_label(data['trump']['fixed'])}")
    else:
        shares = sorted(data["trump"]["chosen"].items(), key=lambda kv: -kv[1])
        out.print("Trump chosen after the kitty: " + ", ".join(
            f"{suit_label(s)} {100 * p:.1f}%" for s, p in shares if p > 0))
    e = analysis.estimates
    out.print(f"Points won by your team: [bold]{analysis.mean_points}[/] (of {rules.max_points})")

    dist = Table(title="Points won", box=box.SIMPLE)
    dist.add_column("points", justify="right")
    dist.add_column("probability", justify="right")
    for k, (p, se) in enumerate(zip(e.distribution.value[0], e.distribution.se[0], strict=True)):
        dist.add_row(str(k), estimate_text(p, se, True))
    awards = Table(title="Your team wins", box=box.SIMPLE)
    awards.add_column("point")
    awards.add_column("probability", justify="right")
    for i, name in enumerate(data["awards"]):
        awards.add_row(name.replace("_", " "), estimate_text(e.awards.value[0, i], e.awards.se[0, i], True))
    game = analysis.game
    bids = Table(title="Bids", box=box.SIMPLE)
    for name in ("bid", "P(make)", "EV") + (("P(win game)",) if game is not None else ()):
        bids.add_column(name, justify="right")
    for column, b in enumerate(e.bids):
        cells = [str(b), estimate_text(e.make.value[0, column], e.make.se[0, column], True),
                 estimate_text(e.ev.value[0, column], e.ev.se[0, column])]
        if game is not None:
            cells.append(estimate_text(game.win[0, column], game.win_se[0, column], True))
        bids.add_row(*cells)
    if rules.moon:
        cells = ["moon", estimate_text(e.moon.value[0], e.moon.se[0], True), estimate_text(e.moon_ev.value[0], e.moon_ev.se[0]) + " *"]
        if game is not None:
            cells.append(estimate_text(game.win[0, -1], game.win_se[0, -1], True))
        bids.add_row(*cells)
    from rich.columns import Columns

    out.print(Columns([dist, awards, bids]))
    out.print("EV: your team's hand score minus the opponents' points." +
              (f" * A moon decides the game: a win counts +{rules.target}, a loss -{rules.target}." if rules.moon
               else ""))
    up_to = analysis.bid_up_to
    out.print(f"Recommended bid (highest EV): [bold]{analysis.recommended_bid}[/]. " + (
        f"Worth bidding up to [bold]{up_to}[/] (the highest bid with EV ≥ 0) if the auction demands it."
        if up_to else "No bid has EV ≥ 0: pass if the rules let you."))
    if rules.moon:
        verdict = "pays" if data["moon"]["pays"] else "does not pay"
        out.print(f"Shooting the moon {verdict}: it succeeds {estimate_text(e.moon.value[0], e.moon.se[0], True)}"
                  f" of the time.")
    if game is not None:
        summary = data["game"]
        us, them = analysis.score
        out.print(f"At {score_text(us, them)} (they deal this hand): P(win the game) is highest bidding "
                  f"[bold]{summary['best_bid']}[/]." + (
                      f" The moon would need to succeed {estimate_text(summary['moon_break_even'], summary['moon_break_even_se'], True)}"
                      f" of the time to do as well, so it {'pays' if summary['moon_pays'] else 'does not pay'} here."
                      if rules.moon else ""))


PLACE_WORDS = ("the opener", "second to call", "third to call", "the dealer")


def call_word(call) -> str:
    return "pass" if call == "pass" else "shoot the moon" if call == "moon" else f"bid {call}"


def print_auction(analysis, declarer=None) -> None:
    """Every legal call at the seat's turn, and the advice in one line: what to call and by how much it beats the
    next best call. ``declarer``, the unopposed analysis of the same hand, adds its "bid up to" for comparison."""
    out = console()
    data = analysis.to_json()
    before = ", ".join(str(c) for c in data["auction"]["before"]) or "none: you call first"
    us, them = analysis.score
    acceptance = analysis.acceptance
    out.print(f"[bold]{' '.join(card_name(c) for c in analysis.hand)}[/], {PLACE_WORDS[analysis.position - 1]} "
              f"(place {analysis.position} of 4) at {score_text(us, them)}; calls before you: {before}.")
    out.print(f"{analysis.samples:,} deals of the other cards fit those calls under {analysis.policy} bidding, of "
              f"{analysis.deals:,} tried ({estimate_text(acceptance.value, acceptance.se, True)}); seed "
              f"{analysis.seed}" + (", stopped at the requested precision" if analysis.stopped_by == "precision"
                                    else "") + ".")
    if analysis.stopped_by == "max-deals":
        out.print("[yellow]--max-deals ran out before the requested samples or precision[/]: the figures below rest "
                  "on fewer deals.")
    table = Table(title="Your calls", box=box.SIMPLE)
    for name in ("call", "P(win game)", "EV", "you declare", "P(make)"):
        table.add_column(name, justify="right")
    best = analysis.ranked[0] if analysis.estimates else None
    for call, e in analysis.estimates.items():
        make = e.get("make")
        name = "pass" if call == L.PASS else "moon" if call == L.MOON else str(call)
        cells = [name,
                 estimate_text(e["win"].value, e["win"].se, True), estimate_text(e["ev"].value, e["ev"].se),
                 estimate_text(e["declares"].value, e["declares"].se, True) if call else "",
                 estimate_text(make.value, make.se, True) if make else ""]
        table.add_row(*(f"[bold]{c}[/]" for c in cells) if call == best else cells)
    out.print(table)
    out.print("EV: your team's hand score minus the opponents', whoever bids (a moon counts the game it decides, "
              f"±{analysis.rules.target}). P(win game) follows each deal to the score it leaves (the match-equity "
              "table).")
    advice = data["advice"]
    if advice is None:
        out.print(f"Your only legal call: [bold]{call_word(data['recommended_call'])}[/].")
    else:
        win = estimate_text(advice["win_gain"], advice["win_gain_se"], True)
        ev = estimate_text(advice["ev_gain"], advice["ev_gain_se"])
        out.print(f"[bold]Advice: {call_word(advice['call'])}.[/] It wins {win} more games than "
                  f"{call_word(advice['next_best'])}, the next best call, and {ev} points a hand more (paired on the "
                  "same deals).")
    if declarer is not None:
        up_to = declarer.bid_up_to
        out.print("The declarer's view (you win the auction unopposed, passing worth nothing): " + (
            f"bid up to {up_to}." if up_to else "no bid has EV ≥ 0."))


def print_hand_moon(analysis) -> None:
    out = console()
    e = analysis.estimates
    rules = analysis.rules
    out.print(f"[bold]{' '.join(card_name(c) for c in analysis.hand)}[/]: {analysis.samples:,} deals, "
              f"seed {analysis.seed}.")
    out.print(f"The moon succeeds {estimate_text(e.moon.value[0], e.moon.se[0], True)} of the time "
              f"(needs {'every point' if rules.moon_requires == 'all' else 'every point someone wins'}).")
    out.print(f"In points: moon EV {e.moon_ev[0]} (a won game +{rules.target}, a lost one -{rules.target}) against "
              f"{e.best_numeric_ev[0]} for bidding {rules.min_bid}: the moon "
              f"{'pays' if analysis.moon_pays else 'does not pay'} ({e.moon_gain[0]} points).")
    game = analysis.game
    if game is not None:
        us, them = analysis.score
        best, best_se = game.best_numeric()
        break_even, break_even_se = game.moon_break_even()
        after = game.moon_success_win
        success = "wins the game" if after.value == 1 else f"resets you to 0 (then P(win) {estimate_text(*estimate_pair(after), True)})"
        verdict = "pays" if game.win[0, -1] > best[0] else "does not pay"
        out.print(f"In games at {score_text(us, them)} (they deal): a success {success}, a failure loses. Shooting wins "
                  f"{estimate_text(game.win[0, -1], game.win_se[0, -1], True)} of games, the best numeric bid "
                  f"{estimate_text(best[0], best_se[0], True)}: the moon breaks even at a success rate of "
                  f"{estimate_text(break_even[0], break_even_se[0], True)}, so it {verdict} here.")


def print_count(count) -> None:
    """The hand's count (:mod:`smear_sim.core.count`): its points, best suit, what each card adds, and with a place
    in the auction the count's call; nothing where no count is shipped for the rules."""
    if count is None:
        return
    cards = ", ".join(f"{name} {points}" for name, points in count["by_card"].items())
    line = f"Count: [bold]{count['points']}[/] in {suit_label(count['suit'])} ({cards})"
    if "call" in count and count["call"] is not None:
        line += f"; the count calls {call_word(count['call'])}"
    console().print(line + " (docs/players.md, \"The count\")")
