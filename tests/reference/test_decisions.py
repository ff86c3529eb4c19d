"""The decisions of a record (reference/decisions.py): every choice listed once, in the order made, with the legal
actions the seat's own view gives (reference/view.py), and exactly those with a choice graded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smear_sim.reference import hand as ref
from smear_sim.reference.decisions import decisions_of
from smear_sim.reference.record import parse_game_record, parse_record, replay
from smear_sim.reference.view import legal_actions

GOLDEN = Path(__file__).parents[1] / "golden"
HANDS = sorted(GOLDEN.glob("*.json"))
GAMES = sorted((GOLDEN / "games").glob("*.json"))


def golden_hands():
    for path in HANDS:
        yield path.stem, parse_record(json.loads(path.read_text()))
    for path in GAMES:
        for number, deal in enumerate(parse_game_record(json.loads(path.read_text())).deals):
            yield f"{path.stem}-{number}", deal


CASES = list(golden_hands())


@pytest.mark.parametrize("name,record", CASES, ids=[name for name, _ in CASES])
def test_each_decision_is_the_seats_own_with_the_legal_actions_its_view_gives(name, record):
    decisions = decisions_of(record)
    for d in decisions:
        view = d.view(record)
        assert view.seat == d.seat and view.decision == d.kind
        actions = legal_actions(view)
        assert len(actions) == d.legal
        assert d.taken in actions
        assert d.has_choice == (len(actions) > 1)


@pytest.mark.parametrize("name,record", CASES, ids=[name for name, _ in CASES])
def test_decisions_come_in_the_order_made(name, record):
    decisions = decisions_of(record)
    calls = [d for d in decisions if d.kind == "call"]
    assert [d.taken for d in calls] == list(record.bids)
    assert [d.seat for d in calls] == [ref.seat_of_bid(record.dealer, p) for p in range(4)]
    result = replay(record)
    if result.bidder is None:
        assert decisions == calls
        return
    kinds = [d.kind for d in decisions]
    assert kinds == ["call"] * 4 + ["trump"] + ["keep"] * 4 + ["card"] * 24
    assert decisions[4].seat == result.bidder and decisions[5].seat == result.bidder
    assert {d.seat for d in decisions[5:9]} == {0, 1, 2, 3}
    cards = decisions[9:]
    assert [d.taken for d in cards] == [c for t in result.tricks for c in t.to_json()["cards"]]
    assert [d.seat for d in cards] == [t.seat_of(i) for t in result.tricks for i in range(4)]
    assert [d.trick for d in cards] == [n // 4 + 1 for n in range(24)]
    for d in decisions[5:9]:
        kept = set(record.hands[d.seat]) | (set(record.kitty) if d.seat == result.bidder else set())
        assert len(d.taken) == 6 and len(kept - set(record.discards[d.seat])) == 6


def test_the_last_card_of_a_hand_is_forced_and_the_trump_always_a_choice():
    _, record = next((n, r) for n, r in CASES if replay(r).bidder is not None)
    decisions = decisions_of(record)
    assert decisions[-1].legal == 1 and not decisions[-1].has_choice
    assert next(d for d in decisions if d.kind == "trump").legal == 4


def test_a_view_holds_only_what_the_seat_saw():
    _, record = next((n, r) for n, r in CASES if replay(r).bidder is not None)
    bidder = replay(record).bidder
    for d in decisions_of(record):
        obj = d.view(record).to_json()
        assert all(h is None for s, h in enumerate(obj["hands"]) if s != d.seat)
        assert (obj["kitty"] is not None) == (d.seat == bidder and d.kind != "call")
        assert len(obj["bids"]) == d.calls
        if d.kind == "card":
            assert len(obj["plays"]) == d.plays
            assert all(x is None for s, x in enumerate(obj["discards"]) if s != d.seat)
