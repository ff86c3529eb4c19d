"""Bid tables by place in the auction (analysis/positions.py): what is counted where, the values read from the counts,
and the files."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim import class_table, match_equity, position_table
from smear_sim.analysis.positions import PositionTable, call_slots, legal_slots, situation_label, strength_buckets
from smear_sim.core import layout as L
from smear_sim.core.bidder import N_BUCKETS
from smear_sim.core.rules import Rules

DEALS = 4000


@pytest.fixture(scope="module")
def classes():
    return class_table(60_000, seed=2)


@pytest.fixture(scope="module")
def table(classes):
    return position_table(DEALS, seed=3, classes=classes)


def test_every_turn_is_counted_once_under_its_place_and_situation(table):
    decisions = table.decisions
    assert decisions[0, 0].sum() == DEALS  # the opener always calls, with nothing standing
    assert decisions[0, 1:].sum() == 0
    assert decisions[1:, 0].sum() == 0  # the opener must bid (forced_bid=opener): something always stands
    for place in range(1, 4):
        assert 0 < decisions[place].sum() <= DEALS  # after a moon there is no decision
    # every legal call was played at every turn, and no other
    for place, situation in zip(*np.nonzero(decisions.sum(axis=-1)), strict=True):
        played = table.counts[place, situation].sum(axis=(0, 2)) > 0
        assert (played <= legal_slots(table.rules, place, situation)).all(), (place, situation)
        per_call = table.counts[place, situation].sum(axis=-1)  # [bucket, slot]
        legal = legal_slots(table.rules, place, situation)
        assert (per_call[:, legal] == decisions[place, situation][:, None]).all()


def test_a_partner_can_only_stand_from_the_third_place(table):
    partner = [2 * b - 1 for b in range(1, 5)]
    assert table.decisions[:2, partner].sum() == 0
    assert table.decisions[2:, partner].sum() > 0


def test_labels_and_legal_calls():
    assert call_slots(Rules()) == ("pass", 1, 2, 3, 4, "moon")
    assert [situation_label(s) for s in (0, 3, 4)] == ["none", "2 by partner", "2 by opponent"]
    assert legal_slots(Rules(), 0, 0).tolist() == [False, False, True, True, True, True]
    assert legal_slots(Rules(forced_bid="dealer"), 3, 0).tolist() == [False, False, True, True, True, True]
    assert legal_slots(Rules(moon=False), 2, 6).tolist() == [True, False, False, False, True, False]  # 3 stands


def test_strength_buckets_order_the_classes_by_the_declarers_points(classes):
    bucket, low, step = strength_buckets(classes)
    counts = classes.counts
    seen = counts[:, L.CLS_COUNT] >= 200
    points = (counts[seen, L.CLS_HIST: L.CLS_HIST + L.MAX_K] @ np.arange(L.MAX_K)) / counts[seen, L.CLS_COUNT]
    order = np.argsort(points, kind="stable")
    assert (np.diff(bucket[seen][order]) >= 0).all()
    assert bucket.min() >= 0 and bucket.max() < N_BUCKETS and step > 0
    assert low <= points.min() < low + step


def test_values_and_the_call_to_make(table):
    equity = match_equity(20_000, seed=3)
    values = table.values(equity)
    frame = table.frame(equity, min_count=50)
    assert len(frame) == int((table.decisions > 0).sum())
    win = values["win"][np.isfinite(values["win"])]
    assert ((win >= 0) & (win <= 1)).all()
    opener = frame[frame["place"] == "opener"]
    assert set(opener["standing"]) == {"none"} and opener["win_pass"].isna().all()  # the opener may not pass
    for row in frame[frame["reliable"]].to_dict("records"):
        calls = [c for c in call_slots(table.rules) if np.isfinite(row[f"win_{c}"])]
        best = max(calls, key=lambda c: row[f"win_{c}"])
        assert row["call"] == str(best)
        assert row["win_margin"] >= 0
    # the value of a call is the mean over its outcomes of P(win) after them
    wins = equity.outcome_wins((0, 0), "us")[0]
    cell = table.counts[0, 0, int(np.argmax(table.decisions[0, 0]))]
    assert values["win"][0, 0, int(np.argmax(table.decisions[0, 0])), 2] == pytest.approx(cell[2] @ wins / cell[2].sum())


def test_the_counts_do_not_depend_on_threads_or_chunks(table):
    again = position_table(DEALS, seed=3, buckets=(table.bucket_of_class, *table.strength), threads=1,
                           chunk_size=700)
    assert np.array_equal(again.counts, table.counts)


def test_save_and_load(table, tmp_path):
    table.save(tmp_path / "t.npz")
    back = PositionTable.load(tmp_path / "t.npz")
    assert np.array_equal(back.counts, table.counts) and back.strength == table.strength
    assert back.metadata() == table.metadata()
