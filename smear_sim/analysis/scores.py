"""Scores of a game in progress, as the analyses take them: ``US,THEM`` parsed and checked, and which team
deals."""

from __future__ import annotations

import numpy as np

from ..core.errors import SmearError
from ..core.rules import Rules

__all__ = [
    "DEALERS",
    "check_scores",
    "dealer_index",
    "parse_score",
]


DEALERS = ("us", "them")  # index 0: the team whose score is ``us`` deals the next hand; 1: the other team


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


def check_scores(scores: tuple[int, int], rules: Rules, option: str = "--score") -> tuple[int, int]:
    """Scores of a game in progress: both below the target (a team that reached it has won)."""
    if max(scores) >= rules.target:
        raise SmearError(f"{option} {scores[0]},{scores[1]}: a game in progress has both scores below the target "
                         f"{rules.target} (a team that reaches it has won)")
    return scores


def dealer_index(dealer: str) -> int:
    if isinstance(dealer, str) and dealer.lower() in DEALERS:
        return DEALERS.index(dealer.lower())
    raise SmearError(f"the dealer is 'us' or 'them' (the team that deals the next hand), got {dealer!r}")
