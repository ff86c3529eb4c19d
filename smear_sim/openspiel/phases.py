"""The phases of a hand in the OpenSpiel game, and which cards a seat may discard next (shared by the game and its
resampling)."""

from __future__ import annotations

from ..reference import hand as ref

__all__ = ["AUCTION", "DEAL", "DISCARD", "DONE", "PLAY", "TRUMP", "discardable"]

DEAL, AUCTION, TRUMP, DISCARD, PLAY, DONE = range(6)


def discardable(held: list[int], trump: int) -> list[int]:
    """The cards of ``held`` (more than 6) that some legal keep leaves out (module docstring)."""
    counts = [0, 0, 0]
    classes = []
    for c in held:
        k = ref._keep_class(c, trump)  # noqa: SLF001 - the rules' order of keeping, one definition
        counts[k] += 1
        classes.append(k)
    kept = 0
    first = 2
    for k in range(3):
        kept += counts[k]
        if kept > 6:
            first = k
            break
    return [c for c, k in zip(held, classes, strict=True) if k >= first]
