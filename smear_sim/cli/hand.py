"""The ``hand`` command: what one hand is worth as bidder, or what to call at a place in the auction."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..core.players import policy_choices
from ..core.sizes import AUCTION_MAX_DEALS, HAND_MAX_SAMPLES, HAND_SAMPLES
from .app import (
    ClusterOpt,
    JsonFlag,
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
    ready_players,
    reject,
    rules_from,
)
from .options import (
    DEFAULT_EQUITY_HANDS,
    EquityHands,
    HandArg,
    checked_chart_path,
    score_option,
)


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
    policy: Annotated[str, typer.Option("--policy", help="Policy of all four seats: "
                                             f"{policy_choices()}.")]
    = "heuristic",
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    plot: Annotated[Path | None, output_option("--plot", metavar="FILE.png", help="Also save the points "
                                               "distribution chart (PNG or SVG).")] = None,
    score: Annotated[str, score_option("The score before the hand, your team first, for P(win the game) of "
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
                                           rich_help_panel="Auction")] = AUCTION_MAX_DEALS,
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
    from ..analysis.hand import hand_query
    from ..analysis.scores import parse_score

    active = rules_from(rules_file, rule)
    at = parse_score(score)
    if position is None:
        reject(ctx, ["auction", "max_deals"], "without --position: it is for the auction analysis")
        prior: tuple[int, ...] = ()
    else:
        reject(ctx, ["trump", "plot"], "with --position: each call is played out with the declarer naming trump")
        from ..analysis.auction import parse_auction

        prior = parse_auction(auction, position, active)  # a bad auction is refused before any work
    if plot is not None:
        plot = checked_chart_path(plot, None, "--plot")
    ready_players(policy, active)
    total = samples or (HAND_MAX_SAMPLES if precision else HAND_SAMPLES)
    from ..analysis.hand_answer import answer_hand
    from ..analysis.plan import RunPlan

    with executor_for(threads, cluster, scheduler) as executor:
        plan = RunPlan.of(policy, active, executor=executor)
        query = hand_query(cards, trump=trump, samples=samples, precision=precision, seed=seed, score=at,
                           equity_hands=equity_hands, plan=plan)
        with progress_for(total, "dealing", total >= 2_000_000 and precision is None and position is None) \
                as progress:
            answer = answer_hand(query, plan.replace(progress=progress), position=position, auction=prior,
                                 samples=samples, max_deals=max_deals)
    analysis, calls = answer.analysis, answer.calls
    if analysis.misdeal_callable:
        typer.echo("warning: this hand holds only ranks 3-9, so its player may call a misdeal instead of "
                   "bidding (rule misdeal=true)", err=True)
    if plot is not None:
        from ..output.charts import points_distribution, save_figure

        plot = save_figure(points_distribution(analysis), plot)
    if json_output:
        print_json(answer.to_json())
    elif calls is not None:
        from ..output.terminal import print_auction, print_count

        print_auction(calls, analysis)
        print_count(answer.count)
    else:
        from ..output.terminal import print_count, print_hand

        print_hand(analysis)
        print_count(answer.count)
        if plot is not None:
            typer.echo(f"Chart: {plot}")
