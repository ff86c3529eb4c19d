"""The view tensor's readable form (smear_sim/reference/view_tensor.py): fields of known positions, and blind to
what the seat cannot see. The compiled twin is held to it in tests/kernels/net/test_tensor.py."""

from __future__ import annotations

import random

import numpy as np
import pytest

from smear_sim.core.cards import card_name, parse_cards
from smear_sim.core.layout import MOON, N_POINTS
from smear_sim.core.rules import Rules
from smear_sim.core.tables import P_GAME, P_HIGH
from smear_sim.core.view_layout import (
    DECISION_CALL,
    DECISION_CARD,
    DECISION_KEEP,
    DECISION_TRUMP,
    VIEW_FIELDS,
    VR_FORCED_BID,
    VR_ROUND_POINTS,
    VR_SIZE,
    VR_TARGET,
    VT_CALLS,
    VT_CARD_POINTS,
    VT_CONTRACT,
    VT_DEALER,
    VT_DECISION,
    VT_DECLARER,
    VT_DISCARDS,
    VT_HAND,
    VT_KITTY,
    VT_LEADER,
    VT_LED_SUIT,
    VT_PLAYED,
    VT_POINTS,
    VT_RULES,
    VT_SCORES,
    VT_SIZE,
    VT_TAKEN,
    VT_TRICK,
    VT_TRUMP,
    VT_VOIDS,
)
from smear_sim.reference.record import parse_record
from smear_sim.reference.view import parse_view, view_of
from smear_sim.reference.view_tensor import view_decision, view_tensor
from tests.random_hands import random_record
from tests.view_tensor_cases import reference_decisions

N_CODES = MOON + 1


def field(tensor: np.ndarray, name: str) -> np.ndarray:
    offset = 0
    for entry, size, _ in VIEW_FIELDS:
        if entry == name:
            return tensor[offset: offset + size]
        offset += size
    raise KeyError(name)


def test_the_layout_is_one_field_after_another_and_its_size_is_what_the_docs_say():
    offsets = [VT_DECISION, VT_HAND, VT_KITTY, VT_DISCARDS, VT_DEALER, VT_CALLS, VT_DECLARER, VT_CONTRACT, VT_TRUMP,
               VT_LEADER, VT_LED_SUIT, VT_PLAYED, VT_TRICK, VT_TAKEN, VT_VOIDS, VT_POINTS, VT_CARD_POINTS, VT_SCORES,
               VT_RULES]
    sizes = [size for _, size, _ in VIEW_FIELDS]
    assert offsets == list(np.cumsum([0, *sizes[:-1]]))
    assert VT_SIZE == sum(sizes) == 819
    assert sizes[-1] == VR_SIZE


HAND_3 = "AS KS 10H 4H JD 9D 2C HJ 5S"


def test_a_call_shows_the_seats_cards_the_calls_by_relative_seat_and_the_scores():
    """Seat 3 to call, the dealer seat 0: seat 1 (its partner, relative seat 2) bid 2 and seat 2 (its right-hand
    opponent, relative seat 3) passed."""
    view = parse_view({"dealer": 0, "seat": 3, "scores_before": [7, -3],
                       "hands": [None, None, None, HAND_3.split()], "bids": [2, "pass"]})
    tensor = view_tensor(view)
    assert tensor.dtype == np.float32 and tensor.shape == (VT_SIZE,)
    assert np.flatnonzero(field(tensor, "decision")).tolist() == [DECISION_CALL]
    assert sorted(np.flatnonzero(field(tensor, "hand")).tolist()) == sorted(parse_cards(HAND_3))
    assert np.flatnonzero(field(tensor, "dealer")).tolist() == [1]  # seat 0 sits on seat 3's left
    calls = field(tensor, "calls").reshape(4, N_CODES)
    assert [np.flatnonzero(row).tolist() for row in calls] == [[], [], [2], [0]]
    for name in ("kitty", "discards", "declarer", "contract", "trump", "played", "trick", "voids", "points"):
        assert not field(tensor, name).any(), name
    # Seat 3 is on team 1: "us" has -3 and "them" 7, as fractions of the target 21.
    assert field(tensor, "scores").tolist() == [np.float32(-3 / 21), np.float32(7 / 21)]
    rules = field(tensor, "rules")
    assert rules[VR_FORCED_BID] == 1 and rules[VR_ROUND_POINTS] == 0 and rules[VR_TARGET] == 1.0


def _record(seed: int, rules: Rules):
    """A random legal hand with a bidder (tests/random_hands.py)."""
    rng = random.Random(seed)
    while True:
        record = parse_record(random_record(rules, rng))
        if record.trump is not None:
            return record


def test_trump_and_the_keep_show_the_kitty_to_the_bidder_only():
    record = _record(1, Rules())
    bidder = next(v.bidder for label, v in reference_decisions(record) if label == "trump")
    trump = view_tensor(view_of(record, bidder, trump=False))
    assert np.flatnonzero(field(trump, "decision")).tolist() == [DECISION_TRUMP]
    assert sorted(np.flatnonzero(field(trump, "kitty")).tolist()) == sorted(record.kitty)
    assert field(trump, "hand").sum() == 13
    assert np.flatnonzero(field(trump, "declarer")).tolist() == [0]
    for seat in range(4):
        keep = view_tensor(view_of(record, seat, discards=False))
        assert np.flatnonzero(field(keep, "decision")).tolist() == [DECISION_KEEP]
        assert field(keep, "kitty").sum() == (4 if seat == bidder else 0)
        assert field(keep, "hand").sum() == (13 if seat == bidder else 9)
        assert np.flatnonzero(field(keep, "trump")).tolist() == [record.trump]
        assert np.flatnonzero(field(keep, "declarer")).tolist() == [(bidder - seat) % 4]


@pytest.mark.parametrize("rules", [Rules(), Rules(round_points=True)], ids=["defaults", "round_points"])
def test_every_card_decision_counts_its_cards_right(rules):
    """At the k-th card: k cards played, k mod 4 on the table, 4 * (k // 4) taken, the seat's own discards, and the
    points and card points of the tricks taken."""
    for seed in range(4):
        record = _record(seed, rules)
        for label, view in reference_decisions(record):
            if not label.startswith("card"):
                continue
            k = int(label.split()[1])
            tensor = view_tensor(view)
            assert view_decision(view) == DECISION_CARD
            assert field(tensor, "played").sum() == k
            assert field(tensor, "trick").sum() == k % 4
            assert field(tensor, "taken").sum() == 4 * (k // 4)
            assert field(tensor, "hand").sum() == 6 - k // 4
            assert field(tensor, "discards").sum() == len(view.discards)
            assert field(tensor, "leader").sum() == 1
            assert field(tensor, "led_suit").sum() == (1 if k % 4 else 0)
            points = field(tensor, "points").reshape(2, N_POINTS)
            assert points[:, rules.max_points:].sum() == 0  # only the points at stake
            assert points.sum(axis=0).max() <= 1  # a point goes to one team at most
            card_points = field(tensor, "card_points")
            if card_points[0] != card_points[1]:
                assert points[:, P_GAME].tolist() == [card_points[0] > card_points[1], card_points[1] > card_points[0]]
            trick = field(tensor, "trick").reshape(4, 54)
            if k % 4:  # the viewer is to play: the cards on the table are from the seats before it
                assert not trick[0].any()


def _split(text: str) -> list[str]:
    return text.split()


def test_a_trick_shows_who_played_what_the_void_shown_and_the_points():
    """A hand made by hand: seat 1 bids 3 and names spades, leads the ace of trump; seat 2 plays a heart (showing no
    trump), seat 3 and seat 0 follow, and seat 1 leads again. From seat 0's view, its turn in the second trick."""
    hands = ["2S 3S 4H 5H 6H 7D 8D 9C 10C", "AS KS QS 2H 3H 4D 5D 6C 7C", "8H 9H 10H JH QH KH AH 2D 3D",
             "5S 6S 7S 4C 5C 8C JC QC KC"]
    discards = ["4H 5H 6H", "2H 3H 4D 5D 6C 7C AD", "8H 9H 2D", "4C 5C 8C"]
    record = parse_record({"dealer": 0, "hands": [h.split() for h in hands], "kitty": _split("JS 9S AD KD"),
                           "bids": [3, "pass", "pass", "pass"], "trump": "S",
                           "discards": [d.split() for d in discards], "plays": _split("AS 10H 5S 2S KS JH 6S")},
                          partial=True)
    tensor = view_tensor(view_of(record, 0, plays=7))

    def names(block: np.ndarray) -> list[list[str]]:
        return [[card_name(c) for c in np.flatnonzero(row)] for row in block.reshape(-1, 54)]

    assert names(field(tensor, "played")) == [["2S"], ["KS", "AS"], ["10H", "JH"], ["5S", "6S"]]
    assert names(field(tensor, "trick")) == [[], ["KS"], ["JH"], ["6S"]]
    assert np.flatnonzero(field(tensor, "leader")).tolist() == [1]
    assert np.flatnonzero(field(tensor, "led_suit")).tolist() == [0]
    assert names(field(tensor, "taken")) == [[], ["2S", "5S", "AS", "10H"]]  # "them": seat 1 took it
    assert np.argwhere(field(tensor, "voids").reshape(4, 4)).tolist() == [[2, 0]]  # seat 2 showed no spades
    points = field(tensor, "points").reshape(2, N_POINTS)
    # High (the ace, seat 1's) and Game to them; Low (the two, seat 0's own) to us; Jack not yet played.
    assert np.argwhere(points).tolist() == [[0, 1], [1, P_HIGH], [1, P_GAME]]
    assert field(tensor, "card_points").tolist() == [0.0, np.float32(14 / 80)]
    assert names(field(tensor, "discards")) == [["4H", "5H", "6H"]]
    assert names(field(tensor, "hand")) == [["3S", "7D", "8D", "9C", "10C"]]
    assert np.flatnonzero(field(tensor, "contract")).tolist() == [3]
    assert np.flatnonzero(field(tensor, "declarer")).tolist() == [1]
    assert not field(tensor, "kitty").any()


def test_the_view_of_a_record_does_not_depend_on_the_cards_the_seat_cannot_see():
    """The same view given with the other seats' hands and discards filled in (and the kitty, to a seat that did not
    take it) gives the same tensor, byte for byte: the view never reads them."""
    for seed in range(3):
        record = _record(seed, Rules(round_points=True))
        for label, view in reference_decisions(record):
            obj = view.to_json()
            bare = view_tensor(view)
            filled = dict(obj)
            filled["hands"] = [[card_name(c) for c in record.hands[s]] for s in range(4)]
            filled["kitty"] = [card_name(c) for c in record.kitty]
            if "discards" in obj:
                filled["discards"] = [obj["discards"][s] if s == view.seat else [card_name(c) for c in record.discards[s]]
                                      for s in range(4)]
            assert view_tensor(parse_view(filled)).tobytes() == bare.tobytes(), label
