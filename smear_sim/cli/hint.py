"""The ``hint`` command: every legal action of a seat's next decision, valued from what that seat can see."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.players import policy_choices
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
    ready_players,
)
from .options import DEFAULT_EQUITY_HANDS, EquityHands


@app.command()
@clean_errors
def hint(
    view: Annotated[str, typer.Argument(metavar="VIEW", help="A seat's view (a hand record in progress, with "
                                        "\"seat\") as a JSON file, or - for standard input.")],
    samples: Annotated[int | None, typer.Option("--samples", min=1, max=1_000_000, help="Worlds to value every "
                                                "action on (for a call: deals kept). Default: enough for a paired "
                                                "standard error of 0.05 points between the two best actions, "
                                                "capped (docs/decisions.md).")] = None,
    seed: Seed = 1,
    policy: Annotated[str, typer.Option("--policy", help="The policy the other seats are modelled by (their calls "
                                        "and discards), and that plays out a call: "
                                        f"{policy_choices()}.")] = "heuristic",
    inference: Annotated[str, typer.Option("--inference", metavar="policy|none", help="policy: the worlds fit the "
                                           "other seats' calls under --policy; none: the calls are left out.")]
    = "policy",
    playout: Annotated[str | None, typer.Option("--playout", metavar="POLICY", help="Play each world out with this "
                                                "player at all four seats instead of double dummy (the default).")]
    = None,
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    equity_hands: EquityHands = DEFAULT_EQUITY_HANDS,
    threads: Threads = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    evaluator: Annotated[str, typer.Option("--evaluator", metavar="search|net|both", help="search: play every "
                                           "action out over worlds (the default); net: value every action by the "
                                           "learned net alone, in milliseconds (calls by the equity tables, as the "
                                           "net player calls; weights: SMEAR_SIM_NET or the shipped ones); both: "
                                           "the search's values with the net's beside them, disagreements marked.")]
    = "search",
    json_output: JsonFlag = False,
) -> None:
    """What to do at a seat's next decision: every legal action, valued from what that seat can see.

    VIEW is a hand record in progress as one seat sees it at its turn (docs/formats.md, "A seat's view"): the
    other seats' hands and discards may be null, and are never read. The decision is the seat's next one: a call,
    trump (the bidder holding the kitty; each suit with its best six cards to keep), the cards to keep, or a card.
    Each action is played out on the same worlds, deals of the unseen cards that fit everything the seat saw
    (its cards, the plays, the voids shown, and the calls under --policy), double dummy by default, and is
    valued in points (your team's hand score minus the other team's) and P(win the game) from scores_before.
    The best action is the one most likely to win the game; the table gives each other action's cost against it,
    paired world by world. A call is valued as 'smear-sim hand --position --auction' values it.

    --evaluator net values every action by the learned net instead, in milliseconds, in P(win the game) only: a card
    by the net's card head, a keep (and trump, each suit with its best keep) by its keep head; a call by the equity
    tables, as the net player calls (docs/learned.md). --evaluator both shows the search's values and the net's side
    by side, marking the actions where the net's value is outside twice the search's standard error, and the best
    where the two differ.

    [bold]Examples[/bold]

      smear-sim hint view.json

      smear-sim hint view.json --samples 2000 --seed 7 --json

      smear-sim hint view.json --inference none --playout heuristic

      cat view.json | smear-sim hint - --rule round_points=true

      smear-sim hint view.json --evaluator net --json

      SMEAR_SIM_NET=my_net.npz smear-sim hint view.json --evaluator both
    """
    from ..analysis.decisions import INFERENCE
    from ..analysis.decisions import hint as hint_of
    from ..analysis.net_hint import EVALUATORS, active_net, compare, net_hint
    from ..analysis.plan import RunPlan
    from ..core.errors import BadValue, SmearError
    from ..core.players import parse_playout, parse_policies
    from ..core.rules import rule_settings
    from ..reference.record import load_record
    from ..reference.view import CALL, decision_of, parse_view

    if evaluator not in EVALUATORS:
        raise BadValue("--evaluator", f"must be search, net or both, got {evaluator!r}")
    if evaluator == "net":
        for name, given in (("--samples", samples), ("--playout", playout)):
            if given is not None:
                raise SmearError(f"{name} is for the search; --evaluator net plays nothing out (use both)")
    net = active_net() if evaluator != "search" else None  # no weights: one line, before any work
    if inference not in INFERENCE:
        raise BadValue("--inference", f"must be policy or none, got {inference!r}")
    parse_policies(policy)
    if playout is not None:
        parse_playout(playout)
    seat_view = parse_view(load_record(view), rule_settings(rules_file, rule or ()))
    if net is not None:
        if decision_of(seat_view) == CALL:
            ready_players("equity", seat_view.rules)  # a call is valued by the equity tables, as the net calls
        net_result = net_hint(seat_view, net=net)
    if evaluator == "net":
        if json_output:
            print_json(net_result.to_json())
        else:
            from ..output.terminal import print_net_hint

            print_net_hint(net_result)
        return
    ready_players(policy, seat_view.rules)
    with executor_for(threads, cluster, scheduler) as executor:
        plan = RunPlan.of(policy, seat_view.rules, executor=executor)
        result = hint_of(seat_view, samples=samples, seed=seed, inference=inference, playout=playout, plan=plan,
                         equity_hands=equity_hands)
    if net is not None:
        both = compare(seat_view, result, net, net_result)
        if json_output:
            print_json(both.to_json())
        else:
            from ..output.terminal import print_hint_comparison

            print_hint_comparison(both)
        return
    if json_output:
        print_json(result.to_json())
    else:
        from ..output.terminal import print_hint

        print_hint(result)
