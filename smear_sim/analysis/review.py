"""The review of played hands and games: every decision graded, each seat and team totalled, and the luck of the deal.

A review is a loop of hints (:func:`smear_sim.analysis.decisions.hint`) over the decisions of a record
(:func:`smear_sim.reference.decisions.decisions_of`), GNU Backgammon's analysis of a match for Smear:

- every decision where the seat had more than one legal action gets the hint from that seat's view (only what it
  could see), the action taken, the best action (the one most likely to win the game), and the **cost**: the best
  action's value minus the taken one's, in points and in P(win the game), paired on the same worlds. A cost is
  never negative: an estimate below 0 (the taken action valued above the one the hint calls best, within noise)
  counts as 0;
- each cost gets a **mark** by its P(win) cost (:data:`MARKS`): doubtful from 0.01, bad from 0.02, very bad from
  0.04 of P(win the game);
- each seat and each team gets its decisions, the total and mean cost, and its errors by mark;
- each deal gets its **luck** for each team (:mod:`smear_sim.analysis.luck`).

Each decision's hint is exactly what ``smear-sim hint`` gives for that seat's view with the same ``--seed`` and
``--samples``: it depends on nothing else (not on the other decisions, the executor or the order they run in), so
a decision can be checked on its own.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import BadValue, RecordError
from ..core.players import parse_playout
from ..core.rules import Rules
from ..core.stats import Estimate, round_to_se
from ..engine.runner import Progress, check_count, thread_count
from ..reference.decisions import DECISION_KINDS, Decision, decisions_of
from ..reference.hand import HandResult, team_of
from ..reference.record import (
    GameRecord,
    HandRecord,
    is_game_record,
    load_records,
    parse_game_record,
    parse_record,
    replay,
    replay_game,
)
from ..reference.view import decision_of
from .decisions import DOUBLE_DUMMY, INFERENCE, hint, hint_equity
from .luck import DealLuck, deal_luck
from .plan import RunPlan
from .scores import DEFAULT_FLOOR, check_scores

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DEFAULT_SAMPLES",
    "MARKS",
    "MAX_REVIEW_DECISIONS",
    "Review",
    "ReviewedDecision",
    "ReviewedHand",
    "Totals",
    "check_kinds",
    "check_options",
    "count_decisions",
    "mark_of",
    "read_hands",
    "review",
]

# The marks, worst first, each with the P(win the game) cost from which it is given (docs/formats.md, "Marks").
MARKS: tuple[tuple[str, float], ...] = (("very bad", 0.04), ("bad", 0.02), ("doubtful", 0.01))
DEFAULT_SAMPLES = 256  # worlds per decision: a hand in about 10 s on two cores (benchmarks/review.py)
MAX_REVIEW_DECISIONS = 10_000  # decisions one review may grade: about 300 hands, hours of work at the default
GRADIENT_READERS = 8  # hints that read one equity table, from which its error is made whole first (_ready_errors)


def mark_of(win_cost: float) -> str | None:
    """The mark of a decision that cost ``win_cost`` of P(win the game): the worst whose threshold it reaches."""
    for name, threshold in MARKS:
        if win_cost >= threshold:
            return name
    return None


@dataclass(frozen=True)
class ReviewedHand:
    """One hand of the input: where it stands (record, deal), the record and its score."""

    record: int
    deal: int
    hand: HandRecord
    result: HandResult


@dataclass(frozen=True)
class ReviewedDecision:
    """One graded decision: the hint at it, the action taken and the best, and the cost of the difference."""

    record: int
    deal: int
    decision: Decision
    best: Any  # written as in a record, like ``decision.taken``
    points: Estimate  # the cost in points (best minus taken, at least 0)
    win: Estimate  # the cost in P(win the game)
    mark: str | None
    samples: int
    hint: Any = field(default=None, repr=False, compare=False)  # the Hint behind it

    @property
    def seat(self) -> int:
        return self.decision.seat

    def to_json(self) -> dict[str, Any]:
        d = self.decision
        points, points_se = round_to_se(self.points.value, self.points.se)
        win, win_se = round_to_se(self.win.value, self.win.se)
        return {"record": self.record, "deal": self.deal, "seat": d.seat, "decision": d.kind, "trick": d.trick,
                "taken": d.taken, "best": self.best,
                "cost": {"points": points, "win": win, "points_se": points_se, "win_se": win_se},
                "mark": self.mark, "legal": d.legal, "samples": self.samples}


@dataclass(frozen=True)
class Totals:
    """The decisions of one seat (or team): how many, their total and mean cost, and the errors by mark."""

    decisions: int
    points: Estimate  # total cost; its SE adds the decisions' as independent
    win: Estimate
    marks: dict[str, int]

    @classmethod
    def of(cls, graded: Sequence[ReviewedDecision]) -> Totals:
        points = sum(g.points.value for g in graded)
        win = sum(g.win.value for g in graded)
        points_se = math.sqrt(sum(g.points.se ** 2 for g in graded))
        win_se = math.sqrt(sum(g.win.se ** 2 for g in graded))
        marks = {name: sum(g.mark == name for g in graded) for name, _ in reversed(MARKS)}
        return cls(len(graded), Estimate(points, points_se), Estimate(win, win_se), marks)

    @property
    def mean_points(self) -> Estimate:
        n = max(self.decisions, 1)
        return Estimate(self.points.value / n, self.points.se / n)

    @property
    def mean_win(self) -> Estimate:
        n = max(self.decisions, 1)
        return Estimate(self.win.value / n, self.win.se / n)

    def to_json(self) -> dict[str, Any]:
        def pair(points: Estimate, win: Estimate) -> dict[str, float]:
            p, p_se = round_to_se(points.value, points.se)
            w, w_se = round_to_se(win.value, win.se)
            return {"points": p, "win": w, "points_se": p_se, "win_se": w_se}

        return {"decisions": self.decisions, "cost": pair(self.points, self.win),
                "mean_cost": pair(self.mean_points, self.mean_win), "errors": dict(self.marks)}


@dataclass(frozen=True)
class Review:
    """The review of every hand of an input (module docstring); :meth:`to_json` is ``smear-sim review --json``."""

    samples: int | None  # worlds per decision as asked (None: each hint's default precision)
    seed: int
    hands: tuple[ReviewedHand, ...]
    decisions: tuple[ReviewedDecision, ...]
    luck: tuple[DealLuck, ...]
    seconds: float = field(default=0.0, compare=False)

    def seat_totals(self) -> list[Totals]:
        return [Totals.of([g for g in self.decisions if g.seat == seat]) for seat in range(4)]

    def team_totals(self) -> list[Totals]:
        return [Totals.of([g for g in self.decisions if team_of(g.seat) == team]) for team in range(2)]

    def luck_totals(self) -> list[tuple[Estimate, Estimate]]:
        """Each team's luck summed over the deals (points, P(win)), the deals' SEs added as independent."""
        totals = []
        for team in range(2):
            points = [d.points[team] for d in self.luck]
            win = [d.win[team] for d in self.luck]
            totals.append((Estimate(sum(e.value for e in points), math.sqrt(sum(e.se ** 2 for e in points))),
                           Estimate(sum(e.value for e in win), math.sqrt(sum(e.se ** 2 for e in win)))))
        return totals

    def to_json(self) -> dict[str, Any]:
        luck_teams = []
        for team, (points, win) in enumerate(self.luck_totals()):
            luck_teams.append({"team": team, **points.to_json("points"), **win.to_json("win")})
        return {
            "samples": self.samples,
            "seed": self.seed,
            "marks": {name: threshold for name, threshold in reversed(MARKS)},
            "decisions": [g.to_json() for g in self.decisions],
            "seats": [{"seat": seat, **t.to_json()} for seat, t in enumerate(self.seat_totals())],
            "teams": [{"team": team, **t.to_json()} for team, t in enumerate(self.team_totals())],
            "luck": {"deals": [d.to_json() for d in self.luck], "teams": luck_teams},
        }

    def frame(self) -> pd.DataFrame:
        """One row per graded decision: record, deal, seat, team, decision, trick, taken, best, the costs with their
        SEs, and the mark."""
        import pandas as pd

        rows = []
        for g in self.decisions:
            d = g.decision
            rows.append({"record": g.record, "deal": g.deal, "seat": d.seat, "team": team_of(d.seat),
                         "decision": d.kind, "trick": d.trick, "taken": _text(d.taken), "best": _text(g.best),
                         "legal": d.legal, "cost_points": g.points.value, "cost_points_se": g.points.se,
                         "cost_win": g.win.value, "cost_win_se": g.win.se, "mark": g.mark})
        frame = pd.DataFrame(rows, columns=["record", "deal", "seat", "team", "decision", "trick", "taken", "best",
                                            "legal", "cost_points", "cost_points_se", "cost_win", "cost_win_se",
                                            "mark"])
        frame.attrs = {"samples": self.samples, "seed": self.seed, "marks": dict(MARKS)}
        return frame

    def luck_frame(self) -> pd.DataFrame:
        """One row per deal and team: the luck in points and in P(win), with SEs."""
        import pandas as pd

        rows = [{"record": d.record, "deal": d.deal, "dealer": d.dealer, "team": team,
                 "points": d.points[team].value, "points_se": d.points[team].se,
                 "win": d.win[team].value, "win_se": d.win[team].se} for d in self.luck for team in range(2)]
        return pd.DataFrame(rows, columns=["record", "deal", "dealer", "team", "points", "points_se", "win", "win_se"])


def _text(action: Any) -> str:
    if isinstance(action, list | tuple):
        return " ".join(str(a) for a in action)
    if isinstance(action, Mapping):
        return " ".join(_text(v) for v in action.values())
    return str(action)


# -- reading the input -----------------------------------------------------------------------------------------


def read_hands(records: Iterable[Any], settings: Mapping[str, Any] | None = None) -> list[ReviewedHand]:
    """Every hand of ``records`` (each a hand record or a game record, as a JSON object or parsed), checked by the
    reference engine and scored, in order. A bad record raises :class:`RecordError` naming the record (its line in
    a JSONL file) and, in a game, the deal."""
    hands: list[ReviewedHand] = []
    records = list(records)
    for number, obj in enumerate(records):
        where = f"record {number + 1}: " if len(records) > 1 else ""
        try:
            if isinstance(obj, ReviewedHand):
                hands.append(obj)
                continue
            if isinstance(obj, HandRecord):
                hands.append(ReviewedHand(number, 0, obj, replay(obj)))
                continue
            if isinstance(obj, GameRecord) or is_game_record(obj):
                game = obj if isinstance(obj, GameRecord) else parse_game_record(obj, settings)
                result = replay_game(game)
                hands += [ReviewedHand(number, deal, hand, outcome)
                          for deal, (hand, outcome) in enumerate(zip(game.deals, result.deals, strict=True))]
                continue
            hand = parse_record(obj, settings)
            hands.append(ReviewedHand(number, 0, hand, replay(hand)))
        except RecordError as exc:
            raise RecordError(f"{where}{exc}") from None
    if not hands:
        raise RecordError("the input holds no record: give a hand record, a game record or a JSONL file of them")
    return hands


def check_options(inference: str, playout: str | None) -> None:
    """The hints' options, checked before any work: ``inference`` one of :data:`~.decisions.INFERENCE`, ``playout``
    None (double dummy) or a player's name."""
    if inference not in INFERENCE:
        raise BadValue("inference", f"must be one of {', '.join(INFERENCE)}, got {inference!r}")
    if playout is not None and playout != DOUBLE_DUMMY:
        parse_playout(playout)


def check_kinds(kinds: Sequence[str] | str | None) -> tuple[str, ...]:
    """The kinds of decision to grade (a list, or comma-separated text), checked; None is all of them."""
    if kinds is None:
        return DECISION_KINDS
    if isinstance(kinds, str):
        kinds = [k.strip() for k in kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in DECISION_KINDS]
    if unknown or not kinds:
        raise BadValue("kinds", f"must name decisions among {', '.join(DECISION_KINDS)}, got "
                                f"{', '.join(map(str, unknown)) or 'none'}")
    return tuple(k for k in DECISION_KINDS if k in kinds)


def count_decisions(hands: Iterable[ReviewedHand], kinds: Sequence[str] | None = None) -> int:
    """The decisions a review of ``hands`` grades: those of ``kinds`` where the seat had more than one legal action."""
    kinds = check_kinds(kinds)
    return sum(d.has_choice and d.kind in kinds for h in hands for d in decisions_of(h.hand))


def _inputs(record: Any) -> list[Any]:
    if isinstance(record, str | Path):
        return load_records(record)
    if isinstance(record, Mapping | HandRecord | GameRecord):
        return [record]
    if isinstance(record, Iterable):
        return list(record)
    raise RecordError(f"review takes a hand record, a game record, a list of them or a file, got "
                      f"{type(record).__name__}")


# -- the review ------------------------------------------------------------------------------------------------


def review(
    record: Any,
    *,
    samples: int | None = DEFAULT_SAMPLES,
    seed: int = 1,
    rules: Rules | Mapping[str, Any] | None = None,
    inference: str = "policy",
    playout: str | None = None,
    luck: bool = True,
    kinds: Sequence[str] | None = None,
    plan: RunPlan,
    progress: Progress | None = None,
) -> Review:
    """Review every decision of ``record``: a hand record, a game record (as JSON objects or parsed), a list of
    them, or a file of one or of JSONL lines (a path; ``-`` is standard input).

    ``samples`` is the worlds of each decision's hint (``DEFAULT_SAMPLES``; None: the hint's default precision,
    slower); ``seed``, ``inference`` and ``playout`` go to every hint as they are
    (:func:`smear_sim.analysis.decisions.hint`), but a call is always valued with the calls inferred and the hand
    played by the policy. ``rules`` are rule options the records leave out (as ``--rule``). ``policy`` is the
    players the hints infer the calls by, and the reference player of the luck (with ``luck`` False the luck is not
    measured). ``kinds`` grades only those kinds of decision (``call``, ``trump``, ``keep``, ``card``; None: all).
    ``plan`` says who plays and how the run goes (threads, executor); ``progress`` hears of each
    decision graded.
    """
    started = time.perf_counter()
    check_options(inference, playout)
    settings = rules.changed() if isinstance(rules, Rules) else dict(rules or {})
    hands = read_hands(_inputs(record), settings)
    if samples is not None:
        check_count("samples", samples)
    kinds = check_kinds(kinds)
    for h in hands:  # each decision is valued from its deal's scores: checked before any work
        check_scores(h.hand.scores_before, h.hand.rules, "scores_before")
    work = [(h, d) for h in hands for d in decisions_of(h.hand) if d.has_choice and d.kind in kinds]
    if len(work) > MAX_REVIEW_DECISIONS:
        raise RecordError(f"the input has {len(work):,} decisions to grade; a review grades at most "
                          f"{MAX_REVIEW_DECISIONS:,}: split the file")
    if progress is not None:
        plan = plan.replace(progress=None)
    plans: dict[Rules, RunPlan] = {}

    def plan_for(rules: Rules) -> RunPlan:
        if rules not in plans:
            plans[rules] = plan if rules == plan.rules else RunPlan.of(plan.policies, rules, settings=plan.settings)
        return plans[rules]

    items = []
    for h, d in work:
        # A call is valued as the auction analysis values it: the calls inferred and the hand played by the policy.
        how: dict[str, Any] = {"samples": samples, "seed": seed, "inference": "policy", "playout": None}
        if d.kind != "call":
            how |= {"inference": inference, "playout": playout}
        how["extra"] = [d.taken] if d.kind == "keep" else []  # a keep outside the hint's candidates is valued too
        items.append((d.view(h.hand), plan_for(h.hand.rules), how))
    tables = [hint_equity(view, seed=seed, plan=run_plan) for view, run_plan, _ in items]  # each hint's, made once
    _ready_errors(tables, thread_count(plan.settings.threads))
    advice: list[Any] = [None] * len(items)
    for index, result in _hints(items, tables, plan):
        advice[index] = result
        if progress is not None:
            progress(1)
    graded = [_graded(h, d, a) for (h, d), a in zip(work, advice, strict=True)]

    lucks: tuple[DealLuck, ...] = ()
    if luck:
        lucks = tuple(_luck(hands, plan_for, seed))
    return Review(samples, seed, tuple(hands), tuple(graded), lucks, time.perf_counter() - started)


def _ready_errors(tables: list[Any], threads: int) -> None:
    """Make whole, on ``threads`` threads, the error of each equity table that ``GRADIENT_READERS`` hints or more
    read (one entry of ``tables`` a hint). Every hint reads its table's error (:meth:`EquityTable.outcome_variance`):
    by transposed solves of its own until the table has solved as many columns as its gradient has, then from the
    gradient. Made whole first, the gradient costs about what 8 hints' transposed solves do, so a table that many
    hints read is cheaper made whole (docs/performance.md)."""
    readers = Counter(map(id, tables))
    for table in {id(t): t for t in tables}.values():
        if readers[id(table)] >= GRADIENT_READERS:
            table.make_gradient(threads)


def _hints(items: list[tuple[Any, RunPlan, dict[str, Any]]], tables: list[Any],
           plan: RunPlan) -> Iterator[tuple[int, Any]]:
    """Each ``(view, plan, how)``'s hint, valued by the equity table of the same place in ``tables``, as
    ``(position, hint)`` in any order.

    On this machine each hint spreads its worlds over the cores. On a cluster a review is many small hints, too
    small to split well, so each one after the first of its kind runs whole on one worker
    (:meth:`smear_sim.engine.runner.Executor.map_calls`); the first runs here with its chunks on the cluster,
    which readies the kernels of its kind on every worker. The tables travel to each worker once, beside the hints
    (a worker would otherwise make each one again). A hint depends only on its view, seed and samples, so where it
    runs changes nothing.
    """
    settings = plan.settings
    if settings.local or len(items) < 2:
        for index, (view, run_plan, how) in enumerate(items):
            yield index, hint(view, plan=run_plan, equity=tables[index], **how)
        return
    spread = []
    kinds_seen = set()
    for index, (view, run_plan, how) in enumerate(items):
        kind = (decision_of(view), view.rules)
        if kind in kinds_seen:
            spread.append(index)
            continue
        kinds_seen.add(kind)
        yield index, hint(view, plan=run_plan, equity=tables[index], **how)
    whole = [(items[i][0], items[i][1].replace(executor=None, progress=None, checkpoint=None), items[i][2],
              id(tables[i])) for i in spread]
    common = {id(tables[i]): tables[i] for i in spread}
    for k, result in settings.executor.map_calls(_whole_hint, whole, common=common):
        yield spread[k], result


def _whole_hint(item: tuple[Any, RunPlan, dict[str, Any], int], threads: int, tables: dict[int, Any]) -> Any:
    """One hint, whole, where an executor runs it (:func:`_hints`), with its equity table from ``tables``."""
    view, plan, how, table = item
    return hint(view, plan=plan.replace(threads=threads), equity=tables[table], **how)


def _graded(h: ReviewedHand, d: Decision, advice: Any) -> ReviewedDecision:
    """The cost of the taken action against the hint's best, clipped at 0 (module docstring)."""
    points, win = advice.cost(d.taken)
    points = Estimate(max(points.value, 0.0), points.se)
    win = Estimate(max(win.value, 0.0), win.se)
    return ReviewedDecision(h.record, h.deal, d, advice.best, points, win, mark_of(win.value),
                            int(getattr(advice, "samples", 0) or 0), advice)


def _luck(hands: Sequence[ReviewedHand], plan_for, seed: int) -> Iterable[DealLuck]:
    from .hand import shared_equity
    from .hand_outcomes import DEFAULT_HANDS

    for h in hands:  # the table each hint of the deal reads (analysis.decisions.hint): the same key, made once
        plan = plan_for(h.hand.rules)
        equity = shared_equity(DEFAULT_HANDS, seed, h.hand.rules, plan.one_policy("the luck's reference player"),
                               min(DEFAULT_FLOOR, *h.hand.scores_before), executor=plan.settings.executor)
        yield deal_luck(h.hand, equity=equity, plan=plan, seed=seed, index=(h.record, h.deal))
