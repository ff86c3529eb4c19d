"""Commands that simulate play: ``simulate``, ``match``, ``tournament`` and ``bench``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import SmearError
from .app import (
    ChunkSize,
    ClusterOpt,
    Hands,
    JsonFlag,
    PolicyOpt,
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


@app.command()
@clean_errors
def simulate(
    ctx: typer.Context,
    hands: Hands = 1_000_000,
    games: Annotated[int | None, typer.Option("--games", min=1, help="Play this many complete games instead "
                                                 "of independent hands.", rich_help_panel="Games")] = None,
    start_scores: Annotated[str | None, typer.Option("--start-scores", metavar="A,B", help="Games start from "
                                                        "these scores, team 0 first (default 0,0), e.g. "
                                                        "--start-scores=-5,19.", rich_help_panel="Games")] = None,
    dealer: Annotated[int | None, typer.Option("--dealer", min=0, max=3, help="Seat that deals the first hand of "
                                                  "each game (default 3, so seat 0 bids first).",
                                                  rich_help_panel="Games")] = None,
    seed: Seed = 1,
    threads: Threads = None,
    policy: PolicyOpt = "heuristic",
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    trace: Annotated[
        Path | None, output_option("--trace", metavar="FILE.jsonl", help="Write full records of the first "
                                   "hands (or games), one JSON object per line (docs/formats.md).")
    ] = None,
    trace_hands: Annotated[int, typer.Option("--trace-hands", min=0, help="How many hands --trace writes.")] = 1000,
    trace_games: Annotated[int, typer.Option("--trace-games", min=0, help="How many games --trace writes with "
                                             "--games.", rich_help_panel="Games")] = 100,
    chunk_size: ChunkSize = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    json_output: JsonFlag = False,
) -> None:
    """Simulate complete hands, or complete games, and summarise bids, make rates, points, moons and wins.

    Each hand is dealt, bid, played and scored under the active rules, from scores 0-0 with the dealer
    rotating. With --games each game is played to its end from --start-scores, the deal passing clockwise
    from --dealer and the scores carried. Memory stays flat however many you ask for.

    [bold]Examples[/bold]

      smear-sim simulate --hands 1000000

      smear-sim simulate --policy heuristic,random --rule round_points=true --json

      smear-sim simulate --hands 10000 --trace hands.jsonl --trace-hands 100

      smear-sim simulate --hands 100000000 --scheduler tcp://10.0.0.5:8786

      smear-sim simulate --games 100000 --start-scores=15,19 --dealer 2 --json

      smear-sim simulate --games 1000 --trace games.jsonl --trace-games 10
    """
    from ..core.io import check_output_file
    from ..output.files import write_trace

    active = rules_from(rules_file, rule)
    ready_players(policy, active)
    if trace is None:
        reject(ctx, ["trace_hands", "trace_games"], "without --trace: it says how many records the trace file holds")
    else:
        check_output_file(trace, "--trace")
    if games is None:
        reject(ctx, ["start_scores", "dealer", "trace_games"], "without --games N: it sets up complete games")
        from ..analysis.simulate import iter_trace_records
        from ..analysis.simulate import simulate as run_simulation

        with executor_for(threads, cluster, scheduler) as executor, \
                progress_for(hands, "simulating", hands > 1 << 19) as progress:
            from ..analysis.plan import RunPlan

            plan = RunPlan.of(policy, active, executor=executor, chunk_size=chunk_size, progress=progress)
            result = run_simulation(hands, seed=seed, plan=plan)
        traced, what = min(trace_hands, hands), "hand"
        if trace is not None:
            write_trace(trace, iter_trace_records(traced, seed=seed, rules=active, policies=policy))
    else:
        reject(ctx, ["hands", "trace_hands"], "with --games: give --hands for hands or --games for games")
        from ..analysis.simulate import GAME_CHUNK, simulate_games, trace_game_records

        scores = start_scores if start_scores is not None else (0, 0)
        first = 3 if dealer is None else dealer
        with executor_for(threads, cluster, scheduler) as executor, \
                progress_for(games, "playing games", games > 2 * GAME_CHUNK) as progress:
            from ..analysis.plan import RunPlan

            plan = RunPlan.of(policy, active, executor=executor, chunk_size=chunk_size, progress=progress)
            result = simulate_games(games, seed=seed, start_scores=scores, dealer=first, plan=plan)
        traced, what = min(trace_games, games), "game"
        if trace is not None:
            write_trace(trace, trace_game_records(traced, seed=seed, rules=active, policies=policy,
                                                  start_scores=scores, dealer=first))
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_game_simulation, print_simulation

        if games is None:
            print_simulation(result)
        else:
            print_game_simulation(result)
        if trace is not None:
            typer.echo(f"Wrote {traced:,} {what} records to {trace}")


@app.command()
@clean_errors
def match(
    ctx: typer.Context,
    policy_a: Annotated[str, typer.Argument(help="First policy.")] = "heuristic",
    policy_b: Annotated[str, typer.Argument(help="Second policy.")] = "random",
    deals: Annotated[int, typer.Option("--deals", min=1, help="Deals; each is played twice (with an OpenSpiel "
                                                                "bot: 100, at most 1,000,000).")] = 200_000,
    games: Annotated[int | None, typer.Option("--games", min=1, help="Play this many pairs of complete games "
                                                 "instead of single deals: each deal sequence twice, the teams "
                                                 "swapped; reports A's game-win rate.")] = None,
    seed: Seed = 1,
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    json_output: JsonFlag = False,
) -> None:
    """Duplicate match: how many points per hand, or games, one policy gains over another.

    Every deal is played twice with the teams swapped, so the luck of the cards cancels and only the
    players' skill remains. With --games N, N deal sequences are each played as two complete games from 0-0,
    A as team 0 then as team 1 (deal n of both games is the same), and A's share of the games won is reported
    with its standard error, paired by deal sequence.

    [bold]Examples[/bold]

      smear-sim match heuristic random --deals 500000

      smear-sim match equity heuristic --games 20000 --json

    An OpenSpiel bot, openspiel:ismcts[:N] (OpenSpiel's IS-MCTS, N simulations a decision, 100 unless given), sits
    at the same duplicate table through the OpenSpiel game, in this one process: 100 deals unless --deals is given,
    each decision's time reported. It needs the \\[openspiel] extra.

      smear-sim match openspiel:ismcts:100 heuristic --deals 100 --json
    """
    active = rules_from(rules_file, rule)
    if any(_is_openspiel_bot(policy) for policy in (policy_a, policy_b)):
        _openspiel_match(ctx, policy_a, policy_b, deals, games, seed, active, json_output)
        return
    for policy in (policy_a, policy_b):
        ready_players(policy, active)
    from ..analysis.match import search_chunk

    # A search player plays thousands of times slower: smaller chunks, so that its progress shows and moves.
    chunk = search_chunk([policy_a, policy_b], games is not None)
    if games is not None:
        reject(ctx, ["deals"], "with --games: give --deals for single deals or --games for complete games")
        from ..analysis.match import duplicate_games
        from ..analysis.simulate import GAME_CHUNK

        with executor_for(threads, cluster, scheduler) as executor, \
                progress_for(games, "playing game pairs", games > GAME_CHUNK or chunk is not None) as progress:
            from ..analysis.plan import RunPlan

            plan = RunPlan.of([policy_a, policy_b], active, executor=executor, progress=progress, chunk_size=chunk)
            result = duplicate_games(games=games, seed=seed, plan=plan)
    else:
        from ..analysis.match import duplicate_match

        with executor_for(threads, cluster, scheduler) as executor, \
                progress_for(deals, "playing deals twice", deals >= 500_000 or chunk is not None) as progress:
            from ..analysis.plan import RunPlan

            plan = RunPlan.of([policy_a, policy_b], active, executor=executor, progress=progress, chunk_size=chunk)
            result = duplicate_match(deals=deals, seed=seed, plan=plan)
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_game_match, print_match

        (print_match if games is None else print_game_match)(result)


_OPENSPIEL_BOT = "openspiel:"  # a bot of OpenSpiel's, not a player of ours: openspiel:ismcts[:N]
OPENSPIEL_DEALS = 100  # its deals without --deals: its decisions take a tenth of a second, not microseconds


def _is_openspiel_bot(name: str) -> bool:
    return name.strip().lower().startswith(_OPENSPIEL_BOT)


def _openspiel_match(ctx: typer.Context, policy_a: str, policy_b: str, deals: int, games: int | None, seed: int,
                     active, json_output: bool) -> None:
    """``match`` with an OpenSpiel bot seated: the duplicate table of :mod:`smear_sim.openspiel.match`, played in
    this process at the OpenSpiel game (it cannot run inside the kernels)."""
    reject(ctx, ["threads", "cluster", "scheduler"], "with an OpenSpiel bot: its match plays in this one process")
    if games is not None:
        reject(ctx, ["deals"], "with --games: give --deals for single deals or --games for complete games")
        deals = 0
    elif not given(ctx, ["deals"]):
        deals = OPENSPIEL_DEALS
    from ..engine.job import check_count

    try:
        from ..openspiel.bots import parse_bot
        from ..openspiel.match import MAX_COUNT, openspiel_match
    except ImportError as exc:
        raise SmearError("an OpenSpiel bot needs the [openspiel] extra: pip install 'smear-sim[openspiel]'") from exc
    name, count, unit = ("games", games, "playing game pairs") if games else ("deals", deals, "playing deals twice")
    check_count(name, count, maximum=MAX_COUNT)
    for policy in (policy_a, policy_b):
        if parse_bot(policy)[1] is None:  # one of our players: its tables and net ready first, as at our table
            ready_players(policy, active)
    with progress_for(count, unit, True) as progress:
        result = openspiel_match(policy_a, policy_b, deals=deals, games=games or 0, seed=seed,
                                 rules=active.changed(), progress=progress and (lambda _: progress(1)))
    data = {**result.to_json(), "seed": seed, "rules": active.as_dict()}
    if json_output:
        print_json(data)
    else:
        from ..output.terminal import print_openspiel_match

        print_openspiel_match(data, active)


@app.command()
@clean_errors
def tournament(
    players: Annotated[list[str], typer.Argument(metavar="PLAYER...", help="Two or more policies, e.g. random "
                                                 "heuristic-v1 heuristic pimc:8.")],
    deals: Annotated[int, typer.Option("--deals", min=1, help="Deals per pair; each is played twice.")] = 200_000,
    search_deals: Annotated[int | None, typer.Option("--search-deals", min=1, help="Deals for the pairs with a "
                                                        "search player (pimc, expert, oracle), which play about a thousand times "
                                                        "slower (default: --deals).")] = None,
    games: Annotated[int | None, typer.Option("--games", min=1, help="Also play this many complete games per pair, "
                                              "each twice with the teams swapped; the ratings then come from "
                                              "the games won.")] = None,
    search_games: Annotated[int | None, typer.Option("--search-games", min=1, help="Games for the pairs with a "
                                                        "search player (default: --games).")] = None,
    seed: Seed = 1,
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    out: Annotated[Path | None, typer.Option("--out", metavar="FILE.md", help="Also write the tables as Markdown, "
                                             "with the command that made them.")] = None,
    chunk_size: ChunkSize = None,
    resume: ResumeFlag = False,
    json_output: JsonFlag = False,
) -> None:
    """Rate players: every pair meets in duplicate, then each player gets a rating with a 95% interval.

    Each pair's margins (score and points won per hand, with standard errors) come from the same deals played
    twice, each side holding each team's cards. With --games each pair also plays complete games, each game's
    deals twice with the teams swapped. The ratings fit a Bradley-Terry model to the games each player won
    (with --games), or else to the deals it won on score, on the Elo scale (docs/formats.md).

    [bold]Examples[/bold]

      smear-sim tournament random heuristic-v1 heuristic --deals 1000000 --games 20000

      smear-sim tournament heuristic pimc:8 --deals 200000 --search-deals 2000 --out players.md

    With --out, a run of over a minute keeps a checkpoint beside FILE.md; after Ctrl-C or a crash, the same
    command with --resume finishes it.
    """
    import shlex

    from ..analysis.match import tournament as run_tournament
    from ..analysis.match import tournament_plan
    from ..core.io import check_output_file
    from ..core.players import parse_policy
    from ..core.rules import format_value

    active = rules_from(rules_file, rule)
    total = sum(n + g for _, _, n, g in tournament_plan(players, deals, search_deals, games, search_games))
    if out is not None:  # checked before the work, so a bad path costs nothing
        check_output_file(out, "--out")
    for player in players:
        ready_players(player, active)
    arguments = {"PLAYER": [str(parse_policy(p)) for p in players], "--deals": deals, "--search-deals": search_deals,
                 "--games": games, "--search-games": search_games, "--seed": seed, "--rule": active.as_dict()}
    with checkpoint_beside(out, arguments, resume) as checkpoint:
        with executor_for(threads, cluster, scheduler) as executor, \
                progress_for(total, "playing deals and games", True) as progress:
            from ..engine.settings import RunSettings

            settings = RunSettings(executor=executor, chunk_size=chunk_size, progress=progress, checkpoint=checkpoint)
            result = run_tournament(players, deals=deals, search_deals=search_deals, games=games,
                                    search_games=search_games, seed=seed, rules=active, settings=settings)
        if out is not None:
            from ..output.report import write_tournament

            command = "smear-sim tournament " + " ".join(shlex.quote(p) for p in result.players)
            command += f" --deals {deals}" + (f" --search-deals {search_deals}" if search_deals else "")
            command += (f" --games {games}" if games else "") + (f" --search-games {search_games}" if search_games
                                                                 else "")
            command += f" --seed {seed}" + "".join(f" --rule {k}={format_value(v)}" for k, v in active.changed().items())
            write_tournament(result, out, command)
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_tournament

        print_tournament(result)
        if out is not None:
            typer.echo(f"Wrote {out}")


@app.command()
@clean_errors
def bench(
    hands: Annotated[int, typer.Option("--hands", "-n", min=1000, help="Hands per timed run.")] = 1_000_000,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Timed runs per figure (median).")] = 5,
    search_hands: Annotated[int, typer.Option("--search-hands", min=0, max=100_000,
                                              help="Hands per timed run of pimc:16 and expert:16 against heuristic "
                                                   "(0: leave the search players out).")] = 100,
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    json_output: JsonFlag = False,
) -> None:
    """Measure dealing, full-hand and game throughput on this machine, and the search players' hands per second
    (median of repeated runs).

    [bold]Examples[/bold]

      smear-sim bench --json

      smear-sim bench --search-hands 0 --rule round_points=true
    """
    from ..engine.bench import run_bench
    from ..output.terminal import status_line

    active = rules_from(rules_file, rule)
    with status_line(sys.stderr.isatty()) as stage:
        figures = run_bench(hands=hands, deal_hands=4 * hands, repeats=repeats, rules=active, threads=threads,
                            search_hands=search_hands, stage=stage)
    if json_output:
        print_json(figures)
    else:
        from ..output.terminal import print_bench

        print_bench(figures)
