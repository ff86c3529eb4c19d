"""The page's bots play the learned player as the simulator does (analysis/bots.py): at every decision of a hand the
net played, the bot's action is the one the hand took."""

from __future__ import annotations

from pathlib import Path

import pytest

from smear_sim.analysis.bots import bot_action
from smear_sim.analysis.simulate import trace_records
from smear_sim.core.cards import SUIT_NAMES, card_name
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "net" / "net.npz"


def test_the_bots_decide_as_the_hand_did(monkeypatch):
    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN))
    checked = 0
    for obj in trace_records(3, seed=5, policies="net"):
        record = parse_record(obj)
        won = ref.auction_winner(record.bids)
        if won is None:
            continue
        bidder = ref.seat_of_bid(record.dealer, won[0])
        kept = [sorted(set(record.hands[s]) | (set(record.kitty) if s == bidder else set())) for s in range(4)]
        assert bot_action(record, bidder, "trump", "net") == SUIT_NAMES[record.trump]
        for seat in range(4):  # the bidder's keep is asked with its trump named, a narrower choice: the defenders'
            if seat != bidder:
                keep = bot_action(record, seat, "keep", "net")
                assert sorted(keep) == sorted(card_name(c) for c in kept[seat] if c not in record.discards[seat])
        leader = bidder
        seats = []
        trick = []
        for c in record.plays:  # who played each card
            seat = (leader + len(trick)) % 4
            seats.append(seat)
            trick.append(c)
            if len(trick) == 4:
                leader = (leader + ref.trick_winner(trick, record.trump)) % 4
                trick = []
        for k in (0, 5, 13, 22):
            partial = parse_record({**obj, "plays": [card_name(c) for c in record.plays[:k]]}, partial=True)
            assert bot_action(partial, seats[k], "card", "net") == card_name(record.plays[k])
            checked += 1
    assert checked >= 4


def test_without_a_net_the_bot_is_refused(monkeypatch, tmp_path):
    from smear_sim.core.errors import SmearError
    from smear_sim.web.checks import check_net

    monkeypatch.setenv("SMEAR_SIM_NET", str(tmp_path / "none.npz"))
    with pytest.raises(SmearError, match="none.npz"):
        check_net("net")
