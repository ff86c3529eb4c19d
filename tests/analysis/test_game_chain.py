"""The game as a Markov chain over the score grid (smear_sim/analysis/game_chain.py): built on the kernels' rule,
it follows the rules of the game for every outcome from every state."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.analysis import game_chain
from smear_sim.analysis import hand_outcomes as HO
from smear_sim.core import layout as L
from smear_sim.core.rules import Rules


def _chain_by_numpy(outcomes, target, solve_floor):
    """The end-of-game checks of docs/rules.md ("Game") restated in NumPy over the whole grid: what build_chain
    computed before it read the kernels' rule. Here only to hold the two to each other."""
    out = outcomes.decoded
    size = target - solve_floor
    d, us, them = (a.ravel() for a in np.indices((2, size, size)))
    us, them, d = (us + solve_floor)[:, None], (them + solve_floor)[:, None], d[:, None]
    kind, side, delta, other = (out[key][None, :] for key in ("kind", "side", "delta", "other"))
    bidder_is_us = (d == 0) == (side == 0)  # side 0: the dealing team bid
    x = np.where(bidder_is_us, us, them)
    y = np.where(bidder_is_us, them, us)
    x_after = np.where(kind == 1, x + delta, np.where(kind == 2, 0, x))
    y_after = y + other
    bidder_wins = ((kind == 1) & (delta > 0) & (x_after >= target)) | ((kind == 2) & (x >= 0))
    other_wins = (kind == 3) | (~bidder_wins & (y_after >= target))
    ended = bidder_wins | other_wins
    clamped = ~ended & ((x_after < solve_floor) | (y_after < solve_floor))
    x_next, y_next = np.maximum(x_after, solve_floor), np.maximum(y_after, solve_floor)
    us_next, them_next = np.where(bidder_is_us, x_next, y_next), np.where(bidder_is_us, y_next, x_next)
    nxt = np.where(ended, -1, ((1 - d) * size + us_next - solve_floor) * size + them_next - solve_floor)
    win = (np.where(bidder_is_us, bidder_wins, other_wins) & ended).astype(np.float64)
    return nxt, win, clamped


@pytest.mark.parametrize(("target", "solve_floor"), [(21, -40), (11, -25)])
def test_the_chain_follows_the_rules_of_the_game_for_every_outcome(target, solve_floor):
    """Every outcome code from every state of the grid: the chain built on the kernels' rule is the rule
    written out in NumPy, transition for transition."""
    counts = np.arange(1, L.N_OUTCOMES + 1, dtype=np.int64)  # every code, each with its own probability
    outcomes = HO.HandOutcomes(counts, 1, "heuristic", Rules(target=target))
    chain = game_chain.build_chain(outcomes, target, solve_floor)
    nxt, win, clamped = _chain_by_numpy(outcomes, target, solve_floor)
    assert np.array_equal(chain.nxt, nxt) and np.array_equal(chain.win, win)
    assert np.array_equal(chain.clamped, clamped) and chain.clamped.any() and (chain.nxt == -1).any()
