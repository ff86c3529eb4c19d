"""Commands that analyse hands: ``hand``, ``bid-table``, ``moon``, ``plot`` and ``report``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..analysis.classes import DEFAULT_FEATURES, FEATURES
from ..core.errors import SmearError
from ..core.rules import rule_settings
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


def _score_option(help: str):
    return typer.Option("--score", metavar="US,THEM", help=help, rich_help_panel="Game")


@app.command()
@clean_errors
def hand(
    ctx: typer.Context,
    cards: HandArg,
    trump: Annotated[str | None, typer.Option("--trump", metavar="S|H|D|C", help="Fix the trump suit "
                                                 "(default: the policy chooses after the kitty).")] = None,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Deals to simulate (default "
                                                   "100,000; with --precision, the most to simulate).")] = None,
    precision: Annotated[float | None, typer.Option("--precision", metavar="SE", help="Stop once the "
                                                       "standard error of the mean points is below SE.")] = None,
    seed: Seed = 1,
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats: heuristic, heuristic-v1, random, "
                                             "equity or pimc:K.")]
    = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    plot: Annotated[Path | None, output_option("--plot", metavar="FILE.png", help="Also save the points "
                                               "distribution chart (PNG or SVG).")] = None,
    score: Annotated[str, _score_option("The score before the hand, your team first, for P(win the game) of "
                                        "each bid, e.g. --score=-5,19.")] = "0,0",
    equity_hands: EquityHands = DEFAULT_EQUITY_HANDS,
    position: Annotated[int | None, typer.Option("--position", min=1, max=4, metavar="P", help="Your place in the "
                                                  "auction: 1 the opener (left of the dealer) .. 4 the dealer. Values "
                                                  "every legal call, pass included, on deals that fit --auction.",
                                                  rich_help_panel="Auction")] = None,
    auction: Annotated[str | None, typer.Option("--auction", metavar="CALLS", help="The P - 1 calls before yours, "
                                                "comma-separated: pass, a number or moon, e.g. --auction pass,3.",
                                                rich_help_panel="Auction")] = None,
    max_deals: Annotated[int, typer.Option("--max-deals", min=1, help="With --position: the most deals to try "
                                           "while looking for deals that fit the calls before yours.",
                                           rich_help_panel="Auction")] = 20_000_000,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    json_output: JsonFlag = False,
) -> None:
    """What a 9-card hand is worth as bidder: points, P(make), EV and P(win the game) of every bid, and the moon;
    with --position, what to call at your turn in the auction.

    The hand is yours and you take the kitty; the other 45 cards are dealt at random (no other player able
    to call a misdeal) and all four seats play the chosen policy (docs/rules.md, "Hand analysis"). P(win)
    follows each deal to the score it leaves and reads the chance of winning from there in the match-equity
    table (see 'smear-sim equity'). The --json output is described in docs/formats.md.

    With --position P (and --auction, the calls before yours) the deals are those that fit the calls made so
    far under the policy's bidding (rejection sampling; the share kept is reported), every legal call is played
    on each of them, pass included, the later seats calling by the policy, and the advice is the call most likely
    to win the game. --samples then counts the deals kept, and --precision the standard error of each call's EV.

    [bold]Examples[/bold]

      smear-sim hand "AH KH 2H JD 10C 5S 9S 4D 3C"

      smear-sim hand "AH,KH,2H,JD,10C,5S,9S,4D,3C" --trump H --precision 0.005 --json

      smear-sim hand "AH KH QH 2H 10H 6S 9S 4D 3C" --score=-5,19

      smear-sim hand "AH KH 2H JD 10C 5S 9S 4D 3C" --position 3 --auction 2,pass --score 15,19
    """
    from ..analysis.hand import evaluate_hand
    from ..analysis.scores import parse_score

    active = rules_from(rules_file, rule)
    at = parse_score(score)
    if position is None:
        reject(ctx, ["auction", "max_deals"], "without --position: it is for the auction analysis")
    else:
        reject(ctx, ["trump", "plot"], "with --position: each call is played out with the declarer naming trump")
        from ..analysis.auction import parse_auction

        parse_auction(auction, position, active)  # a bad auction is refused before any work
    if plot is not None:
        plot = _checked_chart_path(plot, None, "--plot")
    ready_players(policy, active)
    total = samples or (10_000_000 if precision else 100_000)
    with executor_for(threads, cluster, scheduler) as executor:
        with progress_for(total, "dealing", total >= 2_000_000 and precision is None and position is None) \
                as progress:
            analysis = evaluate_hand(cards, trump=trump, samples=samples, precision=precision, seed=seed,
                                     policy=policy, rules=active, progress=progress, executor=executor, score=at,
                                     equity_hands=equity_hands)
        calls = None
        if position is not None:
            from ..analysis.auction import evaluate_auction

            calls = evaluate_auction(cards, position=position, auction=auction, score=at, samples=samples,
                                     precision=precision, max_deals=max_deals, seed=seed, policy=policy, rules=active,
                                     executor=executor, equity=analysis.equity)
    if analysis.misdeal_callable:
        typer.echo("warning: this hand holds only ranks 3-9, so its player may call a misdeal instead of "
                   "bidding (rule misdeal=true)", err=True)
    if plot is not None:
        from ..output.charts import points_distribution, save_figure

        plot = save_figure(points_distribution(analysis), plot)
    if json_output:
        print_json(analysis.to_json() | (calls.to_json() if calls is not None else {}))
    elif calls is not None:
        from ..output.terminal import print_auction

        print_auction(calls, analysis)
    else:
        from ..output.terminal import print_hand

        print_hand(analysis)
        if plot is not None:
            typer.echo(f"Chart: {plot}")


@app.command("bid-table")
@clean_errors
def bid_table_command(
    ctx: typer.Context,
    hands: Hands = 10_000_000,
    seed: Seed = 1,
    by: ByOpt = DEFAULT_BY,
    out: Annotated[Path | None, output_option("--out", metavar="PATH", help="Output path without suffix: writes "
                                              ".csv, .md, .npz (raw counts) and .parquet (default results/bid_table; "
                                              "with --by-position .csv, .md and .npz, default results/by_position).")]
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
    score: Annotated[str | None, _score_option("With --by-position: the score the calls are judged at, your "
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

        out = out or Path("results/by_position")
        hands = hands if given(ctx, ["hands"]) else 2_000_000
    else:
        reject(ctx, ["score", "equity_hands"], "without --by-position: the bid table is in points")
        from ..analysis.classes import parse_features
        from ..output.report import BID_TABLE_SUFFIXES as suffixes

        features = parse_features(by)
        out = out or Path("results/bid_table")
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
    with checkpoint_beside(out, arguments, resume) as checkpoint, \
            executor_for(threads, cluster, scheduler) as executor:
        if by_position:
            table, frame, written = _position_table(hands, seed, active, policy, at, equity_hands, min_count, out,
                                                    chunk_size, executor, checkpoint)
        else:
            from ..analysis.classes import class_table
            from ..output.report import write_bid_table

            with progress_for(hands, "dealing and playing", hands >= 2_000_000) as progress:
                table = class_table(hands, seed=seed, rules=active, policy=policy, chunk_size=chunk_size,
                                    progress=progress, executor=executor, checkpoint=checkpoint)
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


POSITION_CLASS_HANDS = 2_000_000  # the declarer's-view hands behind the strength buckets of bid-table --by-position


def _position_table(deals, seed, rules, policy, score, equity_hands, min_count, out, chunk_size, executor,
                    checkpoint):
    """bid-table --by-position: the strength buckets, the position table, its values at ``score``, the files."""
    from ..analysis.classes import class_table
    from ..analysis.match_equity import match_equity
    from ..analysis.positions import position_table
    from ..output.report import write_position_table

    classes = class_table(POSITION_CLASS_HANDS, seed=seed, rules=rules, policy=policy, executor=executor,
                          checkpoint=checkpoint)
    with progress_for(deals, "every call at every turn", deals >= 200_000) as progress:
        table = position_table(deals, seed=seed, rules=rules, policy=policy, classes=classes, chunk_size=chunk_size,
                               progress=progress, executor=executor, checkpoint=checkpoint)
    equity = match_equity(equity_hands, seed=seed, rules=rules, policy=policy, floor=min(-40, *score),
                          executor=executor)
    frame = table.frame(equity, min_count, score)
    return table, frame, write_position_table(table, frame, out)


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
    score: Annotated[str | None, _score_option("Judge the moon by P(win the game) at this score, your team "
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
    from ..analysis.scores import check_scores, parse_score

    if plot is not None:
        plot = _checked_chart_path(plot, None, "--plot")
    if cards is not None:
        reject(ctx, ["counts", "by", "min_count", "show"], "with CARDS: it is for the table of hand classes, and "
               "CARDS asks about one hand")
        active = rules_from(rules_file, rule)
        ready_players(policy, active)
        _moon_allowed(active)
        at = check_scores(parse_score(score), active) if score is not None else (0, 0)
        with executor_for(threads, cluster, scheduler) as executor:
            analysis = evaluate_hand(cards, samples=hands or 100_000, seed=seed, policy=policy, rules=active,
                                     executor=executor, score=at, equity_hands=equity_hands)
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
        _same_table(table, counts, rule_settings(rules_file, rule or ()), policy if given(ctx, ["policy"]) else None)
        _moon_allowed(table.rules, counts)
    else:
        active = rules_from(rules_file, rule)
        ready_players(policy, active)
        _moon_allowed(active)
        hands = hands or 1_000_000
        with executor_for(threads, cluster, scheduler) as executor, \
                progress_for(hands, "dealing and playing", hands >= 2_000_000) as progress:
            table = class_table(hands, seed=seed, rules=active, policy=policy, progress=progress,
                                executor=executor)
    at, equity = None, None
    if score is not None:
        at = check_scores(parse_score(score), table.rules)
        with executor_for(threads, cluster, scheduler) as executor:
            equity = match_equity(equity_hands, seed=table.seed, rules=table.rules, policy=table.policy,
                                  floor=min(-40, *at), executor=executor)
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


def _moon_allowed(rules, counts: Path | None = None) -> None:
    if rules.moon:
        return
    if counts is not None:
        raise SmearError(f"{counts} was made with moon bids off (moon=false): it has no moon rates")
    raise SmearError("moon bids are off under these rules (moon=false); drop --rule moon=false")


def _same_table(table, path: Path, settings: dict, policy: str | None) -> None:
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
    out: Annotated[Path | None, output_option("--out", "-o", metavar="FILE", help="Output file (default: "
                                              "results/charts/KIND.png).")] = None,
    fmt: Annotated[str | None, typer.Option("--format", help="png or svg (default: from --out, else png).")]
    = None,
    x: Annotated[str, typer.Option("--x", help="Feature across (heatmap, make).")] = "trumps",
    y: Annotated[str, typer.Option("--y", help="Feature down (heatmap).")] = "top",
    value: Annotated[str, typer.Option("--value", help="Heatmap value: points, bid_up_to, moon, makeB, evB.")]
    = "points",
    by: ByOpt = DEFAULT_BY,
    min_count: MinCount = 200,
    score: Annotated[str | None, _score_option("moon: judge by P(win the game) at this score instead of in "
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
    path = _checked_chart_path(out or Path("results/charts") / f"{kind}.png", fmt, "--out")
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
                from ..analysis.scores import check_scores, parse_score

                at = check_scores(parse_score(score), table.rules)
                equity = match_equity(equity_hands, seed=table.seed, rules=table.rules, policy=table.policy,
                                      floor=min(-40, *at))
            fig = moon_chart(table, parse_features(by), 20, min_count, at, equity)
    path = save_figure(fig, path, fmt)
    typer.echo(f"Chart: {path}")


def _checked_chart_path(path: Path, fmt: str | None, option: str) -> Path:
    """The file a chart will be saved to, checked before any work starts."""
    from ..core.io import check_output_file
    from ..output.charts import chart_path

    path, _ = chart_path(path, fmt)
    check_output_file(path, option)
    return path


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

    [bold]Examples[/bold]

      smear-sim report

      smear-sim report --hands 10000000 --out results
    """
    from ..analysis.classes import class_table, parse_features
    from ..analysis.hand import EXAMPLE_HAND, EXAMPLE_MOON_HAND, evaluate_hand
    from ..analysis.match_equity import match_equity
    from ..analysis.positions import position_table
    from ..core.io import check_output_folder, replace_folder
    from ..output.report import write_report

    active = rules_from(rules_file, rule)
    ready_players(policy, active)
    features = parse_features(by)
    check_output_folder(out, "--out")
    with executor_for(threads, cluster, scheduler) as executor:
        with progress_for(hands, "dealing and playing", True) as progress:
            table = class_table(hands, seed=seed, rules=active, policy=policy, progress=progress,
                                executor=executor)
        deals = position_deals or max(hands // 5, 1)
        with progress_for(deals, "every call at every turn", True) as progress:
            positions = position_table(deals, seed=seed, rules=active, policy=policy, classes=table,
                                       progress=progress, executor=executor)
        equity = match_equity(equity_hands, seed=seed, rules=active, policy=policy, executor=executor)
        example = evaluate_hand(EXAMPLE_HAND, seed=seed, policy=policy, rules=active, executor=executor,
                                equity=equity)
        moon_hand = (evaluate_hand(EXAMPLE_MOON_HAND, seed=seed, policy=policy, rules=active, executor=executor,
                                   equity=equity) if active.moon else None)
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
    from ..core.rules import format_value

    command += "".join(f" --rule {k}={format_value(v)}" for k, v in active.changed().items())
    with replace_folder(out) as folder:  # the folder always holds one complete report
        written = write_report(table, folder, command=command, by=features, min_count=min_count,
                               example_hand=example, equity=equity, moon_hand=moon_hand, positions=positions)
    from ..output.terminal import print_bid_table

    print_bid_table(table.frame(features, min_count), table, 15)
    typer.echo(f"Wrote {len(written)} files to {out}/ (see {out}/README.md; open {out}/index.html in a browser)")
