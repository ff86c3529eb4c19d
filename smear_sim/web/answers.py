"""What every route shares: the server's context, the body read as JSON, an analysis run on the shared simulator
(answered whole, or streamed as lines of JSON), and every error answered as ``{"error": one line}`` with the status
:mod:`smear_sim.core.errors` gives it."""

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
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse, StreamingResponse

from ..core.errors import SmearError, http_status, message, one_line
from ..engine.turns import ServerBusy, Simulator
from ..output.results_folder import ResultsFolder
from .games import GameFolder
from .limits import Limits
from .practice import Tables
from .warmup import HintEngine

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "RETRY_AFTER", "WARMING_UP", "Context", "Ctx", "WarmingUp", "answers", "context",
           "error", "internal_error", "json_body", "read_json", "run_analysis", "streamed", "timing"]

MAX_DEPTH = 16  # levels of nesting in a request body: a review's game record needs 4
MAX_DIGITS = 20  # digits in a number of a request body: 2**64 - 1 (the largest seed) has 20
RETRY_AFTER = 1  # seconds, in the warming-up answer's Retry-After
WARMING_UP = ("the server is warming up: it loads the simulator and makes its first match-equity table once, "
              "after it starts; ask again in a moment")
log = logging.getLogger("smear_sim.web")


class WarmingUp(ServerBusy):
    """An analysis asked for while the server warms up: answered at once with 503 and ``Retry-After``, instead of
    a wait of seconds (minutes where the kernels must be compiled)."""

    headers = {"Retry-After": str(RETRY_AFTER)}

    def __init__(self, message: str = WARMING_UP) -> None:
        super().__init__(message)


@dataclass(frozen=True)
class Context:
    """What the routes of one server share (``app.state.context``)."""

    limits: Limits
    simulator: Simulator
    ready: threading.Event  # clear only while the server warms up
    results: ResultsFolder
    games: GameFolder
    practice: Tables
    hint_engine: HintEngine  # the hints' and reviews' kernels, warmed after the rest (web/warmup.py)

    def check_ready(self) -> None:
        """Raise :class:`WarmingUp` while the server warms up: an analysis is refused then, at once."""
        if not self.ready.is_set():
            raise WarmingUp


def context(request: Request) -> Context:
    """The server's :class:`Context` (a route's dependency)."""
    return request.app.state.context


Ctx = Annotated[Context, Depends(context)]  # a route's parameter: the server's context


def internal_error(exc: BaseException) -> str:
    return f"internal error: {type(exc).__name__}: {exc} (a bug in smear-sim; please report it)"


_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/])/(?:[^\s'\"/]+/)+([^\s'\"/]*)")


def error(status: int, text: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """``{"error": text}``: one short line that names no folder of this machine (a path keeps only its last part),
    since the answer may go to a browser, not to whoever started the server."""
    return JSONResponse({"error": one_line(_ABSOLUTE_PATH.sub(r"\1", text))}, status_code=status, headers=headers)


def _answer_error(exc: Exception) -> JSONResponse:
    status = http_status(exc)
    if status == 500:
        log.error("%s", internal_error(exc), exc_info=bool(os.environ.get("SMEAR_SIM_DEBUG")))
        return error(500, internal_error(exc))
    return error(status, message(exc), getattr(exc, "headers", None))


def answers(endpoint):
    """Every error of ``endpoint`` answered as ``{"error": one line}`` with its status (core.errors): bad input
    400, a closed table 410, a full server 503, ..., a bug 500."""

    @functools.wraps(endpoint)
    async def wrapper(*args, **kwargs):
        try:
            return await endpoint(*args, **kwargs)
        except Exception as exc:
            return _answer_error(exc)

    return wrapper


async def json_body(request: Request, empty: Any = ...) -> Any:
    """The request's body as JSON (:func:`read_json`); an empty body is ``empty`` where one is given."""
    raw = await request.body()
    if empty is not ... and not raw.strip():
        return empty
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise SmearError("send the request body as JSON, with the header Content-Type: application/json")
    return read_json(raw)


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


def timing(seconds: float, started: float, waited: float | None = None) -> dict[str, str]:
    """The simulation's time and the whole request's, for the browser's developer tools and the page; ``waited``:
    the time the analysis waited for its turn on the simulator."""
    total = time.perf_counter() - started
    wait = "" if waited is None else f"wait;dur={1000 * waited:.1f}, "
    return {"Server-Timing": f"{wait}simulate;dur={1000 * seconds:.1f}, total;dur={1000 * total:.1f}"}


async def run_analysis(request: Request, ctx: Context, work: Callable[[Any], Any], *, urgent: bool = False) -> Any:
    """``work(executor)`` on the shared simulator, taking turns with the other analyses (``urgent``: before them,
    as a person at the table waits for it); its result once done. If the client goes away first, the analysis
    stops at its next slice instead of running for no one."""
    cancelled = threading.Event()
    future = asyncio.wrap_future(ctx.simulator.submit(work, cancelled=cancelled, urgent=urgent))

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


def streamed(ctx: Context, run, totals: dict[str, int | None], first: str, started: float,
             head: dict[str, Any] | None = None, progress: bool = False) -> StreamingResponse:
    """``run(executor, post)`` on the simulator, answered as NDJSON: ``head`` first (when given), then
    ``{"progress": {"stage", "done", "total"}}`` as ``post`` hears of work done (a number) or a new stage (a name;
    ``progress``: the simulator's own progress too), then ``{"result": ...}`` or ``{"error": ...}``; closing the
    connection stops it."""
    loop = asyncio.get_running_loop()
    events: asyncio.Queue = asyncio.Queue()
    cancelled = threading.Event()

    def post(event) -> None:
        loop.call_soon_threadsafe(events.put_nowait, event)

    future = ctx.simulator.submit(lambda executor: run(executor, post), progress=post if progress else None,
                                  cancelled=cancelled)
    future.add_done_callback(lambda _: post(None))

    async def lines() -> AsyncIterator[str]:
        stage, done = first, 0
        try:
            if head:
                yield _line(head)
            yield _line({"progress": {"stage": stage, "done": 0, "total": totals.get(stage)}})
            while (event := await events.get()) is not None:
                if isinstance(event, str):  # a new stage starts
                    if event != stage:
                        stage, done = event, 0
                        yield _line({"progress": {"stage": stage, "done": 0, "total": totals.get(stage)}})
                    continue
                done += event
                yield _line({"progress": {"stage": stage, "done": done, "total": totals.get(stage)}})
            yield _line(_outcome(future, started))
        finally:
            cancelled.set()  # the client went away, or the answer is out: either way, stop

    return StreamingResponse(lines(), media_type="application/x-ndjson")


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n"


def _outcome(future, started: float) -> dict[str, Any]:
    try:
        data, seconds = future.result()
    except Exception as exc:
        if http_status(exc) == 500:
            log.error("%s", internal_error(exc), exc_info=bool(os.environ.get("SMEAR_SIM_DEBUG")))
            return {"error": internal_error(exc)}
        return {"error": message(exc)}
    return {"result": data, "seconds": round(time.perf_counter() - started, 3),
            "simulate_seconds": round(seconds, 3)}
