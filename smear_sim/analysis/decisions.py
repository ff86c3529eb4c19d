"""A hint: every legal action of a seat's next decision, valued over the worlds its view allows (docs/decisions.md).

The seat's view (:mod:`smear_sim.reference.view`) decides what is due: a call, trump (the bidder with the kitty),
a keep (a seat choosing its six cards) or a card. Then

1. **worlds** are drawn: deals of the cards the seat has not seen that fit everything it saw, the other seats'
   calls included under the policy modelling them (``inference="policy"``; ``"none"`` leaves the calls out), by
   the one sampler of :mod:`smear_sim.kernels.worlds`;
2. **every action is played out on every world** (paired: the same worlds, the same random stream): the card
   play double dummy by default, or by a player (``playout``);
3. **each action is valued** in points (the seat's team's hand score minus the other team's points, as ``ev``
   elsewhere) and in P(win the game) from ``scores_before``, following each outcome to the score it leaves
   and reading the match-equity table there (:mod:`smear_sim.analysis.match_equity`); for the bidding team,
   also P(make).

A call is valued as ``smear-sim hand --position --auction`` values it (:func:`smear_sim.analysis.auction.
evaluate_auction`): the later seats call by the policy and every hand is played out by it.

The best action is the one of highest P(win). Costs are the best action's values minus another's, from the
pairs world by world, so their standard errors are much smaller than the values'.

**Precision.** ``samples=None`` draws worlds until the decision is settled: every other action is within a paired
standard error of ``TARGET_SE`` (0.05) points of the best, or clearly worse (its cost above ``CLEAR`` paired
standard errors; :meth:`_Tally.settled`), with at least ``MIN_WORLDS`` worlds and at most ``MAX_WORLDS`` (a card),
``MAX_DEAL_WORLDS`` (trump or keep: each world plays the whole hand once per action) or ``MAX_CALL_DEALS`` kept
deals (a call). ``samples`` fixes the number, from 1 to ``SAMPLES_LIMIT``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import layout as L
from ..core.calls import call_name, parse_call
from ..core.cards import SUIT_NAMES, card_name, mask_of, parse_card, parse_cards, parse_suit
from ..core.errors import BadValue, SmearError
from ..core.players import parse_playout, policy_array
from ..core.stats import Estimate, proportion
from ..engine.jobs import card_hint_job, deal_hint_job
from ..engine.runner import check_count
from ..reference import hand as ref
from ..reference.view import CALL, CARD, TRUMP, SeatView, decision_of, legal_actions, parse_view
from .bridge import view_state
from .hand import json_se, json_value, shared_equity
from .hand_outcomes import DEFAULT_HANDS, decode_outcomes, outcome_points
from .match_equity import DEFAULT_FLOOR, EquityTable
from .plan import RunPlan
from .scores import DEALERS, check_scores

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "INFERENCE",
    "KEEP_CANDIDATES",
    "MAX_CALL_DEALS",
    "MAX_DEAL_WORLDS",
    "MAX_WORLDS",
    "MIN_WORLDS",
    "SAMPLES_LIMIT",
    "TARGET_SE",
    "ActionValue",
    "Hint",
    "hint",
    "hint_equity",
]

TARGET_SE = 0.05  # points: the paired standard error between the two best actions that samples=None reaches
MIN_WORLDS = 64
CLEAR = 3.0  # paired standard errors by which an action is clearly worse than the best
# Card decisions. A first lead solves six 24-card positions a world: 512 worlds answer within a second on two
# cores, and the close first leads that reach the cap are then known to a paired SE of about 0.1 point
# (docs/decisions.md, "Precision").
MAX_WORLDS = 512
MAX_DEAL_WORLDS = 600  # trump and keep decisions: each world plays all 24 cards once per action
WORLD_CHUNK = 64  # worlds between two looks at the precision
MIN_CALL_DEALS = 2000
MAX_CALL_DEALS = 100_000
SAMPLES_LIMIT = 1_000_000
KEEP_CANDIDATES = 8  # keeps valued when a seat has more legal ones (docs/decisions.md)
INFERENCE = ("policy", "none")
DOUBLE_DUMMY = "double-dummy"


@dataclass(frozen=True)
class ActionValue:
    """One legal action's values: ``action`` as written in a record (``keep`` the six cards a trump keeps)."""

    action: Any
    points: Estimate
    win: Estimate
    make: Estimate | None = None  # P(make), for the bidding team
    keep: tuple[str, ...] | None = None
    extra: bool = False  # valued because the caller asked (``hint(extra=...)``), not one of the candidates
    samples: int | None = None  # the worlds it was valued on, when fewer than the hint's (left out of the race)

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {"action": self.action}
        if self.keep is not None:
            row["keep"] = list(self.keep)
        if self.extra:
            row["extra"] = True
        if self.samples is not None:
            row["samples"] = self.samples
        for name in ("points", "win", "make"):
            e = getattr(self, name)
            if e is not None:
                row[name] = json_value(e.value, e.se)
                row[f"{name}_se"] = json_se(e.se)
        return row


def _key(action: Any) -> str:
    return json.dumps(sorted(action) if isinstance(action, list | tuple) else action)


@dataclass(frozen=True)
class Hint:
    """Every legal action of ``seat``'s ``decision``, best first (highest P(win)), valued on ``samples`` worlds."""

    seat: int
    decision: str
    samples: int
    seed: int
    actions: tuple[ActionValue, ...]
    costs: tuple[tuple[Estimate, Estimate], ...] = field(repr=False)  # per action: (points, win) best minus it
    inference: str = "policy"
    playout: str = DOUBLE_DUMMY
    fallback: int = 0  # worlds for which none fitting the calls was found (module docstring of kernels.worlds)
    tries: int = 0  # worlds drawn in all
    seconds: float = field(default=0.0, compare=False)

    @property
    def best(self) -> Any:
        return self.actions[0].action

    def cost(self, action: Any, keep: Any = None) -> tuple[Estimate, Estimate]:
        """``(points, win)``: the best action's value minus ``action``'s, paired world by world (never negative in
        expectation: the best has the highest P(win)). For a trump, ``keep`` names the six cards kept with it
        (default: the candidate's own keep); an action or keep not valued is an error (pass it in ``extra``)."""
        if isinstance(action, Mapping):
            action, keep = action.get("suit"), action.get("keep")
        key = _key(action)
        wanted = None if keep is None else _key(list(keep))
        found = [(value, cost) for value, cost in zip(self.actions, self.costs, strict=True)
                 if _key(value.action) == key
                 and (wanted is None or value.keep is not None and _key(list(value.keep)) == wanted)]
        found.sort(key=lambda pair: pair[0].extra)  # a trump's own keep before one asked for besides
        if found:
            return found[0][1]
        raise SmearError(f"{action!r}{'' if keep is None else f' keeping {keep!r}'} was not valued here; the "
                         f"actions valued are {', '.join(_key(a.action) for a in self.actions)}")

    def to_json(self) -> dict[str, Any]:
        """The object of docs/formats.md ("A seat's view"), with the worlds' bookkeeping added."""
        return {
            "seat": self.seat,
            "decision": self.decision,
            "samples": self.samples,
            "seed": self.seed,
            "actions": [a.to_json() for a in self.actions],
            "best": self.best,
            "inference": self.inference,
            "playout": self.playout,
            "worlds": {"fallback": self.fallback, "tries": self.tries},
        }

    def frame(self) -> pd.DataFrame:
        """One row per action, best first: its values and its cost against the best, with standard errors."""
        import pandas as pd

        rows = []
        for a, (points, win) in zip(self.actions, self.costs, strict=True):
            rows.append({"action": a.action if not isinstance(a.action, list) else " ".join(a.action),
                         "keep": " ".join(a.keep) if a.keep else None,
                         "points": a.points.value, "points_se": a.points.se, "win": a.win.value, "win_se": a.win.se,
                         "make": a.make.value if a.make else None, "make_se": a.make.se if a.make else None,
                         "cost_points": points.value, "cost_points_se": points.se,
                         "cost_win": win.value, "cost_win_se": win.se})
        return pd.DataFrame(rows)


# -- entry point ---------------------------------------------------------------------------------------


def hint(
    view: SeatView | Mapping[str, Any],
    *,
    samples: int | None = None,
    seed: int = 1,
    inference: str = "policy",
    playout: str | None = None,
    plan: RunPlan,
    equity: EquityTable | None = None,
    equity_hands: int = DEFAULT_HANDS,
    extra: Sequence[Any] = (),
    max_worlds: int | None = None,
) -> Hint:
    """Value every legal action of ``view``'s decision (module docstring).

    ``plan`` (the policy of all four seats; its progress hears of each chunk of worlds) models the other seats' calls and discards, and plays
    out a call; ``view.rules`` are the rules (a plan's own rules must be the same). ``playout`` None plays the cards
    double dummy, a policy name plays them with that player. ``equity`` values the outcomes in games won (default:
    the session's table of ``equity_hands`` hands, as ``smear-sim hand`` uses). ``extra`` are legal actions to
    value besides the candidates, as a review values the action taken: for a keep, six cards; for trump, a suit
    with its six cards (``{"suit": "H", "keep": [...]}``); a card or a call is always valued already. ``max_worlds``
    lowers the cap of the default precision for a trump, keep or card (where a person waits for the answer).
    """
    if isinstance(view, Mapping):
        view = parse_view(view)
    if not isinstance(view, SeatView):
        raise SmearError("hint() takes a seat's view: a SeatView, or its JSON object (docs/formats.md)")
    if inference not in INFERENCE:
        raise BadValue("inference", f"must be one of {', '.join(INFERENCE)}, got {inference!r}")
    if samples is not None:
        check_count("samples", samples, maximum=SAMPLES_LIMIT)
    if max_worlds is not None:
        check_count("max_worlds", max_worlds, minimum=MIN_WORLDS)
    if plan.rules != view.rules:
        raise SmearError("the plan's rules differ from the view's; give the rules in the view or in the plan")
    plan.one_policy("a hint models")  # one player at every seat, whichever table values the outcomes
    playout_policy = None if playout in (None, DOUBLE_DUMMY) else parse_playout(playout)
    decision = decision_of(view)
    score = check_scores(_team_scores(view), view.rules, "scores_before")
    if equity is None:
        equity = hint_equity(view, seed=seed, plan=plan, equity_hands=equity_hands)
    if decision == CALL:
        _check_extra(view, decision, extra)
        return _call_hint(view, samples, seed, plan, equity, score, inference, playout_policy)
    return _world_hint(view, decision, samples, seed, inference, playout_policy, plan, equity, score,
                       _check_extra(view, decision, extra), max_worlds)


def hint_equity(view: SeatView, *, seed: int, plan: RunPlan, equity_hands: int = DEFAULT_HANDS) -> EquityTable:
    """The equity table that :func:`hint` reads for ``view`` by default: the session's table of ``equity_hands``
    hands of the plan's player, under the view's rules, down to the view's scores. (A caller that runs many hints
    elsewhere makes it here once and passes it as ``equity``.)"""
    check_count("equity_hands", equity_hands)
    score = check_scores(_team_scores(view), view.rules, "scores_before")
    return shared_equity(equity_hands, seed, view.rules, plan.one_policy("a hint models"), min(DEFAULT_FLOOR, *score),
                         executor=plan.settings.executor)


def _check_extra(view: SeatView, decision: str, extra: Sequence[Any]) -> list[tuple[int, tuple[int, ...]]]:
    """The ``extra`` actions as ``(trump, keep)`` pairs (for trump and keep decisions), each checked legal."""
    pairs = []
    legal = legal_actions(view)
    for action in extra:
        if decision in (CALL, CARD):
            if _key(action) not in {_key(a) for a in legal}:
                raise SmearError(f"{action!r} is not a legal {decision} here; the legal ones are "
                                 f"{', '.join(_key(a) for a in legal)}")
            continue
        if decision == TRUMP:
            if isinstance(action, Mapping):
                suit, cards = action.get("suit"), action.get("keep")
            else:
                suit, cards = action
            t = parse_suit(str(suit))
        else:
            t, cards = view.trump, action
        keep = tuple(sorted(parse_cards(list(cards))))
        if keep not in set(ref.legal_keeps(view.held_before_play, t)):
            raise SmearError(f"keeping {' '.join(card_name(c) for c in keep)} with trump {SUIT_NAMES[t]} is not a "
                             "legal keep of this hand")
        pairs.append((t, keep))
    return pairs


def _team_scores(view: SeatView) -> tuple[int, int]:
    us, them = view.scores_before[view.team], view.scores_before[1 - view.team]
    return us, them


def _next_dealer(view: SeatView) -> str:
    return DEALERS[0] if ((view.dealer + 1) & 1) == view.team else DEALERS[1]


# -- calls ---------------------------------------------------------------------------------------------


def _call_hint(view, samples, seed, plan, equity, score, inference, playout) -> Hint:
    """A call, valued by the auction analysis (module docstring); it plays out with the policy."""
    from .auction import evaluate_auction

    if playout is not None:
        raise SmearError("a call is valued with the later calls and the play by the policy: --playout is for "
                         "trump, keep and card decisions")
    if inference != "policy":
        raise SmearError("a call's worlds are the deals the calls before it fit: --inference none is for trump, "
                         "keep and card decisions")
    kwargs = dict(position=view.position, auction=[call_name(parse_call(b)) for b in view.bids], score=score, seed=seed,
                  plan=plan.replace(progress=None), equity=equity)
    n = samples or MIN_CALL_DEALS
    analysis = evaluate_auction(list(view.hand), samples=n, **kwargs)
    while samples is None and analysis.samples < MAX_CALL_DEALS and len(analysis.ranked) > 1:
        _, d_ev = analysis.difference(analysis.ranked[0], analysis.ranked[1])
        if d_ev.se <= TARGET_SE:
            break
        n = min(MAX_CALL_DEALS, max(2 * n, math.ceil(analysis.samples * (d_ev.se / TARGET_SE) ** 2 * 1.1)))
        analysis = evaluate_auction(list(view.hand), samples=n, **kwargs)
    best = analysis.ranked[0]
    actions, costs = [], []
    for call in analysis.ranked:
        e = analysis.estimates[call]
        actions.append(ActionValue(call_name(call), e["ev"], e["win"], e.get("make")))
        if call == best:
            costs.append((Estimate(0.0, 0.0), Estimate(0.0, 0.0)))
        else:
            d_win, d_ev = analysis.difference(best, call)
            costs.append((d_ev, d_win))
    return Hint(view.seat, CALL, analysis.samples, seed, tuple(actions), tuple(costs), inference, analysis.policy, 0,
                analysis.deals, analysis.seconds)


# -- trump, keep and card ------------------------------------------------------------------------------


def _keep_scores(view: SeatView) -> np.ndarray:
    from ..kernels.players import policy_tables

    return policy_tables(view.rules.to_array())[1]


def _policy_keep(cards, t: int, scores: np.ndarray) -> tuple[int, ...]:
    """The six cards the heuristics keep from ``cards`` with trump ``t``: whole classes while they fit (the discard
    rule), then the highest keep scores (the lowest code among equals)."""
    return max(ref.legal_keeps(cards, t), key=lambda keep: (sum(int(scores[t, c]) for c in keep),
                                                             [-c for c in keep]))


def _keep_candidates(view: SeatView, t: int) -> list[tuple[int, ...]]:
    """The keeps to value: every legal keep, or the ``KEEP_CANDIDATES`` of highest keep score (the policy's first)."""
    scores = _keep_scores(view)
    keeps = list(ref.legal_keeps(view.held_before_play, t))
    keeps.sort(key=lambda keep: (-sum(int(scores[t, c]) for c in keep), keep))
    return keeps[:KEEP_CANDIDATES]


def _world_hint(view, decision, samples, seed, inference, playout, plan, equity, score, extra, max_worlds) -> Hint:
    rules = view.rules
    win, flat = equity.outcome_wins(score, _next_dealer(view))
    win_value = np.rint(win * L.WIN_SCALE).astype(np.int64)
    ev_value = outcome_points(rules.target)
    modelling = policy_array(plan.policies)
    players = np.concatenate([modelling, policy_array((playout, playout)) if playout else modelling])
    calls = np.array([parse_call(b) for b in view.bids], dtype=np.int64)
    table = (rules.to_array(), players, plan.bidder_arrays)
    infer = inference == "policy"
    mode = 0 if playout is None else 1
    own9 = mask_of(view.hand)
    before = view.scores_before
    keeps: list[tuple[int, ...]] | None = None
    if decision == CARD:
        actions: list[Any] = legal_actions(view)
        codes = np.array([parse_card(a) for a in actions], dtype=np.int64)
        fixed = dict(state=view_state(view), observer=view.seat, own9=own9, dealer=view.dealer, calls=calls,
                     scores=before, inference=infer, playout=mode)
        build = card_hint_job
    else:
        bidder = view.bidder
        assert bidder is not None
        if decision == TRUMP:
            scores = _keep_scores(view)
            trumps = list(range(4))
            keeps = [_policy_keep(view.held_before_play, t, scores) for t in trumps]
        else:
            assert view.trump is not None
            keeps = _keep_candidates(view, view.trump)
            trumps = [view.trump] * len(keeps)
        candidates = len(keeps)
        for t, keep in extra:
            if (t, keep) not in zip(trumps, keeps, strict=True):
                trumps.append(t)
                keeps.append(keep)
        if decision == TRUMP:
            actions = [SUIT_NAMES[t] for t in trumps]
        else:
            actions = [[card_name(c) for c in keep] for keep in keeps]
        kitty = mask_of(view.kitty) if view.kitty is not None else 0
        fixed = dict(observer=view.seat, own9=own9, kitty=kitty, dealer=view.dealer, calls=calls, scores=before,
                     bidder=bidder, bid=parse_call(view.bid), inference=infer, playout=mode)
        codes = np.array(trumps, dtype=np.int64)
        kept = np.array([mask_of(k) for k in keeps], dtype=np.uint64)
        build = deal_hint_job
    n = len(actions)
    cap = MAX_WORLDS if decision == CARD else MAX_DEAL_WORLDS
    total = samples if samples is not None else min(cap, max_worlds or cap)
    # Chunks of WORLD_CHUNK worlds: the stopping rule looks after each, and a server's turns pass between them.
    chunk = WORLD_CHUNK if samples is None else (plan.settings.chunk_size or WORLD_CHUNK)
    tally = _Tally(n, win_value, ev_value)
    active = list(range(n))
    seconds = 0.0
    while tally.worlds < total:
        # The worlds from the last stage's end, the actions still in the race.
        racing = dict(actions=codes[active]) if decision == CARD else dict(trumps=codes[active], keeps=kept[active])
        job = build(players=table, seed=seed, worlds=total - tally.worlds, **fixed, first=tally.worlds, **racing,
                    win_value=win_value, ev_value=ev_value)
        stage = _Stage(tally, active)
        result = plan.run(job, chunk_size=chunk, stop=None if samples is not None else stage.stop)
        stage.update(result.counts)
        seconds += result.seconds
        if samples is not None or not result.stopped or tally.settled(active):
            break
        active = [a for a in active if a not in tally.dropped(active)]
    return _hint_from_tally(view, decision, seed, actions, keeps, tally, win, flat, equity, ev_value, inference,
                            playout, seconds, n if decision == CARD else candidates)


class _Tally:
    """What a hint's worlds have shown so far: each action's histogram of outcomes over the worlds it met, and for
    each pair of actions their paired differences over the worlds both met. A hint runs in stages, each on the next
    worlds with the actions still in the race (all of them but at the default precision, where an action clearly
    worse than the best drops out); every action meets the first worlds, so two actions always share the first
    ``min`` of their worlds."""

    def __init__(self, n: int, win_value: np.ndarray, ev_value: np.ndarray) -> None:
        self.n = n
        self.win_value = win_value
        self.ev_value = ev_value
        self.met = np.zeros(n, dtype=np.int64)  # worlds each action met
        self.hist = np.zeros((n, L.N_OUTCOMES), dtype=np.int64)
        self.common = np.zeros((n, n), dtype=np.int64)  # worlds both actions met
        # Sums over the common worlds of the differences (row minus column) and of their squares: game values in
        # WIN_SCALE fixed point, then points.
        self.diff = np.zeros((2, n, n), dtype=np.int64)
        self.square = np.zeros((2, n, n), dtype=np.int64)
        self.fallback = 0
        self.tries = 0
        self.worlds = 0  # worlds drawn: the first stage's and every later one's

    def hist_of(self, a: int) -> np.ndarray:
        """Action ``a``'s outcome frequencies."""
        return self.hist[a] / max(int(self.met[a]), 1)

    def paired(self, a: int, b: int, points: bool) -> Estimate:
        """Action ``a``'s mean minus ``b``'s over the worlds both met, in points or in P(win), with the standard error
        of the paired differences."""
        k = 1 if points else 0
        scale = 1 if points else L.WIN_SCALE
        worlds = max(int(self.common[a, b]), 1)
        d = float(self.diff[k, a, b]) / worlds / scale
        mean_sq = float(self.square[k, a, b]) / worlds / scale ** 2
        return Estimate(d, math.sqrt(max(mean_sq - d * d, 0.0) / max(worlds - 1, 1)))

    def best(self, actions: list[int]) -> int:
        """The action of ``actions`` of highest P(win) so far (the first of equals)."""
        wins = [float(self.hist_of(a) @ self.win_value) for a in actions]
        return actions[int(np.argsort(-np.array(wins), kind="stable")[0])]

    def _contenders(self, best: int, actions) -> list[tuple[int, Estimate]]:
        """The actions other than ``best`` that have scored differently from it on some world, with their cost in
        points against it: the others (equivalent cards, say) nothing tells apart from the best."""
        return [(a, self.paired(best, a, True)) for a in actions
                if a != best and (self.square[0, best, a] or self.square[1, best, a])]

    def settled(self, active: list[int]) -> bool:
        """The default stopping rule: every other action still in the race is within a paired standard error of
        ``TARGET_SE`` points of the best, or already clearly worse (its cost above ``CLEAR`` paired standard
        errors), so the next best is known to ``TARGET_SE`` whenever it is close."""
        if self.worlds < MIN_WORLDS:
            return False
        return all(cost.se <= TARGET_SE or cost.value > CLEAR * cost.se
                   for _, cost in self._contenders(self.best(active), active))

    def dropped(self, active: list[int]) -> set[int]:
        """The actions of ``active`` clearly worse than the best (their cost above ``CLEAR`` paired standard errors,
        on at least ``MIN_WORLDS`` worlds), as the stopping rule would pass them over: the hint values them on no
        more worlds."""
        best = self.best(active)
        return {a for a, cost in self._contenders(best, active)
                if self.common[best, a] >= MIN_WORLDS and cost.value > CLEAR * cost.se}


class _Stage:
    """One stage of a :class:`_Tally`: the runner's counts for the actions ``active``, on the worlds after the
    earlier stages'. :meth:`update` replaces what the stage has added so far (the counts are the stage's sums)."""

    def __init__(self, tally: _Tally, active: list[int]) -> None:
        self.tally = tally
        self.active = np.array(active, dtype=np.int64)
        self.counts: np.ndarray | None = None

    def stop(self, counts: np.ndarray) -> bool:
        """The runner's ``stop`` at the default precision: the decision is settled, or an action is clearly worse
        than the best, and the next stage goes on without it."""
        self.update(counts)
        active = list(self.active)
        return self.tally.settled(active) or bool(self.tally.dropped(active))

    def update(self, counts: np.ndarray) -> None:
        if self.counts is not None:
            self._add(self.counts, -1)
        self.counts = counts.copy()
        self._add(self.counts, 1)

    def _add(self, counts: np.ndarray, sign: int) -> None:
        t, ix, m = self.tally, self.active, len(self.active)
        hist = counts[L.HINT_HIST: L.HINT_HIST + m * L.N_OUTCOMES].reshape(m, L.N_OUTCOMES)
        worlds = int(counts[L.HINT_WORLDS])
        t.worlds += sign * worlds
        t.fallback += sign * int(counts[L.HINT_FALLBACK])
        t.tries += sign * int(counts[L.HINT_TRIES])
        t.met[ix] += sign * worlds
        t.hist[ix] += sign * hist
        t.common[np.ix_(ix, ix)] += sign * worlds
        squares = L.HINT_HIST + m * L.N_OUTCOMES
        for k, values in enumerate((t.win_value, t.ev_value)):
            sums = hist @ values
            t.diff[k][np.ix_(ix, ix)] += sign * (sums[:, None] - sums[None, :])
            t.square[k][np.ix_(ix, ix)] += sign * counts[squares + k * m * m: squares + (k + 1) * m * m].reshape(m, m)


def _hint_from_tally(view, decision, seed, actions, keeps, tally, win, flat, equity, ev_value, inference,
                     playout, seconds, candidates) -> Hint:
    n = len(actions)
    fields = decode_outcomes(np.arange(L.N_OUTCOMES))
    made = ((fields["kind"] == 1) & (fields["side"] == 0) & (fields["delta"] > 0)) | (
        (fields["kind"] == 2) & (fields["side"] == 0))
    bidding = view.bidder is not None and (view.bidder & 1) == view.team
    hist = np.array([tally.hist_of(a) for a in range(n)])
    table_var = equity.outcome_variance(hist, flat)  # the table's own error too: one solve for all the actions
    values = []
    for a in range(n):
        p = hist[a]
        worlds = int(tally.met[a])
        dof = max(worlds - 1, 1)
        w = float(p @ win)
        w_var = max(float(p @ win ** 2) - w * w, 0.0) / dof
        w_se = math.sqrt(w_var + float(table_var[a]))
        e = float(p @ ev_value)
        e_se = math.sqrt(max(float(p @ ev_value.astype(float) ** 2) - e * e, 0.0) / dof)
        make = proportion(int(round(float(p @ made) * worlds)), worlds) if bidding else None
        keep = tuple(card_name(c) for c in keeps[a]) if decision == TRUMP and keeps else None
        values.append(ActionValue(actions[a], Estimate(e, e_se), Estimate(w, w_se), make, keep, a >= candidates,
                                  worlds if worlds < tally.worlds else None))
    order = sorted(range(n), key=lambda a: (-values[a].win.value, -values[a].points.value, a))
    best = order[0]
    costs = [(Estimate(0.0, 0.0), Estimate(0.0, 0.0)) if a == best
             else (tally.paired(best, a, True), tally.paired(best, a, False)) for a in order]
    return Hint(view.seat, decision, tally.worlds, seed, tuple(values[a] for a in order), tuple(costs), inference,
                DOUBLE_DUMMY if playout is None else playout, tally.fallback, tally.tries, seconds)
