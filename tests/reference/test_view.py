"""A seat's view (smear_sim/reference/view.py): what it keeps, whose turn it is, the legal actions, bad views."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from smear_sim.core.cards import card_name
from smear_sim.core.errors import RecordError
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record, replay_position
from smear_sim.reference.view import CALL, CARD, KEEP, TRUMP, decision_of, legal_actions, parse_view, view_of

GOLDEN = Path(__file__).parents[1] / "golden"
BASIC = json.loads((GOLDEN / "basic.json").read_text())
RECORD = parse_record(BASIC)


def full_view(seat: int, plays: int) -> dict:
    """The whole record cut at ``plays``, every hand given, as a view for ``seat``."""
    obj = {k: v for k, v in BASIC.items() if k not in ("why", "expected")}
    return obj | {"seat": seat, "plays": BASIC["plays"][:plays]}


def test_every_card_decision_lists_the_reference_engines_legal_cards():
    for k in range(24):
        position = replay_position(dataclasses.replace(RECORD, plays=RECORD.plays[:k]))
        view = view_of(RECORD, position.to_play, plays=k)
        assert decision_of(view) == CARD
        assert legal_actions(view) == [card_name(c) for c in position.legal()]


def test_the_decisions_before_play():
    assert decision_of(view_of(RECORD, 0, bids=0)) == CALL
    assert legal_actions(view_of(RECORD, 0, bids=0)) == [2, 3, 4, "moon"]  # the opener must bid
    assert legal_actions(view_of(RECORD, 1, bids=1)) == ["pass", 4, "moon"]
    assert decision_of(view_of(RECORD, 0, trump=False)) == TRUMP
    assert legal_actions(view_of(RECORD, 0, trump=False)) == ["S", "H", "D", "C"]
    keep = view_of(RECORD, 2, discards=False)
    assert decision_of(keep) == KEEP
    keeps = legal_actions(keep)
    assert len(keeps) == len(list(ref.legal_keeps(RECORD.hands[2], RECORD.trump)))
    assert all(len(k) == 6 for k in keeps)


def test_only_what_the_seat_sees_is_kept():
    """The other hands given, null or wrong: the same view."""
    true = parse_view(full_view(1, 8))
    blank = full_view(1, 8) | {"hands": [None, BASIC["hands"][1], None, None],
                               "discards": [None, BASIC["discards"][1], None, None]}
    swapped = full_view(1, 8)
    swapped["hands"] = [BASIC["hands"][2], BASIC["hands"][1], BASIC["hands"][0], ["XX"]]
    swapped["discards"] = [None, BASIC["discards"][1], "junk", None]
    assert true == parse_view(blank) == parse_view(swapped)
    assert true.kitty is None  # seat 1 did not win the auction
    assert parse_view(full_view(0, 0)).kitty is not None
    assert parse_view(true.to_json()) == true


@pytest.mark.parametrize(("change", "message"), [
    ({"seat": 2}, "not seat 2's turn: it is seat 1's, to play a card"),
    ({"seat": 2, "plays": []}, "not seat 2's turn: it is seat 0's, to play a card"),
    ({"seat": 5}, "seat must be"),
    ({"hands": [None, None, None, None]}, "hands[1] is null"),
    ({"plays": ["AH", "10H", "8H", "QH", "ZZ"]}, "plays[4]"),
    ({"plays": ["AH", "10H", "8H", "QH", "AH"]}, "AH was already played"),
    ({"plays": ["AH", "10H", "8H", "QH", "3C"]}, "is seat 1's own card (discarded)"),
    ({"bids": [3, "pass", 2, "pass"]}, "bids[2]"),
    ({"discards": None}, "needs discards[1]"),
])
def test_bad_views_are_refused_in_one_line(change, message):
    obj = full_view(1, 5) | change
    with pytest.raises(RecordError) as caught:
        parse_view(obj)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_whose_turn_in_the_auction_and_at_trump():
    with pytest.raises(RecordError, match="not seat 3's turn: it is seat 1's, to call"):
        parse_view(full_view(3, 0) | {"bids": [3], "trump": None, "discards": None, "plays": None})
    with pytest.raises(RecordError, match="not seat 2's turn: it is seat 0's, to name trump"):
        parse_view(full_view(2, 0) | {"trump": None, "discards": None, "plays": None})


def test_a_void_shown_cannot_be_broken():
    """Seat 2 played 5D to a trump lead in trick 2, so it holds no trump: a trump from it later is refused."""
    seat3 = full_view(3, 10) | {"hands": [None, None, None, BASIC["hands"][3]],
                                "discards": [None, None, None, BASIC["discards"][3]]}
    assert seat3["plays"][6] == "5D"
    assert decision_of(parse_view(seat3)) == CARD
    seat3["plays"] = seat3["plays"][:9] + ["9H"]
    with pytest.raises(RecordError, match="seat 2 showed it held no trump earlier"):
        parse_view(seat3)
