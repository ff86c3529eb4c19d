"""Rich tables for people: the human face of each command's result."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from .cards import SUIT_NAMES, card_name
from .record import HandRecord
from .reference import HandResult, team_of
from .rules import OPTION_HELP, Rules

_SUIT_WORDS = {"S": "spades ♠", "H": "hearts ♥", "D": "diamonds ♦", "C": "clubs ♣"}


def console() -> Console:
    return Console(highlight=False)


def _team(team: int | None) -> str:
    return "nobody" if team is None else f"team {team}"


def _plain(value: bool | int | str) -> str:
    """A rule value as it is written in TOML and on the command line."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def print_rules(rules: Rules) -> None:
    table = Table(title="Active rule options", box=box.SIMPLE_HEAVY)
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("default", style="dim")
    table.add_column("meaning")
    default = Rules().as_dict()
    for name, value in rules.as_dict().items():
        shown = _plain(value)
        if value != default[name]:
            shown = f"[yellow]{shown}[/]"
        table.add_row(name, shown, _plain(default[name]), OPTION_HELP[name])
    out = console()
    out.print(table)
    out.print(f"Points at stake per hand: {rules.max_points}. Change options with --rule KEY=VALUE or --rules FILE.toml.")


def print_score(record: HandRecord, result: HandResult) -> None:
    out = console()
    changed = record.rules.changed()
    if changed:
        out.print("Rules: " + ", ".join(f"{k}={_plain(v)}" for k, v in changed.items()))
    out.print(f"Dealer: seat {record.dealer}.  Auction: " + ", ".join(str(b) for b in record.bids))
    if result.bidder is None:
        out.print("All four passed: the hand is thrown in. Scores stay "
                  f"{result.scores_after[0]}–{result.scores_after[1]}.")
        return
    out.print(
        f"Bidder: seat {result.bidder} (team {result.bidding_team}) bid {result.bid}; "
        f"trump {_SUIT_WORDS[SUIT_NAMES[result.trump]]}."
    )
    tricks = Table(title="Tricks", box=box.SIMPLE)
    tricks.add_column("#", justify="right")
    tricks.add_column("leader", justify="right")
    tricks.add_column("cards (in play order)")
    tricks.add_column("won by")
    for number, trick in enumerate(result.tricks, 1):
        cards = "  ".join(
            f"[bold]{card_name(c)}[/]" if trick.seat_of(i) == trick.winner else card_name(c)
            for i, c in enumerate(trick.cards)
        )
        tricks.add_row(str(number), f"seat {trick.leader}", cards,
                       f"seat {trick.winner} (team {team_of(trick.winner)})")
    out.print(tricks)

    awards = Table(title="Points", box=box.SIMPLE)
    awards.add_column("point")
    awards.add_column("won by")
    for point, team in result.awards.items():
        awards.add_row(point.replace("_", " "), _team(team))
    awards.add_row("card points", f"team 0 {result.card_points[0]} – team 1 {result.card_points[1]}")
    out.print(awards)

    if result.moon is not None:
        verdict = "succeeded" if result.moon else "failed"
        out.print(f"Moon {verdict}.")
    else:
        verdict = "made" if result.made else "was set on"
        out.print(f"Team {result.bidding_team} {verdict} its bid of {result.bid} "
                  f"with {result.points[result.bidding_team]} points.")
    before, after = result.scores_before, result.scores_after
    out.print(
        f"Points won: team 0 {result.points[0]}, team 1 {result.points[1]}.  "
        f"Score: {before[0]}–{before[1]} → {after[0]}–{after[1]} "
        f"(change {result.score_delta[0]:+d}, {result.score_delta[1]:+d})."
    )
    if result.winner is not None:
        out.print(f"[bold]Team {result.winner} wins the game.[/]")


__all__ = ["console", "print_rules", "print_score"]
