"""The hint for people: every legal action of the decision, best first, with its cost against the best."""

from __future__ import annotations

from rich import box
from rich.table import Table

from .console import console

__all__ = ["print_hint"]

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
