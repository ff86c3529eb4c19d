"""The training data's driver (kernels/drivers/net_data.py): the hands go as the table's players play them, every
card row is the seat's view tensor of the position met, the values are legal-only P(win) totals, and where
``expert`` with the driver's K plays, its choices are the best by the recorded values (it searched the same worlds).

One table compiles once (about two minutes from an empty cache): ``expert:4`` against ``heuristic``, K = 4.
"""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.analysis.session_tables import loaded_tables
from smear_sim.analysis.simulate import trace_records
from smear_sim.core.cards import mask_of
from smear_sim.core.players import parse_policies, policy_array
from smear_sim.core.rules import Rules
from smear_sim.core.view_layout import DECISION_CARD, VT_DECISION, VT_HAND, VT_SCORES, VT_TRUMP
from smear_sim.kernels import drivers
from smear_sim.kernels.drivers.net_data import (
    CARD_ROWS,
    KEEP_DECISIONS,
    KEEP_ROWS,
    NET_N_CARD,
    NET_N_KEEP,
    NET_N_KEEP_DECISIONS,
)
from smear_sim.kernels.players.card_choice import WIN_SCALE
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record
from smear_sim.reference.view_tensor import view_tensor
from tests.view_tensor_cases import reference_decisions

POLICIES = ("expert:4", "heuristic")  # expert sits at seats 0 and 2
K = 4
SEED = 11
HANDS = 4


def _run(start: int, count: int, random_scores: bool = False):
    rules = Rules()
    codes = policy_array(parse_policies(POLICIES))
    return drivers.net_data(np.uint64(SEED), start, count, rules.to_array(), codes, loaded_tables(rules).arrays(),
                            np.int64(K), np.bool_(random_scores), drivers.seated_arg(codes))


@pytest.fixture(scope="module")
def data():
    return _run(0, HANDS)


@pytest.fixture(scope="module")
def records():
    """The same hands as the table plays them (from 0-0, dealer rotating: as the driver without random scores)."""
    return [parse_record(obj) for obj in trace_records(HANDS, seed=SEED, policies=POLICIES)]


def _card_rows(data, i):
    counts = data[-1]
    lo = i * CARD_ROWS
    return range(lo, lo + int(counts[i, NET_N_CARD]))


def _keep_rows(data, i):
    counts = data[-1]
    lo = i * KEEP_ROWS
    return range(lo, lo + int(counts[i, NET_N_KEEP]))


def test_the_data_of_a_range_is_the_same_in_pieces(data):
    first, second = _run(0, 1), _run(1, HANDS - 1)
    counts = data[-1]
    for whole, a, b in zip(data, first, second, strict=True):
        assert np.array_equal(whole, np.concatenate([a, b]))
    assert counts[:, NET_N_KEEP_DECISIONS].max() <= KEEP_DECISIONS


def test_every_card_row_is_the_view_tensor_of_the_position_the_players_met(data, records):
    card_tensor = data[0]
    compared = 0
    for i, record in enumerate(records):
        views = [view for label, view in reference_decisions(record) if label.startswith("card")]
        rows = _card_rows(data, i)
        if record.plays is None:  # thrown in: nothing recorded
            assert len(rows) == 0
            continue
        assert len(rows) == len(views) == 24
        for row, view in zip(rows, views, strict=True):
            assert np.array_equal(card_tensor[row], view_tensor(view))
            compared += 1
    assert compared > 0


def test_card_values_are_legal_only_and_p_win_totals(data, records):
    _, card_legal, card_wins, card_points = data[:4]
    for i, record in enumerate(records):
        for row, k in zip(_card_rows(data, i), range(24), strict=False):
            legal = card_legal[row]
            assert legal[record.plays[k]]  # the card played was legal
            assert np.all(card_wins[row][~legal] == 0) and np.all(card_points[row][~legal] == 0)
            assert np.all((card_wins[row][legal] >= 0) & (card_wins[row][legal] <= K * WIN_SCALE))


def test_experts_card_is_the_best_by_the_recorded_values(data, records):
    """``expert:4`` drew the same K worlds from the hand's stream, so its card is among the best by the recorded
    totals (P(win), then points)."""
    _, card_legal, card_wins, card_points = data[:4]
    checked = 0
    for i, record in enumerate(records):
        views = [view for label, view in reference_decisions(record) if label.startswith("card")]
        for row, view, card in zip(_card_rows(data, i), views, record.plays or (), strict=False):
            if view.seat % 2 != 0:
                continue  # heuristic's seat
            legal = np.flatnonzero(card_legal[row])
            key = [(card_wins[row, c], card_points[row, c]) for c in legal]
            best = max(key)
            assert (card_wins[row, card], card_points[row, card]) == best
            checked += 1
    assert checked > 0


def _keep_of(tensor) -> tuple[int, int]:
    hand = int(sum(1 << c for c in np.flatnonzero(tensor[VT_HAND: VT_HAND + 54])))
    return hand, int(np.flatnonzero(tensor[VT_TRUMP: VT_TRUMP + 4])[0])


def test_keep_rows_group_by_decision_and_experts_keep_is_the_best(data, records):
    keep_tensor, keep_wins, keep_points, keep_decision = data[4:8]
    checked = 0
    for i, record in enumerate(records):
        rows = list(_keep_rows(data, i))
        if record.plays is None:
            assert rows == []
            continue
        decisions = keep_decision[rows]
        assert np.all(np.diff(decisions) >= 0) and sorted(set(decisions)) == list(range(KEEP_DECISIONS))
        bidder = ref.seat_of_bid(record.dealer, ref.auction_winner(record.bids)[0])
        seats = [bidder] + [s for s in range(4) if s != bidder]  # the order the decisions are made in
        for d, seat in enumerate(seats):
            mine = [r for r in rows if keep_decision[r] == d]
            for r in mine:  # the state after the keep: six cards held, play not begun
                assert keep_tensor[r, VT_DECISION + DECISION_CARD] == 1
                assert keep_tensor[r, VT_HAND: VT_HAND + 54].sum() == 6
                assert 0 <= keep_wins[r] <= K * WIN_SCALE
            if seat % 2 != 0:
                continue
            known = mask_of(record.hands[seat]) | (mask_of(record.kitty) if seat == bidder else 0)
            kept = known & ~mask_of(record.discards[seat])
            totals = [(keep_wins[r], keep_points[r]) for r in mine]
            first_best = mine[totals.index(max(totals))]  # ties go to the earlier candidate
            assert _keep_of(keep_tensor[first_best]) == (kept, record.trump)
            checked += 1
    assert checked > 0


def test_random_scores_start_the_hands_from_scores_below_the_target():
    scored = _run(0, HANDS, random_scores=True)
    scores = scored[0][:, VT_SCORES: VT_SCORES + 2] * Rules().target
    assert np.any(scores != 0) and np.all((scores >= 0) & (scores < Rules().target))


def test_the_driver_frees_every_array_it_allocates():
    """Its borrowed views and the search it calls leak nothing: every allocation of a call is freed once its result
    is dropped (as tests/kernels/test_borrow.py holds the other drivers)."""
    from allocations import allocations_during

    _run(0, 1)  # compiled (or loaded) before counting
    before, after = allocations_during(lambda: _run(0, 2))
    allocated = after.alloc - before.alloc
    assert allocated > 0
    assert after.free - before.free == allocated
    assert after.mi_free - before.mi_free == after.mi_alloc - before.mi_alloc
