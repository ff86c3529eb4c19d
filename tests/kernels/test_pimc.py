"""``pimc:K`` (kernels/players/pimc.py) chooses its card from totals that spare the search of cards that cannot be
chosen: on the same worlds, the same card as from every card's exact total."""

from __future__ import annotations

import random

import numpy as np
import pytest

from smear_sim.analysis.solve import hand_state
from smear_sim.core.layout import ST_SIZE
from smear_sim.core.rules import Rules
from smear_sim.kernels import state as ks
from smear_sim.kernels.players import heuristic, pimc, policy_tables
from smear_sim.kernels.rng import stream_key
from smear_sim.kernels.solver import new_solver

from .test_solver import RULE_SETS, _positions


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_card_chosen_from_the_spared_totals_is_the_card_chosen_from_every_exact_total(name):
    """On real worlds of random positions: the favourite's total and the chosen card's are exact, every other total is
    at least the exact one, and best_card chooses the same card from both. Some cards are spared their search, and
    some choices are not the favourite's."""
    rules: Rules = RULE_SETS[name]
    array = rules.to_array()
    give, _ = policy_tables(array)
    spared = not_favourite = 0
    for i, position in enumerate(_positions(rules, random.Random(f"pimc {name}"), 150, (2, 3, 4, 5, 6))):
        hs = hand_state(position)
        legal = ks.legal_cards(hs, array)
        if bin(int(legal)).count("1") < 2:
            continue
        k = 4 + i % 5
        exact = np.zeros(54, dtype=np.int64)
        rng = np.array([stream_key(np.uint64(11), np.uint64(i))], dtype=np.uint64)
        pimc.card_totals(rng, hs, legal, array, k, new_solver(pimc.TT_BITS), np.zeros(ST_SIZE, dtype=np.int64),
                         np.zeros(54, dtype=np.int64), exact)
        favourite = int(heuristic.play(hs, legal, array, give))
        fast = np.zeros(54, dtype=np.int64)
        rng = np.array([stream_key(np.uint64(11), np.uint64(i))], dtype=np.uint64)
        pimc.spared_totals(rng, hs, legal, array, k, favourite, fast)
        chosen = int(pimc.best_card(fast, hs, legal, array, give))
        assert chosen == int(pimc.best_card(exact, hs, legal, array, give))
        cards = [c for c in range(54) if int(legal) >> c & 1]
        assert all(fast[c] >= exact[c] for c in cards)
        assert fast[chosen] == exact[chosen] and fast[favourite] == exact[favourite]
        spared += any(fast[c] > exact[c] for c in cards)
        not_favourite += chosen != favourite
    assert spared >= 5 and not_favourite >= 5, (spared, not_favourite)
