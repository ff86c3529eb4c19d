"""Smear as an OpenSpiel game: OpenSpiel's own consistency test, and every hand scored alike by ``smear-sim score``."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from smear_sim.core.view_layout import VT_SIZE  # noqa: E402
from smear_sim.openspiel import game as sg  # noqa: E402
from smear_sim.reference.record import score_game_record, score_record  # noqa: E402
from smear_sim.reference.view_tensor import view_tensor  # noqa: E402

# Every rule option the game is given, one at a time (the scoring test plays each).
RULE_SETS = [{}, {"round_points": True}, {"high": "highest"}, {"low": "lowest"}, {"low_to": "taker"},
             {"forced_bid": "dealer"}, {"forced_bid": "none"}, {"moon": False}, {"moon_requires": "in_play"},
             {"trump_anytime": True}, {"misdeal": False}, {"target": 11}, {"min_bid": 1}]


def _random_play(game, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize("name", [sg.HAND_SHORT_NAME, sg.GAME_SHORT_NAME])
@pytest.mark.parametrize("params", [{}, {"round_points": True}], ids=["default", "round_points"])
def test_random_sim_test(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=8 if name == sg.HAND_SHORT_NAME else 2, serialize=True, verbose=False)


def test_loads_by_name_and_takes_the_rules_as_parameters():
    game = pyspiel.load_game("smear_sim(round_points=True,target=11)")
    assert game.rules.round_points and game.rules.target == 11
    assert game.num_players() == 4 and game.num_distinct_actions() == sg.NUM_ACTIONS
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_bad_rule_parameter_is_refused():
    with pytest.raises(Exception, match="target"):
        pyspiel.load_game("smear_sim", {"target": 0})


@pytest.mark.parametrize("params", RULE_SETS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_hands_scored_alike_by_smear_sim_score(params):
    """Each hand, written as a hand record, is accepted and scored by ``smear-sim score``'s engine exactly as the game
    scored it, and the returns follow from that score (the benchmark runs 10,000: benchmarks/openspiel.py)."""
    game = pyspiel.load_game(sg.HAND_SHORT_NAME, params)
    rng = np.random.default_rng(len(str(params)))
    for _ in range(25):
        state = _random_play(game, rng)
        record = state.record().to_json()
        scored = score_record(record)
        assert scored.to_json() == state.result.to_json()
        returns = state.returns()
        assert sum(returns) == 0 and returns[0] == returns[2]
        if scored.bid != "moon":
            assert returns[0] == scored.score_delta[0] - scored.score_delta[1]


@pytest.mark.parametrize("params", [{}, {"round_points": True}], ids=["default", "round_points"])
def test_games_scored_alike_by_smear_sim_score(params):
    game = pyspiel.load_game(sg.GAME_SHORT_NAME, params)
    rng = np.random.default_rng(7)
    for _ in range(3):
        state = _random_play(game, rng)
        scored = score_game_record(state.game_record())
        assert scored.winner == state.winner
        assert list(scored.scores_after) == list(state.scores)
        assert state.returns() == [1.0 if s % 2 == scored.winner else -1.0 for s in range(4)]


def test_information_state_tensor_is_the_view_tensor():
    game = pyspiel.load_game(sg.HAND_SHORT_NAME)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        seat = state.current_player()
        tensor = np.array(state.information_state_tensor(seat), dtype=np.float32)
        assert tensor.shape == (sg.TENSOR_SIZE,)
        assert np.array_equal(tensor[:VT_SIZE], view_tensor(state.seat_view(seat)))
        assert state.observation_tensor(seat) == state.information_state_tensor(seat)
        assert f"seat {seat}" in state.information_state_string(seat)
        checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 40


def test_discards_end_in_a_legal_keep_and_are_hidden():
    game = pyspiel.load_game(sg.HAND_SHORT_NAME)
    state = _random_play(game, np.random.default_rng(11))
    record = state.record()
    if record.trump is not None:
        assert sorted(len(d) for d in record.discards) == [3, 3, 3, 7]
        for seat in range(4):
            others = state.information_state_string((seat + 1) % 4)
            assert "discarded " + " ".join(__import__("smear_sim").core.cards.card_name(c)
                                           for c in state.discards[seat]) not in others or not state.discards[seat]


def test_actions_read_as_in_a_record():
    assert sg.action_to_record(sg.action_of("call", "moon")) == "moon"
    assert sg.action_to_record(sg.action_of("call", 3)) == 3
    assert sg.action_to_record(sg.action_of("trump", "H")) == "H"
    assert sg.action_to_record(sg.action_of("card", "10H")) == "10H"
