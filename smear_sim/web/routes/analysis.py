"""The analysis routes: a hand and its auction (``POST /api/hand``, ``/api/hand/stream``), a hint for a seat's view
(``/api/hint``), the legal calls of an auction (``/api/calls``), a review (``/api/review``, ``/api/review/stream``)
and what the page may ask (``GET /api/rules``). Each answers what the command line's ``--json`` prints for the same
options (:mod:`smear_sim.web.server` says more), and runs on the shared simulator (:func:`run_analysis`).
"""

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from ...analysis.auction import legal_calls, parse_auction
from ...analysis.hand import EXAMPLE_HAND, HandQuery, hand_query, parse_hand
from ...analysis.hand_answer import answer_hand
from ...analysis.plan import RunPlan
from ...analysis.scores import check_scores, parse_score
from ...core.calls import call_name
from ...core.cards import SUIT_NAMES
from ...core.errors import SmearError
from ...core.players import FAST_POLICIES, parse_policy, player
from ...core.rules import PRESETS, Rules, describe_options
from ...core.sizes import HAND_SAMPLES
from ...engine.runner import check_count
from ...output.format import FEATURES
from ..answers import Context, Ctx, answers, json_body, run_analysis, streamed, timing
from ..checks import MAX_HINT_SAMPLES, check_equity_tables, check_hint_samples, check_net
from ..limits import DEFAULT_MAX_DEALS, Limits
from ..net_values import check_evaluator, net_values, search_with_net
from ..practice import BOT_PLAYERS
from ..review import review_request
from ..schemas import CallsBody, HandBody, HintBody, checked

__all__ = ["DEFAULT_SAMPLES", "HAND_FIELDS", "HINT_FIELDS", "MAX_HINT_SAMPLES", "MAX_PRECISION", "HandRequest",
           "HintRequest", "hand_request", "hint_request", "legal_auction", "router"]

DEFAULT_SAMPLES = HAND_SAMPLES  # as smear-sim hand
MAX_PRECISION = 1000.0  # a standard error of points above this stops after the first batch anyway
HAND_FIELDS = tuple(HandBody.model_fields)
HINT_FIELDS = tuple(HintBody.model_fields)

router = APIRouter()


@dataclass(frozen=True)
class HandRequest:
    """A checked ``POST /api/hand``: the hand analysis and, with a position, the auction analysis after it, run
    as ``smear-sim hand`` runs them (the auction valued with the hand analysis's equity table)."""

    query: HandQuery
    plan: RunPlan  # who plays and under which rules, made once from the request (as the command line does)
    samples: int | None = None  # as asked: the auction analysis reads its own default from None
    position: int | None = None
    auction: tuple[int, ...] = ()
    max_deals: int = DEFAULT_MAX_DEALS

    def run(self, executor, stage: Callable[[str], None] = lambda _: None) -> tuple[dict[str, Any], float]:
        """The JSON ``smear-sim hand --json`` prints, and the seconds spent simulating; ``stage`` hears of each
        stage as it starts. ``executor`` is the simulator's turn (:mod:`smear_sim.engine.turns`): the one
        setting of the run that is known only once the request has its turn."""
        answer = answer_hand(self.query, self.plan.replace(executor=executor), position=self.position,
                             auction=self.auction, samples=self.samples, max_deals=self.max_deals, stage=stage)
        return answer.to_json(), answer.seconds



def hand_request(body: Any, limits: Limits) -> HandRequest:
    """Check a ``POST /api/hand`` body and make the analysis it asks for (a one-line SmearError if bad)."""
    asked = checked(HandBody, body)
    if asked.cards is None:
        raise SmearError(f'cards is missing: give the nine cards of the hand, e.g. "{EXAMPLE_HAND}"')
    policy = "heuristic" if asked.policy is None else asked.policy  # "" is no policy, as on the command line
    precision, samples, position, deals = asked.precision, asked.samples, asked.position, asked.max_deals
    rules = Rules.from_mapping(asked.rules or {}, source="rules")
    if precision is not None and not 0 < precision <= MAX_PRECISION:
        raise SmearError(f"--precision must be a positive standard error such as 0.01, at most {MAX_PRECISION:g}, "
                         f"got {precision!r}")
    if policy.strip() == "":
        parse_policy(policy)  # the command line's message for an empty --policy
    scores = parse_score(asked.score) if asked.score is not None else (0, 0)
    check_scores(scores, rules, max_span=limits.max_span, cap=limits.span_cap)
    if position is None:
        for name in ("auction", "max_deals"):
            if name in body:  # as the command line: an option that cannot apply is an error
                raise SmearError(f"--{name.replace('_', '-')} cannot apply without --position: it is for the "
                                 "auction analysis")
        prior: tuple[int, ...] = ()
    else:
        if asked.trump is not None:
            raise SmearError("--trump cannot apply with --position: each call is played out with the declarer "
                             "naming trump")
        auction = asked.auction
        if isinstance(auction, list) and not all(isinstance(c, str | int) and not isinstance(c, bool)
                                                  for c in auction):
            raise SmearError(f"auction must list calls: pass, a number or moon, got {json.dumps(auction)}")
        prior = parse_auction(auction, position, rules)
    check_equity_tables(policy, rules)
    if samples is not None and samples > limits.max_samples:
        raise SmearError(f"samples must be at most {limits.max_samples:,} on this server, got {samples:,}: ask for "
                         "fewer, or give a precision (smear-sim serve --max-samples N raises the cap)")
    if deals is not None and deals > limits.max_deals:
        raise SmearError(f"max_deals must be at most {limits.max_deals:,} on this server, got {deals:,}: ask for "
                         "fewer (smear-sim serve --max-deals N raises the cap)")
    if deals is not None:
        check_count("--max-deals", deals)
    cards = parse_hand(asked.cards)  # the cards' message comes before the policy's, as on the command line
    plan = RunPlan.of(policy, rules)
    query = hand_query(cards, trump=asked.trump, samples=samples,
                       precision=None if precision is None else float(precision),
                       seed=1 if asked.seed is None else asked.seed, max_samples=limits.max_samples, score=scores,
                       plan=plan)
    if parse_policy(policy).name not in FAST_POLICIES:  # a search player is far too slow for the page
        raise SmearError(f"policy {policy!r} is not offered here: choose {' or '.join(FAST_POLICIES)}")
    return HandRequest(query, plan, samples, position, prior, limits.max_deals if deals is None else deals)


@dataclass(frozen=True)
class HintRequest:
    """A checked ``POST /api/hint``: the hint ``smear-sim hint`` gives for the same view and options."""

    view: Any  # a SeatView
    plan: RunPlan
    samples: int | None
    seed: int
    inference: str
    playout: str | None
    evaluator: str = "search"  # search, net or both (web/net_values.py)

    def run(self, executor, stage: Callable[[str], None] = lambda _: None) -> tuple[dict[str, Any], float]:
        """The search's hint (``evaluator`` search), with the net's values beside it (both), on the simulator."""
        from ...analysis.decisions import hint

        stage("hint")
        result = hint(self.view, samples=self.samples, seed=self.seed, inference=self.inference,
                      playout=self.playout, plan=self.plan.replace(executor=executor))
        if self.evaluator == "both":
            return search_with_net(self.view, result), result.seconds
        return result.to_json(), result.seconds

    def run_net(self) -> tuple[dict[str, Any], float]:
        """The net's hint (``evaluator`` net): milliseconds, in the request's own thread, not the simulator's."""
        result = net_values(self.view)
        return result.to_json(), result.seconds


def hint_request(body: Any, limits: Limits) -> HintRequest:
    """Check a ``POST /api/hint`` body (a one-line SmearError if bad), as the command line checks its options."""
    from ...analysis.decisions import INFERENCE
    from ...reference.view import parse_view

    asked = checked(HintBody, body)
    if asked.view is None:
        raise SmearError("view is missing: give the seat's view, a hand record in progress with \"seat\"")
    policy = asked.policy or "heuristic"
    inference = asked.inference or "policy"
    settings = asked.rules or {}
    if inference not in INFERENCE:
        raise SmearError(f"inference must be policy or none, got {json.dumps(inference)}")
    evaluator = check_evaluator(asked.evaluator, asked.samples, asked.playout)
    for name, value in (("policy", policy), ("playout", asked.playout)):
        if value is not None and parse_policy(value).name not in FAST_POLICIES:
            raise SmearError(f"{name} {value!r} is not offered here: choose {' or '.join(FAST_POLICIES)}")
    check_hint_samples(asked.samples)
    rules = Rules.from_mapping(settings, source="rules")
    view = parse_view(asked.view, {key: getattr(rules, key) for key in settings})
    check_scores(tuple(view.scores_before), view.rules, "scores_before", max_span=limits.max_span,
                 cap=limits.span_cap)
    check_equity_tables(policy, view.rules)
    if evaluator != "search":
        check_net("net")  # no net here: one line, before any work
    return HintRequest(view, RunPlan.of(policy, view.rules), asked.samples, 1 if asked.seed is None else asked.seed,
                       inference, asked.playout, evaluator)


def legal_auction(body: Any) -> dict[str, Any]:
    """``POST /api/calls``: the legal calls at each turn of ``auction`` under ``rules`` (module docstring)."""
    asked = checked(CallsBody, body)
    rules = Rules.from_mapping(asked.rules or {}, source="rules")
    given = asked.auction or []
    if len(given) > 3:
        raise SmearError(f"auction: at most 3 calls come before a seat, got {len(given)}")
    made: list[int] = []
    legal = []
    for call in [*given, None]:
        choices = legal_calls(rules, made)
        legal.append([call_name(c) for c in choices])
        if call is not None:
            names = {str(call_name(c)): c for c in choices}
            made.append(names.get(str(call).strip().lower(), choices[0]))
    return {"auction": [call_name(c) for c in made], "legal": legal}


# -- the routes ------------------------------------------------------------------------------------------------


@router.get("/api/rules")
@answers
async def rules_endpoint(ctx: Ctx) -> JSONResponse:
    limits = ctx.limits
    return JSONResponse({
        "options": describe_options(),
        # the rule sets by name (--rules NAME), each as the options it sets
        "presets": [preset.as_dict() for preset in PRESETS.values()],
        "policies": list(FAST_POLICIES),
        # the practice table's bots offered by name (the registry's bot flag); search players are taken as NAME:K
        "bots": [{"name": name, "summary": player(name).summary} for name in BOT_PLAYERS],
        "hand": {"fields": list(HAND_FIELDS), "trumps": list(SUIT_NAMES), "default_samples": DEFAULT_SAMPLES,
                 "max_samples": limits.max_samples, "max_deals": limits.max_deals, "max_span": limits.max_span},
        "table_features": {name: label.help for name, label in FEATURES.items()},
        "ready": ctx.ready.is_set(),  # False while the server warms up: analyses are refused (503) until then
        "hint_engine": ctx.hint_engine.status(),  # the hints' first-use warm-up (GET /api/warmup)
    })


@router.post("/api/calls")
@answers
async def calls_endpoint(request: Request) -> JSONResponse:
    return JSONResponse(legal_auction(await json_body(request)))


@router.post("/api/hand")
@answers
async def hand_endpoint(request: Request, ctx: Ctx) -> JSONResponse:
    started = time.perf_counter()
    asked = hand_request(await json_body(request), ctx.limits)
    ctx.check_ready()
    data, seconds = await run_analysis(request, ctx, asked.run)
    return JSONResponse(data, headers=timing(seconds, started))


@router.post("/api/hand/stream")
@answers
async def hand_stream(request: Request, ctx: Ctx) -> StreamingResponse:
    started = time.perf_counter()
    asked = hand_request(await json_body(request), ctx.limits)
    ctx.check_ready()
    # the equity table's hands, when it is made; the deals that fit the calls are known only at the end
    totals = {"hand": asked.query.job.total, "equity": asked.query.equity_hands, "auction": None}
    return streamed(ctx, lambda executor, post: asked.run(executor, stage=post), totals, "hand", started,
                    progress=True)


@router.post("/api/hint")
@answers
async def hint_endpoint(request: Request, ctx: Ctx) -> JSONResponse:
    started = time.perf_counter()
    asked = hint_request(await json_body(request), ctx.limits)
    if asked.evaluator == "net":  # milliseconds, outside the simulator's turns: nothing to wait for
        data, seconds = await run_in_threadpool(asked.run_net)
        return JSONResponse(data, headers=timing(seconds, started))
    ctx.check_ready()
    data, seconds = await run_analysis(request, ctx, asked.run)
    return JSONResponse(data, headers=timing(seconds, started))


async def _review_asked(request: Request, ctx: Context):
    """The review a request asks for, checked, once the simulator is ready (both review routes)."""
    limits = ctx.limits
    asked = review_request(await json_body(request), limits.max_review_samples, limits.max_decisions,
                           limits.max_span)
    ctx.check_ready()
    return asked


@router.post("/api/review")
@answers
async def review_endpoint(request: Request, ctx: Ctx) -> JSONResponse:
    started = time.perf_counter()
    asked = await _review_asked(request, ctx)
    data, seconds = await run_analysis(request, ctx, asked.run)
    return JSONResponse(data, headers=timing(seconds, started))


@router.post("/api/review/stream")
@answers
async def review_stream(request: Request, ctx: Ctx) -> StreamingResponse:
    started = time.perf_counter()
    asked = await _review_asked(request, ctx)
    hands = [{"record": h.record, "deal": h.deal, "hand": h.hand.to_json(), "result": h.result.to_json()}
             for h in asked.hands]  # what the page draws the tricks from: the rules stay on the server
    return streamed(ctx, lambda executor, post: asked.run(executor, progress=lambda n: post(n)),
                    {"review": asked.decisions}, "review", started, {"hands": hands})
