"""What one 9-card hand is worth as bidder, in points and in games won.

The conventions are those of the rules' "hand analysis" section (docs/rules.md): seat 0 holds the hand and
takes the kitty as bidder, the other 45 cards are dealt uniformly with no other seat able to call a misdeal,
and all four seats play the chosen policy. Every deal is played once; its bidding team's points then settle
every possible bid at once, so one simulation gives P(make) and EV for each bid
(:mod:`smear_sim.analysis.estimates`).

The game view values each bid by the chance of winning the game at a score: each deal's (bidding team's
points, other team's points) leaves a new score, or ends the game, and the match-equity table
(:mod:`smear_sim.analysis.match_equity`) gives the chance of winning from there. The hand analysis seats the
bidder left of the dealer (seat 3, the other team), so the bidding team deals the next hand.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import layout as L
from ..core.cards import SUIT_NAMES, card_name, mask_of, parse_cards, parse_suit
from ..core.errors import CardError, SmearError
from ..core.rules import Rules
from ..core.sizes import HAND_MAX_SAMPLES, HAND_SAMPLES
from ..core.stats import Estimate, round_to_se
from ..engine.jobs import analyze_hands_job
from ..engine.runner import Executor, Job, Progress, check_count
from ..engine.settings import RunSettings
from ..reference.hand import is_misdeal_hand
from .estimates import BidEstimates, estimate
from .hand_outcomes import DEFAULT_HANDS
from .match_equity import DEFAULT_FLOOR, BidWins, EquityTable, match_equity
from .plan import RunPlan
from .scores import check_scores, parse_score
from .shipped_equity import load_shipped

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EXAMPLE_HAND",
    "EXAMPLE_MOON_HAND",
    "HandAnalysis",
    "HandQuery",
    "evaluate_hand",
    "hand_query",
    "parse_hand",
    "parse_trump",
]

EXAMPLE_HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"
EXAMPLE_MOON_HAND = "AH KH QH 2H 10H 6S 9S 4D 3C"  # a moon that fails when the jack of trump is out (about 40%)
PRECISION_BATCH = 10_000


def parse_hand(hand: str | Sequence[int | str]) -> tuple[int, ...]:
    """Nine distinct cards from a string ("AH KH ...") or a sequence of names or codes."""
    if isinstance(hand, str):
        cards = parse_cards(hand, allow_duplicates=True)
    else:
        cards = [parse_cards([c])[0] if isinstance(c, str) else c for c in hand]
        for c in cards:
            card_name(c)  # raises for anything that is not a card code 0-53
    for c in cards:
        if cards.count(c) > 1:
            raise CardError(f"card {card_name(c)} appears twice in the hand; a hand holds 9 different cards")
    if len(cards) != 9:
        raise CardError(
            f"a hand has 9 cards, got {len(cards)}; type nine cards separated by spaces, e.g. \"{EXAMPLE_HAND}\""
        )
    return tuple(cards)


def parse_trump(trump: str | int | None) -> int:
    """A suit index 0-3 from ``S H D C`` (or the index itself); -1 for None, meaning the policy chooses."""
    if trump is None:
        return -1
    if isinstance(trump, int):
        if 0 <= trump < 4:
            return trump
        raise SmearError(f"trump must be one of S H D C, got {trump!r}")
    try:
        return parse_suit(trump)
    except CardError:
        raise SmearError(f"--trump must be one of S H D C, got {trump!r}") from None


def json_value(value: float, se: float) -> float | None:
    """A value rounded to the digits its standard error supports; null where not estimable."""
    if not math.isfinite(value):
        return None
    return round_to_se(value, se if math.isfinite(se) else 0.0)[0]


def json_se(se: float) -> float | None:
    if not math.isfinite(se):
        return None
    return round_to_se(se, se)[1]


@dataclass(frozen=True)
class HandAnalysis:
    """The value of one 9-card hand as bidder, from ``samples`` simulated deals of the other 45 cards."""

    hand: tuple[int, ...]
    samples: int
    seed: int
    policy: str
    rules: Rules
    trump_fixed: int | None
    counts: np.ndarray  # one row of CLS_* counts
    stopped_by: str = "samples"
    seconds: float = field(default=0.0, compare=False)
    score: tuple[int, int] = (0, 0)
    equity: EquityTable | None = field(default=None, compare=False, repr=False)

    @cached_property
    def estimates(self) -> BidEstimates:
        """Every estimate, for the one row of counts (index ``[0]`` of each array)."""
        return estimate(self.counts, self.rules)

    @property
    def misdeal_callable(self) -> bool:
        return self.rules.misdeal and is_misdeal_hand(self.hand)

    @property
    def mean_points(self) -> Estimate:
        return self.estimates.points[0]

    @property
    def joint(self) -> np.ndarray:
        """Deals by (the bidding team's points, the other team's points): ``[MAX_K, MAX_K]`` counts."""
        return self.counts[L.CLS_JOINT: L.CLS_JOINT + L.MAX_K * L.MAX_K].reshape(L.MAX_K, L.MAX_K)

    @cached_property
    def game(self) -> BidWins | None:
        """P(win the game) of each bid and the moon at ``score`` (None without an equity table)."""
        if self.equity is None:
            return None
        return self.equity.value_bids(self.joint, self.score)

    def game_at(self, score: tuple[int, int], se: bool = True) -> BidWins:
        """The game view at another score, from the same deals and equity table (``se=False`` skips the
        standard errors, for charts over many scores)."""
        if self.equity is None:
            raise SmearError("this analysis has no equity table: pass equity= or score= to evaluate_hand")
        return self.equity.value_bids(self.joint, score, se=se)

    def bid_rows(self) -> list[dict[str, Any]]:
        e = self.estimates
        game = self.game
        rows: list[dict[str, Any]] = []
        for column, b in enumerate(e.bids):
            make, ev = e.make[0, column], e.ev[0, column]
            rows.append({"bid": b, "make": json_value(make.value, make.se), "make_se": json_se(make.se),
                         "ev": json_value(ev.value, ev.se), "ev_se": json_se(ev.se)})
        if self.rules.moon:
            moon, ev = e.moon[0], e.moon_ev[0]
            rows.append({"bid": "moon", "make": json_value(moon.value, moon.se), "make_se": json_se(moon.se),
                         "ev": json_value(ev.value, ev.se), "ev_se": json_se(ev.se)})
        if game is not None:
            for row, win, se in zip(rows, game.win[0], game.win_se[0], strict=True):
                row |= {"win": json_value(float(win), float(se)), "win_se": json_se(float(se))}
        return rows

    def game_json(self) -> dict[str, Any] | None:
        """The game view's summary: the score, the bid most likely to win, and where the moon breaks even."""
        game = self.game
        if game is None:
            return None
        numeric = [i for i, c in enumerate(game.calls) if c != "moon"]
        best = max(numeric, key=lambda i: (float(game.win[0, i]), -i))
        out: dict[str, Any] = {"score": list(self.score), "dealer": "them", "best_bid": game.calls[best],
                               "equity_hands": self.equity.hands}
        if self.rules.moon:
            break_even, se = (float(x[0]) for x in game.moon_break_even())
            after = game.moon_success_win
            out |= {"moon_success_win": json_value(after.value, after.se), "moon_success_win_se": json_se(after.se),
                    "moon_break_even": json_value(break_even, se), "moon_break_even_se": json_se(se),
                    "moon_pays": bool(game.win[0, -1] > game.win[0, best])}
        return out

    @property
    def recommended_bid(self) -> int:
        """The numeric bid with the highest EV (docs/formats.md); ties go to the lower bid."""
        e = self.estimates
        return max(e.bids, key=lambda b: (float(e.ev.value[0, e.column(b)]), -b))

    @property
    def bid_up_to(self) -> int | None:
        """The highest bid whose EV is not negative; None if none is."""
        return int(self.estimates.bid_up_to[0]) or None

    @property
    def moon_pays(self) -> bool:
        return bool(self.estimates.moon_gain.value[0] > 0)

    def to_json(self) -> dict[str, Any]:
        e = self.estimates
        points = e.points[0]
        dist = e.distribution[0]
        share = e.trump_share[0]
        awards = e.awards[0]
        moon, moon_ev, gain = e.moon[0], e.moon_ev[0], e.moon_gain[0]
        return {
            "hand": [card_name(c) for c in self.hand],
            "samples": self.samples,
            "seed": self.seed,
            "policy": self.policy,
            "rules": self.rules.as_dict(),
            "trump": {
                "fixed": None if self.trump_fixed is None else SUIT_NAMES[self.trump_fixed],
                "chosen": {SUIT_NAMES[t]: json_value(float(share[t]),
                                                     math.sqrt(share[t] * (1 - share[t]) / self.samples))
                           for t in range(4)},
            },
            "points": {
                "mean": json_value(points.value, points.se), "se": json_se(points.se),
                "distribution": [json_value(float(p), float(s)) for p, s in zip(dist.value, dist.se, strict=True)],
                "distribution_se": [json_se(float(s)) for s in dist.se],
            },
            "awards": {name: json_value(float(awards.value[i]), float(awards.se[i]))
                       for i, name in enumerate(self.rules.points)},
            "awards_se": {name: json_se(float(awards.se[i])) for i, name in enumerate(self.rules.points)},
            "bids": self.bid_rows(),
            "recommended_bid": self.recommended_bid,
            "bid_up_to": self.bid_up_to,
            "moon": {
                "success": json_value(moon.value, moon.se), "se": json_se(moon.se),
                "ev": json_value(moon_ev.value, moon_ev.se), "ev_se": json_se(moon_ev.se),
                "gain_over_best_bid": json_value(gain.value, gain.se),
                "pays": self.moon_pays,
            },
            "stopped_by": self.stopped_by,
            "misdeal_callable": self.misdeal_callable,
            "score": list(self.score),
            "game": self.game_json(),
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per bid: make probability and EV (and the game view's win) with their standard errors."""
        import pandas as pd

        return pd.DataFrame(self.bid_rows()).set_index("bid")


@dataclass(frozen=True)
class HandQuery:
    """A hand analysis checked and ready to run: everything :func:`evaluate_hand` validates before it deals.

    Made by :func:`hand_query`; a server validates a request with it before queueing the work.
    """

    cards: tuple[int, ...]
    rules: Rules
    policy: str
    trump: int  # a suit index, or -1: the policy chooses after the kitty
    precision: float | None
    job: Job
    score: tuple[int, int] | None = (0, 0)  # for the game view; None for points only
    equity: EquityTable | None = None  # the table that values the game view; None: made on first need
    equity_hands: int = DEFAULT_HANDS

    def run(self, *, threads: int | None = None, progress: Progress | None = None,
            executor: Executor | None = None, settings: RunSettings | None = None,
            stage: Callable[[str], None] | None = None) -> HandAnalysis:
        """Simulate under ``settings`` (or those ``threads``, ``progress`` and ``executor`` give;
        :mod:`smear_sim.engine.settings`).

        The equity table for the game view is made (once a session for each seed, policy and rules) after the
        hand's deals, outside ``progress``, which belongs to the hand's own deals, but on ``executor``, so that
        an executor sharing the machine (the page's) gives turns and can stop it; ``stage`` hears "equity"
        as that starts.
        """
        precision, rules = self.precision, self.rules

        def precise_enough(counts: np.ndarray) -> bool:
            return float(estimate(counts[0], rules).points.se[0]) < precision

        if settings is None:
            settings = RunSettings(threads, executor, progress=progress)
        result = settings.run(self.job, chunk_size=PRECISION_BATCH if precision is not None else 1 << 16,
                              stop=precise_enough if precision is not None else None)
        equity = self.equity
        if self.score is not None and equity is None:
            equity = shared_equity(self.equity_hands, self.job.seed, rules, self.policy,
                                   min(DEFAULT_FLOOR, *self.score), executor=settings.executor, stage=stage)
        return HandAnalysis(self.cards, result.done, self.job.seed, self.policy, rules,
                            None if self.trump < 0 else self.trump, result.counts.reshape(L.CLS_SIZE),
                            "precision" if result.stopped else "samples", result.seconds, self.score or (0, 0),
                            equity if self.score is not None else None)


def hand_query(
    hand: str | Sequence[int | str],
    *,
    trump: str | int | None = None,
    samples: int | None = None,
    precision: float | None = None,
    seed: int = 1,
    max_samples: int = HAND_MAX_SAMPLES,
    score: tuple[int, int] | str | None = (0, 0),
    equity: EquityTable | None = None,
    equity_hands: int = DEFAULT_HANDS,
    plan: RunPlan,
) -> HandQuery:
    """Check the arguments of :func:`evaluate_hand` (a one-line :class:`SmearError` for the first bad one).
    ``plan`` says who plays and under which rules."""
    cards = parse_hand(hand)
    rules = plan.rules
    policy = plan.one_policy("hand analysis plays")
    if score is not None:
        score = check_scores(parse_score(score), rules)
        check_count("equity_hands", equity_hands)
        if equity is not None and (equity.rules != rules or equity.policy != policy):
            raise SmearError("the equity table was made with other rules or another policy than this analysis")
    trump_index = parse_trump(trump)
    if precision is not None and not (precision > 0 and math.isfinite(precision)):
        raise SmearError(f"--precision must be a positive standard error such as 0.01, got {precision!r}")
    limit = samples if samples is not None else (max_samples if precision is not None else HAND_SAMPLES)
    check_count("samples", limit)
    job = analyze_hands_job(players=plan.players, seed=seed, hands=limit, fixed_hand=mask_of(cards), trump=trump_index,
                            classify=False, label="samples")
    return HandQuery(cards, rules, policy, trump_index, precision, job, score, equity, equity_hands)


def evaluate_hand(
    hand: str | Sequence[int | str],
    *,
    trump: str | int | None = None,
    samples: int | None = None,
    precision: float | None = None,
    seed: int = 1,
    max_samples: int = HAND_MAX_SAMPLES,
    score: tuple[int, int] | str | None = (0, 0),
    equity: EquityTable | None = None,
    equity_hands: int = DEFAULT_HANDS,
    plan: RunPlan,
) -> HandAnalysis:
    """Simulate ``hand`` as bidder; see the module docstring for the conventions.

    With ``precision`` the deals are simulated in batches of 10,000 until the standard error of the mean
    points falls below it (at most ``samples``, default ``max_samples``). Without it, ``samples`` deals
    (default 100,000) are simulated. ``executor`` runs the chunks (:mod:`smear_sim.engine.runner`).

    ``score`` is (your team's score, the other team's) before the hand, for the game view; ``equity`` is the
    match-equity table to value it with (by default one is made from ``equity_hands`` hands with the same
    seed, policy and rules, and kept for the session). ``score=None`` skips the game view. ``plan`` says who
    plays, under which rules, and how the run goes (:class:`smear_sim.analysis.plan.RunPlan`).
    """
    query = hand_query(hand, trump=trump, samples=samples, precision=precision, seed=seed, max_samples=max_samples,
                       score=score, equity=equity, equity_hands=equity_hands, plan=plan)
    return query.run(settings=plan.settings)


SHARED_TABLES = 8  # equity tables kept a session: each at most a few tens of MB (equity.MAX_SPAN bounds them)
_shared: OrderedDict[tuple, EquityTable] = OrderedDict()
_shared_lock = threading.Lock()
_making: dict[tuple, threading.Event] = {}  # the tables being made, set when done (made, or given up)


def shared_equity(hands: int, seed: int, rules: Rules, policy: str, floor: int, *, executor: Executor | None = None,
                  stage: Callable[[str], None] | None = None) -> EquityTable:
    """The equity table for these settings, made once a session: every hand analysed with them reuses it. The
    default settings' table is read from the package instead (:mod:`.shipped_equity`).

    The last ``SHARED_TABLES`` tables used are kept. ``executor`` runs the table's hands (the same hands on any
    executor: the table does not depend on it); ``stage`` hears "equity" when a table is made or awaited. While
    one analysis makes a table, another that needs it waits for that one instead of making it again; an executor
    that shares the machine gives up its turn while it waits (its ``wait_for(event)``, as
    :class:`smear_sim.engine.turns.TurnExecutor` has), and if the maker stops, the waiter makes the table itself.
    """
    key = (hands, seed, rules, policy, floor)
    while True:
        with _shared_lock:
            if key in _shared:
                _shared.move_to_end(key)
                return _shared[key]
            made = _making.get(key)
            if made is None:
                made = _making[key] = threading.Event()
                break
        if stage is not None:
            stage("equity")
        (getattr(executor, "wait_for", None) or threading.Event.wait)(made)
    try:
        table = load_shipped(hands, seed, rules, policy, floor)
        if table is None:
            if stage is not None:
                stage("equity")
            table = match_equity(hands, seed=seed, floor=floor, plan=RunPlan.of(policy, rules, executor=executor))
        with _shared_lock:
            _shared[key] = table
            while len(_shared) > SHARED_TABLES:
                _shared.popitem(last=False)
        return table
    finally:
        with _shared_lock:
            del _making[key]
        made.set()
