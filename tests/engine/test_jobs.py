"""The job builders (smear_sim/engine/jobs.py): one line for a bad input, and every builder's job runs its driver."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

from smear_sim.analysis.bridge import view_state
from smear_sim.core import layout as L
from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.calls import parse_call
from smear_sim.core.cards import mask_of, parse_card
from smear_sim.core.errors import BadValue
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.engine import jobs
from smear_sim.engine.job import Job
from smear_sim.engine.runner import kernels, run
from smear_sim.reference import hand as ref
from smear_sim.reference.game import FIRST_DEALER
from smear_sim.reference.record import HandRecord, replay_position
from smear_sim.reference.view import legal_actions, view_of

RULES = Rules().to_array()
PLAYERS = (RULES, policy_array(("heuristic", "heuristic")), no_bidder_arrays())
MATCHED = (RULES, policy_array(("heuristic", "random")), no_bidder_arrays())  # a duplicate's pairs differ: counts
HINT_PLAYERS = (RULES, np.concatenate([PLAYERS[1], PLAYERS[1]]), no_bidder_arrays())
VALUES = {"win_value": np.zeros(L.N_OUTCOMES, dtype=np.int64), "ev_value": np.zeros(L.N_OUTCOMES, dtype=np.int64)}
HAND = mask_of(range(9))


def _record() -> HandRecord:
    """A whole hand by the reference engine's first legal action everywhere: the opener bids 2, trump spades."""
    hands = tuple(tuple(range(9 * s, 9 * s + 9)) for s in range(4))
    kitty = (36, 37, 38, 39)
    bidder = ref.seat_of_bid(FIRST_DEALER, 0)
    discards = tuple(next(ref.legal_discards(list(hands[s]) + (list(kitty) if s == bidder else []), 0))
                     for s in range(4))
    record = HandRecord(Rules(), FIRST_DEALER, (0, 0), hands, kitty, (2, ref.PASS, ref.PASS, ref.PASS), 0, discards,
                        ())
    while (position := replay_position(record)).to_play is not None:
        record = dataclasses.replace(record, plays=(*record.plays, position.legal()[0]))
    return record


def _hint_fields(view) -> dict:
    return {"observer": view.seat, "own9": mask_of(view.hand), "dealer": view.dealer, "scores": view.scores_before,
            "calls": np.array([parse_call(b) for b in view.bids], dtype=np.int64), "inference": True, "playout": 0,
            "first": 0, **VALUES}


def _card_hint(**changes) -> Job:
    record = _record()
    view = view_of(record, replay_position(record).bidder, plays=0)
    actions = np.array([parse_card(card) for card in legal_actions(view)], dtype=np.int64)
    fields = {"players": HINT_PLAYERS, "seed": 1, "worlds": 2, "state": view_state(view), "actions": actions,
              **_hint_fields(view)}
    return jobs.card_hint_job(**{**fields, **changes})


def _deal_hint(**changes) -> Job:
    record = _record()
    bidder = replay_position(record).bidder
    view = view_of(record, bidder, discards=False)
    keeps = [next(iter(ref.legal_keeps(view.held_before_play, t))) for t in range(4)]
    fields = {"players": HINT_PLAYERS, "seed": 1, "worlds": 2, "kitty": mask_of(record.kitty), "bidder": bidder,
              "bid": parse_call(view.bid), "trumps": np.arange(4, dtype=np.int64),
              "keeps": np.array([mask_of(k) for k in keeps], dtype=np.uint64), **_hint_fields(view)}
    return jobs.deal_hint_job(**{**fields, **changes})


def _with_tables(players):
    """``players`` with the equity tables of the default rules (the training data's values are P(win the game))."""
    from smear_sim.analysis.session_tables import loaded_tables

    return (players[0], players[1], loaded_tables(Rules()).arrays())


# Every builder with inputs that make a small job of fast players.
BUILDERS = {
    "simulate_hands": lambda **c: jobs.simulate_hands_job(**{"players": PLAYERS, "seed": 1, "hands": 50, **c}),
    "deal_only": lambda **c: jobs.deal_only_job(**{"rules": RULES, "seed": 1, "hands": 50, **c}),
    "simulate_games": lambda **c: jobs.simulate_games_job(**{"players": PLAYERS, "seed": 1, "games": 3,
                                                             "scores": (0, 0), "dealer": 3, **c}),
    "duplicate_hands": lambda **c: jobs.duplicate_hands_job(**{"players": MATCHED, "seed": 1, "deals": 20, **c}),
    "duplicate_games": lambda **c: jobs.duplicate_games_job(**{"players": MATCHED, "seed": 1, "games": 2, **c}),
    "hand_outcomes": lambda **c: jobs.hand_outcomes_job(**{"players": PLAYERS, "seed": 1, "hands": 50,
                                                           "scores": (3, 5), **c}),
    "analyze_hands": lambda **c: jobs.analyze_hands_job(**{"players": PLAYERS, "seed": 1, "hands": 50,
                                                           "fixed_hand": HAND, "trump": 0, "classify": False, **c}),
    "deal_outcomes": lambda **c: jobs.deal_outcomes_job(**{
        "players": PLAYERS, "seed": 1, "playouts": 4, "dealer": 3, "scores": (0, 0),
        "deal": np.array([mask_of(range(9 * s, 9 * s + 9)) for s in range(4)] + [mask_of(range(36, 40))],
                         dtype=np.uint64), **c}),
    "auction_hands": lambda **c: jobs.auction_hands_job(**{
        "players": PLAYERS, "seed": 1, "max_deals": 20, "fixed_hand": HAND, "position": 1, "scores": (0, 0),
        "prior": np.array([2, 0, 0, 0], dtype=np.int64), **VALUES, **c}),
    "position_outcomes": lambda **c: jobs.position_outcomes_job(**{
        "players": PLAYERS, "seed": 1, "hands": 4, "bucket_of_class": np.arange(L.N_CLASSES, dtype=np.int64) % 4,
        "n_buckets": 4, "starts": np.array([[0, 0, -1]], dtype=np.int64), **c}),
    "card_hint": _card_hint,
    "deal_hint": _deal_hint,
    "net_data": lambda **c: jobs.net_data_job(**{"players": _with_tables(PLAYERS), "seed": 1, "hands": 2, "k": 2,
                                                 "random_scores": True, **c}),
}
# The drivers that hand back rows, not counts to sum: their analysis runs them (analysis/net_data.py), not run().
ROWS = {"net_data"}


def test_every_builder_is_named_for_its_driver_and_every_driver_the_engine_runs_has_one():
    assert {name.removesuffix("_job") for name in jobs.__all__ if name.endswith("_job")} == set(BUILDERS)
    for name in BUILDERS:
        assert inspect.getfullargspec(getattr(jobs, f"{name}_job")).args == []  # keyword-only


@pytest.mark.parametrize("name", BUILDERS)
def test_a_builder_puts_its_arguments_in_the_drivers_order(name):
    job = BUILDERS[name]()
    assert job.driver == name
    parameters = list(inspect.signature(getattr(kernels(), name).py_func).parameters)
    before = ["seed", "start", "count"] if name in ROWS else ["seed", "start", "count", "n_blocks"]
    assert parameters[:len(before)] == before
    assert job.seats_players == (parameters[-1] == "seated")
    assert len(parameters) == len(before) + len(job.args) + job.seats_players
    if job.seats_players:
        assert parameters[len(before):len(before) + 2] == ["rules", "policies"]
        assert job.policy_codes == tuple(int(c) for c in job.args[1])


@pytest.mark.parametrize("name", sorted(set(BUILDERS) - ROWS))
def test_every_builders_job_runs(name):
    job = BUILDERS[name]()
    result = run(job, threads=1)
    assert result.done == job.total and result.counts.sum() > 0


BAD = [
    ("simulate_hands", {"players": (RULES, PLAYERS[1])}, "^players must be a .rules array, policy codes"),
    ("simulate_hands", {"players": (RULES[:-1], PLAYERS[1], PLAYERS[2])}, "^players' rules must be an array of int64"),
    ("simulate_hands", {"players": (RULES.astype(np.int32), PLAYERS[1], PLAYERS[2])}, "^players' rules must be a"),
    ("simulate_hands", {"players": (RULES, np.array([1, 255], dtype=np.int64), PLAYERS[2])},
     r"^players' policy codes must be codes of registered players .* got \[255\]"),
    ("simulate_hands", {"players": (RULES, PLAYERS[1], [np.zeros(1)])}, "^players' bidder arrays must be a tuple"),
    ("simulate_hands", {"hands": 0}, "^hands must be a whole number from 1"),
    ("simulate_hands", {"seed": -1}, "^seed must be a whole number"),
    ("card_hint", {"players": PLAYERS}, r"^players' policy codes must be an array of int64 of shape \(4\)"),
    ("simulate_games", {"dealer": 4}, "^dealer must be a whole number from 0 to 3, got 4"),
    ("simulate_games", {"scores": (0,)}, r"^scores must be two scores"),
    ("simulate_games", {"scores": (0, 1.5)}, "^scores must be a whole number"),
    ("analyze_hands", {"trump": 4}, "^trump must be a whole number from -1 to 3"),
    ("analyze_hands", {"classify": 1}, "^classify must be True or False, got 1"),
    ("analyze_hands", {"fixed_hand": 1 << 60}, "^fixed_hand must be a mask of card codes below 54"),
    ("analyze_hands", {"hands": 0, "label": "samples"}, "^samples must be a whole number"),
    ("deal_outcomes", {"deal": np.zeros(5, dtype=np.int64)}, r"^deal must be an array of uint64 of shape \(5\)"),
    ("auction_hands", {"prior": [2, 0, 0, 0]}, r"^prior must be an array of int64 of shape \(4\), got list"),
    ("auction_hands", {"ev_value": np.zeros(3, dtype=np.int64)}, r"^ev_value must be an array of int64 of shape \("),
    ("auction_hands", {"position": True}, "^position must be a whole number from 0 to 3, got True"),
    ("position_outcomes", {"starts": np.zeros((1, 2), dtype=np.int64)}, r"^starts must be an array of int64 of shape \(n×3\)"),
    ("position_outcomes", {"n_buckets": 0}, "^n_buckets must be a whole number from 1"),
    ("position_outcomes", {"bucket_of_class": np.full(L.N_CLASSES, 7, dtype=np.int64)},
     r"^bucket_of_class must hold buckets from 0 to n_buckets-1 \(3\)"),
    ("position_outcomes", {"bucket_of_class": np.zeros(4, dtype=np.int64)},
     rf"^bucket_of_class must be an array of int64 of shape \({L.N_CLASSES}\)"),
    ("position_outcomes", {"starts": np.array([[0, 0, 4]], dtype=np.int64)}, "^starts must give a dealer seat"),
    ("deal_only", {"rules": RULES.astype(float)}, "^rules must be an array of int64"),
    ("card_hint", {"calls": np.zeros(5, dtype=np.int64)}, "^calls must be an array of int64 holding at most four call codes"),
    ("card_hint", {"playout": 2}, "^playout must be a whole number from 0 to 1"),
    ("card_hint", {"first": -1}, "^first must be a whole number from 0"),
    ("deal_hint", {"keeps": np.zeros(3, dtype=np.uint64)}, r"^keeps must be an array of uint64 of shape \(4\)"),
    ("deal_hint", {"bid": 9}, "^bid must be a whole number from 0 to 8"),
    ("net_data", {"players": PLAYERS}, "^players' bidder arrays must hold the equity tables"),
    ("net_data", {"k": 0}, "^k must be a whole number from 1"),
    ("net_data", {"random_scores": 1}, "^random_scores must be True or False, got 1"),
]


@pytest.mark.parametrize(("name", "changes", "message"), BAD)
def test_a_bad_input_is_one_line_naming_it(name, changes, message):
    with pytest.raises(BadValue, match=message) as caught:
        BUILDERS[name](**changes)
    assert "\n" not in str(caught.value)


def test_a_rules_array_that_is_no_rules_is_refused():
    bad = RULES.copy()
    bad[0] = 7  # a bool option
    with pytest.raises(BadValue, match=r"^players' rules is not a rules array \(") as caught:
        jobs.simulate_hands_job(players=(bad, PLAYERS[1], PLAYERS[2]), seed=1, hands=10)
    assert "\n" not in str(caught.value)


def test_the_fingerprint_is_the_arguments_not_how_they_were_typed():
    """A builder makes numpy scalars of plain numbers: the same bytes as before, so checkpoints stay valid."""
    from smear_sim.engine.job import job_fingerprint

    built = jobs.analyze_hands_job(players=PLAYERS, seed=1, hands=50, classify=True)
    plain = Job("analyze_hands", 1, 50, (*PLAYERS, np.uint64(0), -1, True), policy_codes=tuple(int(c) for c in PLAYERS[1]))
    assert job_fingerprint(built) == job_fingerprint(plain)
