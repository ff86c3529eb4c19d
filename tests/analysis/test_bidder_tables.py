"""The equity bidder (kernels/players/equity.py) and its tables (core/bidder.py, engine/bidder_store.py,
analysis/session_tables.py, analysis/bidder_tables.py): the kernel
decides as the tables say, the shipped tables are what the tool makes, and tables for other rules are made once and
cached."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import smear_sim.analysis.bidder_tables as B
import smear_sim.analysis.session_tables as M
import smear_sim.engine.bidder_store as S
from smear_sim import position_table
from smear_sim.analysis.plan import RunPlan
from smear_sim.core import bidder as CB
from smear_sim.core import layout as L
from smear_sim.core.errors import SmearError
from smear_sim.core.players import POLICIES as ALL_POLICIES
from smear_sim.core.rules import Rules
from smear_sim.kernels import players as kp
from smear_sim.kernels.classes import hand_class
from smear_sim.kernels.hand import legal_calls
from smear_sim.kernels.players.equity import situation

TINY = {"deals": 3000, "equity_hands": 5000, "class_hands": 20_000, "max_iterations": 1}

EVERYONE = kp.seated_arg(range(len(ALL_POLICIES)))  # the kernels compiled for every player


SHIPPED = list(S.SHIPPED_RULES)  # the default rules, round points


@pytest.fixture(scope="module")
def shipped():
    return CB.BidderTables.load(S.shipped_path())


@pytest.fixture(scope="module", params=SHIPPED, ids=["default", "round_points"])
def each_shipped(request):
    return CB.BidderTables.load(S.shipped_path(request.param))


def test_the_shipped_tables_are_small_and_converged(each_shipped):
    """Both shipped sets: the last step of the iteration changed no decision, so the tables are a fixed point of the
    bidder that reads them."""
    rules = each_shipped.rules
    assert S.shipped_path(rules).stat().st_size < 2_000_000  # bytes: package data
    meta = each_shipped.meta
    steps = meta["iterations"]
    assert steps[0]["bidding"] == "heuristic" and all(s["bidding"] == "equity" for s in steps[1:])
    assert all("changed" in s for s in steps[1:])
    assert meta["converged"] and steps[-1]["changed"] == 0
    assert [s.get("keep_z", 0) for s in steps] == [B.settling_z(s["step"]) for s in steps]
    assert (each_shipped.settled is not None) == (len(steps) > B.PLAIN_STEPS + 1)
    assert S.load_tables(rules) is not None and S.shipped_path(Rules(target=11)) is None


def test_the_shipped_tables_are_what_this_code_makes(each_shipped):
    """The probe of the iteration, run now, gives the digest recorded when the shipped tables were made: the code
    still makes those tables. After a change to what the kernels do, remake them (python tools/equity_bidder.py)."""
    seed = each_shipped.meta["seed"]
    assert each_shipped.meta["behaviour"] == B.behaviour(each_shipped.rules, seed=seed)
    if each_shipped.rules == Rules():
        assert B.behaviour(Rules(), seed=seed + 1) != each_shipped.meta["behaviour"]  # it reads the counts


def _hands_by_bucket(bucket_of_class, n=20_000, seed=1):
    """A random hand for each strength bucket met among ``n`` random hands."""
    rng = np.random.default_rng(seed)
    found = {}
    for _ in range(n):
        cards = rng.choice(54, 9, replace=False)
        mask = np.uint64(sum(1 << int(c) for c in cards))
        found.setdefault(int(bucket_of_class[hand_class(mask)]), mask)
    return found


def _calls_for(place, sit):
    """Calls before ``place`` that leave situation ``sit`` (the number and who called it)."""
    calls = np.zeros(4, dtype=np.int64)
    if sit:
        number, by_opponent = (sit + 1) // 2, sit % 2 == 0
        calls[place - 1 if by_opponent else place - 2] = number
    return calls


def _with_settled_calls(tables, keep_z, seed=3):
    """``tables`` with a random legal call settled in every cell met (as the iteration's settling steps leave them)."""
    rng = np.random.default_rng(seed)
    legal = tables.counts.sum(axis=-1) > 0  # [place, situation, bucket, slot]
    pick = np.where(legal, rng.random(legal.shape), -1.0).argmax(axis=-1)
    settled = np.where(legal.any(axis=-1), pick, -1)
    return CB.BidderTables(tables.rules, tables.counts, tables.bucket_of_class, tables.grid, tables.solve_floor,
                           tables.meta, settled, keep_z)


@pytest.fixture(scope="module", params=["default", "round_points", "default, settled at 4 SE"])
def bidding_tables(request):
    if request.param.startswith("default, settled"):
        return _with_settled_calls(CB.BidderTables.load(S.shipped_path()), 4.0)
    return CB.BidderTables.load(S.shipped_path(SHIPPED[request.param == "round_points"]))


def test_the_kernel_calls_what_the_tables_say(bidding_tables):
    """For every cell with enough decisions, the kernel's call at several scores is the one the tables give
    (analysis.bidder_tables.decisions: the highest P(win), or the settled call where its rival's gain is within
    keep_z standard errors), and a call legal there."""
    tables = bidding_tables
    rules, array = tables.rules, tables.rules.to_array()
    bidder_arrays = tables.arrays(margin=0)  # the tables' own choice, whatever the default margin
    scores = [(0, 0), (15, 19), (19, 17), (-8, 5)]
    expected = B.decisions(tables, scores)
    if tables.settled is not None:  # the settled rule decides some cells, and not all
        plain = B.decisions(dataclasses.replace(tables, settled=None), scores)
        kept = (expected != plain) & (expected == tables.settled[None])
        assert kept.sum() > 20 and (expected == plain).sum() > 500
    hands = _hands_by_bucket(tables.bucket_of_class)
    slots = ("pass", *range(1, rules.max_points + 1), "moon")
    state = np.zeros(1, dtype=np.uint64)
    checked = 0
    cases = [(i, score, place, sit) for i, score in enumerate(scores) for place in range(4)
             for sit in range(expected.shape[2])]
    for i, (us, them), place, sit in cases:
        calls = _calls_for(place, sit)
        if sit and (place == 0 or (sit % 2 == 1 and place < 2)):
            continue
        assert situation(calls, place) == sit
        low, high, moon_ok, must, _ = legal_calls(array, place, calls)
        for bucket, hand in hands.items():
            want = expected[i, place, sit, bucket]
            if want < 0:
                continue
            seat = (3 + 1 + place) % 4
            call = kp.choose_bid(kp.EQUITY, bidder_arrays, EVERYONE, state, hand, seat, 3, calls, place, us, them, low, high,
                                 moon_ok, must, array, rules.max_points)
            assert call == (L.MOON if slots[want] == "moon" else L.PASS if slots[want] == "pass" else slots[want])
            checked += 1
    assert checked > 500


def test_settled_calls_stand_more_often_the_larger_the_margin(shipped):
    """A settled call stands where its rival gains at most keep_z standard errors: the larger keep_z, the more
    cells keep theirs (each cell kept at a margin is kept at a larger one); with keep_z 0, the plain best call."""
    met = shipped.decisions >= CB.MIN_COUNT
    plain = B.decisions(shipped)[0]
    assert np.array_equal(B.decisions(_with_settled_calls(shipped, 0.0))[0], plain)
    kept = []
    for keep_z in (0.5, 3.0, 30.0):
        settling = _with_settled_calls(shipped, keep_z)
        chosen = B.decisions(settling)[0]
        assert np.all((chosen[met] == plain[met]) | (chosen[met] == settling.settled[met]))
        kept.append(met & (chosen == settling.settled))
        assert settling.arrays()[0][L.BM_KEEP_Z] == round(keep_z * 100)
    assert np.all(kept[0] <= kept[1]) and np.all(kept[1] <= kept[2]) and kept[2].sum() > kept[0].sum() + 20


def test_carry_over_keeps_cells_once_met_enough():
    counts = np.zeros((2, 3, 4, 5, 6), dtype=np.int64)
    before = np.ones_like(counts) * 7
    counts[0, 0, 0, :, 0] = 200  # met enough now: measured again
    counts[0, 1, 0, :, 0] = 30  # met too rarely now, enough before: carried over
    before[1, 2, 3] = 2  # met too rarely now and before: left as it is
    carried, n = B.carry_over(counts, before, min_count=40)
    assert np.array_equal(carried[0, 0, 0], counts[0, 0, 0]) and np.array_equal(carried[0, 1, 0], before[0, 1, 0])
    assert np.array_equal(carried[1, 2, 3], counts[1, 2, 3]) and n == 2 * 3 * 4 - 2


def test_settling_ends_at_an_exact_fixed_point(monkeypatch):
    """Settling from step 1: when a step changes no decision, one more step makes the very same tables and calls."""
    monkeypatch.setattr(B, "PLAIN_STEPS", 0)
    rules = Rules(round_points=True)
    tables = B.build_bidder_tables(rules, seed=5, **(TINY | {"max_iterations": 6}))
    steps = tables.meta["iterations"]
    assert tables.meta["converged"] and steps[-1]["changed"] == 0 and len(steps) >= 2
    assert [s["keep_z"] for s in steps[1:]] == [B.KEEP_Z_STEP * s["step"] for s in steps[1:]]
    plan = RunPlan.of("equity", rules, bidder_arrays=tables.arrays())
    buckets = (tables.bucket_of_class, *tables.meta["strength"])
    again, _ = B.carry_over(position_table(TINY["deals"], seed=5, buckets=buckets, plan=plan).counts, tables.counts)
    assert np.array_equal(again, tables.counts)
    later = dataclasses.replace(tables, keep_z=B.settling_z(len(steps)))
    assert np.array_equal(B.decisions(later)[0], tables.settled)


def test_without_enough_data_or_a_clear_gain_the_bidder_calls_as_the_heuristic(shipped):
    array = Rules().to_array()
    state = np.zeros(1, dtype=np.uint64)
    calls = np.zeros(4, dtype=np.int64)
    rng = np.random.default_rng(2)
    empty = CB.no_bidder_arrays()
    sparse = CB.BidderTables(shipped.rules, np.zeros_like(shipped.counts), shipped.bucket_of_class, shipped.grid,
                             shipped.solve_floor).arrays()
    loyal = shipped.arrays(margin=1.0)  # no call is a whole game likelier to win: the heuristic's call stands
    for _ in range(300):
        hand = np.uint64(sum(1 << int(c) for c in rng.choice(54, 9, replace=False)))
        heuristic = kp.choose_bid(kp.HEURISTIC, empty, EVERYONE, state, hand, 0, 3, calls, 0, 5, 7, 2, 4, True, True,
                                  array, 4)
        for bidder_arrays in (empty, sparse, loyal):
            assert kp.choose_bid(kp.EQUITY, bidder_arrays, EVERYONE, state, hand, 0, 3, calls, 0, 5, 7, 2, 4, True, True, array,
                                 4) == heuristic


def test_tables_save_and_load(shipped, tmp_path):
    path = shipped.save(tmp_path / "t.npz")
    back = CB.BidderTables.load(path)
    assert np.array_equal(back.counts, shipped.counts) and np.array_equal(back.grid, shipped.grid)
    assert back.rules == shipped.rules and back.meta["iterations"] == shipped.meta["iterations"]
    header, buckets, cell_start, cell_n, codes, weights, grid, settled = back.arrays()[:CB.NET_AT]
    assert header[L.BM_LOADED] == 1 and len(buckets) == L.N_CLASSES and cell_start[-1] == len(codes) == len(weights)
    assert header[L.BM_KEEP_Z] == 0 and (settled == -1).all() and len(settled) == len(cell_n)
    settling = _with_settled_calls(shipped, 2.0)
    back = CB.BidderTables.load(settling.save(tmp_path / "s.npz"))
    assert np.array_equal(back.settled, settling.settled) and back.keep_z == 2.0
    assert np.array_equal(back.arrays()[CB.NET_AT - 1], settling.settled.reshape(-1))
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(SmearError, match="not a file of equity bidder tables"):
        CB.BidderTables.load(tmp_path / "bad.npz")


def test_tables_for_other_rules_are_made_once_and_cached(tmp_path, monkeypatch):
    monkeypatch.setenv(S.CACHE_VARIABLE, str(tmp_path))
    monkeypatch.setattr(B, "FIRST_USE", TINY)
    monkeypatch.setattr(M, "_LOADED", {})
    rules = Rules(target=11)
    path = S.cache_path(rules)
    assert path.parent == tmp_path / "equity-bidder" and not path.exists() and not M.tables_ready(rules)
    heard = []
    made = B.bidder_tables(rules, notify=heard.append)
    assert path.is_file() and M.tables_ready(rules)
    assert "first use of the equity bidder under target=11" in heard[0] and str(tmp_path) in heard[0]
    assert any(line.startswith("step 1 (equity bidding)") for line in heard)
    assert made.meta["deals"] == TINY["deals"] and made.meta["code_version"] == S.code_version()

    monkeypatch.setattr(M, "_LOADED", {})
    monkeypatch.setattr(B, "build_bidder_tables", lambda *a, **k: pytest.fail("the cached tables were made again"))
    again = B.bidder_tables(rules)
    assert np.array_equal(again.counts, made.counts)
    assert S.cache_path(Rules(target=12)) != path  # keyed by the rules ...
    monkeypatch.setattr(S, "code_version", lambda: "another version")
    assert S.cache_path(rules) != path  # ... and by the code version


def test_the_iteration_starts_from_the_heuristic_and_counts_changed_decisions():
    heard = []
    tables = B.build_bidder_tables(Rules(), seed=4, **TINY, notify=heard.append)
    steps = tables.meta["iterations"]
    if not tables.meta["converged"]:  # said plainly
        assert "did not converge: step 1, the last allowed, still changed" in heard[-1]
    assert [s["step"] for s in steps] == [0, 1] and steps[0]["bidding"] == "heuristic"
    assert steps[1]["changed"] >= 0 and steps[1]["decisions"] > 0
    assert tables.meta["seed"] == 4 and tables.meta["converged"] == (steps[-1]["changed"] == 0)


def test_an_unconverged_iteration_resumed_gives_what_one_longer_run_gives(monkeypatch):
    monkeypatch.setattr(B, "PLAIN_STEPS", 1)
    rules = Rules(round_points=True)
    short = B.build_bidder_tables(rules, seed=6, **(TINY | {"max_iterations": 1}), notify=lambda line: None)
    assert not short.meta["converged"]
    resumed = B.build_bidder_tables(rules, seed=6, **(TINY | {"max_iterations": 2}), resume=short)
    whole = B.build_bidder_tables(rules, seed=6, **(TINY | {"max_iterations": 2}))
    assert np.array_equal(resumed.counts, whole.counts) and np.array_equal(resumed.grid, whole.grid)
    assert np.array_equal(resumed.settled, whole.settled) and resumed.keep_z == whole.keep_z
    strip = [{k: v for k, v in entry.items() if k != "seconds"} for entry in whole.meta["iterations"]]
    assert [{k: v for k, v in e.items() if k != "seconds"} for e in resumed.meta["iterations"]] == strip
    with pytest.raises(SmearError, match="only unconverged tables of the same rules and sizes"):
        B.build_bidder_tables(rules, seed=7, **(TINY | {"max_iterations": 2}), resume=short)
