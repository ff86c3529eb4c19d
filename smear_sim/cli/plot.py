"""The ``plot`` command: charts from saved class counts or a saved hand analysis."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import SmearError
from .app import (
    app,
    clean_errors,
    output_option,
    reject,
)
from .options import (
    DEFAULT_BY,
    DEFAULT_EQUITY_HANDS,
    ByOpt,
    EquityHands,
    MinCount,
    checked_chart_path,
    score_option,
)

# The options each chart reads; any other chart option given is an error.
PLOT_OPTIONS = {"heatmap": ("x", "y", "value", "min_count"), "make": ("x", "min_count"),
                "moon": ("by", "min_count", "score", "equity_hands"), "hand": ()}


@app.command()
@clean_errors
def plot(
    ctx: typer.Context,
    kind: Annotated[str, typer.Argument(help="heatmap (a value over two features), make (P(make) curves), "
                                        "moon (moon rate by class) or hand (a hand's points distribution).")],
    source: Annotated[Path, typer.Argument(help="Class counts from bid-table (.npz) for heatmap/make/moon; a "
                                           "'smear-sim hand --json' file for hand.")],
    out: Annotated[Path | None, output_option("--out", "-o", metavar="FILE", help="Output file (default: KIND.png "
                                              "in the current folder, never the report's results/charts).")] = None,
    fmt: Annotated[str | None, typer.Option("--format", help="png or svg (default: from --out, else png).")]
    = None,
    x: Annotated[str, typer.Option("--x", help="Feature across (heatmap, make).")] = "trumps",
    y: Annotated[str, typer.Option("--y", help="Feature down (heatmap).")] = "top",
    value: Annotated[str, typer.Option("--value", help="Heatmap value: points, bid_up_to, moon, makeB, evB.")]
    = "points",
    by: ByOpt = DEFAULT_BY,
    min_count: MinCount = 200,
    score: Annotated[str | None, score_option("moon: judge by P(win the game) at this score instead of in "
                                               "points, e.g. --score=15,19.")] = None,
    equity_hands: EquityHands = DEFAULT_EQUITY_HANDS,
) -> None:
    """Draw a strategy chart from a bid table's class counts or a hand analysis.

    [bold]Examples[/bold]

      smear-sim plot heatmap results/bid_table.npz --value bid_up_to

      smear-sim plot make results/bid_table.npz --x trumps --format svg

      smear-sim plot moon results/bid_table.npz --score 15,19

      smear-sim hand "AH KH 2H JD 10C 5S 9S 4D 3C" --json > hand.json; smear-sim plot hand hand.json
    """
    kind = kind.lower()
    if kind not in PLOT_OPTIONS:
        raise SmearError(f"unknown chart {kind!r}: choose {', '.join(PLOT_OPTIONS)}")
    unused = [name for name in ("x", "y", "value", "by", "min_count", "score", "equity_hands")
              if name not in PLOT_OPTIONS[kind]]
    takes = [f"--{name.replace('_', '-')}" for name in PLOT_OPTIONS[kind]]
    reject(ctx, unused, f"to a {kind} chart, which takes " + (", ".join(takes) if takes else "no chart options"))
    path = checked_chart_path(out or Path(f"{kind}.png"), fmt, "--out")
    from ..output.charts import heatmap, make_curves, moon_chart, points_distribution, save_figure

    if kind == "hand":
        from ..analysis.saved import check_hand_analysis
        from ..core.io import read_input

        try:
            data = json.loads(read_input(source))
        except FileNotFoundError:
            raise SmearError(f"{source} does not exist: save one with 'smear-sim hand CARDS --json > "
                              f"{source}'") from None
        except (OSError, ValueError) as exc:
            raise SmearError(f"{source} is not a hand analysis JSON file: {exc}") from None
        fig = points_distribution(check_hand_analysis(data, source))
    else:
        from ..analysis.classes import ClassTable, parse_features

        table = ClassTable.load(source)
        if kind == "heatmap":
            fig = heatmap(table, x, y, value, min_count)
        elif kind == "make":
            fig = make_curves(table, x, min_count)
        else:
            at, equity = None, None
            if score is not None:
                from ..analysis.match_equity import match_equity
                from ..analysis.plan import RunPlan
                from ..analysis.scores import check_scores, parse_score

                at = check_scores(parse_score(score), table.rules)
                equity = match_equity(equity_hands, seed=table.seed, floor=min(-40, *at),
                                      plan=RunPlan.of(table.policy, table.rules))
            fig = moon_chart(table, parse_features(by), 20, min_count, at, equity)
    path = save_figure(fig, path, fmt)
    typer.echo(f"Chart: {path}")
