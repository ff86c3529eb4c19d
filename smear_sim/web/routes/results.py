"""The results folder's route: ``GET /api/tables`` (:class:`smear_sim.output.results_folder.ResultsFolder`)."""

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ...analysis.classes import DEFAULT_FEATURES, parse_features
from ..answers import Ctx, answers

__all__ = ["router"]

router = APIRouter()


@router.get("/api/tables")
@answers
async def tables_endpoint(ctx: Ctx, by: str = ",".join(DEFAULT_FEATURES), variant: str = "") -> JSONResponse:
    return JSONResponse(await run_in_threadpool(ctx.results.answer, parse_features(by), variant))
