"""The learned player's decisions (smear_sim/kernels/players/net.py), with the tiny golden net (hidden 16): they
read only the seat's view, the tensors they value are the ones the training data records, and the cards are legal
in whole hands."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from smear_sim.analysis.simulate import trace_records
from smear_sim.core.bidder import no_bidder_arrays, with_net
from smear_sim.core.calls import parse_call
from smear_sim.core.cards import mask_of
from smear_sim.core.layout import ST_BIDDER, ST_KITTY, ST_SIZE
from smear_sim.core.players import NET_POLICIES, TABLE_POLICIES, player
from smear_sim.core.rules import Rules
from smear_sim.core.view_layout import VT_SIZE
from smear_sim.engine.net_weights import kernel_arrays, load_net
from smear_sim.kernels.net import before_play_state, new_work, write_view_tensor
from smear_sim.kernels.net.mlp import forward
from smear_sim.kernels.players import net as netp
from smear_sim.kernels.players import policy_tables
from smear_sim.kernels.players.expert import MAX_CANDIDATES, candidate_keeps
from smear_sim.kernels.state import sample_world
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record, score_record
from tests.view_tensor_cases import kernel_decisions

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "net" / "net.npz"


@pytest.fixture(scope="module")
def arrays():
    return with_net(no_bidder_arrays(), kernel_arrays(load_net(GOLDEN)))


@pytest.fixture(scope="module")
def records():
    return [parse_record(r) for r in trace_records(6, seed=4747, policies="heuristic")]


def _card_decisions(record, rules_array):
    """(seat, hand state with the kitty in ST_KITTY, kitty) at each card decision of ``record``."""
    for label, seat, hs, kitty in kernel_decisions(record, rules_array):
        if label.startswith("card"):
            hs[ST_KITTY] = np.int64(kitty)
            yield seat, hs, kitty


def _legal(hs, rules_array):
    from smear_sim.kernels.state import legal_cards

    return np.uint64(legal_cards(hs, rules_array))


def test_the_player_values_a_card_on_the_tensor_the_data_records(arrays, records):
    """The data driver writes ``write_view_tensor(hs, seat, kitty)`` at a card decision (kernels/drivers/net_data.py);
    the player reads the kitty from ST_KITTY, which the hand that keeps the calls writes: the same bytes, and the
    card head's outputs on them."""
    rules_array = Rules().to_array()
    work = netp.new_net_work(arrays)
    expected = np.zeros(VT_SIZE, dtype=np.float32)
    acc, hidden, out = (np.zeros(16, np.float32), np.zeros(16, np.float32), np.zeros(54, np.float32))
    checked = 0
    for record in records:
        for seat, hs, kitty in _card_decisions(record, rules_array):
            netp.card_values(hs, np.int64(seat), rules_array, arrays, work)
            write_view_tensor(expected, hs, np.int64(seat), np.uint64(kitty), rules_array, new_work())
            assert work[0].tobytes() == expected.tobytes()
            forward(arrays[8:14], expected, acc, hidden, out)
            assert work[3].tobytes() == out.tobytes()
            checked += 1
    assert checked > 50


def test_the_player_values_a_keep_on_the_tensor_the_data_records(arrays, records):
    """``_record_keeps`` of the data driver: before_play_state holding the kept cards, then the seat's view."""
    rules = Rules()
    rules_array = rules.to_array()
    _, keep_table = policy_tables(rules_array)
    work = netp.new_net_work(arrays)
    hs = np.zeros(ST_SIZE, dtype=np.int64)
    tensor = np.zeros(VT_SIZE, dtype=np.float32)
    acc, hidden, out = (np.zeros(16, np.float32), np.zeros(16, np.float32), np.zeros(1, np.float32))
    keeps = np.zeros(MAX_CANDIDATES, dtype=np.uint64)
    checked = 0
    for record in records:
        won = ref.auction_winner(record.bids)
        if won is None:
            continue
        bidder = ref.seat_of_bid(record.dealer, won[0])
        calls = np.array([parse_call(b) for b in record.bids], dtype=np.int64)
        kitty = np.uint64(mask_of(record.kitty))
        for seat in range(4):
            held = np.uint64(mask_of(record.hands[seat])) | (kitty if seat == bidder else np.uint64(0))
            n = candidate_keeps(held, np.int64(record.trump), keep_table[record.trump], keeps, 0)
            for a in range(n):
                args = (np.int64(seat), kitty, np.int64(bidder), np.int64(record.trump), keeps[a],
                        np.int64(record.dealer), calls, np.int64(4), np.int64(0), np.int64(0),
                        np.int64(parse_call(won[1])))
                value = netp.keep_value(*args, rules_array, arrays, work)
                before_play_state(hs, args[0], keeps[a], args[5], calls, args[7], args[8], args[9], args[2], args[10],
                                  args[3])
                write_view_tensor(tensor, hs, args[0], kitty, rules_array, new_work())
                assert work[0].tobytes() == tensor.tobytes()
                forward(arrays[14:20], tensor, acc, hidden, out)
                assert value == out[0]
                checked += 1
    assert checked > 10


def test_two_states_the_same_to_the_seat_give_the_same_card_and_outputs(arrays, records):
    """The view invariance: the other seats' cards re-dealt from what the seat has not seen, and another kitty for a
    defender, give the same 54 outputs and the same card."""
    rules_array = Rules().to_array()
    give, _ = policy_tables(rules_array)
    work = netp.new_net_work(arrays)
    rng = np.array([np.uint64(47)], dtype=np.uint64)
    draw = random.Random(47)
    world = np.zeros(ST_SIZE, dtype=np.int64)
    checked = 0
    for record in records:
        for seat, hs, _ in _card_decisions(record, rules_array):
            legal = _legal(hs, rules_array)
            card = netp.play(hs, legal, rules_array, give, arrays, work)
            netp.card_values(hs, np.int64(seat), rules_array, arrays, work)
            before = work[3].copy()
            for _ in range(2):
                sample_world(hs, np.int64(seat), rng, world)
                if hs[ST_BIDDER] != seat:
                    world[ST_KITTY] = np.int64(draw.getrandbits(54))
                else:
                    world[ST_KITTY] = hs[ST_KITTY]
                netp.card_values(world, np.int64(seat), rules_array, arrays, work)
                assert work[3].tobytes() == before.tobytes()
                assert netp.play(world, legal, rules_array, give, arrays, work) == card
                checked += 1
    assert checked > 100


def test_a_defenders_keep_does_not_read_the_kitty(arrays, records):
    """The keep head's value for a defender is the same whatever kitty the call is handed: it is not its to see."""
    rules_array = Rules().to_array()
    work = netp.new_net_work(arrays)
    calls = np.array([2, 0, 0, 0], dtype=np.int64)
    hand = np.uint64(mask_of(records[0].hands[1]))
    values = {netp.keep_value(np.int64(1), np.uint64(kitty), np.int64(0), np.int64(2), hand, np.int64(3), calls,
                              np.int64(4), np.int64(0), np.int64(0), np.int64(2), rules_array, arrays, work)
              for kitty in (0, 0b1111, 1 << 40 | 1 << 41 | 1 << 42 | 1 << 43)}
    assert len(values) == 1


def test_the_card_is_the_legal_card_of_highest_output(arrays, records):
    rules_array = Rules().to_array()
    give, _ = policy_tables(rules_array)
    work = netp.new_net_work(arrays)
    for record in records[:2]:
        for seat, hs, _ in _card_decisions(record, rules_array):
            legal = _legal(hs, rules_array)
            card = netp.play(hs, legal, rules_array, give, arrays, work)
            assert (int(legal) >> int(card)) & 1
            if bin(int(legal)).count("1") > 1:
                netp.card_values(hs, np.int64(seat), rules_array, arrays, work)
                cards = [c for c in range(54) if (int(legal) >> c) & 1]
                best = max(work[3][c] for c in cards)
                assert card == min(c for c in cards if work[3][c] == best)


@pytest.mark.parametrize("rules", [Rules(), Rules(round_points=True)], ids=["defaults", "round_points"])
def test_the_net_plays_legal_cards_in_whole_hands(monkeypatch, rules):
    """Hands of the net against heuristic, traced and replayed by the reference engine, which checks every card."""
    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN))
    played = 0
    for obj in trace_records(12, seed=7, rules=rules, policies="net,heuristic"):
        score_record(obj)  # replays the hand by the reference engine: an illegal discard or card is refused here
        played += len(obj.get("plays") or [])
    assert played > 100


def test_the_registry_entry():
    p = player("net")
    assert p.reads_net and p.reads_tables and p.calls_as == "equity" and not p.searches and p.searched
    assert p.group == "net" and "net" in NET_POLICIES and "net" in TABLE_POLICIES
    assert set(netp.DECISIONS) == {d for d in p.decisions if d != "bid"}


def test_without_a_net_its_decisions_leave_it_to_the_heuristic():
    assert not netp.net_loaded(no_bidder_arrays())


def test_hands_with_the_net_free_every_array_they_allocate(arrays):
    """The hand that keeps the calls makes the net's scratch each hand (kernels/hand.py): each is freed."""
    from allocations import allocations_during

    from smear_sim.analysis.session_tables import loaded_tables
    from smear_sim.core.players import parse_policies, policy_array
    from smear_sim.kernels import drivers

    rules = Rules()
    codes = policy_array(parse_policies("net,heuristic"))
    table_arrays = with_net(loaded_tables(rules).arrays(), arrays[8:])
    seated = drivers.seated_arg(codes)

    def run() -> None:
        drivers.simulate_hands(np.uint64(5), 0, 200, 2, rules.to_array(), codes, table_arrays, seated)

    run()
    before, after = allocations_during(run)
    allocated = after.alloc - before.alloc
    assert allocated > 200  # the scratch, hand by hand
    assert after.free - before.free == allocated
