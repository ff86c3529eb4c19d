"""The ``review`` command: every decision of played hands graded, as GNU Backgammon analyses a match."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.errors import SmearError
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
    print_json,
    progress_for,
    ready_players,
)

MAX_SAMPLES = 100_000  # worlds per decision: the default precision needs a few thousand at most


@app.command()
@clean_errors
def review(
    record: Annotated[str, typer.Argument(metavar="RECORD", help="A hand record, a game record, or a JSONL file of "
                                          "them (as 'simulate --trace' writes), or - for standard input.")],
    samples: Annotated[int | None, typer.Option("--samples", min=1, max=MAX_SAMPLES, help="Worlds per decision "
                                                f"(default 256, at most {MAX_SAMPLES:,}).")] = None,
    precise: Annotated[bool, typer.Option("--precise", help="Draw each decision's worlds to the hint's default "
                                          "precision instead of --samples (slower: about 40 s a hand).")] = False,
    kinds: Annotated[str | None, typer.Option("--kinds", metavar="KINDS", help="Grade only these decisions, "
                                              "comma-separated: call, trump, keep, card (default: all).")] = None,
    seed: Seed = 1,
    policy: Annotated[str, typer.Option("--policy", help="The players the hints infer the calls by, and the "
                                        "reference player of the luck: heuristic, heuristic-v1, random or equity.")]
    = "heuristic",
    inference: Annotated[str, typer.Option("--inference", metavar="policy|none", help="Deal the unseen cards to "
                                           "fit the calls under --policy, or ignore the calls (none).")] = "policy",
    playout: Annotated[str | None, typer.Option("--playout", metavar="POLICY", help="Play each world out with this "
                                                "player instead of double dummy.")] = None,
    luck: Annotated[bool, typer.Option("--luck/--no-luck", help="Also measure each deal's luck (docs/formats.md).")]
    = True,
    threads: Threads = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    json_output: JsonFlag = False,
) -> None:
    """Review played hands: every decision of every seat that had a choice, its cost and mark, totals per seat and
    team, and the luck of each deal.

    Each decision (call, trump, keep, card) gets the hint from that seat's own view, exactly as 'smear-sim hint'
    gives it with the same --seed and --samples (256 worlds a decision unless said: about 10 s a hand on two
    cores); its cost is the best action's value minus the taken one's, in
    points and in P(win the game), never below 0. A P(win) cost of 0.01 or more is doubtful (?!), 0.02 bad (?),
    0.04 very bad (??). Luck is what the cards dealt were worth to each team against an average deal at that
    seat and score. docs/formats.md defines them all and the --json output.

    [bold]Examples[/bold]

      smear-sim simulate --hands 3 --trace hands.jsonl --trace-hands 3; smear-sim review hands.jsonl

      smear-sim review game.json --samples 500 --json

      smear-sim review hands.jsonl --kinds card --no-luck

      smear-sim simulate --games 1 --trace game.jsonl --trace-games 1; smear-sim review game.jsonl --cluster local:2
    """
    from ..analysis.plan import RunPlan
    from ..analysis.review import DEFAULT_SAMPLES, check_kinds, check_options, count_decisions, read_hands
    from ..analysis.review import review as run_review
    from ..core.rules import rule_settings
    from ..reference.record import load_records

    if precise and samples is not None:
        raise SmearError("--precise cannot apply with --samples: give a number of worlds, or the default precision")
    settings = rule_settings(rules_file, rule or ())
    hands = read_hands(load_records(record), settings)  # checked before any work
    check_options(inference, playout)
    chosen = check_kinds(kinds)
    rules = hands[0].hand.rules
    ready_players(policy, rules)
    total = count_decisions(hands, chosen)
    with executor_for(threads, cluster, scheduler) as executor, \
            progress_for(total, "reviewing decisions", total > 1) as progress:
        plan = RunPlan.of(policy, rules, executor=executor)
        result = run_review(hands, samples=None if precise else samples or DEFAULT_SAMPLES, seed=seed,
                            inference=inference, playout=playout, luck=luck, kinds=chosen, plan=plan,
                            progress=progress)
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_review

        print_review(result)
