"""The training data's driver with the learned player at the table (expert iteration: the net plays, the search
labels): the net's every choice is the best by its own heads on the very tensors the driver recorded, so the player
sees what the data records. ``net`` (the tiny golden net) against ``heuristic``, K = 1."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from smear_sim.analysis.session_tables import loaded_tables
from smear_sim.analysis.simulate import trace_records
from smear_sim.core.bidder import with_net
from smear_sim.core.players import parse_policies, policy_array
from smear_sim.core.rules import Rules
from smear_sim.core.view_layout import VT_HAND, VT_TRUMP
from smear_sim.engine.net_weights import kernel_arrays, load_net
from smear_sim.kernels import drivers
from smear_sim.kernels.drivers.net_data import CARD_ROWS, KEEP_ROWS, NET_N_CARD, NET_N_KEEP
from smear_sim.kernels.net.mlp import forward
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "net" / "net.npz"
POLICIES = ("net", "heuristic")  # the net sits at seats 0 and 2
SEED = 21
HANDS = 3


@pytest.fixture(scope="module")
def arrays():
    rules = Rules()
    return with_net(loaded_tables(rules).arrays(), kernel_arrays(load_net(GOLDEN)))


@pytest.fixture(scope="module")
def data(arrays):
    codes = policy_array(parse_policies(POLICIES))
    return drivers.net_data(np.uint64(SEED), 0, HANDS, Rules().to_array(), codes, arrays, np.int64(1),
                            np.bool_(False), drivers.seated_arg(codes))


@pytest.fixture(scope="module")
def records():
    mp = pytest.MonkeyPatch()
    mp.setenv("SMEAR_SIM_NET", str(GOLDEN))
    try:
        return [parse_record(obj) for obj in trace_records(HANDS, seed=SEED, policies=POLICIES)]
    finally:
        mp.undo()


def _outputs(head, tensor, n_out):
    h = head[1].shape[0]
    acc, hidden, out = np.zeros(h, np.float32), np.zeros(h, np.float32), np.zeros(n_out, np.float32)
    forward(head, tensor, acc, hidden, out)
    return out


def test_the_nets_cards_are_the_best_by_its_head_on_the_recorded_tensors(arrays, data, records):
    card_tensor, card_legal = data[0], data[1]
    counts = data[-1]
    checked = 0
    for i, record in enumerate(records):
        rows = range(i * CARD_ROWS, i * CARD_ROWS + int(counts[i, NET_N_CARD]))
        if record.plays is None:
            continue
        bidder = ref.seat_of_bid(record.dealer, ref.auction_winner(record.bids)[0])
        leader, trick = bidder, []
        for row, card in zip(rows, record.plays, strict=True):
            seat = (leader + len(trick)) % 4
            legal = np.flatnonzero(card_legal[row])
            if seat % 2 == 0 and len(legal) > 1:
                out = _outputs(arrays[8:14], card_tensor[row], 54)
                best = max(out[c] for c in legal)
                assert card == min(c for c in legal if out[c] == best)
                checked += 1
            trick.append(card)
            if len(trick) == 4:
                leader = (leader + ref.trick_winner(trick, record.trump)) % 4
                trick = []
    assert checked > 5


def test_the_nets_keeps_are_the_best_by_its_head_on_the_recorded_tensors(arrays, data, records):
    keep_tensor, keep_decision = data[4], data[7]
    counts = data[-1]
    checked = 0
    for i, record in enumerate(records):
        if record.plays is None:
            continue
        rows = list(range(i * KEEP_ROWS, i * KEEP_ROWS + int(counts[i, NET_N_KEEP])))
        bidder = ref.seat_of_bid(record.dealer, ref.auction_winner(record.bids)[0])
        seats = [bidder] + [s for s in range(4) if s != bidder]  # the order the driver records the decisions in
        for d, seat in enumerate(seats):
            mine = [r for r in rows if keep_decision[r] == d]
            if seat % 2 != 0 or len(mine) < 2:
                continue
            values = [_outputs(arrays[14:20], keep_tensor[r], 1)[0] for r in mine]
            chosen = keep_tensor[mine[int(np.argmax(values))]]  # the first of the best, as the player takes it
            held = {int(c) for c in np.flatnonzero(chosen[VT_HAND: VT_HAND + 54])}
            seen = set(record.hands[seat]) | (set(record.kitty) if seat == bidder else set())
            assert held == seen - set(record.discards[seat])
            assert int(np.flatnonzero(chosen[VT_TRUMP: VT_TRUMP + 4])[0]) == record.trump
            checked += 1
    assert checked > 0
