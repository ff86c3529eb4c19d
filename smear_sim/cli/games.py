"""Commands on whole games: ``equity``, the match-equity table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import (
    ChunkSize,
    ClusterOpt,
    JsonFlag,
    ResumeFlag,
    RuleOverrides,
    RulesFile,
    SchedulerOpt,
    Seed,
    Threads,
    app,
    checkpoint_beside,
    clean_errors,
    executor_for,
    output_option,
    print_json,
    progress_for,
    ready_players,
    rules_from,
)


@app.command()
@clean_errors
def equity(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1, help="Hands simulated for the hand-outcome "
                                       "distribution behind the table.")] = 200_000,
    floor: Annotated[int, typer.Option("--floor", help="Lowest score shown (the solve goes lower, until "
                                       "falling below it is negligible).")] = -40,
    seed: Seed = 1,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats: heuristic, random "
                                        "or equity.")]
    = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    out: Annotated[Path | None, output_option("--out", metavar="PATH", help="Also write PATH.csv (every state) and "
                                              "PATH.md (grids for people).")] = None,
    plot: Annotated[Path | None, output_option("--plot", metavar="FILE.png", help="Also save the heatmap chart "
                                               "(PNG or SVG).")] = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    chunk_size: ChunkSize = None,
    resume: ResumeFlag = False,
    json_output: JsonFlag = False,
) -> None:
    """The match-equity table: the chance of winning the game from every score, for each team dealing.

    It is solved exactly from the distribution of one hand's outcome (simulated), over every state from
    --floor to the target; each value comes with its standard error, and the error from cutting the
    scores off below the floor is bounded and reported.

    [bold]Examples[/bold]

      smear-sim equity

      smear-sim equity --rule target=11 --out results/equity_11 --plot equity_11.png

      smear-sim equity --json > equity.json

      smear-sim equity --hands 100000000 --cluster local --out results/equity_big --resume
    """
    from ..analysis.match_equity import match_equity
    from ..core.io import check_output_file
    from ..core.players import parse_policies

    active = rules_from(rules_file, rule)
    ready_players(policy, active)
    if out is not None:  # checked before the work, so a bad path costs nothing
        for suffix in (".csv", ".md"):
            check_output_file(out.with_suffix(suffix), "--out")
    if plot is not None:
        from ..output.charts import chart_path

        plot = chart_path(plot)[0]
        check_output_file(plot, "--plot")
    arguments = {"--hands": hands, "--seed": seed, "--policy": parse_policies(policy)[0], "--rule": active.as_dict()}
    with checkpoint_beside(out, arguments, resume) as checkpoint:
        with executor_for(threads, cluster, scheduler) as executor, \
                progress_for(hands, "playing hands", hands >= 2_000_000) as progress:
            from ..analysis.plan import RunPlan

            plan = RunPlan.of(policy, active, executor=executor, checkpoint=checkpoint, chunk_size=chunk_size,
                              progress=progress)
            table = match_equity(hands, seed=seed, floor=floor, plan=plan)
        written = []
        if out is not None:
            from ..output.report import write_equity_table

            written += write_equity_table(table, out)
        if plot is not None:
            from ..output.charts import equity_heatmap, save_figure

            written.append(save_figure(equity_heatmap(table), plot))
    if json_output:
        print_json(table.to_json())
    else:
        from ..output.terminal import print_equity

        print_equity(table)
        if written:
            typer.echo("Wrote " + ", ".join(str(p) for p in written))
