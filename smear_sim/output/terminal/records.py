"""Renderers for the rules and for hand and game records: their scores and their double-dummy solve."""

from __future__ import annotations

from collections.abc import Iterable

from rich import box
from rich.table import Table

from ...core.cards import SUIT_NAMES, card_name
from ...core.rules import OPTION_HELP, Preset, Rules, format_value
from ...reference.hand import HandResult, team_of
from ...reference.record import HandRecord
from ..format import (
    RULES_DOC,
    score_text,
    suit_label,
)
from .console import console, team_name


def print_rules(rules: Rules) -> None:
    table = Table(title="Active rule options", box=box.SIMPLE_HEAVY)
    table.add_column("option", style="bold")
    table.add_column("value")
    table.add_column("default", style="dim")
    table.add_column("meaning")
    default = Rules().as_dict()
    for name, value in rules.as_dict().items():
        shown = format_value(value)
        if value != default[name]:
            shown = f"[yellow]{shown}[/]"
        table.add_row(name, shown, format_value(default[name]), OPTION_HELP[name])
    out = console()
    out.print(table)
    out.print(f"Points at stake per hand: {rules.max_points}. Change options with --rule KEY=VALUE or --rules "
              f"NAME|FILE.toml (a preset: smear-sim rules --list); {RULES_DOC} states every rule.")


def print_presets(presets: Iterable[Preset]) -> None:
    table = Table(title="Rule presets (--rules NAME)", box=box.SIMPLE_HEAVY)
    table.add_column("preset", style="bold")
    table.add_column("options set")
    table.add_column("what it is")
    for preset in presets:
        table.add_row(preset.name, preset.rules.summary(none="none: the defaults"), preset.about)
    out = console()
    out.print(table)
    out.print(f"Show one with smear-sim rules NAME (--toml to start a house-rules file from it); {RULES_DOC} states "
              "each preset.")


def print_score(record: HandRecord, result: HandResult) -> None:
    out = console()
    if record.rules.changed():
        out.print(f"Rules: {record.rules.summary()}")
    out.print(f"Dealer: seat {record.dealer}.  Auction: " + ", ".join(str(b) for b in record.bids))
    if result.bidder is None:
        out.print("All four passed: the hand is thrown in. Scores stay "
                  f"{score_text(*result.scores_after)}.")
        return
    out.print(
        f"Bidder: seat {result.bidder} (team {result.bidding_team}) bid {result.bid}; "
        f"trump {suit_label(result.trump)}."
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
        awards.add_row(point.replace("_", " "), team_name(team))
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
        f"Score: {score_text(*before)} → {score_text(*after)} "
        f"(change {result.score_delta[0]:+d}, {result.score_delta[1]:+d})."
    )
    if result.winner is not None:
        out.print(f"[bold]Team {result.winner} wins the game.[/]")


def print_game_score(record, result) -> None:
    """A game record: one row per deal, then the scores and the winner."""
    out = console()
    if record.rules.changed():
        out.print(f"Rules: {record.rules.summary()}")
    start = result.start
    out.print(f"Game from {score_text(*start.scores)}, seat {start.dealer} dealing first; target "
              f"{record.rules.target}.")
    table = Table(title="Deals", box=box.SIMPLE, padding=(0, 1, 0, 0), caption="auction: the calls from the "
                  "opener on (p = pass); bidder: seat (bid); points, change and score: team 0–team 1")
    for name in ("#", "dealer", "auction", "bidder", "trump", "points", "result", "change", "score"):
        table.add_column(name, justify="left" if name in ("auction", "result") else "right", no_wrap=True)
    for number, (deal, hand) in enumerate(zip(record.deals, result.deals, strict=True), 1):
        calls = " ".join("p" if b == "pass" else str(b) for b in deal.bids)
        score = f"{score_text(*hand.scores_after)}"
        if hand.bidder is None:
            table.add_row(str(number), str(deal.dealer), calls, "", "", "", "thrown in", "+0 +0", score)
            continue
        if hand.moon is not None:
            verdict = "moon made" if hand.moon else "moon failed"
        else:
            verdict = "made" if hand.made else "set"
        table.add_row(str(number), str(deal.dealer), calls, f"{hand.bidder} ({hand.bid})", SUIT_NAMES[hand.trump],
                      f"{hand.points[0]}–{hand.points[1]}", verdict,
                      f"{hand.score_delta[0]:+d} {hand.score_delta[1]:+d}", score)
    out.print(table)
    after = result.scores_after
    if result.winner is None:
        out.print(f"Game in progress after {result.hands_played} hands: {score_text(*after)}.")
    else:
        out.print(f"[bold]Team {result.winner} wins the game[/] after {result.hands_played} hands, "
                  f"{score_text(*after)}.")


def print_solve(result) -> None:
    out = console()
    if result.to_play is None:
        out.print(f"All 24 cards are played: the hand is worth [bold]{result.value:+d}[/] to the bidding team.")
        return
    out.print(f"Seat {result.to_play} to play. With every hand visible and perfect play, the position is worth "
              f"[bold]{result.value:+d}[/] to the bidding team (its score change minus the other team's).")
    table = Table(box=box.SIMPLE)
    table.add_column("card")
    table.add_column("value", justify="right")
    for c, value in sorted(result.cards, key=lambda cv: -cv[1]):
        table.add_row(card_name(c), f"{value:+d}")
    out.print(table)
