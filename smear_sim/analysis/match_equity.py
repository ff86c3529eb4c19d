"""The match-equity table: the probability of winning the game from every score state.

A state is both teams' scores before a hand and which team deals it. The table is computed exactly from the
distribution of one hand's outcome, not by playing games:

1. the hand outcomes (:mod:`smear_sim.analysis.hand_outcomes`);
2. the recursion over the score grid, with its floor
(:mod:`smear_sim.analysis.game_chain`);
3. the standard errors, here:

**Standard errors.** The table is a smooth function of the outcome probabilities p. Its derivative along
outcome o is ``g_o = (I - P)^-1 Q_o``, where ``Q_o(s)`` is the value of outcome o from state s (the next state's
win probability, or 1 or 0 at the end); the ``g_o`` solve the same system with ``Q_o`` on the right. With the
n hands counted as a multinomial sample, the delta method gives
``Var(win(s)) = (sum_o p_o g_o(s)^2 - (sum_o p_o g_o(s))^2) / n``: the variance over hands of each hand's
influence on the table. The tests check it against the spread of tables from independent seeds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import layout as L
from ..core.errors import SmearError
from ..core.rules import Rules
from ..core.stats import Estimate, round_to_se
from .game_chain import GameChain, build_chain
from .hand_outcomes import DEFAULT_HANDS, HandOutcomes, hand_outcomes
from .plan import RunPlan
from .scores import DEALERS, DEFAULT_FLOOR, MAX_EXTRA, MAX_SPAN, check_scores, check_span, dealer_index

if TYPE_CHECKING:
    import pandas as pd


__all__ = [
    "DEFAULT_FLOOR",
    "GRADIENT_TOLERANCE",
    "MAX_MARGIN",
    "TRUNCATION_TOLERANCE",
    "BidWins",
    "EquityTable",
    "equity_table",
    "match_equity",
]


TRUNCATION_TOLERANCE = 1e-6
GRADIENT_TOLERANCE = 1e-7  # the derivatives only set standard errors, which need a few digits
MAX_MARGIN = 400  # the solve floor goes at most this far below the floor shown


@dataclass(frozen=True)
class BidWins:
    """Game-level values of a hand (or of G classes of hands) at one score: P(win the game) per call."""

    calls: tuple[int | str, ...]  # the numeric bids, then "moon" where moons are allowed
    win: np.ndarray  # [G, calls]
    win_se: np.ndarray  # [G, calls]; NaN when not asked for
    moon_success_win: Estimate  # P(win) after a successful moon, from this score
    samples: np.ndarray  # [G] hands behind each row

    def best_numeric(self) -> tuple[np.ndarray, np.ndarray]:
        """The win probability of the best numeric bid of each row, and its standard error."""
        numeric = [i for i, c in enumerate(self.calls) if c != "moon"]
        best = np.asarray(numeric)[np.argmax(self.win[:, numeric], axis=1)]
        rows = np.arange(len(best))
        return self.win[rows, best], self.win_se[rows, best]

    def moon_break_even(self) -> tuple[np.ndarray, np.ndarray]:
        """The moon success rate at which the moon wins as often as the best numeric bid, per row (and its SE):
        the best numeric bid's win probability over the win probability after a success (at most 1)."""
        best, best_se = self.best_numeric()
        after = self.moon_success_win
        break_even = np.minimum(best / after.value, 1.0)
        se = np.sqrt(best_se ** 2 + (break_even * after.se) ** 2) / after.value
        return break_even, se


@dataclass(frozen=True)
class EquityTable:
    """P(win the game) from every state on the grid, with standard errors, for one policy and rules.

    The arrays are ``[dealer, us, them]`` over the solve grid, scores from ``solve_floor`` to ``target - 1``;
    dealer 0 means the team whose score is ``us`` deals the next hand. ``floor`` is the lowest score shown.
    """

    outcomes: HandOutcomes
    floor: int
    win_grid: np.ndarray
    hands_left: np.ndarray  # expected hands until the game ends, this one included
    truncation: np.ndarray  # probability that a score falls below the solve floor before the game ends
    truncation_bound: float  # the largest truncation over the states shown: a bound on each win's error
    solve_error: float  # a bound on the error of the linear solve
    chain: GameChain = field(repr=False)
    seconds: float = field(default=0.0, compare=False)
    # Columns solved so far by transposed solves (_table_variance): a one-item list, the count a frozen table keeps.
    transposed_columns: list[int] = field(default_factory=lambda: [0], compare=False, repr=False)

    @property
    def rules(self) -> Rules:
        return self.outcomes.rules

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def policy(self) -> str:
        return self.outcomes.policy

    @property
    def hands(self) -> int:
        return self.outcomes.hands

    @property
    def solve_floor(self) -> int:
        return self.chain.solve_floor

    @cached_property
    def outcome_values(self) -> np.ndarray:
        """``Q[s, o]``: the win probability right after outcome o from state s (at the end, 1 or 0)."""
        win = self.win_grid.ravel()
        return np.where(self.chain.nxt >= 0, win[np.maximum(self.chain.nxt, 0)], self.chain.win)

    @cached_property
    def gradient(self) -> np.ndarray:
        """``[states, K]``: the derivative of every state's win probability along each outcome's probability,
        ``g_o = (I - P)^-1 Q_o`` (the module docstring); made on one thread where no caller made it first
        (:meth:`make_gradient`)."""
        return self._solve_gradient(1)

    def make_gradient(self, threads: int = 1) -> np.ndarray:
        """:attr:`gradient`, made now, its columns shared among ``threads`` threads (the same numbers), unless it is
        made already: for a caller that knows it will read it many times, and how many cores it may use."""
        if "gradient" not in self.__dict__:
            self.__dict__["gradient"] = self._solve_gradient(threads)
        return self.gradient

    def _solve_gradient(self, threads: int) -> np.ndarray:
        return self.chain.solve(self.outcome_values, tolerance=GRADIENT_TOLERANCE, threads=threads)[0]

    @cached_property
    def win_se_grid(self) -> np.ndarray:
        """The standard error of each win probability (delta method over the hands counted)."""
        g, p = self.gradient, self.chain.p
        variance = (g ** 2) @ p - (g @ p) ** 2
        return np.sqrt(np.maximum(variance, 0) / self.hands).reshape(self.win_grid.shape)

    def _table_variance(self, p: np.ndarray, flat: np.ndarray) -> np.ndarray:
        """The variance, from the table's own sampling, of ``sum_x p[g, x] * win[flat[c, x]]`` for every row g and
        combination c (``[G, C]``); cells with ``flat`` -1 (the game over) add nothing.

        A combination's derivative along outcome o is ``w (I - P)^-1 Q_o`` for its weights w over the states:
        each comes from one transposed solve, ``y = (I - P^T)^-1 w``, then ``y Q``; or from :attr:`gradient`, one
        solve per outcome. A column of either costs about the same, so the transposed solves are used until they
        would have solved as many columns as the gradient has: a table read once (``smear-sim hand``) never makes
        the gradient, and one read hundreds of times (a review, the server) makes it once, at most twice the
        cheaper way's cost.
        """
        q = self.chain.p
        cells = flat >= 0
        n_rows, n_calls = len(p), len(flat)
        columns = n_rows * n_calls
        if "gradient" not in self.__dict__ and self.transposed_columns[0] + columns < len(q):
            self.transposed_columns[0] += columns
            weights = np.zeros((n_rows, n_calls, self.chain.states))
            for c in range(n_calls):
                np.add.at(weights[:, c], (slice(None), flat[c, cells[c]]), p[:, cells[c]])
            y = self.chain.solve(weights.reshape(-1, self.chain.states).T, transpose=True,
                                 tolerance=GRADIENT_TOLERANCE)[0]
            derivative = (y.T @ self.outcome_values).reshape(n_rows, n_calls, -1)
        else:
            reached = np.where(cells[..., None], self.gradient[np.maximum(flat, 0)], 0.0)  # [C, cells, K]
            derivative = np.einsum("gx,cxk->gck", p, reached)
        return np.maximum((derivative ** 2) @ q - (derivative @ q) ** 2, 0) / self.hands

    def _index(self, us, them) -> tuple[np.ndarray, np.ndarray]:
        """Grid indices; scores below the solve floor count as the solve floor (as in the solve)."""
        us, them = np.asarray(us), np.asarray(them)
        if np.any(us >= self.target) or np.any(them >= self.target):
            raise SmearError(f"a score of {self.target} or more has won the game; the table stops at "
                             f"{self.target - 1}")
        return np.maximum(us, self.solve_floor) - self.solve_floor, np.maximum(them, self.solve_floor) - self.solve_floor

    def win(self, us: int, them: int, dealer: str = "them") -> Estimate:
        """P(the team at ``us`` wins), with ``dealer`` ("us" or "them") dealing the next hand."""
        i, j = self._index(us, them)
        return Estimate(self.win_value(us, them, dealer), float(self.win_se_grid[dealer_index(dealer), i, j]))

    def win_value(self, us: int, them: int, dealer: str = "them") -> float:
        """:meth:`win` without its standard error, which costs a solve per outcome the first time it is read."""
        i, j = self._index(us, them)
        return float(self.win_grid[dealer_index(dealer), i, j])

    def frame(self) -> pd.DataFrame:
        """One row per state shown: us, them, dealer, win, win_se and the expected hands left."""
        import pandas as pd

        lo = self.floor - self.solve_floor
        scores = np.arange(self.floor, self.target)
        d, us, them = (a.ravel() for a in np.indices((2, len(scores), len(scores))))
        grid = np.s_[:, lo:, lo:]
        frame = pd.DataFrame({
            "us": scores[us], "them": scores[them],
            "dealer": pd.Categorical(np.asarray(DEALERS)[d], categories=list(DEALERS)),
            "win": self.win_grid[grid].ravel(), "win_se": self.win_se_grid[grid].ravel(),
            "hands_left": self.hands_left[grid].ravel(),
        })
        frame.attrs = self.metadata()
        return frame

    def metadata(self) -> dict[str, Any]:
        return {
            "rules": self.rules.as_dict(), "policy": self.policy, "target": self.target, "floor": self.floor,
            "hands": self.hands, "seed": self.outcomes.seed, "solve_floor": self.solve_floor,
            "truncation_bound": float(f"{self.truncation_bound:.2g}"), "solve_error": float(f"{self.solve_error:.2g}"),
        }

    def to_json(self) -> dict[str, Any]:
        frame = self.frame()
        states = []
        for us, them, dealer, win, se, left in frame.itertuples(index=False):
            value, se = round_to_se(win, se)
            states.append({"us": int(us), "them": int(them), "dealer": dealer, "win": value, "win_se": se,
                           "hands_left": round(float(left), 2)})
        return self.metadata() | {"states": states}

    # -- valuing a hand at a score ---------------------------------------------------------------------------

    def _after(self, us: np.ndarray, them: np.ndarray, bid_made: np.ndarray, next_dealer: int):
        """Win probability (and the states' flat indices, -1 at the end) after a hand that leaves ``us`` and
        ``them``: the bidding team ``us`` goes out first when it made its bid and reached the target."""
        t = self.target
        us_wins = bid_made & (us >= t)
        them_wins = ~us_wins & (them >= t)
        ended = us_wins | them_wins
        i, j = self._index(np.where(ended, self.solve_floor, us), np.where(ended, self.solve_floor, them))
        value = np.where(ended, us_wins.astype(float), self.win_grid[next_dealer, i, j])
        size = self.chain.size
        flat = np.where(ended, -1, (next_dealer * size + i) * size + j)
        return value, flat

    def value_bids(self, joint: np.ndarray, score: tuple[int, int], dealer: str = "them", se: bool = True) -> BidWins:
        """Game values of hands from their joint points histograms (``[G, MAX_K, MAX_K]`` counts of (the
        bidding team's points, the other team's points)), the bidding team at ``score[0]`` and the other at
        ``score[1]``, ``dealer`` dealing this hand (so the other team deals the next).

        For each call the hand's outcomes are followed by the equity of the state they leave. The standard
        error (skipped with ``se=False``) adds two independent parts: the spread of that value over the hand's
        own samples, and the table's error, propagated through its derivative (module docstring).
        """
        us0, them0 = check_scores(score, self.rules)
        next_dealer = 1 - dealer_index(dealer)
        joint = np.asarray(joint, dtype=np.float64).reshape(-1, L.MAX_K, L.MAX_K)
        n = joint.sum(axis=(1, 2))
        p = joint / np.where(n > 0, n, np.nan)[:, None, None]
        m = self.rules.max_points
        k, o = np.indices((L.MAX_K, L.MAX_K))
        calls: list[int | str] = list(self.rules.bids())
        values, flats = [], []
        for b in calls:
            made = k >= b
            value, flat = self._after(us0 + np.where(made, k, -b), them0 + o, made, next_dealer)
            values.append(value)
            flats.append(flat)
        success = self.moon_success(score, dealer)
        if self.rules.moon:
            calls.append("moon")
            succeeded = (k == m) if self.rules.moon_requires == "all" else (o == 0)
            if us0 >= 0:
                value, flat = succeeded.astype(float), np.full(k.shape, -1)
            else:  # a success resets the bidding team to 0; the other team takes its points (none)
                after, flat_after = self._after(np.zeros_like(k), them0 + o, np.zeros(k.shape, bool), next_dealer)
                value, flat = np.where(succeeded, after, 0.0), np.where(succeeded, flat_after, -1)
            values.append(value)
            flats.append(flat)
        value = np.stack(values)  # [calls, MAX_K, MAX_K]
        win = np.einsum("gko,cko->gc", p, value)
        if not se:
            return BidWins(tuple(calls), win, np.full_like(win, np.nan), success, n)
        hand_var = np.einsum("gko,cko->gc", p, value ** 2) - win ** 2
        table_var = self._table_variance(p.reshape(len(p), -1), np.stack(flats).reshape(len(calls), -1))
        dof = np.where(n > 1, n - 1, np.nan)[:, None]
        return BidWins(tuple(calls), win, np.sqrt(np.maximum(hand_var, 0) / dof + table_var), success, n)

    def outcome_wins(self, score: tuple[int, int], next_dealer: str) -> tuple[np.ndarray, np.ndarray]:
        """P(win) right after each hand outcome code (layout ``OUT_*``, side 0 being the team at ``score[0]``) from
        ``score``, ``next_dealer`` ("us" or "them") dealing the next hand, and the flat state each outcome leads to
        (-1 where the game ends), by the checks of docs/rules.md ("Game"). Both are ``[N_OUTCOMES]``."""
        from ..kernels.equity import outcome_states

        us, them = check_scores(score, self.rules)
        end, us_after, them_after = outcome_states(self.target, us, them, L.N_OUTCOMES)
        value, flat = self._after(np.where(end == 0, us_after, self.solve_floor),
                                  np.where(end == 0, them_after, self.solve_floor), np.zeros(len(end), bool),
                                  dealer_index(next_dealer))
        return np.where(end == 0, value, (end > 0).astype(float)), np.where(end == 0, flat, -1)

    def outcome_variance(self, p: np.ndarray, flat: np.ndarray) -> np.ndarray:
        """The variance, from the table's own sampling, of ``sum_o p[g, o] * win(flat[o])`` for each row g of
        outcome probabilities (``flat`` as :meth:`outcome_wins` gives it)."""
        return self._table_variance(np.atleast_2d(p), flat[None, :])[:, 0]

    def moon_success(self, score: tuple[int, int], dealer: str = "them") -> Estimate:
        """P(win) after a successful moon by the team at ``score[0]``: 1 from zero or more; from a negative
        score that team is set to 0 and the other team, which took no point, deals next."""
        us, them = check_scores(score, self.rules)
        if us >= 0:
            return Estimate(1.0, 0.0)
        return self.win(0, them, DEALERS[1 - dealer_index(dealer)])


def match_equity(
    hands: int = DEFAULT_HANDS,
    *,
    seed: int = 1,
    floor: int = DEFAULT_FLOOR,
    outcomes: HandOutcomes | None = None,
    plan: RunPlan | None = None,
) -> EquityTable:
    """The match-equity table (see the module docstring) as an :class:`EquityTable`, from ``hands`` simulated hands.

    ``floor`` is the lowest score shown; the solve extends below it, 10 points at a time, until the truncation
    bound is under ``TRUNCATION_TOLERANCE`` (or the grid reaches ``MAX_MARGIN`` below the floor). ``outcomes``
    reuses hands already counted instead of simulating; without them ``plan`` (who plays, under which rules, and how
    the run goes) is needed, and goes to :func:`hand_outcomes`. Standard errors are computed when first asked for.
    """
    import time

    if outcomes is None:
        if plan is None:
            raise TypeError("match_equity() needs a plan, or the outcomes of hands already counted")
        target = plan.rules.target
    else:
        target = outcomes.rules.target
    if floor >= target:
        raise SmearError(f"--floor {floor} must be below the target {target}")
    check_span(target, floor)
    # Between the steps of the solve (each a kernel call that runs to its end) an executor that shares the
    # machine may pass the turn, or stop the work (the page's, smear_sim.engine.turns.TurnExecutor.pause).
    pause = getattr(plan.settings.executor if plan is not None else None, "pause", None) or (lambda: None)
    if outcomes is None:
        outcomes = hand_outcomes(hands, seed=seed, plan=plan)
    started = time.perf_counter()
    margin = 20
    widest = max(margin, MAX_SPAN + MAX_EXTRA - (target - floor))  # the grid stops growing there
    while True:
        pause()
        chain = build_chain(outcomes, target, floor - margin)
        pause()
        truncation = chain.truncation()
        bound = float(truncation.reshape(2, chain.size, chain.size)[:, margin:, margin:].max())
        if bound <= TRUNCATION_TOLERANCE or margin >= min(MAX_MARGIN, widest):
            break
        margin += 10
    pause()
    x, residual = chain.solve(np.stack([chain.win @ chain.p, np.ones(chain.states)], axis=1))
    win, hands_left = x[:, 0], x[:, 1]
    shape = (2, chain.size, chain.size)
    return EquityTable(outcomes, floor, win.reshape(shape), hands_left.reshape(shape), truncation.reshape(shape),
                       bound, float(residual * hands_left.max()), chain, time.perf_counter() - started)


def equity_table(
    hands: int = DEFAULT_HANDS,
    *,
    seed: int = 1,
    floor: int = DEFAULT_FLOOR,
    plan: RunPlan,
) -> pd.DataFrame:
    """The match-equity table as a DataFrame: one row per state from ``floor`` (``us``, ``them``, ``dealer``,
    ``win``, ``win_se``, ``hands_left``), and the table's settings, truncation bound and solve error in
    ``attrs``. :func:`match_equity` gives the :class:`EquityTable` behind it."""
    return match_equity(hands, seed=seed, floor=floor, plan=plan).frame()
