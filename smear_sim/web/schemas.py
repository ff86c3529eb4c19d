"""One request schema per endpoint: the fields it takes and their types, unknown fields refused, each problem
worded as the command line words it (``samples must be a whole number of deals, got "many"``).

A schema checks only what a field is; what its value may be (a range, a legal call, a policy offered here) is the
endpoint's own check, after it, as the command line checks its options' values after typer has read them.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..analysis.hand import EXAMPLE_HAND
from ..core.errors import SmearError
from ..core.players import FAST_POLICIES

__all__ = ["ActBody", "CallsBody", "HandBody", "HintBody", "ReviewBody", "StepBody", "TableBody", "TableHintBody",
           "checked"]

_POLICY = "a policy name: " + " or ".join(FAST_POLICIES)
_RULES = "an object of rule options"
_SEED = "a whole number"
_EVALUATOR = "search, net or both"


class _Body(BaseModel):
    """A request's body: a JSON object of these fields only, each of its type (a number is never a true)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    EXAMPLE: ClassVar[str] = "{}"  # the request, for "the request must be a JSON object such as ..."


B = TypeVar("B", bound=_Body)


def checked(schema: type[B], body: Any) -> B:
    """``body`` read by ``schema``, or a one-line SmearError: not an object, an unknown field (named first, as the
    command line names an unknown option first), or a field of the wrong type."""
    if not isinstance(body, dict):
        raise SmearError(f"the request must be a JSON object such as {schema.EXAMPLE}")
    try:
        return schema.model_validate(body)
    except ValidationError as exc:
        errors = exc.errors()
    fields = ", ".join(schema.model_fields) or "(none)"
    unknown = sorted(str(error["loc"][0]) for error in errors if error["type"] == "extra_forbidden")
    if unknown:
        raise SmearError(f"unknown field {unknown[0]!r} in the request: the fields are {fields}") from None
    name = str(errors[0]["loc"][0])
    raise SmearError(f"{name} must be {schema.model_fields[name].description}, got {json.dumps(body[name])}") from None


class HandBody(_Body):
    """``POST /api/hand`` and its stream: ``smear-sim hand``'s options."""

    EXAMPLE: ClassVar[str] = f'{{"cards": "{EXAMPLE_HAND}"}}'
    cards: str | list[str] | None = Field(None, description=f'a string such as "{EXAMPLE_HAND}" or a list of card '
                                                            "names")
    trump: str | None = Field(None, description="one of S H D C")
    samples: int | None = Field(None, description="a whole number of deals")
    precision: float | None = Field(None, description="a standard error such as 0.01")
    seed: int | None = Field(None, description=_SEED)
    policy: str | None = Field(None, description=_POLICY)
    rules: dict[str, Any] | None = Field(None, description=_RULES)
    score: str | list[Any] | None = Field(None, description='two whole-number scores, "US,THEM" or [us, them], e.g. '
                                                            '"-5,19"')
    position: int | None = Field(None, description="1 (the opener, left of the dealer) to 4 (the dealer)")
    auction: str | list[Any] | None = Field(None, description='the calls before yours, e.g. "2,pass" or [2, "pass"]')
    max_deals: int | None = Field(None, description="a whole number of deals")


class HintBody(_Body):
    """``POST /api/hint``: a seat's view and ``smear-sim hint``'s options."""

    EXAMPLE: ClassVar[str] = '{"view": {...}} (docs/formats.md)'
    view: Any = Field(None, description="a seat's view")
    samples: int | None = Field(None, description="a whole number of worlds")
    seed: int | None = Field(None, description=_SEED)
    policy: str | None = Field(None, description=_POLICY)
    inference: str | None = Field(None, description="policy or none")
    playout: str | None = Field(None, description=_POLICY)
    rules: dict[str, Any] | None = Field(None, description=_RULES)
    evaluator: str | None = Field(None, description=_EVALUATOR)


class CallsBody(_Body):
    """``POST /api/calls``: an auction so far, under some rules."""

    EXAMPLE: ClassVar[str] = '{"auction": [2, "pass"]}'
    auction: list[Any] | None = Field(None, description='a list of calls, e.g. [2, "pass"]')
    rules: dict[str, Any] | None = Field(None, description=_RULES)


class ReviewBody(_Body):
    """``POST /api/review`` and its stream: records and ``smear-sim review``'s options."""

    EXAMPLE: ClassVar[str] = '{"record": {...}, "samples": 500}'
    record: dict[str, Any] | list[Any] | None = Field(None, description="a hand record or a game record (a JSON "
                                                                        "object), or a list of them")
    samples: int | None = Field(None, description="a whole number of worlds a decision")
    seed: int | None = Field(None, description=_SEED)
    policy: str | None = Field(None, description=_POLICY)
    inference: str | None = Field(None, description='"policy" or "none"')
    playout: str | None = Field(None, description="a policy name")
    luck: bool | None = Field(None, description="true or false")
    kinds: str | list[Any] | None = Field(None, description='decisions such as "card,keep" or ["card"]')
    rules: dict[str, Any] | None = Field(None, description=_RULES)


class TableBody(_Body):
    """``POST /api/table``: a new practice table (every field optional)."""

    EXAMPLE: ClassVar[str] = '{"seat": 0, "bots": "heuristic"}'
    seat: int | None = Field(None, description="your seat, 0 to 3 (seat 3 deals the first hand)")
    bots: str | None = Field(None, description="a player's name such as heuristic, equity, count or pimc:8")
    seed: int | None = Field(None, description="a whole number from 0 to 2**53")
    rules: dict[str, Any] | None = Field(None, description='an object of rule options, e.g. {"target": 21}')


class StepBody(_Body):
    """``POST /api/table/ID/bot`` and ``/next``: the step the move was chosen at (optional)."""

    EXAMPLE: ClassVar[str] = '{"step": 3}'
    step: int | None = Field(None, description="the table's step, a whole number")


class ActBody(StepBody):
    """``POST /api/table/ID/act``: the person's action."""

    EXAMPLE: ClassVar[str] = '{"action": "pass", "step": 3}'
    action: Any = Field(None, description="your call, trump, six cards to keep or card")


class TableHintBody(StepBody):
    """``POST /api/table/ID/hint``: the hint's worlds, an action to value besides, and who values them (all
    optional)."""

    EXAMPLE: ClassVar[str] = '{"samples": 500}'
    samples: int | None = Field(None, description="a whole number of worlds")
    action: Any = Field(None, description="your call, trump, six cards to keep or card")
    evaluator: str | None = Field(None, description=_EVALUATOR)
