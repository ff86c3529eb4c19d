"""What to call at your turn in the auction: every legal call valued in games won, on deals the calls before
you could have come from.

The player holds a 9-card hand at a place in the auction (1 = the opener, left of the dealer; 4 = the dealer) after
the calls of the seats before it. The analysis

1. **samples the other hands by rejection**: the other 45 cards are dealt at random (no other seat able to call a
   misdeal) and the seats before the player call by the policy; a deal is kept only when they make exactly the
   calls given. The kept deals are a sample of the deals consistent with those calls under the policy's bidding,
   whatever the policy (the honest baseline; its acceptance rate is reported);
2. **plays every legal call on each kept deal**, pass included, on the same random stream (common random numbers):
   the later seats call by the policy, the auction's winner takes the kitty and declares, the hand is played and
   scored (:func:`smear_sim.kernels.drivers.auction_hands`);
3. **values each call** by the chance of winning the game, following each deal's outcome to the score it leaves
   and reading the match-equity table there (:mod:`smear_sim.analysis.match_equity`), and in points: the analysed team's
   hand score minus the other team's, whoever bid (a moon counts ±target, as in the hand analysis).

The call to make is the one of highest P(win). Since every call meets the same deals, the standard errors of the
differences between calls come from the paired differences deal by deal, and are much smaller than those of the
calls themselves. A call's own P(win) standard error also carries the equity table's.

The dealer is seat 3, so the analysed seat is the place minus one and the next hand is dealt by seat 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from ..core import layout as L
from ..core.calls import call_name, parse_call
from ..core.cards import mask_of
from ..core.errors import SmearError
from ..core.rules import Rules
from ..core.sizes import AUCTION_MAX_DEALS, HAND_SAMPLES
from ..core.stats import Estimate, proportion
from ..engine.jobs import auction_hands_job
from ..engine.runner import check_count
from .hand import json_se, json_value, parse_hand, shared_equity
from .hand_outcomes import DEFAULT_HANDS, outcome_points
from .match_equity import DEFAULT_FLOOR, EquityTable
from .plan import RunPlan
from .scores import DEALERS, check_scores, parse_score

__all__ = [
    "AUCTION_BATCH",
    "DEFAULT_MAX_DEALS",
    "AuctionAnalysis",
    "evaluate_auction",
    "legal_calls",
    "parse_auction",
]

AUCTION_BATCH = 20_000  # deals tried per chunk: the stopping rule and the feasibility check run after each
DEFAULT_MAX_DEALS = AUCTION_MAX_DEALS
MIN_ACCEPTED_FOR_ESTIMATE = 30  # kept deals before the acceptance rate is trusted to project the run


def _call_code(text: str | int) -> int:
    try:
        return parse_call(text)
    except SmearError as exc:
        raise SmearError(f"--auction: {exc}, e.g. --auction pass,3") from None


def legal_calls(rules: Rules, prior: Sequence[int]) -> list[int]:
    """The legal call codes for the seat after ``prior`` (docs/rules.md, "Auction"): pass (unless it must bid), the
    numbers above the highest so far up to the points at stake, and moon; only pass after a moon."""
    if L.MOON in prior:
        return [L.PASS]
    highest = max([c for c in prior if c != L.PASS], default=0)
    calls = [] if rules.must_bid(len(prior), any(c != L.PASS for c in prior)) else [L.PASS]
    calls += rules.bids(highest)
    if rules.moon:
        calls.append(L.MOON)
    return calls


def parse_auction(text: str | Sequence[str | int] | None, position: int, rules: Rules) -> tuple[int, ...]:
    """The calls before the seat at ``position`` (1-4): ``position - 1`` calls, each legal where it was made."""
    if not isinstance(position, int) or isinstance(position, bool) or not 1 <= position <= 4:
        raise SmearError(f"--position must be 1 (the opener, left of the dealer) to 4 (the dealer), got {position!r}")
    if text is None or (isinstance(text, str) and not text.strip()):
        words: list[str | int] = []
    else:
        words = [w for w in (text.split(",") if isinstance(text, str) else text)]
    calls = tuple(_call_code(w) for w in words)
    if len(calls) != position - 1:
        example = ",".join(["pass", "3", "pass"][: position - 1]) or "(none)"
        raise SmearError(f"--position {position} needs the {position - 1} call(s) made before it with --auction, "
                         f"got {len(calls)}; e.g. --auction {example}")
    for i, call in enumerate(calls):
        legal = legal_calls(rules, calls[:i])
        if call not in legal:
            shown = ", ".join(str(call_name(c)) for c in legal)
            after = ("at the start of the auction" if i == 0
                     else "after " + ", ".join(_call_words(c) for c in calls[:i]))
            raise SmearError(f"--auction: the {_ORDINALS[i]} call, {_call_words(call)}, is not legal {after} under "
                             f"these rules; the legal calls there are {shown}")
    return calls


_ORDINALS = ("first", "second", "third")  # the calls before the dealer's, the last place's


def _call_words(code: int) -> str:
    """A call in a sentence: "a bid of 2", "a pass", "moon" (the code's number alone read as a position)."""
    name = call_name(code)
    return "a pass" if name == "pass" else "moon" if name == "moon" else f"a bid of {name}"


def _team_scores(score: tuple[int, int], team: int) -> tuple[int, int]:
    return score if team == 0 else (score[1], score[0])


@dataclass(frozen=True)
class AuctionAnalysis:
    """Every legal call of a hand at a place in the auction, valued on the same kept deals (module docstring)."""

    hand: tuple[int, ...]
    position: int  # 1 = the opener .. 4 = the dealer
    prior: tuple[int, ...]  # the call codes before it
    score: tuple[int, int]  # the analysed team's score first
    seed: int
    policy: str
    rules: Rules
    counts: np.ndarray  # layout AUC_*
    equity: EquityTable = field(repr=False)
    stopped_by: str = "samples"
    seconds: float = field(default=0.0, compare=False)

    @property
    def legal(self) -> list[int]:
        return legal_calls(self.rules, self.prior)

    @property
    def deals(self) -> int:
        return int(self.counts[L.AUC_DEALS])

    @property
    def samples(self) -> int:
        return int(self.counts[L.AUC_ACCEPTED])

    @property
    def acceptance(self) -> Estimate:
        return proportion(self.samples, self.deals)

    @property
    def next_dealer(self) -> str:
        """Who deals the next hand, from the analysed team: seat 0 deals it."""
        return DEALERS[0] if (self.position - 1) % 2 == 0 else DEALERS[1]

    @cached_property
    def _values(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each outcome code's P(win), flat state and points, for the analysed team at its score."""
        win, flat = self.equity.outcome_wins(self.score, self.next_dealer)
        return win, flat, outcome_points(self.rules.target).astype(np.float64)

    def _hist(self, call: int) -> np.ndarray:
        start = L.AUC_HIST + call * L.N_OUTCOMES
        return self.counts[start: start + L.N_OUTCOMES].astype(np.float64)

    @cached_property
    def estimates(self) -> dict[int, dict[str, Estimate]]:
        """For each legal call: ``win`` and ``ev`` (with the equity table's error in ``win``), ``declares`` (P(the
        seat wins the auction with it)) and ``make`` (P(made) when it does)."""
        win_value, flat, points = self._values
        n = self.samples
        out: dict[int, dict[str, Estimate]] = {}
        if n == 0:
            return out
        dof = max(n - 1, 1)
        hists = np.array([self._hist(call) / n for call in self.legal])
        table_var = self.equity.outcome_variance(hists, flat)  # one solve for all the calls
        for k, call in enumerate(self.legal):
            p = hists[k]
            row = {}
            for name, value in (("win", win_value), ("ev", points)):
                mean = float(p @ value)
                variance = max(float(p @ value ** 2) - mean ** 2, 0.0) / dof
                if name == "win":
                    variance += float(table_var[k])
                row[name] = Estimate(mean, math.sqrt(variance))
            declared = int(self.counts[L.AUC_DECLARED + call])
            row["declares"] = proportion(declared, n)
            if call != L.PASS and declared:
                row["make"] = proportion(int(self.counts[L.AUC_MADE + call]), declared)
            out[call] = row
        return out

    def difference(self, a: int, b: int) -> tuple[Estimate, Estimate]:
        """P(win) and points of call ``a`` minus call ``b``, with standard errors from the pairs, deal by deal."""
        n = self.samples
        ea, eb = self.estimates[a], self.estimates[b]
        first, second = min(a, b), max(a, b)
        pair = first * L.N_BID_CODES + second
        result = []
        for name, offset, scale in (("win", L.AUC_PAIR_WIN, L.WIN_SCALE), ("ev", L.AUC_PAIR_EV, 1)):
            d = ea[name].value - eb[name].value
            mean_sq = float(self.counts[offset + pair]) / n / scale ** 2
            result.append(Estimate(d, math.sqrt(max(mean_sq - d * d, 0.0) / max(n - 1, 1))))
        return result[0], result[1]

    @property
    def ranked(self) -> list[int]:
        """The legal calls, best P(win) first (ties: the earlier call, pass first)."""
        order = {call: i for i, call in enumerate(self.legal)}
        return sorted(self.estimates, key=lambda c: (-self.estimates[c]["win"].value, order[c]))

    @property
    def recommended_call(self) -> int | str | None:
        return call_name(self.ranked[0]) if self.estimates else None

    def advice(self) -> dict[str, Any] | None:
        """The call to make and how much better it is than the next best, in P(win) and in points."""
        ranked = self.ranked
        if len(ranked) < 2:
            return None
        d_win, d_ev = self.difference(ranked[0], ranked[1])
        return {"call": call_name(ranked[0]), "next_best": call_name(ranked[1]),
                "win_gain": json_value(d_win.value, d_win.se), "win_gain_se": json_se(d_win.se),
                "ev_gain": json_value(d_ev.value, d_ev.se), "ev_gain_se": json_se(d_ev.se)}

    def call_rows(self) -> list[dict[str, Any]]:
        rows = []
        for call, e in self.estimates.items():
            row: dict[str, Any] = {"call": call_name(call)}
            for name in ("win", "ev", "declares", "make"):
                if name in e:
                    row |= {name: json_value(e[name].value, e[name].se), f"{name}_se": json_se(e[name].se)}
            rows.append(row)
        return rows

    def to_json(self) -> dict[str, Any]:
        """The fields ``smear-sim hand --position`` adds (docs/formats.md)."""
        acceptance = self.acceptance
        return {
            "position": self.position,
            "auction": {
                "before": [call_name(c) for c in self.prior],
                "deals": self.deals,
                "samples": self.samples,
                "acceptance": json_value(acceptance.value, acceptance.se),
                "acceptance_se": json_se(acceptance.se),
                "stopped_by": self.stopped_by,
                "score": list(self.score),
                "equity_hands": self.equity.hands,
            },
            "calls": self.call_rows(),
            "recommended_call": self.recommended_call,
            "advice": self.advice(),
        }


def _ev_se(counts: np.ndarray, legal: Sequence[int], points: np.ndarray) -> float:
    """The largest standard error of a call's points, from the counts so far."""
    n = counts[L.AUC_ACCEPTED]
    if n < 2:
        return math.inf
    worst = 0.0
    for call in legal:
        start = L.AUC_HIST + call * L.N_OUTCOMES
        p = counts[start: start + L.N_OUTCOMES] / n
        mean = p @ points
        worst = max(worst, math.sqrt(max(p @ points ** 2 - mean * mean, 0.0) / (n - 1)))
    return worst


def evaluate_auction(
    hand: str | Sequence[int | str],
    *,
    position: int,
    auction: str | Sequence[str | int] | None = None,
    score: tuple[int, int] | str = (0, 0),
    samples: int | None = None,
    precision: float | None = None,
    max_deals: int = DEFAULT_MAX_DEALS,
    seed: int = 1,
    equity: EquityTable | None = None,
    equity_hands: int = DEFAULT_HANDS,
    plan: RunPlan,
) -> AuctionAnalysis:
    """Value every legal call of ``hand`` at ``position`` (1 = the opener .. 4 = the dealer) after the calls
    ``auction`` (e.g. ``"pass,3"``), the analysed team at ``score[0]`` (module docstring).

    ``samples`` kept deals are wanted (default 100,000), or with ``precision`` enough that every call's points have
    a standard error below it; at most ``max_deals`` deals are tried. When the calls before the seat are so rare
    under the policy's bidding that this cannot be reached, a one-line :class:`SmearError` says so as soon as the
    acceptance rate shows it. ``equity`` values the outcomes (by default one is made from ``equity_hands`` hands
    and kept for the session). ``plan`` says who plays, under which rules, and how the run goes
    (:class:`smear_sim.analysis.plan.RunPlan`).
    """
    cards = parse_hand(hand)
    rules = plan.rules
    policy = plan.one_policy("the auction analysis plays")
    prior = parse_auction(auction, position, rules)
    score = check_scores(parse_score(score), rules)
    check_count("max_deals", max_deals)
    if precision is not None and not (precision > 0 and math.isfinite(precision)):
        raise SmearError(f"--precision must be a positive standard error such as 0.01, got {precision!r}")
    target = samples if samples is not None else (None if precision is not None else HAND_SAMPLES)
    if target is not None:
        check_count("samples", target)
    if equity is None:
        check_count("equity_hands", equity_hands)
        equity = shared_equity(equity_hands, seed, rules, policy, min(DEFAULT_FLOOR, *score),
                               executor=plan.settings.executor)
    elif equity.rules != rules or equity.policy != policy:
        raise SmearError("the equity table was made with other rules or another policy than this analysis")
    seat = position - 1  # dealer 3: the opener is seat 0
    team = seat & 1
    score0, score1 = _team_scores(score, team)
    next_dealer = DEALERS[0] if team == 0 else DEALERS[1]
    win, _ = equity.outcome_wins(score, next_dealer)
    points = outcome_points(rules.target)
    prior_array = np.zeros(4, dtype=np.int64)
    prior_array[: len(prior)] = prior
    job = auction_hands_job(players=plan.players, seed=seed, max_deals=max_deals, fixed_hand=mask_of(cards),
                            position=seat, prior=prior_array, scores=(score0, score1),
                            win_value=np.rint(win * L.WIN_SCALE).astype(np.int64), ev_value=points)
    legal = legal_calls(rules, prior)
    wanted = f"{target:,} samples" if target is not None else f"a standard error below {precision:g} points"

    def enough(counts: np.ndarray) -> bool:
        accepted, deals = int(counts[L.AUC_ACCEPTED]), int(counts[L.AUC_DEALS])
        se = _ev_se(counts, legal, points) if target is None else math.inf
        if (accepted >= target) if target is not None else se < precision:
            return True
        calls = ", ".join(str(call_name(c)) for c in prior)
        if accepted == 0 and deals >= 10 * AUCTION_BATCH:
            raise SmearError(f"none of the first {deals:,} deals fits the calls before you ({calls}) under {policy} "
                             f"bidding, so {wanted} cannot be reached in --max-deals {max_deals:,}; check the "
                             "auction, or try another --policy")
        if accepted >= MIN_ACCEPTED_FOR_ESTIMATE:
            rate = accepted / deals
            needed = target if target is not None else accepted * (se / precision) ** 2
            if needed / rate > max_deals:
                raise SmearError(f"the calls before you ({calls}) fit only {100 * rate:.2g}% of deals under "
                                 f"{policy} bidding: {wanted} would take about {needed / rate:,.0f} deals, more "
                                 f"than --max-deals {max_deals:,}; ask for fewer --samples (or a larger --precision), "
                                 "or raise --max-deals")
        return False

    result = plan.run(job, chunk_size=AUCTION_BATCH, stop=enough)
    stopped_by = ("samples" if target is not None else "precision") if result.stopped else "max-deals"
    return AuctionAnalysis(cards, position, prior, score, seed, policy, rules, result.counts, equity, stopped_by,
                           result.seconds)
