"""Scores of a game in progress, as the analyses take them: ``US,THEM`` parsed and checked, and which team
deals."""

from __future__ import annotations

import numpy as np

from ..core.errors import SmearError
from ..core.rules import Rules

__all__ = [
    "DEALERS",
    "DEFAULT_FLOOR",
    "MAX_EXTRA",
    "MAX_SPAN",
    "check_scores",
    "check_span",
    "dealer_index",
    "parse_score",
]


DEALERS = ("us", "them")  # index 0: the team whose score is ``us`` deals the next hand; 1: the other team
DEFAULT_FLOOR = -40  # the lowest score the match-equity table shows, unless a score in play is lower
# The most points from the lowest score shown to the target. The grid of the solve holds the square of that
# (plus its margin) times 32 outcomes, and a solve sweeps it thousands of times: 300 points is about a
# second a solve and 150 MB. The margin below stops where the grid would pass MAX_SPAN + MAX_EXTRA points.
MAX_SPAN = 300
MAX_EXTRA = 100


def parse_score(text: str | tuple[int, int] | list[int], option: str = "--score") -> tuple[int, int]:
    """Two whole-number scores from ``"US,THEM"`` (negative scores allowed: ``-5,19``) or a pair."""
    if isinstance(text, str):
        parts = [p.strip() for p in text.split(",")]
        try:
            values = [int(p) for p in parts]
        except ValueError:
            values = []
    else:
        values = list(text)
    if len(values) != 2 or not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in values):
        raise SmearError(f"{option} {text!r}: give two whole-number scores separated by a comma, e.g. "
                         f"{option}=15,19 or {option}=-5,19")
    return int(values[0]), int(values[1])


def check_scores(scores: tuple[int, int], rules: Rules, option: str = "--score", max_span: int = MAX_SPAN,
                 cap: str = "") -> tuple[int, int]:
    """Scores of a game in progress: both below the target (a team that reached it has won), and within
    ``max_span`` of it: the game view's match-equity table runs from the lower of them and ``DEFAULT_FLOOR`` to
    the target (see :func:`check_span`)."""
    if max(scores) >= rules.target:
        raise SmearError(f"{option} {scores[0]},{scores[1]}: a game in progress has both scores below the target "
                         f"{rules.target} (a team that reaches it has won)")
    floor = min(DEFAULT_FLOOR, *scores)
    lowest = rules.target - max_span
    fix = f"a target up to {DEFAULT_FLOOR + max_span}" if lowest > DEFAULT_FLOOR else f"scores from {lowest} up"
    check_span(rules.target, floor, max_span, f"{option} {scores[0]},{scores[1]}: the game view's", fix + cap)
    return scores


def check_span(target: int, floor: int, max_span: int = MAX_SPAN, what: str = "the", fix: str = "") -> None:
    """The match-equity table from ``floor`` to ``target`` may span at most ``max_span`` points: its work and
    memory grow with the square of the span, so this is checked before any work. ``fix`` says what to give."""
    span = target - floor
    if span > max_span:
        fix = fix or f"a --floor from {target - max_span} up"
        raise SmearError(f"{what} match-equity table from {floor} to the target {target} would span {span:,} points, "
                         f"more than the {max_span} allowed; give {fix}")


def dealer_index(dealer: str) -> int:
    if isinstance(dealer, str) and dealer.lower() in DEALERS:
        return DEALERS.index(dealer.lower())
    raise SmearError(f"the dealer is 'us' or 'them' (the team that deals the next hand), got {dealer!r}")
