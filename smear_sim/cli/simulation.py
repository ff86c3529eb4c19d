"""Commands that simulate play: ``simulate``, ``match`` and ``bench``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .app import (
    ChunkSize,
    ClusterOpt,
    Hands,
    JsonFlag,
    PolicyOpt,
    RuleOverrides,
    RulesFile,
    SchedulerOpt,
    Seed,
    Threads,
    app,
    clean_errors,
    executor_for,
    output_option,
    print_json,
    progress_for,
    reject,
    rules_from,
)


@app.command()
@clean_errors
def simulate(
    ctx: typer.Context,
    hands: Hands = 1_000_000,
    seed: Seed = 1,
    threads: Threads = None,
    policy: PolicyOpt = "heuristic",
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    trace: Annotated[
        Path | None, output_option("--trace", metavar="FILE.jsonl", help="Write full hand records of the "
                                   "first hands, one JSON object per line (docs/formats.md).")
    ] = None,
    trace_hands: Annotated[int, typer.Option("--trace-hands", min=0, help="How many hands --trace writes.")] = 1000,
    chunk_size: ChunkSize = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    json_output: JsonFlag = False,
) -> None:
    """Simulate complete hands and summarise bids, make rates, points and moons.

    Each hand is dealt, bid, played and scored under the active rules, from scores 0-0 with the dealer
    rotating. Memory stays flat however many hands you ask for.

    [bold]Examples[/bold]

      smear-sim simulate --hands 1000000

      smear-sim simulate --policy heuristic,random --rule round_points=true --json

      smear-sim simulate --hands 10000 --trace hands.jsonl --trace-hands 100

      smear-sim simulate --hands 100000000 --scheduler tcp://10.0.0.5:8786
    """
    from ..analysis.simulate import iter_trace_records
    from ..analysis.simulate import simulate as run_simulation
    from ..core.io import check_output_file
    from ..output.files import write_trace

    active = rules_from(rules_file, rule)
    if trace is None:
        reject(ctx, ["trace_hands"], "without --trace: it says how many hands the trace file holds")
    else:
        check_output_file(trace, "--trace")
    with executor_for(threads, cluster, scheduler) as executor, \
            progress_for(hands, "simulating", hands > 1 << 19) as progress:
        result = run_simulation(hands, seed=seed, rules=active, policies=policy, chunk_size=chunk_size,
                                progress=progress, executor=executor)
    if trace is not None:
        write_trace(trace, iter_trace_records(min(trace_hands, hands), seed=seed, rules=active, policies=policy))
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_simulation

        print_simulation(result)
        if trace is not None:
            typer.echo(f"Wrote {min(trace_hands, hands):,} hand records to {trace}")


@app.command()
@clean_errors
def match(
    policy_a: Annotated[str, typer.Argument(help="First policy.")] = "heuristic",
    policy_b: Annotated[str, typer.Argument(help="Second policy.")] = "random",
    deals: Annotated[int, typer.Option("--deals", min=1, help="Deals; each is played twice.")] = 200_000,
    seed: Seed = 1,
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    json_output: JsonFlag = False,
) -> None:
    """Duplicate match: how many points per hand one policy gains over another.

    Every deal is played twice with the teams swapped, so the luck of the cards cancels and only the
    players' skill remains.

    [bold]Example[/bold]

      smear-sim match heuristic random --deals 500000
    """
    from ..analysis.match import duplicate_match

    active = rules_from(rules_file, rule)
    with executor_for(threads, cluster, scheduler) as executor, \
            progress_for(deals, "playing deals twice", deals >= 500_000) as progress:
        result = duplicate_match(policy_a, policy_b, deals=deals, seed=seed, rules=active, progress=progress,
                                 executor=executor)
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_match

        print_match(result)


@app.command()
@clean_errors
def bench(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1000, help="Hands per timed run.")] = 1_000_000,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Timed runs per figure (median).")] = 5,
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    json_output: JsonFlag = False,
) -> None:
    """Measure dealing and full-hand throughput on this machine (median of repeated runs).

    [bold]Examples[/bold]

      smear-sim bench --json

      smear-sim bench --rule round_points=true
    """
    from ..engine.bench import run_bench

    active = rules_from(rules_file, rule)
    figures = run_bench(hands=hands, deal_hands=4 * hands, repeats=repeats, rules=active, threads=threads)
    if json_output:
        print_json(figures)
    else:
        from ..output.terminal import print_bench

        print_bench(figures)
