"""Calls in the auction: the words people and records use, and the codes the kernels use.

A pair, as :func:`smear_sim.core.cards.parse_card` and :func:`~smear_sim.core.cards.card_name` are: people and hand
records write a call as ``"pass"``, a whole number or ``"moon"``; the kernels read :data:`~smear_sim.core.layout.PASS`,
the number itself, or :data:`~smear_sim.core.layout.MOON`. Every part of the package that crosses between the two goes
through :func:`parse_call` and :func:`call_name`, so a call is read one way everywhere.
"""

from __future__ import annotations

from typing import Literal

from .errors import SmearError
from .layout import MOON, N_BID_CODES, PASS

__all__ = ["MOON_WORD", "PASS_WORD", "call_name", "parse_call"]

PASS_WORD: Literal["pass"] = "pass"
MOON_WORD: Literal["moon"] = "moon"
_LARGEST_NUMBER = N_BID_CODES - 2  # the numbers the kernels can hold: 1 .. MOON - 1


def parse_call(call: str | int) -> int:
    """The kernel code of one call, written as ``"pass"``, ``"moon"`` or a whole number (text of ASCII digits, or an
    ``int``), in any case and with surrounding spaces; a one-line SmearError for anything else.

    Only ASCII digits make a number: ``int()`` alone would take ``"٣"`` (an Arabic-Indic three) for 3. Whether the
    number is a legal bid under the rules in play is for the auction to say (:func:`smear_sim.reference.hand.verify_bid`).
    """
    if isinstance(call, bool):
        raise SmearError(f"{call!r} is not a call; calls are pass, a number or moon")
    if isinstance(call, int):
        number = call
    elif isinstance(call, str):
        word = call.strip().lower()
        if word == PASS_WORD:
            return PASS
        if word == MOON_WORD:
            return MOON
        if not (word.isascii() and word.isdigit() and len(word) <= 2):
            raise SmearError(f"{_shown(call)} is not a call; calls are pass, a number or moon")
        number = int(word)
    else:
        raise SmearError(f"{_shown(call)} is not a call; calls are pass, a number or moon")
    if not 1 <= number <= _LARGEST_NUMBER:
        raise SmearError(f"{number} is not a call; a bid is a number from 1 to {_LARGEST_NUMBER} (or pass or moon)")
    return number


def call_name(code: int) -> int | str:
    """A kernel call code as people and hand records write it: ``"pass"``, the number, or ``"moon"``."""
    code = int(code)
    if code == PASS:
        return PASS_WORD
    if code == MOON:
        return MOON_WORD
    if not 1 <= code <= _LARGEST_NUMBER:
        raise ValueError(f"{code} is not a kernel call code")
    return code


def _shown(value: object) -> str:
    """``value`` quoted for a one-line message, cut short: a hostile input may be thousands of characters long."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
