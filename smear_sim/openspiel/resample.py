"""Resampling a Smear state from a seat's information state with the project's sampler of worlds.

OpenSpiel's IS-MCTS searches over states that share the searching seat's information state. This module draws them
with :mod:`smear_sim.kernels.worlds`, the sampler the hints and ``expert`` use: before play,
:func:`~smear_sim.kernels.worlds.deal_world` deals the cards the seat has not seen (no other seat able to call a
misdeal, the other seats' calls those ``heuristic`` makes with the hands drawn); during play,
:func:`~smear_sim.kernels.worlds.play_world` deals the other seats' cards now (the voids shown, the discard rule)
and completes their 9 dealt cards and discards. The other seats' discards made so far are then a random legal
sequence of the cards the world gives them to discard, and the state's actions are replayed over the world
(:meth:`~smear_sim.openspiel.game.SmearState.replay_with`), so the seat's information state is unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..analysis.bridge import view_state
from ..analysis.session_tables import player_bidder_arrays
from ..core.calls import parse_call
from ..core.cards import mask_of
from ..core.layout import ST_HANDS, ST_PLAYED
from ..core.players import policy_code
from ..core.tables import TABLES
from ..kernels import players as _players  # noqa: F401 - first: kernels.worlds and the players import each other
from ..kernels.rng import stream_key
from ..kernels.worlds import deal_world, play_world
from .phases import DEAL, DONE, PLAY, discardable

__all__ = ["CALLS_MODEL", "resample"]

CALLS_MODEL = "heuristic"  # the player whose calls a world's other seats are taken to make
_TRIES = 20
_U64 = (1 << 64) - 1


def _cards(mask: int) -> list[int]:
    return [c for c in range(54) if mask >> c & 1]


def _key(sampler: Any, rng: np.random.Generator | None) -> int:
    if rng is not None:
        return int(rng.integers(0, 2**63))
    if sampler is not None:
        return int(float(sampler()) * 2**53)
    return int(np.random.default_rng().integers(0, 2**63))


def resample(state, observer: int, sampler: Any = None, rng: np.random.Generator | None = None):
    """A state with ``observer``'s information state, the hidden cards drawn by the worlds sampler (module
    docstring). ``rng`` (or else ``sampler``, a callable giving a float in [0, 1)) seeds the world."""
    if state.phase in (DEAL, DONE):
        return state.clone()
    rules = state.rules
    array = rules.to_array()
    code = policy_code(CALLS_MODEL)
    policies = np.array([code, code], dtype=np.int64)
    tables = player_bidder_arrays((CALLS_MODEL, CALLS_MODEL), rules)
    calls = np.zeros(4, dtype=np.int64)
    calls[: len(state.bids)] = [parse_call(b) for b in state.bids]
    own9 = mask_of(state.hands[observer])
    score0, score1 = (np.int64(s) for s in state.scores)
    last_error: Exception | None = None
    for attempt in range(_TRIES):
        key = _key(sampler, rng)
        stream = np.array([stream_key(np.uint64(key & _U64), np.uint64(attempt))], dtype=np.uint64)
        pick = np.random.default_rng(key)
        inference = attempt < _TRIES // 2  # then the cards alone, should the calls fit no world drawn
        if state.phase != PLAY:
            seen_kitty = mask_of(state.kitty) if state.bidder == observer else 0
            hands = np.zeros(5, dtype=np.uint64)
            deal_world(stream, np.int64(observer), np.uint64(own9), np.uint64(seen_kitty), np.int64(state.dealer),
                       calls, np.int64(len(state.bids)), score0, score1, array, policies, tables, inference, hands)
            dealt = [_cards(int(h)) for h in hands[:4]]
            kitty = _cards(int(hands[4]))
            discards = _random_discards(state, observer, dealt, kitty, pick)
        else:
            world = _play_world(state, observer, own9, stream, calls, score0, score1, array, policies, tables,
                                inference, pick)
            if world is None:
                continue
            dealt, kitty, discards = world
        try:
            return state.replay_with(observer, dealt, kitty, discards)
        except (ValueError, IndexError) as exc:  # a world the replay refuses (a fallback world): draw again
            last_error = exc
    raise RuntimeError(f"no world fitting seat {observer}'s view was drawn in {_TRIES} tries: {last_error}")


def _random_discards(state, observer: int, dealt: list[list[int]], kitty: list[int], pick) -> list[list[int]]:
    """Each other seat's discards so far: a random legal sequence from the cards the world deals it."""
    discards = [list(d) for d in state.discards]
    if state.trump is None:
        return discards
    for seat in range(4):
        if seat == observer or not state.discards[seat]:
            continue
        held = sorted(dealt[seat] + (kitty if seat == state.bidder else []))
        made = []
        for _ in range(len(state.discards[seat])):
            options = discardable(held, state.trump)
            c = options[int(pick.integers(len(options)))]
            held.remove(c)
            made.append(c)
        discards[seat] = made
    return discards


def _play_world(state, observer, own9, stream, calls, score0, score1, array, policies, tables, inference, pick):
    """The four dealt 9s, the kitty and the discards of a world during play, or None when it cannot be completed."""
    view = state.seat_view(observer)
    hs = view_state(view)
    out = hs.copy()
    dealt_masks = np.zeros(4, dtype=np.uint64)
    tries = play_world(stream, hs, np.int64(observer), np.uint64(own9), np.int64(state.dealer), calls, np.int64(4),
                       score0, score1, array, policies, tables, inference, out, dealt_masks)
    bidder, trump = state.bidder, state.trump
    kept = [(int(out[ST_HANDS + s]) | int(out[ST_PLAYED + s])) & _U64 for s in range(4)]
    seen = own9 | (mask_of(state.kitty) if observer == bidder else 0) | mask_of(state.discards[observer])
    non_trumps = ((1 << 54) - 1) & ~int(TABLES.trump_mask[trump])
    kitty = mask_of(state.kitty) if observer == bidder else None
    if tries > 0 and inference:
        dealt = [int(m) & _U64 for m in dealt_masks]
        dealt[observer] = own9
    else:  # the cards alone: the other seats' discards drawn from the unseen non-trumps nobody holds
        free = ((1 << 54) - 1) & ~seen & non_trumps
        for s in range(4):
            free &= ~kept[s]
        pool = _cards(free)
        dealt = [0, 0, 0, 0]
        for s in range(4):
            if s == observer:
                dealt[s] = own9
                continue
            n = 7 if s == bidder else 3
            if len(pool) < n:
                return None
            chosen = [int(c) for c in pick.choice(pool, n, replace=False)]
            pool = [c for c in pool if c not in chosen]
            cards = kept[s] | mask_of(chosen)
            if s == bidder:
                nine = mask_of([int(c) for c in pick.choice(_cards(cards), 9, replace=False)])
                kitty = cards & ~nine
                cards = nine
            dealt[s] = cards
    if kitty is None:
        # The bidder's kitty: its kept cards it was not dealt, and as many of its discards as make 4 (the discards
        # of the bidder's that went to the kitty are drawn again from the unseen non-trumps nobody holds).
        kitty = kept[bidder] & ~dealt[bidder]
        used = seen
        for s in range(4):
            used |= kept[s] | dealt[s]
        pool = _cards(((1 << 54) - 1) & ~used & non_trumps)
        need = 4 - bin(kitty).count("1")
        if need < 0 or len(pool) < need:
            return None
        kitty |= mask_of([int(c) for c in pick.choice(pool, need, replace=False)]) if need else 0
    discards = [list(d) for d in state.discards]
    for s in range(4):
        if s == observer:
            continue
        whole = dealt[s] | (kitty if s == bidder else 0)
        gone = whole & ~kept[s]
        if bin(gone).count("1") != (7 if s == bidder else 3):
            return None
        discards[s] = _cards(gone)  # any order of a legal discard is legal step by step
    return [_cards(d) for d in dealt], _cards(kitty), discards
