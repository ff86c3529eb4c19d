"""Hints (smear_sim/analysis/decisions.py) and their worlds (smear_sim/kernels/worlds.py). Small samples: the
compile dominates."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from smear_sim import evaluate_auction, hint
from smear_sim.analysis.hand import shared_equity
from smear_sim.analysis.plan import RunPlan
from smear_sim.analysis.solve import solve_record
from smear_sim.core import layout as L
from smear_sim.core.cards import mask_of, parse_cards
from smear_sim.core.errors import SmearError
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.core.tables import TABLES
from smear_sim.reference.record import parse_record
from smear_sim.reference.view import legal_actions, parse_view, view_of

BASIC = json.loads((Path(__file__).parents[1] / "golden" / "basic.json").read_text())
RECORD = parse_record(BASIC)
SAMPLES = 32


@pytest.fixture(scope="module")
def equity():
    return shared_equity(2000, 1, Rules(), "heuristic", -20)


def full_view(seat: int, plays: int) -> dict:
    obj = {k: v for k, v in BASIC.items() if k not in ("why", "expected")}
    return obj | {"seat": seat, "plays": BASIC["plays"][:plays]}


def run(view, equity, **kw):
    return hint(view, samples=kw.pop("samples", SAMPLES), equity=equity, **kw)


def test_the_hint_depends_only_on_what_the_seat_sees(equity):
    true = full_view(1, 8)
    blank = true | {"hands": [None, BASIC["hands"][1], None, None], "discards": [None, BASIC["discards"][1], None, None]}
    other = json.loads(json.dumps(true))
    other["hands"][0], other["hands"][2] = other["hands"][2], other["hands"][0]  # another deal: never read
    other["discards"][3] = None
    answers = {json.dumps(run(parse_view(v), equity).to_json()) for v in (true, blank, other)}
    assert len(answers) == 1


@pytest.mark.parametrize(("seat", "plays"), [(0, 0), (1, 8), (3, 10)])
def test_every_legal_card_is_valued_and_costs_are_paired(equity, seat, plays):
    view = parse_view(full_view(seat, plays))
    result = run(view, equity)
    assert sorted(a.action for a in result.actions) == sorted(legal_actions(view))
    assert result.samples == SAMPLES
    wins = [a.win.value for a in result.actions]
    assert wins == sorted(wins, reverse=True)  # best first
    for a in result.actions:
        points, win = result.cost(a.action)
        assert win.value >= 0
        assert points.se <= max(a.points.se, result.actions[0].points.se) * 2 + 1e-9
    assert result.cost(result.best)[0].value == 0
    frame = result.frame()
    assert list(frame["action"]) == [a.action for a in result.actions]


def test_one_legal_card_costs_nothing(equity):
    view = parse_view(full_view(1, 5))
    assert legal_actions(view) == ["KH"]
    result = run(view, equity)
    assert [a.action for a in result.actions] == ["KH"] and result.best == "KH"
    assert result.cost("KH")[0].value == 0 and result.cost("KH")[1].value == 0


def test_the_last_card_is_valued_exactly(equity):
    """Nothing unseen is left to decide the last card: the value is the solver's on the true deal, SE 0."""
    view = parse_view(full_view(2, 23))
    result = run(view, equity)
    (action,) = result.actions
    solved = solve_record(BASIC | {"plays": BASIC["plays"][:23]})
    team_sign = 1 if view.team == (view.bidder & 1) else -1
    assert action.points.se == 0
    assert action.points.value == team_sign * solved.value


def test_trump_and_keep_hints(equity):
    trump = run(view_of(RECORD, 0, trump=False), equity, samples=16)
    assert sorted(a.action for a in trump.actions) == ["C", "D", "H", "S"]
    assert all(len(a.keep) == 6 and a.make is not None for a in trump.actions)
    keep = run(view_of(RECORD, 1, discards=False), equity, samples=16)
    legal = legal_actions(view_of(RECORD, 1, discards=False))
    assert all(a.action in legal for a in keep.actions)
    assert len(keep.actions) == min(8, len(legal))
    assert keep.to_json()["decision"] == "keep"


def test_a_call_hint_is_the_auction_analysis(equity):
    view = view_of(RECORD, 1, bids=1)
    result = hint(view, samples=500, equity=equity)
    analysis = evaluate_auction(list(view.hand), position=2, auction=[3], samples=500, equity=equity)
    assert result.samples == analysis.samples
    for a in result.actions:
        code = {"pass": L.PASS, "moon": L.MOON}.get(a.action, a.action)
        win = analysis.estimates[code]["win"]
        # The table's share of the SE comes from the derivatives, solved to 1e-7 one way or another (whichever the
        # table had made by then: match_equity._table_variance), so it agrees to that tolerance, not to the bit.
        assert a.win.value == win.value and a.win.se == pytest.approx(win.se, rel=1e-5)
        assert a.points == analysis.estimates[code]["ev"]


def test_the_other_modes_run(equity):
    view = parse_view(full_view(1, 8))
    none = run(view, equity, inference="none")
    assert none.inference == "none" and none.to_json()["worlds"]["tries"] == SAMPLES
    played = run(view, equity, playout="heuristic")
    assert played.playout == "heuristic"


def _longest_trumps(policy: str, inference: bool, n: int = 300) -> tuple[float, float]:
    """Seat 1's most trumps in any suit over the worlds of seat 2, who saw seat 0 bid 2 and seat 1 bid 4."""
    from smear_sim.kernels.rng import stream_key
    from smear_sim.kernels.worlds import deal_world

    plan = RunPlan.of(policy)
    policies = policy_array(plan.policies)
    own = np.uint64(mask_of(parse_cards("4S 5S 7S QS 8H 5D 8D 7C QC")))
    calls = np.array([2, 4, L.PASS, L.PASS], dtype=np.int64)
    hands = np.zeros(5, dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    counts = []
    for i in range(n):
        rng[0] = stream_key(np.uint64(7), np.int64(i))
        deal_world(rng, np.int64(2), own, np.uint64(0), np.int64(3), calls, np.int64(4), np.int64(0), np.int64(0),
                   plan.rules.to_array(), policies, plan.bidder_arrays, np.bool_(inference), hands)
        counts.append(max(bin(int(hands[1]) & int(TABLES.trump_mask[t])).count("1") for t in range(4)))
    return float(np.mean(counts)), float(np.std(counts) / np.sqrt(n))


def test_inference_gives_a_bid_of_4_more_trumps():
    with_calls, se1 = _longest_trumps("heuristic", True)
    without, se2 = _longest_trumps("heuristic", False)
    assert with_calls > without + 3 * np.hypot(se1, se2)


def test_inference_under_random_bidding_changes_nothing():
    with_calls, se1 = _longest_trumps("random", True)
    without, se2 = _longest_trumps("random", False)
    assert abs(with_calls - without) < 4 * np.hypot(se1, se2)


def test_extra_actions_are_valued_beside_the_candidates(equity):
    """A review values the action taken: a keep outside the candidates, or a trump with another keep."""
    view = view_of(RECORD, 2, discards=False)
    legal = legal_actions(view)
    plain = run(view, equity, samples=8)
    outside = next(k for k in legal if sorted(k) not in [sorted(a.action) for a in plain.actions])
    result = run(view, equity, samples=8, extra=[outside])
    assert len(result.actions) == len(plain.actions) + 1
    assert result.cost(outside)[1].value >= 0 or result.best == outside
    assert [a for a in result.to_json()["actions"] if a.get("extra")][0]["action"] == outside
    trump = view_of(RECORD, 0, trump=False)
    kept = ["AH", "7H", "2H", "KS", "QD", "5C"]  # not the heuristics' keep (JS, not 5C)
    result = run(trump, equity, samples=8, extra=[{"suit": "H", "keep": kept}])
    assert [a.action for a in result.actions].count("H") == 2
    result.cost("H"), result.cost("H", keep=kept), result.cost({"suit": "H", "keep": kept})
    with pytest.raises(Exception, match="not a legal keep"):
        run(trump, equity, samples=8, extra=[{"suit": "S", "keep": kept}])


def test_a_card_hint_races_its_cards(equity):
    """At the default precision a card clearly worse than the best is valued on the first worlds only; it is still
    listed, with its own worlds, and the race is the same on one thread."""
    view = parse_view(full_view(2, 6))  # QS falls out of the race after 192 of 256 worlds
    result = hint(view, equity=equity)
    assert sorted(a.action for a in result.actions) == sorted(legal_actions(view))
    dropped = [a for a in result.actions if a.samples is not None]
    assert dropped and all(64 <= a.samples < result.samples and a.samples % 64 == 0 for a in dropped)
    for a in dropped:
        points, _ = result.cost(a.action)
        assert points.value > 3 * points.se
    assert [a.get("samples") for a in result.to_json()["actions"]] == [a.samples for a in result.actions]
    alone = hint(view, equity=equity, plan=RunPlan.of("heuristic", threads=1))
    assert json.dumps(alone.to_json()) == json.dumps(result.to_json())


def test_a_cap_on_the_worlds_is_checked_before_any_work():
    """``max_worlds`` below the fewest worlds a hint plays is refused at once, before a table is made."""
    with pytest.raises(SmearError, match="max_worlds must be a whole number from 64"):
        hint(parse_view(full_view(0, 4)), max_worlds=10, equity_hands=10**9)


def test_threads_and_chunks_do_not_change_a_hint(equity):
    view = parse_view(full_view(1, 8))
    one = hint(view, samples=40, equity=equity, plan=RunPlan.of("heuristic", threads=1))
    two = hint(view, samples=40, equity=equity, plan=RunPlan.of("heuristic", threads=2, chunk_size=7))
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
