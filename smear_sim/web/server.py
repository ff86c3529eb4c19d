"""The JSON API behind the page, and the page itself: a FastAPI app over the analysis the command line uses.

- ``POST /api/hand`` takes the options of ``smear-sim hand`` as a JSON object (``cards``, and optionally
  ``trump``, ``samples`` or ``precision``, ``seed``, ``policy``, ``rules``, ``score`` as ``"US,THEM"`` or
  ``[us, them]``, and for the auction ``position`` (1-4), ``auction`` (the calls before it, ``"2,pass"`` or
  a list) and ``max_deals``) and answers exactly the object that ``smear-sim hand ... --json`` prints for the
  same arguments. ``POST /api/hand/stream`` runs the same analysis and answers in lines of JSON (NDJSON):
  ``{"progress": {"stage": "hand", "done": D, "total": N}}`` as the hand's deals are played, then, with a
  position, ``{"progress": {"stage": "auction", "done": D, "total": null}}`` (deals tried: how many fit the
  calls before the seat is known only at the end), then ``{"result": {...}}`` or ``{"error": "..."}``;
  closing the connection stops the analysis.
- ``POST /api/hint`` takes ``{"view": VIEW, ...}`` with the options of ``smear-sim hint`` as fields (``samples``,
  ``seed``, ``policy``, ``inference``, ``playout``, ``rules``) and answers exactly the object ``smear-sim hint
  --json`` prints (docs/formats.md, "A seat's view"); its worlds are capped at ``MAX_HINT_SAMPLES``.
- ``POST /api/calls``: ``{"auction": [...], "rules": {...}}`` answers the legal calls at each turn of that
  auction (``legal``: one list per call given, and one for the next seat), the calls given that are not
  legal where they stand replaced by the first legal one (``auction``): the page offers only legal calls.
- ``POST /api/review``: ``{"record": RECORD, "samples": N, "seed": S, ...}`` answers exactly the object that
  ``smear-sim review RECORD --json`` prints for the same options (:mod:`smear_sim.web.review`); a review grades
  at most ``max_decisions`` decisions with at most ``max_review_samples`` worlds each.
- ``GET /api/rules``: the rule options (defaults, choices, ranges, help), the policies, the hand request's
  fields and sample cap (so the page shows only the inputs the API takes), the features tables group by, and
  ``ready``: false while the server warms up (the first seconds after it starts, when it loads the simulator
  and makes seed 1's match-equity table), when ``/api/hand`` and its stream answer 503 with ``Retry-After``
  at once rather than keep the caller waiting.
- ``GET /api/tables?by=trumps,top``: what the results folder holds: the bid table and the moon table,
  regrouped by the features asked for (default the committed grouping), as ``smear-sim moon --counts ...
  --json`` prints them; what to call by place in the auction (``by_position.csv`` of ``smear-sim bid-table
  --by-position``, with one grid of calls per place); and the match-equity table (``equity.csv``). A part
  whose files are missing is null; with none of them the answer is a 400 that says how to make them. The results
  folder may hold reports under other rules in subfolders (``results/round-points``, each a report folder with
  its own ``.smear-sim-files``): ``variants`` lists them (``name``, ``label``: the rules in words) after the
  folder itself (name ``""``), and ``&variant=NAME`` answers from one of them (``variant`` says which); a name
  that is not one of them is a 400. ``count`` is the shipped count fitted under the bid table's rules (its
  weights, what each call needs by band of each team's score, how often its call is the equity bidder's), as
  the report's section "A count to use at the table" shows it; null without a bid table or a count for its rules.

Bad input gets status 400 and ``{"error": "<the command line's one-line message>"}``; a bug gets 500 and a
one-line message, never a traceback. Every message is one short line however much of the request it quotes,
and names no folder of this machine. Analyses run in worker threads and take turns on the simulator
(:mod:`smear_sim.web.scheduler`); each may simulate at most ``max_samples`` deals for the hand, try at most
``max_deals`` for the auction, and value the game with a match-equity table spanning at most ``max_span``
points (from the lower of -40 and the scores to the target). An analysis stops at its next slice when its
client goes away, streamed or not, at every stage (the hand's deals, the equity table, the auction).

Before any of this, :mod:`smear_sim.web.guard` refuses requests that do not name this server as their Host,
API requests from other sites, and bodies over the cap; a body must be JSON nested at most ``MAX_DEPTH``
deep whose numbers are at most 20 digits long and finite.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import math
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ..analysis.auction import evaluate_auction, legal_calls, parse_auction
from ..analysis.classes import DEFAULT_FEATURES, ClassTable, moon_table, parse_features
from ..analysis.count import count_view, fitted_count
from ..analysis.hand import EXAMPLE_HAND, HandQuery, hand_query, parse_hand, shared_equity
from ..analysis.hand_outcomes import DEFAULT_HANDS
from ..analysis.match_equity import DEFAULT_FLOOR
from ..analysis.plan import RunPlan
from ..analysis.saved import CountsFileError
from ..analysis.scores import check_scores, parse_score
from ..analysis.simulate import bid_name
from ..core.cards import SUIT_NAMES
from ..core.count import count_summary
from ..core.errors import BadValue, SmearError, one_line
from ..core.io import report_folders
from ..core.players import FAST_POLICIES, parse_policy
from ..core.rules import Rules, describe_options
from ..engine.runner import check_count
from ..output.format import FEATURES, rules_name
from ..output.report import table_json
from .games import GameFolder, default_games_dir
from .guard import BODY_TIMEOUT, MAX_BODY, BodyTimeout, BodyTooLarge, Guard, allowed_hosts
from .practice import DEFAULT_IDLE_EXPIRY, DEFAULT_MAX_TABLES, TableGone, Tables, TooManyTables, hint_costs, hint_policy
from .review import DEFAULT_MAX_DECISIONS, DEFAULT_MAX_REVIEW_SAMPLES, review_request
from .scheduler import AnalysisCancelled, ServerBusy, Simulator
from .warmup import HintEngine

__all__ = ["BID_TABLE", "DEFAULT_MAX_DEALS", "DEFAULT_MAX_SAMPLES", "DEFAULT_MAX_SPAN", "EQUITY_TABLE", "HAND_FIELDS",
           "HINT_FIELDS", "MAX_DEPTH", "MAX_HINT_SAMPLES", "MAX_PRECISION", "MAX_VARIANTS", "POSITION_TABLE",
           "STATIC", "TABLE_GROUPINGS", "TABLE_HINT_WORLDS", "WARMING_UP", "HandRequest",
           "HintRequest", "WarmingUp", "create_app", "hand_request", "hint_request", "read_json"]

DEFAULT_MAX_SAMPLES = 200_000
DEFAULT_MAX_DEALS = 2_000_000  # deals an auction analysis may try (the command line's default is 20,000,000)
DEFAULT_MAX_SPAN = 120  # points the game view's equity table may span: each of its solves well under a second
DEFAULT_SAMPLES = 100_000  # as smear-sim hand
MAX_DEPTH = 16  # levels of nesting in a request body: a review's game record needs 4
MAX_DIGITS = 20  # digits in a number of a request body: 2**64 - 1 (the largest seed) has 20
MAX_PRECISION = 1000.0  # a standard error of points above this stops after the first batch anyway
TABLE_GROUPINGS = 8  # groupings of the bid table kept, each a few MB (per rule set)
MAX_VARIANTS = 16  # the reports under other rules offered from the results folder's subfolders
STATIC = Path(__file__).parent / "static"
HINT_FIELDS = ("view", "samples", "seed", "policy", "inference", "playout", "rules")
MAX_HINT_SAMPLES = 20_000  # worlds one hint may play out (each plays every legal action, double dummy)
# The worlds a practice table's hint plays at its own precision, at most: a person waits for it. At a first lead
# 512 worlds took 0.2 to 1.4 s on two cores, and chose the card the full precision chose in 8 of 8 (issue notes).
TABLE_HINT_WORLDS = 512
HAND_FIELDS = ("cards", "trump", "samples", "precision", "seed", "policy", "rules", "score", "position", "auction",
               "max_deals")
BID_TABLE = "bid_table.npz"
POSITION_TABLE = "by_position.csv"
EQUITY_TABLE = "equity.csv"
BID_TABLE_WORDS = {"maker": "smear-sim bid-table", "make": "'smear-sim bid-table --out ...'",
                   "writer": "'smear-sim bid-table'"}  # the command that makes class-count files, in a message
log = logging.getLogger("smear_sim.web")


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
        stage as it starts. ``executor`` is the simulator's turn (:mod:`smear_sim.web.scheduler`): the one
        setting of the run that is known only once the request has its turn."""
        plan = self.plan.but(executor=executor)
        stage("hand")
        analysis = self.query.run(settings=plan.settings, stage=stage)
        data, seconds = analysis.to_json(), analysis.seconds
        if self.position is not None:
            stage("auction")
            query = self.query
            calls = evaluate_auction(query.cards, position=self.position, auction=[bid_name(c) for c in self.auction],
                                     score=query.score, samples=self.samples, precision=query.precision,
                                     max_deals=self.max_deals, seed=query.job.seed, equity=analysis.equity, plan=plan)
            data |= calls.to_json()
            seconds += calls.seconds
        before = self.auction if self.position is not None else None  # the count, as smear-sim hand adds it
        data["count"] = count_summary(list(self.query.cards), self.plan.rules, before, self.query.score or (0, 0))
        return data, seconds


def hand_request(body: Any, max_samples: int, max_deals: int = DEFAULT_MAX_DEALS,
                 max_span: int = DEFAULT_MAX_SPAN) -> HandRequest:
    """Check a ``POST /api/hand`` body and make the analysis it asks for (a one-line SmearError if bad)."""
    if not isinstance(body, dict):
        raise SmearError(f'the request must be a JSON object such as {{"cards": "{EXAMPLE_HAND}"}}')
    unknown = sorted(set(body) - set(HAND_FIELDS))
    if unknown:
        raise SmearError(f"unknown field {unknown[0]!r} in the request: the fields are {', '.join(HAND_FIELDS)}")
    if body.get("cards") is None:
        raise SmearError(f'cards is missing: give the nine cards of the hand, e.g. "{EXAMPLE_HAND}"')
    cards = body["cards"]
    if not isinstance(cards, str) and not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
        raise SmearError(f'cards must be a string such as "{EXAMPLE_HAND}" or a list of card names')
    trump = _optional(body, "trump", str, "one of S H D C")
    policy = _optional(body, "policy", str, "a policy name: " + " or ".join(FAST_POLICIES))
    policy = "heuristic" if policy is None else policy  # "" is no policy, as on the command line
    seed = _optional(body, "seed", int, "a whole number")
    samples = _optional(body, "samples", int, "a whole number of deals")
    precision = _optional(body, "precision", (int, float), "a standard error such as 0.01")
    score = _optional(body, "score", (str, list), 'two whole-number scores, "US,THEM" or [us, them], e.g. "-5,19"')
    position = _optional(body, "position", int, "1 (the opener, left of the dealer) to 4 (the dealer)")
    auction = _optional(body, "auction", (str, list), 'the calls before yours, e.g. "2,pass" or [2, "pass"]')
    deals = _optional(body, "max_deals", int, "a whole number of deals")
    rules = Rules.from_mapping(_optional(body, "rules", dict, "an object of rule options") or {}, source="rules")
    if precision is not None and not 0 < precision <= MAX_PRECISION:
        raise SmearError(f"--precision must be a positive standard error such as 0.01, at most {MAX_PRECISION:g}, "
                         f"got {precision!r}")
    if policy.strip() == "":
        parse_policy(policy)  # the command line's message for an empty --policy
    scores = parse_score(score) if score is not None else (0, 0)
    check_scores(scores, rules, max_span=max_span, cap=f" (the cap of {max_span} points on this server: smear-sim "
                                                         "serve --max-span N raises it)")
    if position is None:
        for name in ("auction", "max_deals"):
            if name in body:  # as the command line: an option that cannot apply is an error
                raise SmearError(f"--{name.replace('_', '-')} cannot apply without --position: it is for the "
                                 "auction analysis")
        prior: tuple[int, ...] = ()
    else:
        if trump is not None:
            raise SmearError("--trump cannot apply with --position: each call is played out with the declarer "
                             "naming trump")
        if isinstance(auction, list) and not all(isinstance(c, str | int) and not isinstance(c, bool)
                                                  for c in auction):
            raise SmearError(f"auction must list calls: pass, a number or moon, got {json.dumps(auction)}")
        prior = parse_auction(auction, position, rules)
    if policy.strip().lower() == "equity":
        from ..analysis.models import tables_ready

        if not tables_ready(rules):  # made on first use, in minutes: not inside a request
            raise SmearError(f"the equity player's tables for {rules.summary()} are not made yet: make them once with "
                             "'smear-sim simulate --hands 1000 --policy equity' and these rules (a few minutes)")
    if samples is not None and samples > max_samples:
        raise SmearError(f"samples must be at most {max_samples:,} on this server, got {samples:,}: ask for fewer, "
                         "or give a precision (smear-sim serve --max-samples N raises the cap)")
    if deals is not None and deals > max_deals:
        raise SmearError(f"max_deals must be at most {max_deals:,} on this server, got {deals:,}: ask for fewer "
                         "(smear-sim serve --max-deals N raises the cap)")
    if deals is not None:
        check_count("--max-deals", deals)
    cards = parse_hand(cards)  # the cards' message comes before the policy's, as on the command line
    plan = RunPlan.of(policy, rules)
    query = hand_query(cards, trump=trump, samples=samples, precision=None if precision is None else float(precision),
                       seed=1 if seed is None else seed, max_samples=max_samples, score=scores, plan=plan)
    if parse_policy(policy).name not in FAST_POLICIES:  # a search player is far too slow for the page
        raise SmearError(f"policy {policy!r} is not offered here: choose {' or '.join(FAST_POLICIES)}")
    return HandRequest(query, plan, samples, position, prior, max_deals if deals is None else deals)


@dataclass(frozen=True)
class HintRequest:
    """A checked ``POST /api/hint``: the hint ``smear-sim hint`` gives for the same view and options."""

    view: Any  # a SeatView
    plan: RunPlan
    samples: int | None
    seed: int
    inference: str
    playout: str | None

    def run(self, executor, stage: Callable[[str], None] = lambda _: None) -> tuple[dict[str, Any], float]:
        from ..analysis.decisions import hint

        stage("hint")
        result = hint(self.view, samples=self.samples, seed=self.seed, inference=self.inference,
                      playout=self.playout, plan=self.plan.but(executor=executor))
        return result.to_json(), result.seconds


def hint_request(body: Any, max_span: int = DEFAULT_MAX_SPAN) -> HintRequest:
    """Check a ``POST /api/hint`` body (a one-line SmearError if bad), as the command line checks its options."""
    from ..analysis.decisions import INFERENCE
    from ..reference.view import parse_view

    if not isinstance(body, dict):
        raise SmearError('the request must be a JSON object such as {"view": {...}} (docs/formats.md)')
    unknown = sorted(set(body) - set(HINT_FIELDS))
    if unknown:
        raise SmearError(f"unknown field {unknown[0]!r} in the request: the fields are {', '.join(HINT_FIELDS)}")
    if body.get("view") is None:
        raise SmearError("view is missing: give the seat's view, a hand record in progress with \"seat\"")
    policy = _optional(body, "policy", str, "a policy name: " + " or ".join(FAST_POLICIES)) or "heuristic"
    playout = _optional(body, "playout", str, "a policy name: " + " or ".join(FAST_POLICIES))
    inference = _optional(body, "inference", str, "policy or none") or "policy"
    seed = _optional(body, "seed", int, "a whole number")
    samples = _optional(body, "samples", int, "a whole number of worlds")
    settings = _optional(body, "rules", dict, "an object of rule options") or {}
    if inference not in INFERENCE:
        raise SmearError(f"inference must be policy or none, got {json.dumps(inference)}")
    for name, value in (("policy", policy), ("playout", playout)):
        if value is not None and parse_policy(value).name not in FAST_POLICIES:
            raise SmearError(f"{name} {value!r} is not offered here: choose {' or '.join(FAST_POLICIES)}")
    if samples is not None:
        check_count("samples", samples)
        if samples > MAX_HINT_SAMPLES:
            raise SmearError(f"samples must be at most {MAX_HINT_SAMPLES:,} worlds on this server, got {samples:,}")
    rules = Rules.from_mapping(settings, source="rules")
    view = parse_view(body["view"], {key: getattr(rules, key) for key in settings})
    check_scores(tuple(view.scores_before), view.rules, "scores_before", max_span=max_span,
                 cap=f" (the cap of {max_span} points on this server: smear-sim serve --max-span N raises it)")
    if policy.strip().lower() == "equity":
        from ..analysis.models import tables_ready

        if not tables_ready(view.rules):
            raise SmearError(f"the equity player's tables for {view.rules.summary()} are not made yet: make them "
                             "once with 'smear-sim simulate --hands 1000 --policy equity' and these rules")
    return HintRequest(view, RunPlan.of(policy, view.rules), samples, 1 if seed is None else seed, inference, playout)


def legal_auction(body: Any) -> dict[str, Any]:
    """``POST /api/calls``: the legal calls at each turn of ``auction`` under ``rules`` (module docstring)."""
    if not isinstance(body, dict):
        raise SmearError('the request must be a JSON object such as {"auction": [2, "pass"]}')
    unknown = sorted(set(body) - {"auction", "rules"})
    if unknown:
        raise SmearError(f"unknown field {unknown[0]!r} in the request: the fields are auction, rules")
    rules = Rules.from_mapping(_optional(body, "rules", dict, "an object of rule options") or {}, source="rules")
    given = _optional(body, "auction", list, 'a list of calls, e.g. [2, "pass"]') or []
    if len(given) > 3:
        raise SmearError(f"auction: at most 3 calls come before a seat, got {len(given)}")
    made: list[int] = []
    legal = []
    for call in [*given, None]:
        choices = legal_calls(rules, made)
        legal.append([bid_name(c) for c in choices])
        if call is not None:
            names = {str(bid_name(c)): c for c in choices}
            made.append(names.get(str(call).strip().lower(), choices[0]))
    return {"auction": [bid_name(c) for c in made], "legal": legal}


def _optional(body: dict, name: str, kind, what: str):
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, kind):
        raise SmearError(f"{name} must be {what}, got {json.dumps(value)}")
    return value


def _internal_error(exc: BaseException) -> str:
    return f"internal error: {type(exc).__name__}: {exc} (a bug in smear-sim; please report it)"


_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/])/(?:[^\s'\"/]+/)+([^\s'\"/]*)")


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """``{"error": message}``: one short line that names no folder of this machine (a path keeps only its last
    part), since the answer may go to a browser, not to whoever started the server."""
    return JSONResponse({"error": one_line(_ABSOLUTE_PATH.sub(r"\1", message))}, status_code=status, headers=headers)


class WarmingUp(ServerBusy):
    """An analysis asked for while the server warms up (:func:`create_app`'s ``warm_up``): answered at once with
    503 and ``Retry-After``, instead of a wait of seconds (minutes where the kernels must be compiled)."""


WARMING_UP = ("the server is warming up: it loads the simulator and makes its first match-equity table once, "
              "after it starts; ask again in a moment")
RETRY_AFTER = 1  # seconds, in the warming-up answer's Retry-After


def _answers(endpoint):
    """Bad input becomes 400, a full server 503, anything else 500: always ``{"error": one line}``."""

    @functools.wraps(endpoint)
    async def wrapper(*args, **kwargs):
        try:
            return await endpoint(*args, **kwargs)
        except BadValue as exc:  # the layers below name the parameter; the API words it as the CLI does
            return _error(400, exc.worded())
        except TableGone as exc:  # a practice table closed for idleness (410) or never opened here (404)
            return _error(exc.status, str(exc))
        except TooManyTables as exc:
            return _error(503, str(exc))
        except CountsFileError as exc:  # a broken bid_table.npz: named as the command line names it
            return _error(400, exc.worded(**BID_TABLE_WORDS))
        except SmearError as exc:
            return _error(400, str(exc))
        except BodyTooLarge as exc:
            return _error(413, str(exc))
        except BodyTimeout as exc:
            return _error(408, str(exc))
        except WarmingUp as exc:
            return _error(503, str(exc), {"Retry-After": str(RETRY_AFTER)})
        except ServerBusy as exc:
            return _error(503, str(exc))
        except AnalysisCancelled:
            return _error(503, STOPPED)
        except Exception as exc:
            log.error("%s", _internal_error(exc), exc_info=bool(os.environ.get("SMEAR_SIM_DEBUG")))
            return _error(500, _internal_error(exc))

    return wrapper


STOPPED = "the analysis was stopped: the server is shutting down, or its client went away"


async def _json_body(request: Request) -> Any:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise SmearError("send the request body as JSON, with the header Content-Type: application/json")
    return read_json(await request.body())


def read_json(raw: bytes | str) -> Any:
    """A request body as JSON, or a one-line SmearError: not JSON, nested deeper than ``MAX_DEPTH``, or holding a
    number longer than ``MAX_DIGITS`` digits or not finite, which no field takes (each field then has its own
    range)."""

    def whole(text: str) -> int:
        if len(text.lstrip("-")) > MAX_DIGITS:
            raise _BadNumber(text)
        return int(text)

    def decimal(text: str) -> float:
        value = float(text)
        if not math.isfinite(value) or len(text) > 64:
            raise _BadNumber(text)
        return value

    def constant(text: str):
        raise _BadNumber(text)

    try:
        value = json.loads(raw, parse_int=whole, parse_float=decimal, parse_constant=constant)
    except _BadNumber as exc:
        raise SmearError(f"the request body holds the number {exc}, which no field takes: numbers here have at most "
                         f"{MAX_DIGITS} digits and are finite") from None
    except RecursionError:
        raise SmearError(f"the request body is not valid JSON here: it is nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:
        raise SmearError(f"the request body is not valid JSON: {exc}") from None
    level = [value]
    for _ in range(MAX_DEPTH):
        level = [child for item in level if isinstance(item, dict | list)
                 for child in (item.values() if isinstance(item, dict) else item)]
        if not level:
            return value
    raise SmearError(f"the request body is not valid JSON here: it is nested more than {MAX_DEPTH} deep")


class _BadNumber(ValueError):
    pass


def _timing(seconds: float, started: float, waited: float | None = None) -> dict[str, str]:
    """The simulation's time and the whole request's, for the browser's developer tools and the page; ``waited``:
    the time the analysis waited for its turn on the simulator."""
    total = time.perf_counter() - started
    wait = "" if waited is None else f"wait;dur={1000 * waited:.1f}, "
    return {"Server-Timing": f"{wait}simulate;dur={1000 * seconds:.1f}, total;dur={1000 * total:.1f}"}


class _Tables:
    """The results folder's tables, each read once: the class counts (and their groupings: the last
    ``TABLE_GROUPINGS`` asked for are kept), what to call by place in the auction, and the match-equity table.

    A grouping is keyed on its features in one order (``FEATURES``'), whatever order they are asked in, so the
    7 features give at most 127 groupings, and the answer is the same for any order.
    """

    def __init__(self, results: Path | None, name: str = "") -> None:
        self.results = results
        self.name = name  # "" for the results folder itself, else its subfolder's name
        self._lock = threading.Lock()
        self._table: ClassTable | None = None
        self._made: OrderedDict[tuple[str, ...], dict[str, Any]] = OrderedDict()
        self._fixed: dict[str, dict[str, Any] | None] = {}
        self._variants: dict[str, _Tables] | None = None

    def variants(self) -> dict[str, _Tables]:
        """The folder itself and the reports in its subfolders (at most ``MAX_VARIANTS``), found once."""
        with self._lock:
            if self._variants is None:
                found = [] if self.results is None else report_folders(self.results)[:MAX_VARIANTS]
                self._variants = {"": self, **{name: _Tables(self.results / name, name) for name in found}}
            return self._variants

    def listing(self) -> list[dict[str, str]]:
        """``variants`` for the page: each rule set's name and its rules in words, from its bid table."""
        return [{"name": name, "label": tables.label()} for name, tables in self.variants().items()]

    def label(self) -> str:
        """The rules of the bid table in words (``round points``); else the folder's name."""
        path = self._path(BID_TABLE)
        with self._lock, contextlib.suppress(SmearError, OSError, ValueError):  # a broken table says so when asked
            if self._table is None and path is not None and path.exists():
                self._table = ClassTable.load(path)
            if self._table is not None:
                return rules_name(self._table.rules)
        return self.name or "this folder"

    def answer(self, by: tuple[str, ...], variant: str = "") -> dict[str, Any]:
        """``GET /api/tables``: the tables of ``variant`` ("" for the results folder itself), with ``variants``."""
        variants = self.variants()
        if variant not in variants:
            offered = ", ".join(repr(name) for name in variants if name) or "none"
            raise SmearError(f"unknown variant {variant!r}: the results folder's reports under other rules are "
                             f"{offered} (leave variant out for the folder itself)")
        return {**variants[variant].get(by), "variant": variant, "variants": self.listing()}

    def get(self, by: tuple[str, ...]) -> dict[str, Any]:
        with self._lock:
            for name, read in ((POSITION_TABLE, _position_json), (EQUITY_TABLE, _equity_json)):
                if name not in self._fixed:
                    path = self._path(name)
                    self._fixed[name] = read(path) if path is not None and path.exists() else None
            classes = self._classes(tuple(sorted(by, key=list(FEATURES).index)))
            answer = {**classes, "by_position": self._fixed[POSITION_TABLE], "equity": self._fixed[EQUITY_TABLE]}
            if not any(answer.values()):
                where = ("no results folder was given" if self.results is None else
                         f"the results folder has none of {BID_TABLE}, {POSITION_TABLE} and {EQUITY_TABLE}")
                raise SmearError(f"no tables to show: {where}; make them with 'smear-sim report', or start the server "
                                 "with --results DIR naming a folder that has them")
            return {**answer, "count": self._count()}

    def _count(self) -> dict[str, Any] | None:
        """The shipped count fitted under the bid table's rules, as the report shows it; None without a bid table
        or with none fitted under its rules. Called holding the lock, after :meth:`_classes`."""
        if self._table is None:
            return None
        if "count" not in self._fixed:
            rule = fitted_count(self._table.rules)
            self._fixed["count"] = None if rule is None else count_view(rule)
        return self._fixed["count"]

    def _path(self, name: str) -> Path | None:
        return None if self.results is None else self.results / name

    def _classes(self, by: tuple[str, ...]) -> dict[str, Any]:
        path = self._path(BID_TABLE)
        if path is None or not path.exists():
            return {"source": None, "features": [], "bid_table": None, "moon_table": None}
        if by in self._made:
            self._made.move_to_end(by)
            return self._made[by]
        if self._table is None:
            self._table = ClassTable.load(path)
        frame = self._table.frame(by)
        self._made[by] = {
            "source": path.name,
            "features": [_feature(name, _levels(frame[name])) for name in by],
            "bid_table": table_json(frame),
            "moon_table": table_json(moon_table(self._table, by)),
        }
        while len(self._made) > TABLE_GROUPINGS:
            self._made.popitem(last=False)
        return self._made[by]


def _position_json(path: Path) -> dict[str, Any]:
    """``by_position.csv`` (``smear-sim bid-table --by-position``) for the page: its rows, one grid of calls per
    place as the Markdown file draws it, and what its ``.npz`` and ``.md`` say of how it was made."""
    import pandas as pd

    from ..analysis.positions import PositionTable
    from ..output.format import call_charts

    try:
        frame = pd.read_csv(path, dtype={"call": "string", "standing": "string"}, keep_default_na=True)
        rows = json.loads(frame.to_json(orient="records"))
        charts = call_charts(frame.astype(object).where(frame.notna(), None).to_dict("records"))
    except (OSError, ValueError, KeyError) as exc:
        raise SmearError(f"{path.name} is not a table from 'smear-sim bid-table --by-position': {exc}") from None
    meta: dict[str, Any] = {}
    counts = path.with_suffix(".npz")
    if counts.exists():
        meta = PositionTable.load(counts).metadata()
    markdown = path.with_suffix(".md")
    if markdown.exists():  # the score the calls are judged at is stated only there
        found = re.search(r"most likely to win the game at (-?\d+)\u2013(-?\d+)", markdown.read_text(encoding="utf-8"))
        if found:
            meta["score"] = [int(found[1]), int(found[2])]
    calls = [name[len("win_"):] for name in frame.columns if name.startswith("win_") and not name.startswith("win_se")
             and name != "win_margin"]
    return {**meta, "source": path.name, "calls": calls, "rows": rows,
            "charts": [{"place": c.place, "strengths": c.strengths, "standings": c.standings, "cells": c.cells}
                       for c in charts]}


EQUITY_LOW = -10  # the lowest score the page shows, as equity.md


def _equity_json(path: Path) -> dict[str, Any]:
    """``equity.csv`` (``smear-sim equity``) as grids of P(win) and its standard error, ``[dealer][us][them]`` over
    ``scores`` from -10 (as ``equity.md``), the dealer being the team that deals the next hand."""
    import pandas as pd

    try:
        frame = pd.read_csv(path)
        scores = sorted(s for s in frame["us"].unique().tolist() if s >= EQUITY_LOW)
        dealers = ["them", "us"]
        grids = {}
        for key in ("win", "win_se"):
            grids[key] = [frame[frame["dealer"] == dealer].pivot(index="us", columns="them", values=key)
                          .reindex(index=scores, columns=scores).round(6).values.tolist() for dealer in dealers]
    except (OSError, ValueError, KeyError) as exc:
        raise SmearError(f"{path.name} is not a match-equity table from 'smear-sim equity': {exc}") from None
    return {"source": path.name, "scores": scores, "dealers": dealers, **grids}


def _feature(name: str, values: list) -> dict[str, Any]:
    """A feature for the page: its help, its values in order and each value's label in a table cell (the
    labels of output/format.py, so the page shows a class as the terminal and the report do)."""
    label = FEATURES[name]
    return {"name": name, "help": label.help, "values": values, "labels": [label.cell(v) for v in values]}


def _levels(column) -> list:
    """A feature's values in the table's order (the top trump best first), as plain JSON values."""
    if hasattr(column, "cat"):  # categorical: keep the categories' order
        seen = set(column)
        return [str(value) for value in column.cat.categories if value in seen]
    return sorted(column.unique().tolist())


def create_app(*, results: Path | None = Path("results"), max_samples: int = DEFAULT_MAX_SAMPLES,
               max_deals: int = DEFAULT_MAX_DEALS, max_span: int = DEFAULT_MAX_SPAN, simulator: Simulator | None = None,
               warm_up: bool = True, host: str | None = None, max_body: int = MAX_BODY,
               body_timeout: float = BODY_TIMEOUT, max_review_samples: int = DEFAULT_MAX_REVIEW_SAMPLES,
               max_decisions: int = DEFAULT_MAX_DECISIONS, games_dir: Path | None = None,
               max_tables: int = DEFAULT_MAX_TABLES, idle_expiry: float = DEFAULT_IDLE_EXPIRY,
               clock: Callable[[], float] = time.monotonic) -> FastAPI:
    """The app: the API under ``/api`` and the page at ``/``, behind :class:`smear_sim.web.guard.Guard`.

    ``results`` is the folder the tables come from (``bid_table.npz``, ``by_position.csv``, ``equity.csv``);
    ``max_samples`` caps the deals one request may simulate for the hand, ``max_deals`` those its auction
    analysis may try and ``max_span`` the points its equity table may span; ``warm_up`` loads (or compiles)
    the simulator's kernels (the hand's and the auction's) when the server starts and makes the default
    match-equity table (seed 1, the default rules and player, 0-0), so that no request waits for them: until that is done, an analysis asked
    for is answered at once with 503 and ``Retry-After`` (:class:`WarmingUp`; the page says it is warming up
    and asks again), while the other endpoints answer as ever. ``app.state.ready`` is set once it is done
    (it is clear only while the warm-up runs). ``host`` is the address
    given to ``--host``, which requests may name besides loopback; ``max_body`` and ``body_timeout`` bound a
    request's body. ``app.state.simulator`` is the simulator, which the server closes as it begins to stop.

    The practice table (:mod:`smear_sim.web.practice`): at most ``max_tables`` open, each closed after
    ``idle_expiry`` seconds untouched (by ``clock``), each finished hand saved in ``games_dir`` (default
    :func:`smear_sim.web.games.default_games_dir`) as the game record so far; ``app.state.practice`` holds them.
    """
    simulator = simulator or Simulator()
    tables = _Tables(results)
    games = GameFolder(default_games_dir() if games_dir is None else games_dir)
    practice = Tables(games, max_tables=max_tables, idle_expiry=idle_expiry, clock=clock)
    # Cleared only while the warm-up runs: without it, or without the lifespan that starts it (a test client
    # outside "with", a server run with lifespan off), the server is ready at once. Set again if the warm-up
    # fails: then each request loads what it needs itself.
    ready = threading.Event()
    ready.set()
    engine = HintEngine(simulator)  # the hints' and reviews' kernels, warmed after the rest (web/warmup.py)

    def warmed(future) -> None:
        if not future.cancelled() and future.exception() is not None \
                and not isinstance(future.exception(), AnalysisCancelled | ServerBusy):
            log.error("warm-up: %s", _internal_error(future.exception()))
        ready.set()
        engine.start()

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm_up:  # the page's first question, seated: the hand's and the auction's kernels, seed 1's table
            first = hand_request({"cards": EXAMPLE_HAND, "samples": 1, "position": 3, "auction": "2,pass"},
                                 max_samples, max_deals, max_span)
            ready.clear()

            def warm(executor) -> None:
                first.run(executor)
                # The error of that table, which every hint and review reads (match_equity._table_variance): made
                # now, in 2 s, not in the hint a person is waiting for.
                shared_equity(DEFAULT_HANDS, 1, Rules(), "heuristic", DEFAULT_FLOOR).gradient  # noqa: B018

            engine.expect()
            try:
                simulator.submit(warm).add_done_callback(warmed)
            except ServerBusy:
                ready.set()
                engine.start()
            threading.Thread(target=_warm_bots, name="smear-sim-bots", daemon=True).start()
        yield
        simulator.close()

    def ready_for(asked: HandRequest) -> HandRequest:
        if not ready.is_set():
            raise WarmingUp(WARMING_UP)
        return asked

    app = FastAPI(title="smear-sim", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.simulator = simulator
    app.state.ready = ready
    app.state.practice = practice
    app.state.hint_engine = engine
    app.add_middleware(Guard, hosts=allowed_hosts(host), max_body=max_body, body_timeout=body_timeout)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        return _error(400, f"{'.'.join(map(str, first.get('loc', ())))}: {first.get('msg', 'bad request')}")

    app.include_router(engine.router())

    @app.get("/api/rules")
    @_answers
    async def rules() -> JSONResponse:
        return JSONResponse({
            "options": describe_options(),
            "policies": list(FAST_POLICIES),
            "hand": {"fields": list(HAND_FIELDS), "trumps": list(SUIT_NAMES), "default_samples": DEFAULT_SAMPLES,
                     "max_samples": max_samples, "max_deals": max_deals, "max_span": max_span},
            "table_features": {name: label.help for name, label in FEATURES.items()},
            "ready": ready.is_set(),  # False while the server warms up: analyses are refused (503) until then
            "hint_engine": engine.status(),  # the hints' first-use warm-up (GET /api/warmup)
        })

    @app.get("/api/tables")
    @_answers
    async def tables_endpoint(by: str = ",".join(DEFAULT_FEATURES), variant: str = "") -> JSONResponse:
        features = parse_features(by)
        return JSONResponse(await run_in_threadpool(tables.answer, features, variant))

    @app.post("/api/calls")
    @_answers
    async def calls(request: Request) -> JSONResponse:
        return JSONResponse(legal_auction(await _json_body(request)))

    @app.post("/api/hand")
    @_answers
    async def hand(request: Request) -> JSONResponse:
        started = time.perf_counter()
        asked = ready_for(hand_request(await _json_body(request), max_samples, max_deals, max_span))
        data, seconds = await _while_connected(request, lambda cancelled: simulator.submit(asked.run,
                                                                                            cancelled=cancelled))
        return JSONResponse(data, headers=_timing(seconds, started))

    @app.post("/api/hint")
    @_answers
    async def hint_endpoint(request: Request) -> JSONResponse:
        started = time.perf_counter()
        asked = hint_request(await _json_body(request), max_span)
        if not ready.is_set():
            raise WarmingUp(WARMING_UP)
        data, seconds = await _while_connected(request, lambda cancelled: simulator.submit(asked.run,
                                                                                            cancelled=cancelled))
        return JSONResponse(data, headers=_timing(seconds, started))

    @app.post("/api/hand/stream")
    @_answers
    async def hand_stream(request: Request) -> StreamingResponse:
        started = time.perf_counter()
        asked = ready_for(hand_request(await _json_body(request), max_samples, max_deals, max_span))
        loop = asyncio.get_running_loop()
        events: asyncio.Queue = asyncio.Queue()
        cancelled = threading.Event()

        def post(event) -> None:
            loop.call_soon_threadsafe(events.put_nowait, event)

        future = simulator.submit(lambda executor: asked.run(executor, stage=post), progress=post,
                                  cancelled=cancelled)
        future.add_done_callback(lambda _: post(None))

        async def lines() -> AsyncIterator[str]:
            # the equity table's hands, when it is made; the deals that fit the calls are known only at the end
            totals = {"hand": asked.query.job.total, "equity": asked.query.equity_hands, "auction": None}
            stage, done = "hand", 0
            try:
                yield _line({"progress": {"stage": stage, "done": 0, "total": totals[stage]}})
                while (event := await events.get()) is not None:
                    if isinstance(event, str):  # a new stage starts
                        if event != stage:
                            stage, done = event, 0
                            yield _line({"progress": {"stage": stage, "done": 0, "total": totals[stage]}})
                        continue
                    done += event
                    yield _line({"progress": {"stage": stage, "done": done, "total": totals[stage]}})
                yield _line(_outcome(future, started))
            finally:
                cancelled.set()  # the client went away, or the answer is out: either way, stop

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    async def review_asked(request: Request):
        """The review a request asks for, checked, once the simulator is ready (both review routes)."""
        asked = review_request(await _json_body(request), max_review_samples, max_decisions, max_span)
        if not ready.is_set():
            raise WarmingUp(WARMING_UP)
        return asked

    @app.post("/api/review")
    @_answers
    async def review_endpoint(request: Request) -> JSONResponse:
        started = time.perf_counter()
        asked = await review_asked(request)
        data, seconds = await _while_connected(request, lambda cancelled: simulator.submit(asked.run,
                                                                                            cancelled=cancelled))
        return JSONResponse(data, headers=_timing(seconds, started))

    @app.post("/api/review/stream")
    @_answers
    async def review_stream(request: Request) -> StreamingResponse:
        started = time.perf_counter()
        asked = await review_asked(request)
        hands = [{"record": h.record, "deal": h.deal, "hand": h.hand.to_json(), "result": h.result.to_json()}
                 for h in asked.hands]  # what the page draws the tricks from: the rules stay on the server
        return _streamed(simulator, lambda executor, post: asked.run(executor, progress=lambda n: post(n)),
                         {"review": asked.decisions}, "review", started, {"hands": hands})

    # -- the practice table (smear_sim.web.practice) --------------------------------------------------------

    async def table_call(table_id: str, request: Request | None, fields: tuple[str, ...], work) -> JSONResponse:
        body = {} if request is None else await _table_body(request, fields)
        table = practice.get(table_id)

        def locked() -> dict[str, Any]:
            with table.lock:
                if body.get("step") is not None and body["step"] != table.step:
                    raise SmearError(f"the table has moved on (step {table.step}, not {body['step']}): reload it")
                extra = work(table, body)
                return {**table.state(), **(extra or {})}

        return JSONResponse(await run_in_threadpool(locked))

    @app.post("/api/table")
    @_answers
    async def table_open(request: Request) -> JSONResponse:
        table = practice.open(await _json_body(request))
        with table.lock:
            return JSONResponse(table.state())

    @app.get("/api/table/{table_id}")
    @_answers
    async def table_show(table_id: str) -> JSONResponse:
        return await table_call(table_id, None, (), lambda table, body: None)

    @app.post("/api/table/{table_id}/act")
    @_answers
    async def table_act(table_id: str, request: Request) -> JSONResponse:
        def act(table, body):
            if "action" not in body:
                raise SmearError("action is missing: give your call, trump, six cards to keep or card")
            table.act(body["action"])
            if table.hand_over:
                practice.save(table)
        return await table_call(table_id, request, ("action", "step"), act)

    @app.post("/api/table/{table_id}/bot")
    @_answers
    async def table_bot(table_id: str, request: Request) -> JSONResponse:
        def step(table, body):
            move = table.bot_step()
            if table.hand_over:
                practice.save(table)
            return {"move": move}
        return await table_call(table_id, request, ("step",), step)

    @app.post("/api/table/{table_id}/next")
    @_answers
    async def table_next(table_id: str, request: Request) -> JSONResponse:
        return await table_call(table_id, request, ("step",), lambda table, body: table.next_hand())

    @app.post("/api/table/{table_id}/hint")
    @_answers
    async def table_hint(table_id: str, request: Request) -> JSONResponse:
        started = time.perf_counter()
        body = await _table_body(request, ("samples", "action", "step"))
        table = practice.get(table_id)
        samples = _optional(body, "samples", int, "a whole number of worlds")
        if samples is not None:
            if samples < 1:  # worded as the page's field, not as the command line's --samples
                raise SmearError(f"samples must be a whole number of worlds from 1 to {MAX_HINT_SAMPLES:,}, got {samples}")
            if samples > MAX_HINT_SAMPLES:
                raise SmearError(f"samples must be at most {MAX_HINT_SAMPLES:,} worlds on this server, got "
                                 f"{samples:,}")
        with table.lock:
            asked = table.hint_question(body.get("action"))
            step = table.step
        if not ready.is_set():
            raise WarmingUp(WARMING_UP)
        view, action = asked
        plan = RunPlan.of(hint_policy(table.bots), view.rules)

        submitted = time.perf_counter()
        began: list[float] = []

        def work(executor) -> tuple[dict[str, Any], float]:
            from ..analysis.decisions import hint
            from ..analysis.review import mark_of

            began.append(time.perf_counter())

            extra = [action] if action is not None and view.decision == "keep" else []
            result = hint(view, samples=samples, seed=1, plan=plan.but(executor=executor), extra=extra,
                          max_worlds=TABLE_HINT_WORLDS)
            data = {**result.to_json(), "costs": hint_costs(result), "step": step}
            if action is not None:
                points, win = result.cost(action)
                data["taken"] = {"action": action, "points": round(points.value, 4), "win": round(win.value, 5),
                                 "mark": mark_of(max(win.value, 0.0))}
            return data, result.seconds

        # A person at the table waits for this hint: it goes before the reviews (web/scheduler.py).
        data, seconds = await _while_connected(request, lambda cancelled: simulator.submit(work, cancelled=cancelled,
                                                                                          urgent=True))
        return JSONResponse(data, headers=_timing(seconds, started, began[0] - submitted))

    @app.get("/api/games")
    @_answers
    async def games_list() -> JSONResponse:
        return JSONResponse({"games": await run_in_threadpool(games.listing)})

    @app.get("/api/games/{name}")
    @_answers
    async def games_read(name: str) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(games.read, name))

    app.mount("/", _Page(directory=STATIC, html=True), name="page")
    return app


def _warm_bots() -> None:
    """Compile (or load) the kernels the practice table's heuristic bots call, so that the first bot's turn is
    quick: a minute or so with Numba's cache cold, under a second with it warm."""
    from ..analysis.bots import warm_up

    try:
        started = time.perf_counter()
        warm_up("heuristic")  # says so on stderr first where Numba's cache does not hold them
        log.info("the practice table's bots are ready (%.1f s)", time.perf_counter() - started)
    except Exception as exc:  # the first bot's turn compiles them instead
        log.error("warming up the bots: %s", _internal_error(exc))


async def _table_body(request: Request, fields: tuple[str, ...]) -> dict[str, Any]:
    """A practice table request's body: a JSON object of ``fields`` (an empty body is an empty object)."""
    raw = await request.body()
    if not raw.strip():
        return {}
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise SmearError("send the request body as JSON, with the header Content-Type: application/json")
    body = read_json(raw)
    if not isinstance(body, dict):
        raise SmearError(f"the request must be a JSON object with the fields {', '.join(fields) or '(none)'}")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise SmearError(f"unknown field {unknown[0]!r} in the request: the fields are {', '.join(fields) or '(none)'}")
    step = body.get("step")
    if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
        raise SmearError(f"step must be the table's step, a whole number, got {str(step)[:60]}")
    return body


def _streamed(simulator: Simulator, run, totals: dict[str, int | None], first: str, started: float,
              head: dict[str, Any] | None = None) -> StreamingResponse:
    """``run(executor, post)`` on the simulator, answered as NDJSON: ``head`` first (when given), then
    ``{"progress": {"stage", "done", "total"}}`` as ``post`` hears of work done (a number) or a new stage (a name),
    then ``{"result": ...}`` or ``{"error": ...}`` (as ``POST /api/hand/stream``); closing the connection stops it."""
    loop = asyncio.get_running_loop()
    events: asyncio.Queue = asyncio.Queue()
    cancelled = threading.Event()

    def post(event) -> None:
        loop.call_soon_threadsafe(events.put_nowait, event)

    future = simulator.submit(lambda executor: run(executor, post), cancelled=cancelled)
    future.add_done_callback(lambda _: post(None))

    async def lines() -> AsyncIterator[str]:
        stage, done = first, 0
        try:
            if head:
                yield _line(head)
            yield _line({"progress": {"stage": stage, "done": 0, "total": totals.get(stage)}})
            while (event := await events.get()) is not None:
                if isinstance(event, str):
                    if event != stage:
                        stage, done = event, 0
                        yield _line({"progress": {"stage": stage, "done": 0, "total": totals.get(stage)}})
                    continue
                done += event
                yield _line({"progress": {"stage": stage, "done": done, "total": totals.get(stage)}})
            yield _line(_outcome(future, started))
        finally:
            cancelled.set()

    return StreamingResponse(lines(), media_type="application/x-ndjson")


async def _while_connected(request: Request, start: Callable[[threading.Event], Any]) -> Any:
    """Run ``start(cancelled)`` (a concurrent future) to its result, setting ``cancelled`` if the client goes
    away first, so that the analysis stops at its next slice instead of running for no one."""
    cancelled = threading.Event()
    future = asyncio.wrap_future(start(cancelled))

    async def disconnected() -> None:
        with contextlib.suppress(Exception):  # a receive that fails means no client either
            while (await request.receive())["type"] != "http.disconnect":
                pass

    watch = asyncio.ensure_future(disconnected())
    try:
        await asyncio.wait({future, watch}, return_when=asyncio.FIRST_COMPLETED)
        if not future.done():
            cancelled.set()
        return await future
    finally:
        cancelled.set()
        watch.cancel()


class _Page(StaticFiles):
    """The page's files, which browsers must check again on each load, so that an upgrade shows at once."""

    async def get_response(self, path: str, scope):
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        return response


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n"


def _outcome(future, started: float) -> dict[str, Any]:
    try:
        data, seconds = future.result()
    except BadValue as exc:
        return {"error": exc.worded()}
    except (SmearError, ServerBusy) as exc:
        return {"error": str(exc)}
    except AnalysisCancelled:
        return {"error": STOPPED}
    except Exception as exc:
        log.error("%s", _internal_error(exc), exc_info=bool(os.environ.get("SMEAR_SIM_DEBUG")))
        return {"error": _internal_error(exc)}
    return {"result": data, "seconds": round(time.perf_counter() - started, 3),
            "simulate_seconds": round(seconds, 3)}
