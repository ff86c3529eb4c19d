"""The kernels' compile units: functions every driver calls with the same argument types, whoever sits at the table.

Compiling a driver compiles everything it calls, one function after another, on one core. These functions are a
large share of that (the heuristic's card play alone is a quarter of a first ``smear-sim hand``), and their types
never depend on the table, so a second process can compile them into Numba's cache while the first compiles the
rest; the first then loads them (:func:`smear_sim.engine.compiling.compile_apart`). Each entry is a dispatcher and
the one signature the drivers call it with; a test compiles a driver after them and checks that it added no
other.

The groups: :data:`FAST`, what every hand calls (every player falls back on the heuristic); :data:`CHAIN`, the
match-equity chain that values a hand by the games it wins; :data:`EXPERT_PLAY` and :data:`PIMC_PLAY`, the card
play of the search players, which compiles the parts of the double-dummy solver they call, and :data:`WORLDS`, their
worlds; :data:`ORACLE_PLAY`, the solver's every-card solve that ``oracle`` plays by. :data:`ALL` holds them in the
order a first compile is best served by: a driver reaches a search player's card play after its auction, trump and
keep.
"""

from __future__ import annotations

from numba import typeof, types

from ..core.bidder import no_bidder_arrays
from ..core.players import POLICIES
from . import classes, equity, scoring, solver, state
from .players import expert, heuristic, pimc

__all__ = ["ALL", "CHAIN", "EXPERT_PLAY", "FAST", "ORACLE_PLAY", "PIMC_PLAY", "PLAYER_UNITS", "WORLDS", "for_table"]

_I1 = types.Array(types.int64, 1, "C")
_I2 = types.Array(types.int64, 2, "C")
_U1 = types.Array(types.uint64, 1, "C")
_I32 = types.Array(types.int32, 1, "C")
_F1 = types.Array(types.float64, 1, "C")
_F2 = types.Array(types.float64, 2, "C")
_INT, _CARDS, _FLAG = types.int64, types.uint64, types.boolean
_BIDDER_ARRAYS = typeof(no_bidder_arrays())  # the equity bidder's tables, or none: the same types either way
_SOLVER = types.NamedTuple((_I1, _I1, _I2, _I1, _I2, _I1), solver.Solver)  # solver.new_solver

FAST = (
    (heuristic.play, (_I1, _CARDS, _I1, _I2)),
    (scoring.score_state, (_I1, _I1, _I1, types.Omitted(0))),
    (heuristic.bid, (_U1, _CARDS, _INT, _INT, _I1, _INT, _INT, _INT, _INT, _INT, _FLAG, _FLAG, _I1, _INT)),
    (heuristic.trump, (_CARDS, _I1)),
    (heuristic.choose_cards, (_CARDS, _INT, _I1)),
    (state.start_play, (_I1, _U1, _U1, _INT, _INT, _INT, _INT, _INT)),
    (classes.hand_class, (_CARDS,)),
)
CHAIN = (
    (equity.solve_transposed, (_I1, _I32, _F1, _F2, _I1, types.float64, _INT)),
    (equity.outcome_states, (_INT, _INT, _INT, _INT)),
)
WORLDS = ((state.sample_world, (_I1, _INT, _U1, _I1)),)
ORACLE_PLAY = ((solver.solve, (_SOLVER, _I1, _I1, _I1)),)
EXPERT_PLAY = ((expert.play, (_U1, _I1, _CARDS, _I1, _I2, _INT, _I1, _BIDDER_ARRAYS)),)
PIMC_PLAY = ((pimc.play, (_U1, _I1, _CARDS, _I1, _I2, _INT)),)
ALL = EXPERT_PLAY + PIMC_PLAY + ORACLE_PLAY + WORLDS + FAST + CHAIN
# The compile units of each player that has its own (by its name in core.players.PLAYERS); a player without an entry
# compiles its code into the driver, as the fast players' small functions do.
PLAYER_UNITS = {"pimc": PIMC_PLAY + WORLDS, "expert": EXPERT_PLAY + WORLDS, "oracle": ORACLE_PLAY,
                "guided": EXPERT_PLAY + WORLDS}


def for_table(seated) -> tuple:
    """The compile units a driver compiled for ``seated`` (:func:`smear_sim.kernels.players.seated_arg`; None for a
    kernel that seats no players) calls, in the order of :data:`ALL`."""
    from .players.bids import group_of

    chosen = set(FAST + CHAIN)
    for name, units in PLAYER_UNITS.items():
        if seated is not None and seated[group_of(POLICIES.index(name))] is not None:
            chosen |= set(units)
    return tuple(unit for unit in ALL if unit in chosen)
