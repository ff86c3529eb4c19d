"""The spared card search (kernels/players/card_choice.py): on the same worlds, the choice every card's exact total
gives, by points or by a leaf table (the expert's P(win), then points)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from smear_sim.analysis.solve import hand_state
from smear_sim.core.layout import ST_BIDDER, ST_SIZE
from smear_sim.kernels import solver
from smear_sim.kernels import state as ks
from smear_sim.kernels.players import card_choice, heuristic, policy_tables

from .test_solver import RULE_SETS, _positions


def _game_table(r: random.Random) -> np.ndarray:
    """A leaf table of game values: P(win) in fixed point above, points below, in no order."""
    return np.array([r.randrange(card_choice.WIN_SCALE) * card_choice.POINTS_BELOW + r.randrange(-20, 20)
                     + card_choice.POINTS_BELOW // 2 for _ in range(solver.LEAF_SIZE)], dtype=np.int64)


def _choice(wins, points, cards, favourite) -> set[int]:
    """The cards of highest ``(wins, points)``; the favourite alone when it is one of them."""
    best = max((wins[c], points[c]) for c in cards)
    tied = {c for c in cards if (wins[c], points[c]) == best}
    return {favourite} if favourite in tied else tied


@pytest.mark.parametrize("game", [False, True], ids=["points", "game"])
@pytest.mark.parametrize("name", ["defaults", "round_points_taker"])
def test_the_spared_totals_choose_as_every_exact_total_does(name, game):
    rules = RULE_SETS[name]
    array = rules.to_array()
    give, _ = policy_tables(array)
    r = random.Random(f"choice {name} {game}")
    sv = solver.new_solver()
    spared = 0
    for i, position in enumerate(_positions(rules, r, 200, (2, 3, 4, 5, 6))):
        hs = hand_state(position)
        legal = ks.legal_cards(hs, array)
        cards = [c for c in range(54) if int(legal) >> c & 1]
        if len(cards) < 2:
            continue
        if game:
            solver.use_leaf_values(sv, _game_table(r))
        else:
            solver.use_points(sv)
        seat = ks.to_play(hs)
        bidding = seat % 2 == hs[ST_BIDDER] % 2
        worlds = np.zeros((4 + i % 5, ST_SIZE), dtype=np.int64)
        rng = np.array([i + 1], dtype=np.uint64)
        exact_wins, exact_points = np.zeros(54, dtype=np.int64), np.zeros(54, dtype=np.int64)
        values = np.zeros(54, dtype=np.int64)
        for w in range(len(worlds)):
            ks.sample_world(hs, seat, rng, worlds[w])
            solver.solve(sv, worlds[w].copy(), array, values)
            for c in cards:
                win, p = card_choice.seat_value(values[c], game, bidding)
                exact_wins[c] += win
                exact_points[c] += p
        favourite = int(heuristic.play(hs, legal, array, give))
        wins, points = np.zeros(54, dtype=np.int64), np.zeros(54, dtype=np.int64)
        card_choice.choice_totals(sv, worlds, array, legal, favourite, bidding, game, wins, points)
        assert _choice(wins, points, cards, favourite) == _choice(exact_wins, exact_points, cards, favourite)
        assert all((wins[c], points[c]) >= (exact_wins[c], exact_points[c]) for c in cards)
        spared += any((wins[c], points[c]) != (exact_wins[c], exact_points[c]) for c in cards)
    assert spared >= 5, spared
