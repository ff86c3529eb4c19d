"""The match-equity table: the probability of winning the game from every score state.

A state is both teams' scores before a hand and which team deals it. The table is computed exactly from the
distribution of one hand's outcome, not by playing games:

1. **Hand outcomes.** Many hands are simulated (:func:`hand_outcomes`), each dealt in turn by every seat, and
   each outcome is counted from the dealing team's side (layout ``OUT_*``): thrown in; or which side bid, and
   for a number the bidding team's score change and the other team's points, for the moon success (with the
   other team's points) or failure. With one policy at all four seats, a hand dealt by either team has the
   same distribution seen from the dealer, so every hand counts for both.
2. **The recursion.** From each state the outcomes lead to the next state (the deal passes to the other team,
   thrown-in hands included) or end the game, by the checks of docs/rules.md ("Game") in order: a moon ends the game (a
   success from a negative score sets it to 0 and play goes on), then the bidding team goes out first if it
   made its bid and reached the target, then the other team. ``win = R + P win`` is a linear system over the
   grid of states, solved by Gauss-Seidel sweeps (:func:`smear_sim.kernels.equity.solve_chain`) to a
   residual whose error bound is reported (``solve_error``).
3. **The floor.** Scores have no lower limit, so the grid is cut at a solve floor below the lowest score
   shown (``floor``), and a hand that would take a score below the solve floor leaves it at the solve floor.
   Until a score first falls below the solve floor the cut game and the true game are the same, so for each
   state the error is at most the probability that this ever happens before the game ends. That probability
   solves the same kind of system; the solve floor is lowered until its largest value over the states shown
   is below ``TRUNCATION_TOLERANCE``, and that largest value is reported as ``truncation_bound``.
4. **Standard errors.** The table is a smooth function of the outcome probabilities p. Its derivative along
   outcome o is ``g_o = (I - P)^-1 Q_o``, where ``Q_o(s)`` is the value of outcome o from state s (the next state's
   win probability, or 1 or 0 at the end); the ``g_o`` solve the same system with ``Q_o`` on the right. With the
   n hands counted as a multinomial sample, the delta method gives
   ``Var(win(s)) = (sum_o p_o g_o(s)^2 - (sum_o p_o g_o(s))^2) / n``: the variance over hands of each hand's
   influence on the table. The tests check it against the spread of tables from independent seeds.

**Scores and the policy's bidding.** The hand-outcome distribution is measured once, with the dealing team and
the other team at the scores ``scores`` (0-0 by default) as the policy sees them in its bidding. That is exact
for a policy whose play does not depend on the score, such as ``heuristic`` and ``random``. A score-aware
policy would need the distribution at every state: :func:`solve_chain` takes one row of probabilities per
state, so only the counting changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import layout as L
from ..core.errors import SmearError
from ..core.players import parse_policies, policy_array
from ..core.rules import Rules
from ..core.stats import Estimate, round_to_se
from ..engine.runner import Executor, Job, Progress, run

if TYPE_CHECKING:
    import pandas as pd

    from ..engine.checkpoint import Checkpoint

__all__ = [
    "DEALERS",
    "DEFAULT_FLOOR",
    "DEFAULT_HANDS",
    "MAX_SPAN",
    "TRUNCATION_TOLERANCE",
    "BidWins",
    "EquityTable",
    "HandOutcomes",
    "check_scores",
    "check_span",
    "decode_outcomes",
    "equity_table",
    "hand_outcomes",
    "match_equity",
    "outcome_points",
    "parse_score",
]

DEFAULT_HANDS = 200_000
DEFAULT_FLOOR = -40
TRUNCATION_TOLERANCE = 1e-6
SOLVE_TOLERANCE = 1e-13
GRADIENT_TOLERANCE = 1e-7  # the derivatives only set standard errors, which need a few digits
MAX_SWEEPS = 100_000
MAX_MARGIN = 400  # the solve floor goes at most this far below the floor shown
# The most points from the lowest score shown to the target. The grid of the solve holds the square of that
# (plus its margin) times 32 outcomes, and a solve sweeps it thousands of times: 300 points is about a
# second a solve and 150 MB. The margin below stops where the grid would pass MAX_SPAN + MAX_EXTRA points.
MAX_SPAN = 300
MAX_EXTRA = 100
DEALERS = ("us", "them")  # index 0: the team whose score is ``us`` deals the next hand; 1: the other team


def parse_score(text: str | tuple[int, int] | list[int], option: str = "--score") -> tuple[int, int]:
    """Two whole-number scores from ``"US,THEM"`` (negative scores allowed: ``-5,19``) or a pair."""
    if isinstance(text, str):
        parts = [p.strip() for p in text.split(",")]
        try:
            values = [int(p) for p in parts]
        except ValueError:
            values = []
    else:
        values = list(text)
    if len(values) != 2 or not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in values):
        raise SmearError(f"{option} {text!r}: give two whole-number scores separated by a comma, e.g. "
                         f"{option}=15,19 or {option}=-5,19")
    return int(values[0]), int(values[1])


def check_scores(scores: tuple[int, int], rules: Rules, option: str = "--score", max_span: int = MAX_SPAN,
                 cap: str = "") -> tuple[int, int]:
    """Scores of a game in progress: both below the target (a team that reached it has won), and within
    ``max_span`` of it: the game view's match-equity table runs from the lower of them and ``DEFAULT_FLOOR`` to
    the target (see :func:`check_span`)."""
    if max(scores) >= rules.target:
        raise SmearError(f"{option} {scores[0]},{scores[1]}: a game in progress has both scores below the target "
                         f"{rules.target} (a team that reaches it has won)")
    floor = min(DEFAULT_FLOOR, *scores)
    lowest = rules.target - max_span
    fix = f"a target up to {DEFAULT_FLOOR + max_span}" if lowest > DEFAULT_FLOOR else f"scores from {lowest} up"
    check_span(rules.target, floor, max_span, f"{option} {scores[0]},{scores[1]}: the game view's", fix + cap)
    return scores


def check_span(target: int, floor: int, max_span: int = MAX_SPAN, what: str = "the", fix: str = "") -> None:
    """The match-equity table from ``floor`` to ``target`` may span at most ``max_span`` points: its work and
    memory grow with the square of the span, so this is checked before any work. ``fix`` says what to give."""
    span = target - floor
    if span > max_span:
        fix = fix or f"a --floor from {target - max_span} up"
        raise SmearError(f"{what} match-equity table from {floor} to the target {target} would span {span:,} points, "
                         f"more than the {max_span} allowed; give {fix}")


def _dealer_index(dealer: str) -> int:
    if isinstance(dealer, str) and dealer.lower() in DEALERS:
        return DEALERS.index(dealer.lower())
    raise SmearError(f"the dealer is 'us' or 'them' (the team that deals the next hand), got {dealer!r}")


# -- hand outcomes ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandOutcomes:
    """A histogram of one hand's outcome (layout ``OUT_*``, from the dealing team's side)."""

    counts: np.ndarray  # [N_OUTCOMES] int64
    seed: int
    policy: str
    rules: Rules
    scores: tuple[int, int] = (0, 0)  # the dealing team's and the other team's scores the hands were bid at
    seconds: float = field(default=0.0, compare=False)

    @property
    def hands(self) -> int:
        return int(self.counts.sum())

    @cached_property
    def decoded(self) -> dict[str, np.ndarray]:
        """For each code with a count: ``code``, the fields of :func:`decode_outcomes` and ``p``, its frequency."""
        codes = np.flatnonzero(self.counts)
        return {"code": codes, **decode_outcomes(codes), "p": self.counts[codes] / self.counts.sum()}


def decode_outcomes(codes: np.ndarray) -> dict[str, np.ndarray]:
    """The fields of hand outcome codes (layout ``OUT_*``): ``kind`` (0 thrown in, 1 number, 2 moon made, 3 moon
    failed), ``side`` (0: the team the codes are seen from bid), ``delta`` (a number's bidding-team score change)
    and ``other`` (the other team's points)."""
    codes = np.asarray(codes)
    kind = np.zeros(len(codes), dtype=np.int64)
    side = np.zeros_like(kind)
    delta = np.zeros_like(kind)
    other = np.zeros_like(kind)
    width = L.OUT_MAX + 1
    numeric = (codes >= L.OUT_NUMERIC) & (codes < L.OUT_MOON_MADE)
    x = codes[numeric] - L.OUT_NUMERIC
    kind[numeric] = 1
    other[numeric] = x % width
    side[numeric] = (x // width) // (2 * L.OUT_MAX + 1)
    delta[numeric] = (x // width) % (2 * L.OUT_MAX + 1) - L.OUT_MAX
    made = (codes >= L.OUT_MOON_MADE) & (codes < L.OUT_MOON_FAILED)
    kind[made] = 2
    side[made] = (codes[made] - L.OUT_MOON_MADE) // width
    other[made] = (codes[made] - L.OUT_MOON_MADE) % width
    failed = codes >= L.OUT_MOON_FAILED
    kind[failed] = 3
    side[failed] = codes[failed] - L.OUT_MOON_FAILED
    return {"kind": kind, "side": side, "delta": delta, "other": other}


def outcome_points(target: int) -> np.ndarray:
    """Each outcome code's points for the team it is seen from: its hand score minus the other team's, whoever bid.
    A moon counts the game it decides, +target made and -target failed for the team that shot it (as the hand
    analysis counts it)."""
    f = decode_outcomes(np.arange(L.N_OUTCOMES))
    sign = np.where(f["side"] == 0, 1, -1)
    points = np.select([f["kind"] == 1, f["kind"] == 2, f["kind"] == 3],
                       [sign * (f["delta"] - f["other"]), sign * target, -sign * target], 0)
    return points.astype(np.int64)


def hand_outcomes(
    hands: int = DEFAULT_HANDS,
    *,
    seed: int = 1,
    rules: Rules | None = None,
    policy: str = "heuristic",
    scores: tuple[int, int] = (0, 0),
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    model: tuple[np.ndarray, ...] | None = None,
    checkpoint: Checkpoint | None = None,
) -> HandOutcomes:
    """Count the outcomes of ``hands`` hands, the dealing team at ``scores[0]`` and the other at ``scores[1]``.

    ``model`` is the kernels' tables for the policy (by default :func:`smear_sim.analysis.bidder.player_model`'s);
    ``checkpoint`` saves finished chunks for a resumed run (:mod:`smear_sim.engine.checkpoint`).
    """
    from .bidder import player_model

    rules = rules or Rules()
    policies = parse_policies(policy)
    if policies[0] != policies[1]:
        raise SmearError("the equity table plays one policy at all four seats; give a single --policy")
    if model is None:
        model = player_model(policies, rules)
    job = Job("hand_outcomes", seed, hands, (rules.to_array(), policy_array(policies), model, scores[0], scores[1]))
    result = run(job, threads=threads, chunk_size=chunk_size, progress=progress, executor=executor,
                 checkpoint=checkpoint)
    return HandOutcomes(result.counts, seed, policies[0], rules, scores, result.seconds)


# -- the chain over the score grid --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Chain:
    """The game over the grid ``[solve_floor, target)`` squared, times the dealing team, for one hand-outcome
    distribution ``p`` (``[K]``, the outcomes of :attr:`HandOutcomes.decoded`).

    State index ``(d * size + us - solve_floor) * size + them - solve_floor``, d = 0 when ``us`` deals.
    """

    solve_floor: int
    size: int
    p: np.ndarray  # [K]
    nxt: np.ndarray  # [states, K] the next state after each outcome, -1 where the game ends
    win: np.ndarray  # [states, K] 1.0 where the outcome ends the game with a win for ``us``
    clamped: np.ndarray  # [states, K] the outcome took a score below the solve floor (and was held there)
    order: np.ndarray  # states, highest score sum first: most hands lead to higher sums

    @property
    def states(self) -> int:
        return len(self.nxt)

    def transposed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``P^T`` in compressed sparse rows: for each state, the transitions that lead into it."""
        stays = self.nxt >= 0
        source, outcome = np.nonzero(stays)
        target = self.nxt[stays]
        by_target = np.argsort(target, kind="stable")
        indptr = np.zeros(self.states + 1, dtype=np.int64)
        np.cumsum(np.bincount(target, minlength=self.states), out=indptr[1:])
        return indptr, source[by_target].astype(np.int32), self.p[outcome[by_target]]

    def solve(self, rhs: np.ndarray, *, keep: np.ndarray | None = None, transpose: bool = False,
              tolerance: float = SOLVE_TOLERANCE) -> tuple[np.ndarray, float]:
        """Solve ``x = rhs + P x`` (or ``P`` transposed) for each column of ``rhs`` (``[states, m]``); transitions
        outside ``keep`` count as ending the chain."""
        from ..kernels.equity import solve_chain, solve_transposed  # imports Numba: only once there is work

        rhs = np.ascontiguousarray(rhs.T)
        if transpose:  # inflows pass values the other way: sweep from the low score sums
            x, residual, _ = solve_transposed(*self.transposed(), rhs, self.order[::-1].copy(), tolerance, MAX_SWEEPS)
        else:
            nxt = self.nxt if keep is None else np.where(keep, self.nxt, -1)
            x, residual, _ = solve_chain(nxt.astype(np.int32), self.p[None, :], rhs, self.order, tolerance,
                                         MAX_SWEEPS)
        return x.T, residual

    def truncation(self) -> np.ndarray:
        """For each state, the probability that a score falls below the solve floor before the game ends."""
        return self.solve((self.clamped @ self.p)[:, None], keep=~self.clamped)[0][:, 0]


def _build_chain(outcomes: HandOutcomes, target: int, solve_floor: int) -> _Chain:
    out = outcomes.decoded
    size = target - solve_floor
    d, us, them = (a.ravel() for a in np.indices((2, size, size)))
    us = us + solve_floor
    them = them + solve_floor
    us, them, d = us[:, None], them[:, None], d[:, None]
    kind, side, delta, other = (out[key][None, :] for key in ("kind", "side", "delta", "other"))
    bidder_is_us = (d == 0) == (side == 0)  # side 0: the dealing team bid
    x = np.where(bidder_is_us, us, them)  # the bidding team's score (any team when thrown in)
    y = np.where(bidder_is_us, them, us)
    # After the hand, before the end-of-game checks.
    x_after = np.where(kind == 1, x + delta, np.where(kind == 2, 0, x))
    y_after = y + other
    bidder_wins = ((kind == 1) & (delta > 0) & (x_after >= target)) | ((kind == 2) & (x >= 0))
    other_wins = (kind == 3) | (~bidder_wins & (y_after >= target))
    ended = bidder_wins | other_wins
    clamped = ~ended & ((x_after < solve_floor) | (y_after < solve_floor))
    x_next = np.maximum(x_after, solve_floor)
    y_next = np.maximum(y_after, solve_floor)
    us_next = np.where(bidder_is_us, x_next, y_next)
    them_next = np.where(bidder_is_us, y_next, x_next)
    index = ((1 - d) * size + us_next - solve_floor) * size + them_next - solve_floor
    nxt = np.where(ended, -1, index)
    win = (np.where(bidder_is_us, bidder_wins, other_wins) & ended).astype(np.float64)
    order = np.argsort(-(us[:, 0] + them[:, 0]), kind="stable")
    return _Chain(solve_floor, size, out["p"], nxt, win, clamped, order)


# -- the table ----------------------------------------------------------------------------------------------


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
    chain: _Chain = field(repr=False)
    seconds: float = field(default=0.0, compare=False)

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
        ``g_o = (I - P)^-1 Q_o`` (the module docstring)."""
        return self.chain.solve(self.outcome_values, tolerance=GRADIENT_TOLERANCE)[0]

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
        with fewer combinations than outcomes each comes from one transposed solve, ``y = (I - P^T)^-1 w``, then
        ``y Q``; with more, from :attr:`gradient`.
        """
        q = self.chain.p
        cells = flat >= 0
        n_rows, n_calls = len(p), len(flat)
        if n_rows * n_calls < len(q) and "gradient" not in self.__dict__:
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
        d = _dealer_index(dealer)
        i, j = self._index(us, them)
        return Estimate(float(self.win_grid[d, i, j]), float(self.win_se_grid[d, i, j]))

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
        next_dealer = 1 - _dealer_index(dealer)
        joint = np.asarray(joint, dtype=np.float64).reshape(-1, L.MAX_K, L.MAX_K)
        n = joint.sum(axis=(1, 2))
        p = joint / np.where(n > 0, n, np.nan)[:, None, None]
        m = self.rules.max_points
        k, o = np.indices((L.MAX_K, L.MAX_K))
        calls: list[int | str] = list(range(self.rules.min_bid, m + 1))
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
                                  _dealer_index(next_dealer))
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
        return self.win(0, them, DEALERS[1 - _dealer_index(dealer)])


def match_equity(
    hands: int = DEFAULT_HANDS,
    *,
    seed: int = 1,
    rules: Rules | None = None,
    policy: str = "heuristic",
    floor: int = DEFAULT_FLOOR,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    outcomes: HandOutcomes | None = None,
    model: tuple[np.ndarray, ...] | None = None,
    checkpoint: Checkpoint | None = None,
) -> EquityTable:
    """The match-equity table (see the module docstring) as an :class:`EquityTable`, from ``hands`` simulated hands.

    ``floor`` is the lowest score shown; the solve extends below it, 10 points at a time, until the truncation
    bound is under ``TRUNCATION_TOLERANCE`` (or the grid reaches ``MAX_MARGIN`` below the floor). ``outcomes``
    reuses hands already counted instead of simulating; ``model`` and ``checkpoint`` go to :func:`hand_outcomes`. Standard errors are
    computed when first asked for.
    """
    import time

    rules = rules or Rules()
    if floor >= rules.target:
        raise SmearError(f"--floor {floor} must be below the target {rules.target}")
    check_span((outcomes.rules if outcomes is not None else rules).target, floor)
    # Between the steps of the solve (each a kernel call that runs to its end) an executor that shares the
    # machine may pass the turn, or stop the work (the page's, smear_sim.web.scheduler.TurnExecutor.pause).
    pause = getattr(executor, "pause", None) or (lambda: None)
    if outcomes is None:
        outcomes = hand_outcomes(hands, seed=seed, rules=rules, policy=policy, threads=threads, chunk_size=chunk_size,
                                 progress=progress, executor=executor, model=model, checkpoint=checkpoint)
    started = time.perf_counter()
    target = outcomes.rules.target
    margin = 20
    widest = max(margin, MAX_SPAN + MAX_EXTRA - (target - floor))  # the grid stops growing there
    while True:
        pause()
        chain = _build_chain(outcomes, target, floor - margin)
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
    rules: Rules | None = None,
    policy: str = "heuristic",
    floor: int = DEFAULT_FLOOR,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> pd.DataFrame:
    """The match-equity table as a DataFrame: one row per state from ``floor`` (``us``, ``them``, ``dealer``,
    ``win``, ``win_se``, ``hands_left``), and the table's settings, truncation bound and solve error in
    ``attrs``. :func:`match_equity` gives the :class:`EquityTable` behind it."""
    return match_equity(hands, seed=seed, rules=rules, policy=policy, floor=floor, threads=threads,
                        progress=progress, executor=executor).frame()
