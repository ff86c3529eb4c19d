"""One decision of a hand by a player of the kernels: what the practice table's bots do on their turn.

The simulator plays whole hands inside its kernels; a bot at the page's table makes one decision at a time, between
the person's clicks. :func:`bot_action` makes that one decision with the very functions the kernels' hands call
(:func:`smear_sim.kernels.hand.policy_call`, :func:`smear_sim.kernels.players.choose_trump`, ``choose_keep`` and
``choose_play``), so a bot at the table plays exactly as the player does in ``smear-sim simulate``. Each is a kernel
call of well under a millisecond once compiled (:func:`warm_up` compiles them, a minute or so with a cold cache).

The hand is a :class:`~smear_sim.reference.record.HandRecord` in progress (``partial``); the action comes back
written as in a record (a call, a suit letter, the six cards kept, a card name). The bot's random stream (the
``random`` and ``pimc`` players draw from it) is keyed by ``(seed, index)``, so a deal played again with the same
actions is played the same way.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import layout as L
from ..core.calls import call_name, parse_call
from ..core.cards import SUIT_NAMES, card_name, mask_of
from ..core.errors import SmearError
from ..core.players import policy_code
from ..reference import hand as ref
from ..reference.record import HandRecord, replay_position
from ..reference.view import SeatView
from .bridge import hand_state, view_state
from .session_tables import player_bidder_arrays

__all__ = ["bot_action", "view_action", "warm_up"]


def _cards(mask: int) -> list[int]:
    mask = int(mask)
    return [c for c in range(54) if mask >> c & 1]


_DECK = (1 << 54) - 1  # the card bits of a searched trump and keep (L.SEARCHED_TRUMP_SHIFT)


def _stream(seed: int, index: int) -> np.ndarray:
    from ..kernels.rng import stream_key

    return np.array([stream_key(np.uint64(seed), np.uint64(index))], dtype=np.uint64)


def _call_args(record: HandRecord, seat: int, policy: str, stream: np.ndarray) -> tuple:
    """The arguments of :func:`smear_sim.kernels.hand.policy_call` for ``seat``'s call after ``record.bids``."""
    from ..kernels import players as kp

    rules = record.rules
    code = policy_code(policy)
    position = len(record.bids)
    calls = np.zeros(4, dtype=np.int64)
    calls[:position] = [parse_call(b) for b in record.bids]
    return (stream, np.uint64(mask_of(record.hands[seat])), np.int64(record.dealer), np.int64(position), calls,
            np.int64(record.scores_before[0]), np.int64(record.scores_before[1]), rules.to_array(),
            np.array([code, code], dtype=np.int64), player_bidder_arrays((policy, policy), rules), kp.seated_arg([code]))


def bot_action(record: HandRecord, seat: int, decision: str, policy: str, *, seed: int = 1, index: int = 0,
               card_state: np.ndarray | None = None) -> Any:
    """``seat``'s action by ``policy`` at ``decision`` (``call``, ``trump``, ``keep`` or ``card``) of the hand in
    progress ``record``: for a keep, ``record.trump`` is named; for a card, every seat's discards are given and
    ``record.plays`` holds the cards played so far. ``index`` keys the random stream (module docstring).
    ``card_state``, for a card, is the kernels' hand state to decide on instead of the record's replay
    (:func:`view_action`)."""
    from ..kernels import hand as kh
    from ..kernels import players as kp
    from ..kernels import state as ks
    from ..kernels.players.net import new_net_work

    rules = record.rules
    array = rules.to_array()
    code = policy_code(policy)
    seated = kp.seated_arg([code])
    stream = _stream(seed, index)
    if decision == "call":
        made = int(kh.policy_call(*_call_args(record, seat, policy, stream)))
        return call_name(made)
    won = ref.auction_winner(record.bids)
    if won is None:
        raise SmearError("all four passed: the hand was thrown in and no decision is due")
    bidder = ref.seat_of_bid(record.dealer, won[0])
    held = list(record.hands[seat]) + (list(record.kitty) if seat == bidder else [])
    give, keep_scores = kp.policy_tables(array)
    policies = np.array([code, code], dtype=np.int64)
    bidder_arrays = player_bidder_arrays((policy, policy), rules)
    net_work = new_net_work(bidder_arrays)  # the learned player's scratch
    calls = np.array([parse_call(b) for b in record.bids], dtype=np.int64)
    # The search player (expert) chooses trump and keep together, and a defender's keep, on worlds that read the
    # auction; the kernels answer ZERO for a player that does not search them (as in a simulated hand).
    search = (np.int64(record.dealer), calls, np.int64(4), np.int64(record.scores_before[0]),
              np.int64(record.scores_before[1]), np.int64(parse_call(won[1])), array, keep_scores, policies, bidder_arrays, net_work)
    if decision in ("trump", "keep") and seat == bidder:
        t = -1 if decision == "trump" else record.trump
        searched = int(kp.search_trump_keep(code, seated, stream, np.uint64(mask_of(record.hands[seat])),
                                            np.uint64(mask_of(record.kitty)), np.int64(bidder), np.int64(t), *search))
        if searched:
            if decision == "trump":
                return SUIT_NAMES[searched >> L.SEARCHED_TRUMP_SHIFT]
            return [card_name(c) for c in _cards(searched & _DECK)]
    if decision == "trump":
        return SUIT_NAMES[int(kp.choose_trump(code, seated, stream, np.uint64(mask_of(held)), array))]
    if decision == "keep":
        t = record.trump
        assert t is not None
        kept = 0
        if seat != bidder:
            kept = int(kp.search_keep(code, seated, stream, np.uint64(mask_of(held)), np.int64(seat), np.int64(bidder),
                                      np.int64(t), *search))
        if not kept:
            kept = kp.choose_keep(code, seated, stream, np.uint64(mask_of(held)), np.int64(t), keep_scores[t])
        return [card_name(c) for c in _cards(kept)]
    if decision == "card":
        hs = hand_state(replay_position(record)) if card_state is None else card_state
        hs[L.ST_DEALER] = record.dealer  # the auction, for a player that reads it (as a simulated hand has it)
        hs[L.ST_N_CALLS] = 4
        hs[L.ST_CALLS: L.ST_CALLS + 4] = calls
        hs[L.ST_KITTY] = np.int64(mask_of(record.kitty))  # read for the bidder's seat only, as in a simulated hand
        legal = np.uint64(ks.legal_cards(hs, array))  # a uint64, as in the kernels' hands: one compiled card play
        c = int(kp.search_play(code, seated, stream, hs, legal, array, give, policies, bidder_arrays, net_work))
        return card_name(c)
    raise SmearError(f"unknown decision {decision!r}: call, trump, keep or card")


def view_action(view: SeatView, policy: str, *, seed: int = 1, index: int = 0) -> Any:
    """The seat's action by ``policy`` at its view's decision, from the view alone (what the seat sees): the action
    :func:`bot_action` takes on any hand record that gives that view. The kernels' state during play is
    :func:`smear_sim.analysis.bridge.view_state` (the other seats' unseen cards stand in for theirs; the players
    read only what the seat sees, and the search players re-deal them). Used by the OpenSpiel bots."""
    from ..core.view_layout import DECISION_CALL, DECISION_CARD, DECISION_KEEP, DECISION_TRUMP
    from ..reference.view_tensor import view_decision

    seat = view.seat
    hands = tuple(tuple(view.hand) if s == seat else () for s in range(4))
    kitty = tuple(view.kitty) if view.kitty is not None else ()
    stage = view_decision(view)
    decision = {DECISION_CALL: "call", DECISION_TRUMP: "trump", DECISION_KEEP: "keep", DECISION_CARD: "card"}[stage]
    record = HandRecord(view.rules, view.dealer, view.scores_before, hands, kitty, tuple(view.bids), view.trump)
    card_state = None
    if decision == "card":
        card_state = view_state(view)
    return bot_action(record, seat, decision, policy, seed=seed, index=index, card_state=card_state)


def warm_up(policy: str = "heuristic") -> None:
    """Compile (or load from Numba's cache) the kernels a bot of ``policy`` calls, on a hand played through; one
    line on stderr first when they are not in the cache (:mod:`smear_sim.engine.compiling`)."""
    from ..core.rules import Rules
    from ..engine.compiling import compiling, will_compile
    from ..kernels import hand as kh

    rules = Rules()
    deck = list(range(54))
    record = HandRecord(rules, 3, (0, 0), tuple(tuple(sorted(deck[9 * s: 9 * s + 9])) for s in range(4)),
                        tuple(deck[36:40]), (2, ref.PASS, ref.PASS, ref.PASS))
    start = HandRecord(rules, 3, (0, 0), record.hands, record.kitty, ())
    # The bots' kernels are compiled together, so the call's says for all of them whether the cache holds them.
    with compiling(will_compile(kh.policy_call, _call_args(start, 0, policy, _stream(1, 0)))):
        _play_through(record, start, policy)


def _play_through(record: HandRecord, start: HandRecord, policy: str) -> None:
    rules = record.rules
    bot_action(start, 0, "call", policy)
    trump = SUIT_NAMES.index(bot_action(record, 0, "trump", policy))
    discards = []
    for seat in range(4):
        with_trump = HandRecord(rules, 3, (0, 0), record.hands, record.kitty, record.bids, trump)
        kept = bot_action(with_trump, seat, "keep", policy)
        held = list(record.hands[seat]) + (list(record.kitty) if seat == 0 else [])
        discards.append(tuple(c for c in held if card_name(c) not in kept))
    bot_action(HandRecord(rules, 3, (0, 0), record.hands, record.kitty, record.bids, trump, tuple(discards), ()), 0,
               "card", policy)
