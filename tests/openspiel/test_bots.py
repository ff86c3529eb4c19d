"""Our players as OpenSpiel bots take the action our table takes on the same view; IS-MCTS plays through our worlds.

Compiles the bots' kernels (heuristic, equity, net, expert) and the worlds sampler: a minute or two cold, expert's shared
with the page's search bots (tests/web/test_practice_search_bots.py).
"""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from smear_sim.analysis.bots import bot_action  # noqa: E402
from smear_sim.core.cards import parse_card  # noqa: E402
from smear_sim.openspiel import game as sg  # noqa: E402
from smear_sim.openspiel import phases as ph  # noqa: E402
from smear_sim.openspiel.bots import PlayerBot, make_bot, parse_bot  # noqa: E402
from smear_sim.openspiel.resample import resample  # noqa: E402
from smear_sim.reference.record import HandRecord  # noqa: E402

DECISION = {ph.AUCTION: "call", ph.TRUMP: "trump", ph.DISCARD: "keep", ph.PLAY: "card"}


def _table_action(state, seat, player):
    """The action of ``player`` at the table (:func:`bot_action` on the whole hand record), as a game action."""
    record = state.record()
    decision = DECISION[state.phase]
    if decision == "keep":
        record = HandRecord(record.rules, record.dealer, record.scores_before, record.hands, record.kitty,
                            record.bids, record.trump)
    action = bot_action(record, seat, decision, player, seed=1, index=0)
    if decision == "keep":
        keep = {parse_card(c) for c in action}
        return min(c for c in state.held[seat] if c not in keep)
    if decision == "card":
        return parse_card(action)
    return sg.action_of(decision, action)


@pytest.mark.parametrize("player", ["heuristic", "equity", "net", "expert:16"])
def test_bot_takes_the_tables_action_on_the_same_view(player):
    game = pyspiel.load_game(sg.HAND_SHORT_NAME)
    bot = PlayerBot(player, seed=1)
    rng = np.random.default_rng(5)
    decisions = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            seat = state.current_player()
            action = bot.step(state)
            assert action in state.legal_actions()
            assert action == _table_action(state, seat, bot.player)
            decisions += 1
            state.apply_action(action)
    assert decisions > 60


def test_resampled_states_keep_the_information_state():
    game = pyspiel.load_game(sg.HAND_SHORT_NAME)
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            seat = state.current_player()
            if rng.random() < 0.25:
                world = resample(state, seat, rng=rng)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.legal_actions() == state.legal_actions()
                checked += 1
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert checked > 10


def test_ismcts_plays_a_hand():
    game = pyspiel.load_game(sg.HAND_SHORT_NAME)
    bot = make_bot(game, "openspiel:ismcts:5", seed=3)
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)


def test_bot_names():
    assert parse_bot("openspiel:ismcts") == ("ismcts", 100)
    assert parse_bot("OpenSpiel:ISMCTS:300") == ("ismcts", 300)
    assert parse_bot("expert") == ("expert:16", None)
    for bad in ("openspiel:cfr", "openspiel:ismcts:0", "openspiel:ismcts:x", "nobody"):
        with pytest.raises(Exception, match="."):
            parse_bot(bad)
