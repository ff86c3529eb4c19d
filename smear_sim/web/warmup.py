"""The hint engine's warm-up: the kernels of the practice table's hints and of a review, compiled after the server starts.

The server's own warm-up (:func:`smear_sim.web.server.create_app`) readies what the page's first question needs: the
hand's and the auction's kernels and seed 1's match-equity table. A hint and a review call other drivers (a trump or
keep hint ``deal_hint``, a card hint ``card_hint``, a review also ``deal_outcomes`` for the luck), which a fresh
install compiles on first use: the first keep hint or review would wait most of a minute, with the page saying
nothing of it (docs/performance.md). So once the server's warm-up is done, :class:`HintEngine` runs one tiny hint of each kind and a review of one
hand, each in its own turn on the simulator (:data:`STAGES`): the compile happens there, and an analysis that waits
goes before the next stage. With Numba's cache warm, the whole warm-up loads in a second or two.

Nothing is refused meanwhile: a hint asked during the warm-up takes its turn (urgent, before the next stage) and
compiles what it still needs itself. The page reads :meth:`HintEngine.status` (``GET /api/warmup``, and ``hint_engine``
in ``GET /api/rules``) and says "Preparing the hint engine (first use)" with the stages done while it waits. A stage
that is still running after :data:`WATCH_SECONDS` (it is compiling) is also said on the server's stderr, as the command
line says a first compile.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..core.errors import one_line
from ..core.rules import Rules
from ..engine.turns import AnalysisCancelled, ServerBusy, Simulator
from ..reference import hand as ref
from ..reference.game import FIRST_DEALER
from ..reference.record import HandRecord, replay_position
from .practice import deal

__all__ = ["PREPARING", "STAGES", "WATCH_SECONDS", "HintEngine", "Stage", "sample_hand"]

PREPARING = "preparing the hint engine (first use)"
WATCH_SECONDS = 1.0  # a stage still running after this is compiling: said on stderr
SAMPLE_SEED = 7  # the deal of the warm-up's hand (any deal does: only the kernels' types matter)


def sample_hand(rules: Rules | None = None) -> HandRecord:
    """A whole hand under ``rules`` (default: the defaults), played by the reference engine's first legal action
    everywhere: the opener bids 2, the others pass, trump is spades. Its decisions are the warm-up's questions."""
    rules = rules or Rules()
    hands, kitty = deal(SAMPLE_SEED)
    bids = (2, ref.PASS, ref.PASS, ref.PASS)
    bidder = ref.seat_of_bid(FIRST_DEALER, 0)
    trump = 0
    discards = tuple(next(ref.legal_discards(list(hands[s]) + (list(kitty) if s == bidder else []), trump))
                     for s in range(4))
    record = HandRecord(rules, FIRST_DEALER, (0, 0), hands, kitty, bids, trump, discards, ())
    while (position := replay_position(record)).to_play is not None:
        record = dataclasses.replace(record, plays=(*record.plays, position.legal()[0]))
    return record


def _plan(executor, rules: Rules):
    from ..analysis.plan import RunPlan

    return RunPlan.of("heuristic", rules).replace(executor=executor)  # the default table's hints and the page's reviews


def _keep_hint(executor) -> None:
    from ..analysis.decisions import hint
    from ..reference.view import view_of

    record = sample_hand()
    seat = next(s for s in range(4) if s != replay_position(record).bidder)
    hint(view_of(record, seat, discards=False), samples=1, plan=_plan(executor, record.rules))


def _card_hint(executor) -> None:
    from ..analysis.decisions import hint
    from ..reference.view import view_of

    record = sample_hand()
    hint(view_of(record, replay_position(record).bidder, plays=0), samples=1, plan=_plan(executor, record.rules))


def _review(executor) -> None:
    from ..analysis.review import review

    record = sample_hand()  # its one trump decision: the hints' kernels are the stages' before, the luck's are new
    review([record.to_json()], samples=1, luck=True, kinds=("trump",), plan=_plan(executor, record.rules))


@dataclass(frozen=True)
class Stage:
    """One step of the warm-up: ``work(executor)`` on the simulator; ``words`` name it for the page and the log."""

    name: str
    words: str
    work: Callable[[Any], None]


# The order a person at the table meets them: a trump or keep hint, then cards, then the hand's review.
STAGES: tuple[Stage, ...] = (
    Stage("keep", "the trump and keep hints", _keep_hint),
    Stage("card", "the card hints", _card_hint),
    Stage("review", "the reviews", _review),
)


class HintEngine:
    """The warm-up of the hints' and reviews' kernels (module docstring): :meth:`expect` when the server's own warm-up
    starts, :meth:`start` when it ends; :meth:`status` says where it is. Ready until expected, and once done."""

    def __init__(self, simulator: Simulator, stream=None) -> None:
        self._simulator = simulator
        self._stream = stream  # None: sys.stderr at the time of writing
        self._lock = threading.Lock()
        self._stages: tuple[Stage, ...] = ()
        self._done = 0
        self._running = False
        self._first_use = False  # some stage compiled (ran past WATCH_SECONDS)
        self._started = 0.0
        self._ready = threading.Event()  # set whenever the engine is ready (see ready)
        self._ready.set()

    def expect(self) -> None:
        """The warm-up will run once the server's is done: until then, and while it runs, the engine is not ready."""
        with self._lock:
            self._ready.clear()

    def start(self) -> None:
        """Run :data:`STAGES`, each in its own turn on the simulator, one after another."""
        with self._lock:
            if self._running:
                return
            self._stages, self._done, self._running = STAGES, 0, True
            self._started = time.perf_counter()
            self._ready.clear()
        self._next()

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the engine is ready; False if ``timeout`` seconds pass first."""
        return self._ready.wait(timeout)

    def status(self) -> dict[str, Any]:
        """For the page: ``ready``; while not, the ``stage`` in words (null while the server's own warm-up runs),
        the stages ``done`` of ``total``, and ``first_use`` once a stage has been found compiling."""
        with self._lock:
            running = self._running and self._done < len(self._stages)
            total = len(self._stages) if self._stages else len(STAGES)
            return {"ready": self._ready.is_set(), "words": PREPARING,
                    "stage": self._stages[self._done].words if running else None,
                    "done": self._done if self._stages else 0, "total": total, "first_use": self._first_use}

    def router(self) -> APIRouter:
        """``GET /api/warmup``: :meth:`status`."""
        router = APIRouter()

        @router.get("/api/warmup")
        async def warmup_status() -> JSONResponse:
            return JSONResponse(self.status())

        return router

    # -- the stages, one turn each ----------------------------------------------------------------------------------

    def _next(self) -> None:
        with self._lock:
            if self._done >= len(self._stages):
                self._finish()
                return
            index = self._done
            stage = self._stages[index]
        done = threading.Event()

        def watch() -> None:
            if done.wait(WATCH_SECONDS):
                return
            with self._lock:  # said only while the stage is the current one: its line precedes whatever follows it
                if self._done == index and self._running:
                    self._first_use = True
                    self._say(f"{PREPARING}: compiling {stage.words} ({index + 1} of {len(self._stages)})")

        def work(executor) -> None:
            threading.Thread(target=watch, name="smear-sim-hint-engine-watch", daemon=True).start()
            try:
                stage.work(executor)
            finally:
                done.set()

        try:
            future = self._simulator.submit(work)
        except ServerBusy:  # shutting down, or full: each hint compiles what it needs itself
            self._stop()
            return
        future.add_done_callback(self._stage_done)

    def _stage_done(self, future) -> None:
        error = None if future.cancelled() else future.exception()
        if isinstance(error, AnalysisCancelled | ServerBusy) or future.cancelled():
            self._stop()  # the server is stopping
            return
        with self._lock:
            self._done += 1
        if error is not None:  # the hint that needs it compiles it instead
            self._say(f"the hint engine's warm-up failed: {one_line(f'{type(error).__name__}: {error}')} "
                      "(a bug in smear-sim; please report it); hints compile what they need on first use")
        self._next()

    def _finish(self) -> None:
        """Called holding the lock: every stage is done."""
        self._running = False
        self._ready.set()
        if self._first_use:
            self._say(f"the hint engine is ready ({time.perf_counter() - self._started:.1f} s)")

    def _stop(self) -> None:
        with self._lock:
            self._running = False
            self._ready.set()

    def _say(self, line: str) -> None:
        stream = self._stream if self._stream is not None else sys.stderr
        with contextlib.suppress(OSError, ValueError):  # a closed stderr must not stop the server
            stream.write(f"smear-sim: {line}\n")
            stream.flush()
