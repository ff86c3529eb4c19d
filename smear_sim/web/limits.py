"""What one server allows a request, as one frozen value (``smear-sim serve``'s options): made once where the
server is made, read by every route."""

from __future__ import annotations

from dataclasses import dataclass

from .guard import BODY_TIMEOUT, MAX_BODY
from .practice import DEFAULT_IDLE_EXPIRY, DEFAULT_MAX_TABLES
from .review import DEFAULT_MAX_DECISIONS, DEFAULT_MAX_REVIEW_SAMPLES

__all__ = ["DEFAULT_MAX_DEALS", "DEFAULT_MAX_SAMPLES", "DEFAULT_MAX_SPAN", "Limits"]

DEFAULT_MAX_SAMPLES = 200_000
DEFAULT_MAX_DEALS = 2_000_000  # deals an auction analysis may try (the command line's default is 20,000,000)
DEFAULT_MAX_SPAN = 120  # points the game view's equity table may span: each of its solves well under a second


@dataclass(frozen=True)
class Limits:
    """The bounds of one server: ``max_samples`` deals one request may simulate for the hand, ``max_deals`` its
    auction analysis may try, ``max_span`` points its match-equity table may span; a review's worlds a decision
    (``max_review_samples``) and decisions (``max_decisions``); a body's bytes (``max_body``) and seconds to arrive
    (``body_timeout``); the practice table's games in play (``max_tables``) and the seconds a table may stay
    untouched (``idle_expiry``)."""

    max_samples: int = DEFAULT_MAX_SAMPLES
    max_deals: int = DEFAULT_MAX_DEALS
    max_span: int = DEFAULT_MAX_SPAN
    max_review_samples: int = DEFAULT_MAX_REVIEW_SAMPLES
    max_decisions: int = DEFAULT_MAX_DECISIONS
    max_body: int = MAX_BODY
    body_timeout: float = BODY_TIMEOUT
    max_tables: int = DEFAULT_MAX_TABLES
    idle_expiry: float = DEFAULT_IDLE_EXPIRY

    @property
    def span_cap(self) -> str:
        """What a message about the equity table's span adds: the cap, and how to raise it."""
        return f" (the cap of {self.max_span} points on this server: smear-sim serve --max-span N raises it)"
