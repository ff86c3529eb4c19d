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
  --json`` prints (docs/formats.md, "A seat's view"); its worlds are capped at ``MAX_HINT_SAMPLES``. Its
  ``evaluator`` (``search``, ``net`` or ``both``) is the command's ``--evaluator``: the net's values are answered
  in milliseconds, outside the simulator's turns (:mod:`smear_sim.web.net_values`).
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
(:mod:`smear_sim.engine.turns`); each may simulate at most ``max_samples`` deals for the hand, try at most
``max_deals`` for the auction, and value the game with a match-equity table spanning at most ``max_span``
points (from the lower of -40 and the scores to the target). An analysis stops at its next slice when its
client goes away, streamed or not, at every stage (the hand's deals, the equity table, the auction).

Before any of this, :mod:`smear_sim.web.guard` refuses requests that do not name this server as their Host,
API requests from other sites, and bodies over the cap; a body must be JSON nested at most ``MAX_DEPTH``
deep whose numbers are at most 20 digits long and finite.

The routes live by concern in :mod:`smear_sim.web.routes` (the analyses, the practice table and its saved games,
the results folder), each request read by its schema (:mod:`smear_sim.web.schemas`), every bound of one server in
one :class:`smear_sim.web.limits.Limits`, and what they share in :mod:`smear_sim.web.answers`; this module puts
them together.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from ..analysis.hand import EXAMPLE_HAND, shared_equity
from ..analysis.hand_outcomes import DEFAULT_HANDS
from ..analysis.match_equity import DEFAULT_FLOOR
from ..core.rules import Rules
from ..engine.turns import AnalysisCancelled, ServerBusy, Simulator
from ..output.results_folder import ResultsFolder
from .answers import Context, error, internal_error
from .games import GameFolder, default_games_dir
from .guard import Guard, allowed_hosts
from .limits import Limits
from .practice import Tables
from .routes import analysis, table
from .routes import results as results_routes
from .warmup import HintEngine

__all__ = ["STATIC", "create_app"]

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("smear_sim.web")


def create_app(*, results: Path | None = Path("results"), limits: Limits | None = None, simulator: Simulator | None = None,
               warm_up: bool = True, host: str | None = None, games_dir: Path | None = None,
               clock: Callable[[], float] = time.monotonic) -> FastAPI:
    """The app: the API under ``/api`` and the page at ``/``, behind :class:`smear_sim.web.guard.Guard`.

    ``results`` is the folder the tables come from (``bid_table.npz``, ``by_position.csv``, ``equity.csv``);
    ``limits`` bounds every request (:class:`smear_sim.web.limits.Limits`, its defaults if None); ``warm_up`` loads (or compiles) the
    simulator's kernels (the hand's and the auction's) when the server starts and makes the default match-equity
    table (seed 1, the default rules and player, 0-0), so that no request waits for them: until that is done, an
    analysis asked for is answered at once with 503 and ``Retry-After`` (:class:`smear_sim.web.answers.WarmingUp`;
    the page says it is warming up and asks again), while the other endpoints answer as ever. ``app.state.ready``
    is set once it is done (it is clear only while the warm-up runs). ``host`` is the address given to
    ``--host``, which requests may name besides loopback. ``app.state.simulator`` is the simulator, which the
    server closes as it begins to stop.

    The practice table (:mod:`smear_sim.web.practice`): at most ``limits.max_tables`` games in play, each table
    closed after ``limits.idle_expiry`` seconds untouched (by ``clock``), each finished hand saved in
    ``games_dir`` (default :func:`smear_sim.web.games.default_games_dir`) as the game record so far;
    ``app.state.practice`` holds them.
    """
    limits = Limits() if limits is None else limits
    simulator = simulator or Simulator()
    games = GameFolder(default_games_dir() if games_dir is None else games_dir)
    # Cleared only while the warm-up runs: without it, or without the lifespan that starts it (a test client
    # outside "with", a server run with lifespan off), the server is ready at once. Set again if the warm-up
    # fails: then each request loads what it needs itself.
    ready = threading.Event()
    ready.set()
    shared = Context(limits=limits, simulator=simulator, ready=ready, results=ResultsFolder(results), games=games,
                     practice=Tables(games, max_tables=limits.max_tables, idle_expiry=limits.idle_expiry,
                                     clock=clock), hint_engine=HintEngine(simulator))

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if warm_up:
            _start_warm_up(shared)
        yield
        simulator.close()

    app = FastAPI(title="smear-sim", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.context = shared
    app.state.simulator = simulator
    app.state.ready = ready
    app.state.practice = shared.practice
    app.state.hint_engine = shared.hint_engine
    app.add_middleware(Guard, hosts=allowed_hosts(host), max_body=limits.max_body, body_timeout=limits.body_timeout)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        return error(400, f"{'.'.join(map(str, first.get('loc', ())))}: {first.get('msg', 'bad request')}")

    for part in (analysis, table, results_routes):
        app.include_router(part.router)
    app.include_router(shared.hint_engine.router())
    app.mount("/", _Page(directory=STATIC, html=True), name="page")
    return app


def _start_warm_up(shared: Context) -> None:
    """The page's first question, seated, on the simulator: the hand's and the auction's kernels and seed 1's
    table, with ``shared.ready`` clear until they are done; and the practice table's bots, beside it."""
    first = analysis.hand_request({"cards": EXAMPLE_HAND, "samples": 1, "position": 3, "auction": "2,pass"},
                                  shared.limits)
    shared.ready.clear()

    def warm(executor) -> None:
        first.run(executor)
        # The error of that table, which every hint and review reads (match_equity._table_variance): made now, in
        # 2 s, not in the hint a person is waiting for.
        shared_equity(DEFAULT_HANDS, 1, Rules(), "heuristic", DEFAULT_FLOOR).gradient  # noqa: B018

    def warmed(future) -> None:
        if not future.cancelled() and future.exception() is not None \
                and not isinstance(future.exception(), AnalysisCancelled | ServerBusy):
            log.error("warm-up: %s", internal_error(future.exception()))
        shared.ready.set()
        shared.hint_engine.start()

    shared.hint_engine.expect()
    try:
        shared.simulator.submit(warm).add_done_callback(warmed)
    except ServerBusy:
        shared.ready.set()
        shared.hint_engine.start()
    threading.Thread(target=_warm_bots, name="smear-sim-bots", daemon=True).start()


def _warm_bots() -> None:
    """Compile (or load) the kernels the practice table's heuristic bots call, so that the first bot's turn is
    quick: a minute or so with Numba's cache cold, under a second with it warm; then load the net and its kernels,
    so that the first net hint a person asks is as quick as the next (:func:`smear_sim.web.net_values.warm_net`)."""
    from ..analysis.bots import warm_up
    from .net_values import warm_net

    try:
        started = time.perf_counter()
        warm_up("heuristic")  # says so on stderr first where Numba's cache does not hold them
        log.info("the practice table's bots are ready (%.1f s)", time.perf_counter() - started)
    except Exception as exc:  # the first bot's turn compiles them instead
        log.error("warming up the bots: %s", internal_error(exc))
    try:
        started = time.perf_counter()
        if warm_net():  # outside the simulator, as the net's hints run
            log.info("the net's hints are ready (%.1f s)", time.perf_counter() - started)
    except Exception as exc:  # the first net hint loads it instead
        log.error("warming up the net: %s", internal_error(exc))


class _Page(StaticFiles):
    """The page's files, which browsers must check again on each load, so that an upgrade shows at once."""

    async def get_response(self, path: str, scope):
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        return response
