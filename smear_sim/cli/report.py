"""The ``report`` command: every table, chart and example of ``results/`` in one folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..analysis.classes import DEFAULT_FEATURES
from .app import (
    ClusterOpt,
    RuleOverrides,
    RulesFile,
    SchedulerOpt,
    Seed,
    Threads,
    app,
    clean_errors,
    executor_for,
    output_option,
    progress_for,
    ready_players,
    rules_from,
)
from .options import (
    DEFAULT_BY,
    DEFAULT_EQUITY_HANDS,
    ByOpt,
    EquityHands,
    MinCount,
)


@app.command()
@clean_errors
def report(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="Random hands to simulate.")] = 10_000_000,
    seed: Seed = 1,
    out: Annotated[Path, output_option("--out", metavar="FOLDER", help="Folder for the results. It is replaced "
                                       "whole when the report is done; files in it that an earlier report did not "
                                       "write are kept.")] = Path("results"),
    by: ByOpt = DEFAULT_BY,
    min_count: MinCount = 200,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats.")] = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    equity_hands: EquityHands = DEFAULT_EQUITY_HANDS,
    position_deals: Annotated[int | None, typer.Option("--position-deals", min=1, help="Deals behind the table of "
                                                       "what to call by place in the auction (see 'bid-table "
                                                       "--by-position'; default: a fifth of --hands).")] = None,
) -> None:
    """The main job: what to call by place in the auction, bid table, moon table, match equity, strategy charts
    and example hands, in one folder.

    The folder also gets index.html, all of it on one page that needs no network, and a README naming the
    command. docs/formats.md describes the files.

    A report under other rules may live in a subfolder of another (results/round-points): it then says what
    changes from the rules of the report above it, and that report, made again, keeps it and links to it.

    [bold]Examples[/bold]

      smear-sim report

      smear-sim report --hands 10000000 --out results

      smear-sim report --rule round_points=true --out results/round-points
    """
    from ..analysis.classes import parse_features
    from ..analysis.plan import RunPlan
    from ..analysis.report import build_report
    from ..core.io import check_output_folder
    from ..core.rules import format_value
    from ..output.report import write_report_folder
    from ..output.terminal import print_bid_table

    active = rules_from(rules_file, rule)
    ready_players(policy, active)
    features = parse_features(by)
    check_output_folder(out, "--out")
    command = "smear-sim report"
    if hands != 10_000_000:
        command += f" --hands {hands}"
    if equity_hands != DEFAULT_EQUITY_HANDS:
        command += f" --equity-hands {equity_hands}"
    if position_deals is not None:
        command += f" --position-deals {position_deals}"
    if seed != 1:
        command += f" --seed {seed}"
    if out != Path("results"):
        command += f" --out {out}"
    if features != DEFAULT_FEATURES:
        command += f" --by {','.join(features)}"
    if min_count != 200:
        command += f" --min-count {min_count}"
    if policy != "heuristic":
        command += f" --policy {policy}"
    command += "".join(f" --rule {k}={format_value(v)}" for k, v in active.changed().items())
    with executor_for(threads, cluster, scheduler) as executor:
        plan = RunPlan.of(policy, active, executor=executor)  # who plays, under which rules, and where
        report = build_report(hands=hands, seed=seed, plan=plan, equity_hands=equity_hands,
                              position_deals=position_deals,
                              progress=lambda total, description: progress_for(total, description, True))
    written = write_report_folder(out, report, command=command, by=features, min_count=min_count)
    table = report.table
    print_bid_table(table.frame(features, min_count), table, 15)
    typer.echo(f"Wrote {len(written)} files to {out}/ (see {out}/README.md; open {out}/index.html in a browser)")
