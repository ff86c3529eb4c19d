"""The hint for people: every legal action of the decision, best first, with its cost against the best."""

from __future__ import annotations

from rich import box
from rich.table import Table

from .console import console

__all__ = ["print_hint", "print_hint_comparison", "print_net_hint"]

_WHAT = {"call": "call", "trump": "trump (with the six cards it keeps)", "keep": "cards to keep", "card": "card"}


def _action(value) -> str:
    if isinstance(value.action, list):
        text = " ".join(value.action)
    elif value.keep:
        text = f"{value.action}  keep {' '.join(value.keep)}"
    else:
        text = str(value.action)
    return text if value.samples is None else f"{text} *"


def print_hint(result) -> None:
    out = console()
    playout = "double dummy" if result.playout == "double-dummy" else f"by {result.playout}"
    inference = "fitting the calls under the policy" if result.inference == "policy" else "ignoring the calls"
    worlds = (f"{result.samples:,} deals fitting the calls before yours, the later calls and the play by "
              f"{result.playout}" if result.decision == "call" else
              f"{result.samples:,} worlds {inference}, played out {playout}")
    out.print(f"Seat {result.seat}: the {_WHAT[result.decision]} most likely to win the game is "
              f"[bold]{_action(result.actions[0])}[/]. {worlds}; seed {result.seed}.")
    table = Table(box=box.SIMPLE)
    has_make = any(a.make is not None for a in result.actions)
    for name, justify in [("action", "left"), ("P(win)", "right"), ("points", "right"),
                          *([("P(make)", "right")] if has_make else []), ("cost P(win)", "right"),
                          ("cost points", "right")]:
        table.add_column(name, justify=justify)
    for value, (points, win) in zip(result.actions, result.costs, strict=True):
        first = value is result.actions[0]
        row = [_action(value), value.win.concise(), value.points.concise()]
        if has_make:
            row.append(value.make.concise() if value.make is not None else "")
        row += ["best" if first else win.concise(), "" if first else points.concise()]
        table.add_row(*row)
    out.print(table)
    raced = [a.samples for a in result.actions if a.samples is not None]
    if raced:
        span = f"{min(raced):,}" if min(raced) == max(raced) else f"{min(raced):,} to {max(raced):,}"
        out.print(f"* clearly worse than the best after {span} worlds, so valued on those only.")
    if result.fallback:
        out.print(f"{result.fallback:,} of the worlds did not fit the calls: no deal the policy would have called "
                  "that way was found for them, so the calls were left out there.")


def _net_action(value) -> str:
    if isinstance(value.action, list):
        return " ".join(value.action)
    return f"{value.action}  keep {' '.join(value.keep)}" if value.keep else str(value.action)


def _valued_by(valued_by: str, digest: str) -> str:
    if valued_by == "net":
        return f"Valued by the net {digest[:12]} alone, in P(win the game)"
    return ("The net values no calls: valued by the equity tables' P(win the game), as the net player calls "
            "(it calls as equity)")


def print_net_hint(result) -> None:
    """``hint --evaluator net``: the net's P(win) of every legal action, best first."""
    out = console()
    out.print(f"Seat {result.seat}: the {_WHAT[result.decision]} most likely to win the game is "
              f"[bold]{_net_action(result.actions[0])}[/]. {_valued_by(result.valued_by, result.net)}; "
              f"{result.seconds * 1000:.1f} ms.")
    table = Table(box=box.SIMPLE)
    for name, justify in [("action", "left"), ("P(win)", "right"), ("cost P(win)", "right")]:
        table.add_column(name, justify=justify)
    best = result.actions[0].win
    for value in result.actions:
        first = value is result.actions[0]
        if value.win is None:  # the pass left after a moon
            table.add_row(_net_action(value), "", "only call")
            continue
        table.add_row(_net_action(value), f"{value.win:.3f}", "best" if first else f"{best - value.win:.3f}")
    out.print(table)


def print_hint_comparison(both) -> None:
    """``hint --evaluator both``: the search's table with the net's P(win) beside it, disagreements marked."""
    result, net = both.search, both.net
    print_hint(result)
    out = console()
    table = Table(box=box.SIMPLE, title="the search beside the net")
    for name, justify in [("action", "left"), ("search P(win)", "right"), ("net P(win)", "right"), ("", "left")]:
        table.add_column(name, justify=justify)
    for value, net_win, mark in zip(result.actions, both.net_win, both.marked, strict=True):
        table.add_row(_action(value), value.win.concise(), "" if net_win is None else f"{net_win:.3f}", "[bold red]disagree[/]" if mark else "")
    out.print(table)
    marked = sum(both.marked)
    verdict = "The net agrees with the search" if not marked else f"The net disagrees on {marked} of the actions"
    out.print(f"{verdict}; its best is [bold]{_net_action(net.actions[0])}[/]. {_valued_by(net.valued_by, net.net)}. "
              "'disagree': the net's value is outside twice the search's standard error, or the action is the best "
              "of one and not of the other.")
