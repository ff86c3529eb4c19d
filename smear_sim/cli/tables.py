"""The table commands: ``bid-table`` (how high to bid, or with --by-position what to call) and ``moon``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import SmearError
from ..core.rules import rule_settings
from ..core.sizes import HAND_SAMPLES
from .app import (
    ChunkSize,
    ClusterOpt,
    Hands,
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
    given,
    output_option,
    print_json,
    progress_for,
    ready_players,
    reject,
    rules_from,
)
from .options import (
    DEFAULT_BY,
    DEFAULT_EQUITY_HANDS,
    ByOpt,
    EquityHands,
    MinCount,
    checked_chart_path,
    moon_allowed,
    same_table,
    score_option,
)


@app.command("bid-table")
@clean_errors
def bid_table_command(
    ctx: typer.Context,
    hands: Hands = 10_000_000,
    seed: Seed = 1,
    by: ByOpt = DEFAULT_BY,
    out: Annotated[Path | None, output_option("--out", metavar="PATH", help="Output path without suffix: writes "
                                              ".csv, .md, .npz (raw counts) and .parquet (default bid_table in the "
                                              "current folder; with --by-position .csv, .md and .npz, default "
                                              "by_position). Never results/ unless you say so: that is the report's, "
                                              "made by 'smear-sim report'.")]
    = None,
    min_count: MinCount = 200,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats.")] = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    show: Annotated[int, typer.Option("--show", min=0, help="Rows to print: the most common groups.")] = 25,
    by_position: Annotated[bool, typer.Option("--by-position", help="What to call instead of how high to bid: for "
                                              "each place in the auction and standing call, each call's P(win) and "
                                              "EV by hand strength, pass included. --hands then counts deals "
                                              "(default 2,000,000).", rich_help_panel="Auction")] = False,
    score: Annotated[str | None, score_option("With --by-position: the score the calls are judged at, your "
                                               "team first (default 0,0).")] = None,
    equity_hands: EquityHands = DEFAULT_EQUITY_HANDS,
    resume: ResumeFlag = False,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    chunk_size: ChunkSize = None,
    json_output: JsonFlag = False,
) -> None:
    """A bid table over many random hands: P(make), EV and the bid to go up to, by hand class; with
    --by-position, what to call at each place in the auction.

    Each hand is classed by what a player sees at a glance in its class suit: the suit with the most trumps,
    the jick and the jokers counted (docs/rules.md, "Hand classes"). Groups with few hands are flagged
    rather than shown as precise. The files' columns are described in docs/formats.md.

    The bid table is the declarer's view: the hand wins the auction unopposed, so passing is worth nothing.
    --by-position plays every deal's auction by the policy and, at each seat's turn, every legal call: the later
    seats call by the policy, the winner declares, the hand is played. Each call is valued by P(win the game) at
    --score, for each place (opener, second, third, dealer), standing call (none, or a number by your partner or
    an opponent) and hand strength (the declarer's expected points of the hand's class).

    [bold]Examples[/bold]

      smear-sim bid-table

      smear-sim bid-table --hands 2000000 --by trumps,top --out results/by_top --rule round_points=true

      smear-sim bid-table --hands 100000000 --scheduler tcp://10.0.0.5:8786 --resume

      smear-sim bid-table --by-position --hands 4000000 --score 15,19
    """
    from ..core.io import check_output_file
    from ..core.players import parse_policies

    active = rules_from(rules_file, rule)
    if json_output:
        reject(ctx, ["show"], "with --json: the JSON holds every row")
    if by_position:
        reject(ctx, ["by"], "with --by-position: its rows are hand strengths, not class features")
        from ..output.report import POSITION_TABLE_SUFFIXES as suffixes

        out = out or Path("by_position")
        hands = hands if given(ctx, ["hands"]) else 2_000_000
    else:
        reject(ctx, ["score", "equity_hands"], "without --by-position: the bid table is in points")
        from ..analysis.classes import parse_features
        from ..output.report import BID_TABLE_SUFFIXES as suffixes

        features = parse_features(by)
        out = out or Path("bid_table")
    at = (0, 0)
    if score is not None:
        from ..analysis.scores import check_scores, parse_score

        at = check_scores(parse_score(score), active)
    if out.is_dir():
        raise SmearError(f"--out {out} is a folder; give a path without suffix in it, e.g. {out / 'bid_table'}")
    for suffix in suffixes:
        check_output_file(out.with_suffix(suffix), "--out")
    ready_players(policy, active)
    arguments = {"--hands": hands, "--seed": seed, "--policy": parse_policies(policy)[0], "--rule": active.as_dict(),
                 "--by-position": by_position}
    from ..analysis.plan import RunPlan

    with checkpoint_beside(out, arguments, resume) as checkpoint, \
            executor_for(threads, cluster, scheduler) as executor:
        plan = RunPlan.of(policy, active, executor=executor, chunk_size=chunk_size, checkpoint=checkpoint)
        if by_position:
            from ..analysis.report import build_position_table
            from ..output.report import write_position_table

            table, equity = build_position_table(
                deals=hands, seed=seed, plan=plan, score=at, equity_hands=equity_hands,
                progress=lambda total, description: progress_for(total, description, hands >= 200_000))
            frame = table.frame(equity, min_count, at)
            written = write_position_table(table, frame, out)
        else:
            from ..analysis.classes import class_table
            from ..output.report import write_bid_table

            with progress_for(hands, "dealing and playing", hands >= 2_000_000) as progress:
                table = class_table(hands, seed=seed, plan=plan.replace(progress=progress))
            frame = table.frame(features, min_count)
            written = write_bid_table(table, frame, out)
    if json_output:
        from ..output.report import table_json

        print_json({"files": [str(p) for p in written]} | table_json(frame))
    else:
        from ..output.terminal import print_bid_table, print_position_table

        if by_position:
            print_position_table(frame)
        else:
            print_bid_table(frame, table, show)
        typer.echo("Wrote " + ", ".join(str(p) for p in written))


@app.command()
@clean_errors
def moon(
    ctx: typer.Context,
    cards: Annotated[str | None, typer.Argument(metavar="[CARDS]", help="A 9-card hand to judge; without "
                                                   "it, moon rates by hand class.")] = None,
    hands: Annotated[int | None, typer.Option("--hands", "-n", min=1, help="Random hands for the class "
                                                 "table (default 1,000,000), or deals for one hand (default "
                                                 "100,000).")] = None,
    counts: Annotated[Path | None, typer.Option("--counts", metavar="FILE.npz", help="Use the class counts "
                                                   "a bid-table run saved instead of simulating.")] = None,
    by: ByOpt = DEFAULT_BY,
    min_count: MinCount = 200,
    show: Annotated[int, typer.Option("--show", min=1, help="Classes to print.")] = 20,
    score: Annotated[str | None, score_option("Judge the moon by P(win the game) at this score, your team "
                                               "first (a hand is judged at 0,0 by default), e.g. "
                                               "--score=15,19.")] = None,
    equity_hands: EquityHands = DEFAULT_EQUITY_HANDS,
    plot: Annotated[Path | None, output_option("--plot", metavar="FILE.png", help="Also save a chart: for a "
                                               "hand, its break-even success rate at every score; for classes, "
                                               "the best classes against break-even.")] = None,
    seed: Seed = 1,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats.")] = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    json_output: JsonFlag = False,
) -> None:
    """When shooting the moon pays: success rates against the rate at which the moon breaks even.

    In points a won game counts +target and a lost one -target. In the game view (a hand, or --score) the
    moon is valued by the chance of winning the game: a success from 0 or more wins, from a negative score
    it resets the score to 0, and a failure loses; the moon pays when that beats the best numeric bid.

    [bold]Examples[/bold]

      smear-sim moon

      smear-sim moon "AH KH QH 2H 10H 6S 9S 4D 3C" --score 15,19

      smear-sim moon "AH KH QH 2H 10H 6S 9S 4D 3C" --plot moon_by_score.png

      smear-sim moon --counts results/bid_table.npz --by trumps,top --score=-5,19
    """
    from ..analysis.classes import ClassTable, class_table, moon_table, parse_features
    from ..analysis.hand import evaluate_hand
    from ..analysis.match_equity import match_equity
    from ..analysis.plan import RunPlan
    from ..analysis.scores import check_scores, parse_score

    if plot is not None:
        plot = checked_chart_path(plot, None, "--plot")
    if cards is not None:
        reject(ctx, ["counts", "by", "min_count", "show"], "with CARDS: it is for the table of hand classes, and "
               "CARDS asks about one hand")
        active = rules_from(rules_file, rule)
        ready_players(policy, active)
        moon_allowed(active)
        at = check_scores(parse_score(score), active) if score is not None else (0, 0)
        with executor_for(threads, cluster, scheduler) as executor:
            analysis = evaluate_hand(cards, samples=hands or HAND_SAMPLES, seed=seed, score=at,
                                     equity_hands=equity_hands, plan=RunPlan.of(policy, active, executor=executor))
        if plot is not None:
            from ..output.charts import moon_break_even_chart, save_figure

            plot = save_figure(moon_break_even_chart(analysis), plot)
        if json_output:
            data = analysis.to_json()
            print_json({"hand": data["hand"], "samples": data["samples"], "seed": seed, **data["moon"],
                        "best_bid": data["bids"][0], "game": data["game"]})
        else:
            from ..output.terminal import print_hand_moon

            print_hand_moon(analysis)
            if plot is not None:
                typer.echo(f"Chart: {plot}")
        return
    if score is None:
        reject(ctx, ["equity_hands"], "without --score: the moon table is in points unless a score is given")
    features = parse_features(by)
    if json_output:
        reject(ctx, ["show"], "with --json: the JSON holds every class")
    if counts is not None:
        reject(ctx, ["hands", "seed", "threads", "cluster", "scheduler"],
               f"with --counts: the hands in {counts} are simulated already")
        table = ClassTable.load(counts)
        same_table(table, counts, rule_settings(rules_file, rule or ()), policy if given(ctx, ["policy"]) else None)
        moon_allowed(table.rules, counts)
    else:
        active = rules_from(rules_file, rule)
        ready_players(policy, active)
        moon_allowed(active)
        hands = hands or 1_000_000
        with executor_for(threads, cluster, scheduler) as executor, \
                progress_for(hands, "dealing and playing", hands >= 2_000_000) as progress:
            table = class_table(hands, seed=seed, plan=RunPlan.of(policy, active, progress=progress,
                                                                  executor=executor))
    at, equity = None, None
    if score is not None:
        at = check_scores(parse_score(score), table.rules)
        with executor_for(threads, cluster, scheduler) as executor:
            equity = match_equity(equity_hands, seed=table.seed, floor=min(-40, *at),
                                  plan=RunPlan.of(table.policy, table.rules, executor=executor))
    frame = moon_table(table, features, min_count, at, equity)
    if plot is not None:
        from ..output.charts import moon_chart, save_figure

        plot = save_figure(moon_chart(table, features, 20, min_count, at, equity), plot)
    if json_output:
        from ..output.report import table_json

        print_json(table_json(frame))
    else:
        from ..output.terminal import print_moon_table

        print_moon_table(frame, table, show)
        if plot is not None:
            typer.echo(f"Chart: {plot}")
