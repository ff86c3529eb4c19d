"""``POST /api/review``: the review of a played hand or game, as ``smear-sim review RECORD --json`` gives it.

The body is ``{"record": RECORD, "samples": N, "seed": S, ...}``, the command's options as fields: ``record`` (a
hand record, a game record, or a list of them, as a JSONL file holds), ``samples``, ``seed``, ``policy``,
``inference``, ``playout``, ``luck``, ``kinds`` and ``rules`` (the options the records leave out, as ``--rule``). Everything
is checked before any work, each problem answered with the command line's one-line message (HTTP 400). A review
runs one hint per decision, so the server bounds it: at most ``max_decisions`` decisions (a few hands) and
``max_samples`` worlds a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..analysis.plan import RunPlan
from ..analysis.review import (
    DEFAULT_SAMPLES,
    ReviewedHand,
    check_kinds,
    check_options,
    count_decisions,
    read_hands,
    review,
)
from ..analysis.scores import MAX_SPAN, check_scores
from ..core.errors import SmearError
from ..core.players import FAST_POLICIES, parse_policy
from ..core.rules import Rules
from ..engine.runner import seed_value
from .checks import check_equity_tables
from .schemas import ReviewBody, checked

__all__ = ["DEFAULT_MAX_DECISIONS", "DEFAULT_MAX_REVIEW_SAMPLES", "ReviewRequest", "review_request"]

DEFAULT_MAX_DECISIONS = 200  # about eight hands: a review of a hand takes seconds, of a game minutes
DEFAULT_MAX_REVIEW_SAMPLES = 20_000  # worlds per decision


@dataclass(frozen=True)
class ReviewRequest:
    """A checked ``POST /api/review``: the hands to review and the options of the hints."""

    hands: tuple[ReviewedHand, ...]
    plan: RunPlan
    samples: int | None
    seed: int
    inference: str
    playout: str | None
    luck: bool
    kinds: tuple[str, ...]

    @property
    def decisions(self) -> int:
        return count_decisions(self.hands, self.kinds)

    def run(self, executor, stage: Callable[[str], None] = lambda _: None,
            progress: Callable[[int], None] | None = None) -> tuple[dict[str, Any], float]:
        """The JSON ``smear-sim review --json`` prints, and the seconds it took; ``executor`` is the simulator's turn
        (it stops the review at the next chunk of worlds when the client goes away), ``stage`` hears "review" and
        ``progress`` of each decision graded (``POST /api/review/stream``)."""
        stage("review")
        result = review(list(self.hands), samples=self.samples, seed=self.seed, inference=self.inference,
                        playout=self.playout, luck=self.luck, kinds=self.kinds, plan=self.plan.replace(executor=executor),
                        progress=progress)
        return result.to_json(), result.seconds


def review_request(body: Any, max_samples: int = DEFAULT_MAX_REVIEW_SAMPLES,
                   max_decisions: int = DEFAULT_MAX_DECISIONS, max_span: int = MAX_SPAN) -> ReviewRequest:
    """Check a ``POST /api/review`` body (module docstring); a one-line :class:`SmearError` if it is bad."""
    asked = checked(ReviewBody, body)
    record = asked.record
    if record is None:
        raise SmearError("record is missing: give a hand record, a game record or a list of them")
    samples, seed, playout, luck = asked.samples, asked.seed, asked.playout, asked.luck
    policy = asked.policy or "heuristic"
    inference = asked.inference or "policy"
    kinds = check_kinds(asked.kinds)
    settings = Rules.from_mapping(asked.rules or {}, source="rules").changed()
    seed_value(1 if seed is None else seed)
    if samples is not None and not 1 <= samples <= max_samples:
        raise SmearError(f"samples must be from 1 to {max_samples:,} worlds a decision on this server, got {samples:,}")
    for name, value in (("policy", policy), ("playout", playout)):
        if value is not None and parse_policy(value).name not in FAST_POLICIES:  # a search player: far too slow
            raise SmearError(f"{name} {value!r} is not offered here: choose {' or '.join(FAST_POLICIES)}")
    hands = read_hands(record if isinstance(record, list) else [record], settings)
    for h in hands:  # each hint's equity table spans its scores (the server's cap, as for /api/hint)
        check_scores(h.hand.scores_before, h.hand.rules, "scores_before", max_span=max_span,
                     cap=f" (the cap of {max_span} points on this server: smear-sim serve --max-span N raises it)")
    check_options(inference, playout)
    rules = hands[0].hand.rules
    check_equity_tables(policy, rules)
    request = ReviewRequest(tuple(hands), RunPlan.of(policy, rules), DEFAULT_SAMPLES if samples is None else samples,
                            1 if seed is None else seed, inference, playout, True if luck is None else luck, kinds)
    if request.decisions > max_decisions:
        raise SmearError(f"the record has {request.decisions:,} decisions to grade; this server reviews at most "
                         f"{max_decisions:,} a request: send fewer hands, or run 'smear-sim review' on the file")
    return request
