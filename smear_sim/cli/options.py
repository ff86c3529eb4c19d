"""Options and checks shared by the commands that analyse hands (hand, bid-table, moon, plot, report)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..analysis.classes import DEFAULT_FEATURES, FEATURES
from ..core.errors import SmearError

__all__ = [
    "DEFAULT_BY",
    "DEFAULT_EQUITY_HANDS",
    "ByOpt",
    "EquityHands",
    "HandArg",
    "MinCount",
    "checked_chart_path",
    "moon_allowed",
    "same_table",
    "score_option",
]


HandArg = Annotated[str, typer.Argument(metavar="CARDS", help='Nine cards separated by spaces or commas, '
                                         'e.g. "AH KH 2H JD 10C 5S 9S 4D 3C".')]


ByOpt = Annotated[str, typer.Option("--by", metavar="FEATURES", help="Comma-separated hand features to group by, "
                                    f"from {', '.join(FEATURES)}; all are read in the hand's class suit, the suit "
                                    "with the most trumps (docs/rules.md, \"Hand classes\").")]


DEFAULT_BY = ",".join(DEFAULT_FEATURES)


MinCount = Annotated[int, typer.Option("--min-count", min=1, help="Groups with fewer hands are flagged as "
                                       "imprecise and given no bid.")]


EquityHands = Annotated[int, typer.Option("--equity-hands", min=1, help="Hands behind the match-equity table "
                                          "that values each outcome in games won (see 'smear-sim equity').",
                                          rich_help_panel="Game")]


DEFAULT_EQUITY_HANDS = 200_000  # analysis.hand_outcomes.DEFAULT_HANDS, without importing it here


def score_option(help: str):
    return typer.Option("--score", metavar="US,THEM", help=help, rich_help_panel="Game")


def checked_chart_path(path: Path, fmt: str | None, option: str) -> Path:
    """The file a chart will be saved to, checked before any work starts."""
    from ..core.io import check_output_file
    from ..output.charts import chart_path

    path, _ = chart_path(path, fmt)
    check_output_file(path, option)
    return path


def moon_allowed(rules, counts: Path | None = None) -> None:
    if rules.moon:
        return
    if counts is not None:
        raise SmearError(f"{counts} was made with moon bids off (moon=false): it has no moon rates")
    raise SmearError("moon bids are off under these rules (moon=false); drop --rule moon=false")


def same_table(table, path: Path, settings: dict, policy: str | None) -> None:
    """A saved table answers only for the rules and policy it was made under: any other is an error."""
    from ..core.players import parse_policies
    from ..core.rules import format_value

    for key, value in settings.items():
        made = getattr(table.rules, key)
        if made != value:
            raise SmearError(f"{path} was made under {key}={format_value(made)}, not {key}={format_value(value)}: "
                             "drop that rule option, or make a table under these rules with 'smear-sim bid-table'")
    if policy is not None and parse_policies(policy) != (table.policy, table.policy):
        raise SmearError(f"{path} was made with --policy {table.policy}, not {policy}: drop --policy, or make a "
                         "table with this policy with 'smear-sim bid-table'")
