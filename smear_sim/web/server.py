"""The JSON API behind the page, and the page itself: a FastAPI app over the analysis the command line uses.

- ``POST /api/hand`` takes the options of ``smear-sim hand`` as a JSON object (``cards``, and optionally
  ``trump``, ``samples`` or ``precision``, ``seed``, ``policy``, ``rules``) and answers exactly the object
  that ``smear-sim hand ... --json`` prints for the same arguments. ``POST /api/hand/stream`` runs the same
  analysis and answers in lines of JSON (NDJSON): ``{"progress": {"done": D, "total": N}}`` as it goes,
  then ``{"result": {...}}`` or ``{"error": "..."}``; closing the connection stops the analysis.
- ``GET /api/rules``: the rule options (defaults, choices, ranges, help), the policies, the hand request's
  fields and sample cap (so the page shows only the inputs the API takes), and the features tables group by.
- ``GET /api/tables?by=trumps,top``: the bid table and the moon table of the results folder, regrouped by
  the features asked for (default the committed grouping), as ``smear-sim moon --counts ... --json``
  prints them.

Bad input gets status 400 and ``{"error": "<the command line's one-line message>"}``; a bug gets 500 and a
one-line message, never a traceback. Analyses run in worker threads and take turns on the simulator
(:mod:`smear_sim.web.scheduler`), and each may simulate at most ``max_samples`` deals.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ..analysis.classes import DEFAULT_FEATURES, ClassTable, moon_table, parse_features
from ..analysis.hand import EXAMPLE_HAND, HandQuery, hand_query
from ..core.cards import SUIT_NAMES
from ..core.errors import SmearError
from ..core.players import FAST_POLICIES, parse_policy
from ..core.rules import Rules, describe_options
from ..output.format import FEATURES
from ..output.report import table_json
from .scheduler import AnalysisCancelled, ServerBusy, Simulator

__all__ = ["BID_TABLE", "DEFAULT_MAX_SAMPLES", "HAND_FIELDS", "STATIC", "create_app", "hand_request"]

DEFAULT_MAX_SAMPLES = 200_000
DEFAULT_SAMPLES = 100_000  # as smear-sim hand
STATIC = Path(__file__).parent / "static"
HAND_FIELDS = ("cards", "trump", "samples", "precision", "seed", "policy", "rules")
BID_TABLE = "bid_table.npz"
log = logging.getLogger("smear_sim.web")


def hand_request(body: Any, max_samples: int) -> HandQuery:
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
    policy = _optional(body, "policy", str, "a policy name: " + " or ".join(FAST_POLICIES)) or "heuristic"
    seed = _optional(body, "seed", int, "a whole number")
    samples = _optional(body, "samples", int, "a whole number of deals")
    precision = _optional(body, "precision", (int, float), "a standard error such as 0.01")
    rules = Rules.from_mapping(_optional(body, "rules", dict, "an object of rule options") or {}, source="rules")
    if policy.strip().lower() == "equity":
        from ..analysis.bidder import tables_ready

        if not tables_ready(rules):  # made on first use, in minutes: not inside a request
            raise SmearError(f"the equity player's tables for {rules.summary()} are not made yet: make them once with "
                             "'smear-sim simulate --hands 1000 --policy equity' and these rules (a few minutes)")
    if samples is not None and samples > max_samples:
        raise SmearError(f"samples must be at most {max_samples:,} on this server, got {samples:,}: ask for fewer, "
                         "or give a precision (smear-sim serve --max-samples N raises the cap)")
    query = hand_query(cards, trump=trump, samples=samples, precision=None if precision is None else float(precision),
                       seed=1 if seed is None else seed, policy=policy, rules=rules, max_samples=max_samples)
    if parse_policy(policy).name not in FAST_POLICIES:  # a search player is far too slow for the page
        raise SmearError(f"policy {policy!r} is not offered here: choose {' or '.join(FAST_POLICIES)}")
    return query


def _optional(body: dict, name: str, kind, what: str):
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, kind):
        raise SmearError(f"{name} must be {what}, got {json.dumps(value)}")
    return value


def _internal_error(exc: BaseException) -> str:
    return f"internal error: {type(exc).__name__}: {exc} (a bug in smear-sim; please report it)"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _answers(endpoint):
    """Bad input becomes 400, a full server 503, anything else 500: always ``{"error": one line}``."""

    @functools.wraps(endpoint)
    async def wrapper(*args, **kwargs):
        try:
            return await endpoint(*args, **kwargs)
        except SmearError as exc:
            return _error(400, str(exc))
        except ServerBusy as exc:
            return _error(503, str(exc))
        except Exception as exc:
            log.error("%s", _internal_error(exc), exc_info=bool(os.environ.get("SMEAR_SIM_DEBUG")))
            return _error(500, _internal_error(exc))

    return wrapper


async def _json_body(request: Request) -> Any:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise SmearError("send the request body as JSON, with the header Content-Type: application/json")
    try:
        return json.loads(await request.body())
    except ValueError as exc:
        raise SmearError(f"the request body is not valid JSON: {exc}") from None


def _timing(seconds: float, started: float) -> dict[str, str]:
    """The simulation's time and the whole request's, for the browser's developer tools and the page."""
    total = time.perf_counter() - started
    return {"Server-Timing": f"simulate;dur={1000 * seconds:.1f}, total;dur={1000 * total:.1f}"}


class _Tables:
    """The results folder's class counts, loaded once, and their groupings, made once each."""

    def __init__(self, results: Path | None) -> None:
        self.results = results
        self._lock = threading.Lock()
        self._table: ClassTable | None = None
        self._made: dict[tuple[str, ...], dict[str, Any]] = {}

    def get(self, by: tuple[str, ...]) -> dict[str, Any]:
        with self._lock:
            if by not in self._made:
                table = self._load()
                frame = table.frame(by)
                self._made[by] = {
                    "source": str(self.results / BID_TABLE),
                    "features": [_feature(name, _levels(frame[name])) for name in by],
                    "bid_table": table_json(frame),
                    "moon_table": table_json(moon_table(table, by)),
                }
            return self._made[by]

    def _load(self) -> ClassTable:
        if self._table is None:
            path = None if self.results is None else self.results / BID_TABLE
            if path is None or not path.exists():
                where = "no results folder was given" if path is None else f"{path} does not exist"
                raise SmearError(f"no bid table to show: {where}; make one with 'smear-sim report', or start the "
                                 "server with --results DIR naming a folder that has one")
            self._table = ClassTable.load(path)
        return self._table


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
               simulator: Simulator | None = None, warm_up: bool = True) -> FastAPI:
    """The app: the API under ``/api`` and the page at ``/``.

    ``results`` is the folder whose ``bid_table.npz`` the tables come from; ``max_samples`` caps the deals
    one request may simulate; ``warm_up`` loads (or compiles) the simulator when the server starts, so the
    first request does not wait for it.
    """
    simulator = simulator or Simulator()
    tables = _Tables(results)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm_up:
            simulator.submit(lambda executor: hand_query(EXAMPLE_HAND, samples=1).run(executor=executor))
        yield
        simulator.close()

    app = FastAPI(title="smear-sim", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        return _error(400, f"{'.'.join(map(str, first.get('loc', ())))}: {first.get('msg', 'bad request')}")

    @app.get("/api/rules")
    @_answers
    async def rules() -> JSONResponse:
        return JSONResponse({
            "options": describe_options(),
            "policies": list(FAST_POLICIES),
            "hand": {"fields": list(HAND_FIELDS), "trumps": list(SUIT_NAMES), "default_samples": DEFAULT_SAMPLES,
                     "max_samples": max_samples},
            "table_features": {name: label.help for name, label in FEATURES.items()},
        })

    @app.get("/api/tables")
    @_answers
    async def tables_endpoint(by: str = ",".join(DEFAULT_FEATURES)) -> JSONResponse:
        features = parse_features(by)
        return JSONResponse(await run_in_threadpool(tables.get, features))

    @app.post("/api/hand")
    @_answers
    async def hand(request: Request) -> JSONResponse:
        started = time.perf_counter()
        query = hand_request(await _json_body(request), max_samples)
        analysis = await asyncio.wrap_future(simulator.submit(lambda executor: query.run(executor=executor)))
        return JSONResponse(analysis.to_json(), headers=_timing(analysis.seconds, started))

    @app.post("/api/hand/stream")
    @_answers
    async def hand_stream(request: Request) -> StreamingResponse:
        started = time.perf_counter()
        query = hand_request(await _json_body(request), max_samples)
        loop = asyncio.get_running_loop()
        events: asyncio.Queue = asyncio.Queue()
        cancelled = threading.Event()

        def progress(deals: int) -> None:
            loop.call_soon_threadsafe(events.put_nowait, deals)

        future = simulator.submit(lambda executor: query.run(executor=executor), progress=progress,
                                  cancelled=cancelled)
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(events.put_nowait, None))

        async def lines() -> AsyncIterator[str]:
            total, done = query.job.total, 0
            try:
                yield _line({"progress": {"done": 0, "total": total}})
                while (deals := await events.get()) is not None:
                    done += deals
                    yield _line({"progress": {"done": done, "total": total}})
                yield _line(_outcome(future, started))
            finally:
                cancelled.set()  # the client went away, or the answer is out: either way, stop

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    app.mount("/", _Page(directory=STATIC, html=True), name="page")
    return app


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
        analysis = future.result()
    except (SmearError, ServerBusy) as exc:
        return {"error": str(exc)}
    except AnalysisCancelled:
        return {"error": "the server is shutting down; the analysis was stopped"}
    except Exception as exc:
        log.error("%s", _internal_error(exc), exc_info=bool(os.environ.get("SMEAR_SIM_DEBUG")))
        return {"error": _internal_error(exc)}
    return {"result": analysis.to_json(), "seconds": round(time.perf_counter() - started, 3),
            "simulate_seconds": round(analysis.seconds, 3)}
