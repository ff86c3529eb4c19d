"""The practice table's routes (:mod:`smear_sim.web.practice`): open, show, act, let a bot move, deal the next hand,
a hint at the person's turn, close; and the saved games (:mod:`smear_sim.web.games`)."""

import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ...analysis.plan import RunPlan
from ...core.errors import SmearError
from ..answers import Ctx, answers, json_body, run_analysis, timing
from ..checks import check_hint_samples, check_net
from ..net_values import check_evaluator, net_costs, net_taken, net_values, search_with_net
from ..practice import Table, hint_costs, hint_policy
from ..schemas import ActBody, StepBody, TableBody, TableHintBody, checked

__all__ = ["TABLE_HINT_WORLDS", "router"]

# The worlds a practice table's hint plays at its own precision, at most: a person waits for it, and this many answer
# within about a second on two cores while choosing the card the full precision chooses (docs/performance.md).
TABLE_HINT_WORLDS = 512

router = APIRouter()


async def _at_table(ctx, table_id: str, body: StepBody | None,
                    work: Callable[[Table], dict[str, Any] | None]) -> JSONResponse:
    """``work(table)`` holding the table's lock, at the step the move was chosen at; the table's state after it."""
    table = ctx.practice.get(table_id)

    def locked() -> dict[str, Any]:
        with table.lock:
            if body is not None and body.step is not None and body.step != table.step:
                raise SmearError(f"the table has moved on (step {table.step}, not {body.step}): reload it")
            extra = work(table)
            return {**table.state(), **(extra or {})}

    return JSONResponse(await run_in_threadpool(locked))


@router.post("/api/table")
@answers
async def table_open(request: Request, ctx: Ctx) -> JSONResponse:
    asked = checked(TableBody, await json_body(request))
    table = ctx.practice.open(asked.seat, asked.bots, asked.seed, asked.rules)
    with table.lock:
        return JSONResponse(table.state())


@router.get("/api/table/{table_id}")
@answers
async def table_show(table_id: str, ctx: Ctx) -> JSONResponse:
    return await _at_table(ctx, table_id, None, lambda table: None)


@router.delete("/api/table/{table_id}")
@answers
async def table_close(table_id: str, ctx: Ctx) -> JSONResponse:
    ctx.practice.close(table_id)
    return JSONResponse({"id": table_id, "closed": True})


@router.post("/api/table/{table_id}/act")
@answers
async def table_act(table_id: str, request: Request, ctx: Ctx) -> JSONResponse:
    asked = checked(ActBody, await json_body(request, empty={}))

    def act(table: Table) -> None:
        if asked.action is None:
            raise SmearError("action is missing: give your call, trump, six cards to keep or card")
        table.act(asked.action)
        if table.hand_over:
            ctx.practice.save(table)

    return await _at_table(ctx, table_id, asked, act)


@router.post("/api/table/{table_id}/bot")
@answers
async def table_bot(table_id: str, request: Request, ctx: Ctx) -> JSONResponse:
    asked = checked(StepBody, await json_body(request, empty={}))

    def step(table: Table) -> dict[str, Any]:
        move = table.bot_step()
        if table.hand_over:
            ctx.practice.save(table)
        return {"move": move}

    return await _at_table(ctx, table_id, asked, step)


@router.post("/api/table/{table_id}/next")
@answers
async def table_next(table_id: str, request: Request, ctx: Ctx) -> JSONResponse:
    asked = checked(StepBody, await json_body(request, empty={}))
    return await _at_table(ctx, table_id, asked, lambda table: table.next_hand())


@router.post("/api/table/{table_id}/hint")
@answers
async def table_hint(table_id: str, request: Request, ctx: Ctx) -> JSONResponse:
    started = time.perf_counter()
    asked = checked(TableHintBody, await json_body(request, empty={}))
    table = ctx.practice.get(table_id)
    check_hint_samples(asked.samples)
    evaluator = check_evaluator(asked.evaluator, asked.samples)
    if evaluator != "search":
        check_net("net")  # no net here: one line, before any work
    with table.lock:
        view, action = table.hint_question(asked.action)
        step = table.step
    if evaluator == "net":
        # The net's values: milliseconds, in this request's thread, outside the simulator's turns (as a bot's move),
        # so that a review running does not hold them up: the page shows them at once, then the search's.
        def values() -> tuple[dict[str, Any], float]:
            result = net_values(view)
            data = {**result.to_json(), "costs": net_costs(result), "step": step}
            if action is not None:
                data["taken"] = net_taken(view, result, action)
            return data, result.seconds

        data, seconds = await run_in_threadpool(values)
        return JSONResponse(data, headers=timing(seconds, started))
    ctx.check_ready()
    plan = RunPlan.of(hint_policy(table.bots), view.rules)
    submitted = time.perf_counter()
    began: list[float] = []

    def work(executor) -> tuple[dict[str, Any], float]:
        from ...analysis.decisions import hint
        from ...analysis.review import mark_of

        began.append(time.perf_counter())
        extra = [action] if action is not None and view.decision == "keep" else []
        result = hint(view, samples=asked.samples, seed=1, plan=plan.replace(executor=executor), extra=extra,
                      max_worlds=TABLE_HINT_WORLDS)
        shown = search_with_net(view, result) if evaluator == "both" else result.to_json()
        data = {**shown, "costs": hint_costs(result), "step": step}
        if action is not None:
            points, win = result.cost(action)
            data["taken"] = {"action": action, "points": round(points.value, 4), "win": round(win.value, 5),
                             "mark": mark_of(max(win.value, 0.0))}
        return data, result.seconds

    # A person at the table waits for this hint: it goes before the reviews (engine/turns.py).
    data, seconds = await run_analysis(request, ctx, work, urgent=True)
    return JSONResponse(data, headers=timing(seconds, started, began[0] - submitted))


@router.get("/api/games")
@answers
async def games_list(ctx: Ctx) -> JSONResponse:
    return JSONResponse({"games": await run_in_threadpool(ctx.games.listing)})


@router.get("/api/games/{name}")
@answers
async def games_read(name: str, ctx: Ctx) -> JSONResponse:
    return JSONResponse(await run_in_threadpool(ctx.games.read, name))
