"""Fitting the count (:mod:`smear_sim.core.count`) to the simulation, and how well it calls.

**Weights.** Random 9-card hands are dealt (none that could call a misdeal); each hand's target is the points its
class wins on average as an unopposed declarer (the bid table, :class:`smear_sim.analysis.classes.ClassTable`,
with rare classes pooled as :func:`smear_sim.analysis.positions.strength_buckets` pools them). The card kinds
are counted in the hand's class suit, and least squares fits the points to them; the weights are then scaled to
whole numbers (the trump length worth ``unit`` points of the count, the others rounded in proportion).

**What each call needs.** For each place and situation, the hands of the sample stand for the turns the equity
bidder's tables counted in their strength bucket (:mod:`smear_sim.core.bidder`): a hand of bucket b weighs the
turns counted in ``[place, situation, b]`` shared over the sample's hands of that bucket. The count each call
needs is then the step function of the count (never a lower call for a higher count) that either agrees most
often with the equity bidder's call at 0-0 (``objective="agree"``) or loses the least P(win the game) against
the best call of the tables (``objective="win"``), found exactly by dynamic programming over the counts.

:func:`count_accuracy` says how often the count's call is the bidder's and what it costs in P(win);
:func:`count_markdown` renders the count as tables a person can read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.bidder import MIN_COUNT, BidderTables
from ..core.cards import is_joker, rank_of
from ..core.count import KIND_LABELS, KINDS, NEVER, CountRule, count_rule, kind_masks, variant_of
from ..core.rules import Rules, legal_slots
from .classes import ClassTable
from .positions import PLACES, call_slots, class_points, situation_label

__all__ = [
    "CountSample",
    "band_label",
    "call_values",
    "count_accuracy",
    "count_markdown",
    "count_sample",
    "count_view",
    "fit_count",
    "fit_needs",
    "fit_weights",
    "fitted_count",
    "game_scores",
    "r_squared",
    "scores_values",
    "search_weights",
]


@dataclass(frozen=True)
class CountSample:
    """Random hands: their kinds counted in each suit ``[hand, suit, kind]``, their class suit, class and the
    class's points."""

    kinds: np.ndarray  # [hand, 4, len(KINDS)] int64
    class_suit: np.ndarray  # [hand]
    classes: np.ndarray  # [hand]
    points: np.ndarray  # [hand] float64

    def counts(self, weights: tuple[int, ...] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each hand's count under ``weights`` and its best suit (the first of equals)."""
        per_suit = self.kinds @ np.asarray(weights, dtype=np.int64)
        return per_suit.max(axis=1), per_suit.argmax(axis=1)


def count_sample(table: ClassTable, hands: int = 200_000, seed: int = 1) -> CountSample:
    """``hands`` random hands (none that could call a misdeal) with their kinds, class and class points."""
    from ..kernels.classes import class_suit, hand_class  # imports Numba: only once there is work

    rng = np.random.default_rng(seed)
    deck = np.argsort(rng.random((hands, 54)), axis=1)[:, :9]
    plain = np.array([not is_joker(c) and 1 <= rank_of(c) <= 7 for c in range(54)])
    deck = deck[~plain[deck].all(axis=1)]
    masks = (np.uint64(1) << deck.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    kinds = np.zeros((len(masks), 4, len(KINDS)), dtype=np.int64)
    bits = ((masks[:, None] >> np.arange(54, dtype=np.uint64)) & np.uint64(1)).astype(np.int64)  # [hand, card]
    for t in range(4):
        for k, mask in enumerate(kind_masks(t)):
            member = ((int(mask) >> np.arange(54)) & 1).astype(np.int64)
            kinds[:, t, k] = bits @ member
    suits = np.array([class_suit(m) for m in masks], dtype=np.int64)
    classes = np.array([hand_class(m) for m in masks], dtype=np.int64)
    return CountSample(kinds, suits, classes, class_points(table)[classes])


def fit_weights(sample: CountSample, ace: int = 4) -> tuple[tuple[int, ...], np.ndarray, float]:
    """Whole-number weights of :data:`KINDS`, the least-squares weights (points per card) they are scaled from,
    and the R² of the whole-number count (best suit) against the class points. The scale makes the ace of trump
    worth ``ace`` points of the count."""
    x = sample.kinds[np.arange(len(sample.points)), sample.class_suit].astype(np.float64)
    design = np.column_stack([x, np.ones(len(x))])
    coef = np.linalg.lstsq(design, sample.points, rcond=None)[0][:-1]
    scale = ace / max(coef[KINDS.index("ace")], 1e-9)
    weights = tuple(int(w) for w in np.maximum(np.round(coef * scale), 0))
    return weights, coef, r_squared(sample, weights)


def r_squared(sample: CountSample, weights: tuple[int, ...]) -> float:
    """The R² of the count (best suit) under ``weights`` against the class points."""
    r = np.corrcoef(sample.counts(weights)[0], sample.points)[0, 1]
    return float(r * r)


def search_weights(sample: CountSample, tables: BidderTables, start: tuple[int, ...],
                   objective: str = "win", passes: int = 3, largest: int = 8) -> tuple[int, ...]:
    """Whole-number weights near ``start`` (each 0..``largest``) that call best: coordinate steps of one point,
    kept while they lower the P(win) the count's calls cost (``objective="win"``) or raise their agreement with
    the bidder (``"agree"``), the needs refitted at each step."""
    def loss(weights: tuple[int, ...]) -> float:
        turns = _turns(sample, weights, tables, (), [(0, 0)], np.ones(1))
        rule = CountRule(variant_of(tables.rules), tables.rules, weights,
                         fit_needs(sample, weights, tables, objective, turns=turns))
        accuracy = count_accuracy(sample, rule, tables, turns=turns)
        return -accuracy["cost"] if objective == "win" else -accuracy["agree"]

    best, best_loss = tuple(start), loss(tuple(start))
    for _ in range(passes):
        improved = False
        for k in range(len(KINDS)):
            for step in (1, -1):
                trial = list(best)
                trial[k] += step
                if not 0 <= trial[k] <= largest:
                    continue
                value = loss(tuple(trial))
                if value < best_loss - 1e-7:
                    best, best_loss, improved = tuple(trial), value, True
        if not improved:
            break
    return best


def call_values(tables: BidderTables, score: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Each call's P(win the game) at ``score`` (the caller's team first) ``[place, situation, bucket, call slot]``
    from the bidder's tables (NaN where not counted): the kernel's weighing
    (:mod:`smear_sim.kernels.players.equity`)."""
    return scores_values(tables, [score])[0]


def scores_values(tables: BidderTables, scores: list[tuple[int, int]]) -> np.ndarray:
    """:func:`call_values` at each of ``scores``: ``[score, place, situation, bucket, call slot]``."""
    from ..kernels.equity import outcome_states  # imports Numba: only once there is work

    rules = tables.rules
    n_out = tables.counts.shape[-1]
    floor = tables.solve_floor
    states = [outcome_states(rules.target, int(us), int(them), n_out) for us, them in scores]
    end = np.stack([e for e, _, _ in states], axis=1)  # [outcome, score]
    us = np.maximum(np.stack([u for _, u, _ in states], axis=1), floor) - floor
    them = np.maximum(np.stack([t for _, _, t in states], axis=1), floor) - floor
    going = end == 0
    n = tables.counts.sum(axis=-1).astype(np.float64)
    win = np.full((len(scores), *n.shape), np.nan)
    for place in range(tables.counts.shape[0]):
        grid = tables.grid[place % 2]
        value = np.where(going, grid[np.where(going, us, 0), np.where(going, them, 0)], (end > 0).astype(np.float64))
        rows = tables.counts[place].reshape(-1, n_out) @ value  # [cell, score]
        with np.errstate(invalid="ignore", divide="ignore"):
            per = rows.reshape(*n[place].shape, len(scores)) / np.where(n[place] > 0, n[place], np.nan)[..., None]
        win[:, place] = np.moveaxis(per, -1, 0)
    return win


def _best_steps(score: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The call slot of each count value (rows of ``score``, counts in increasing order) that maximises the summed
    score over a non-decreasing step function of legal slots."""
    n_values = score.shape[0]
    slots = np.flatnonzero(legal)
    total = np.full((n_values, len(slots)), -np.inf)
    back = np.zeros((n_values, len(slots)), dtype=np.int64)
    total[0] = score[0, slots]
    for i in range(1, n_values):
        best_before = np.maximum.accumulate(total[i - 1])
        where = np.array([int(np.argmax(total[i - 1, : j + 1])) for j in range(len(slots))])
        total[i] = best_before + score[i, slots]
        back[i] = where
    chosen = np.zeros(n_values, dtype=np.int64)
    j = int(np.argmax(total[-1]))  # the first of equals: the lowest call
    for i in range(n_values - 1, -1, -1):
        chosen[i] = slots[j]
        j = back[i, j]
    return chosen


@dataclass(frozen=True)
class _Turns:
    """What fitting and judging the needs read, by count value: ``share[k, b]`` is the share of strength bucket b's
    hands whose count is ``low + k``; ``agree[band_us, band_them, place, situation, bucket, slot]`` the turns (at the
    scores of each pair of bands, weighed by ``score_weights``) at which the bidder makes each call, and ``win``
    the same turns times each legal call's P(win) (0 where not counted), ``best`` times the best call's and
    ``bidder`` times the bidder's call's."""

    low: int
    share: np.ndarray
    agree: np.ndarray
    win: np.ndarray
    best: np.ndarray
    bidder: np.ndarray


def _turns(sample: CountSample, weights: tuple[int, ...], tables: BidderTables, bands: tuple[int, ...],
           scores: list[tuple[int, int]], score_weights: np.ndarray) -> _Turns:
    from .bidder_tables import decisions

    rules = tables.rules
    counts, _ = sample.counts(weights)
    low = int(counts.min())
    buckets = tables.bucket_of_class[sample.classes]
    n_buckets = tables.decisions.shape[-1]
    share = np.zeros((int(counts.max()) - low + 1, n_buckets))
    np.add.at(share, (counts - low, buckets), 1.0)
    share /= np.maximum(share.sum(axis=0), 1)
    nb = len(bands) + 1
    shape = (nb, nb, *tables.decisions.shape, rules.n_call_slots)
    agree, win, best, bidder = np.zeros(shape), np.zeros(shape), np.zeros(shape[:-1]), np.zeros(shape[:-1])
    n = tables.decisions.astype(np.float64)
    counted = n >= MIN_COUNT
    legal = np.stack([np.stack([legal_slots(rules, p, s) for s in range(n.shape[1])]) for p in range(4)])
    chosen = decisions(tables, scores)
    values = scores_values(tables, scores)
    for i, (us, them) in enumerate(scores):
        bu, bt = (sum(x >= b for b in bands) for x in (us, them))
        target = chosen[i]
        onehot = (target[..., None] == np.arange(shape[-1])) & (target[..., None] >= 0)
        agree[bu, bt] += score_weights[i] * n[..., None] * onehot
        value = np.where(counted[..., None] & legal[:, :, None, :], values[i], np.nan)
        known = np.isfinite(value).any(axis=-1)
        win[bu, bt] += score_weights[i] * n[..., None] * np.nan_to_num(value, nan=0.0)
        best[bu, bt] += score_weights[i] * n * np.where(known, np.nanmax(np.where(known[..., None], value, 0),
                                                                         axis=-1), 0)
        mine = np.take_along_axis(np.nan_to_num(value, nan=0.0), np.maximum(target, 0)[..., None], -1)[..., 0]
        bidder[bu, bt] += score_weights[i] * n * np.where(target >= 0, mine, 0)
    return _Turns(low, share, agree, win, best, bidder)


def game_scores(rules: Rules, lowest: int = -4) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The scores the needs are fitted over, each pair from ``lowest`` to the target less one, equally weighted."""
    scores = [(u, t) for u in range(lowest, rules.target) for t in range(lowest, rules.target)]
    return scores, np.full(len(scores), 1.0 / len(scores))


def fit_needs(sample: CountSample, weights: tuple[int, ...], tables: BidderTables, objective: str = "win",
              bands: tuple[int, ...] = (), scores: list[tuple[int, int]] | None = None,
              score_weights: np.ndarray | None = None, turns: _Turns | None = None) -> np.ndarray:
    """The count each call needs ``[us band, them band, place, situation, call slot]`` (module docstring), fitted
    over ``scores`` (by default 0-0 alone) to the bidder's calls there (``objective="agree"``) or to the P(win)
    of the calls (``"win"``)."""
    rules = tables.rules
    if scores is None:
        scores, score_weights = [(0, 0)], np.ones(1)
    turns = turns or _turns(sample, weights, tables, bands, scores, np.asarray(score_weights))
    nb = len(bands) + 1
    values = turns.low + np.arange(turns.share.shape[0])
    needs = np.full((nb, nb, 4, rules.n_situations, rules.n_call_slots), NEVER, dtype=np.int64)
    source = turns.agree if objective == "agree" else turns.win
    for bu in range(nb):
        for bt in range(nb):
            for place in range(4):
                for situation in range(needs.shape[3]):
                    legal = legal_slots(rules, place, situation)
                    score = turns.share @ source[bu, bt, place, situation]  # [count value, slot]
                    if np.abs(score).sum() <= 0:
                        continue
                    steps = _best_steps(score, legal)
                    for slot in np.flatnonzero(legal):
                        at = np.flatnonzero(steps == slot)
                        if len(at):
                            needs[bu, bt, place, situation, slot] = values[at[0]]
                    needs[bu, bt, place, situation, np.flatnonzero(legal)[0]] = -NEVER  # the lowest needs nothing
            _fill_unmet(needs[bu, bt], rules)
    return needs


def _fill_unmet(needs: np.ndarray, rules: Rules) -> None:
    """Situations never met take the place's needs with no number standing (their legal calls only)."""
    for place in range(4):
        for situation in range(1, needs.shape[1]):
            legal = legal_slots(rules, place, situation)
            if (needs[place, situation] == NEVER).all():
                needs[place, situation] = np.where(legal, needs[place, 0], NEVER)
                needs[place, situation, np.flatnonzero(legal)[0]] = -NEVER


def count_accuracy(sample: CountSample, rule: CountRule, tables: BidderTables,
                   scores: list[tuple[int, int]] | None = None, score_weights: np.ndarray | None = None,
                   turns: _Turns | None = None) -> dict[str, Any]:
    """How often the count's call is the bidder's (``agree``), and the P(win) it costs per turn against the best
    call of the tables (``cost``, negative) and against the bidder's call (``cost_vs_bidder``), each turn weighed by
    how often the tables met it and each score of ``scores`` (by default 0-0 alone) by ``score_weights``;
    ``by_place`` gives the same per place."""
    rules = tables.rules
    if scores is None:
        scores, score_weights = [(0, 0)], np.ones(1)
    turns = turns or _turns(sample, rule.weights, tables, rule.bands, scores, np.asarray(score_weights))
    values = turns.low + np.arange(turns.share.shape[0])
    nb = len(rule.bands) + 1
    totals = np.zeros((4, 5))  # turns known, agreeing, turns valued, cost, cost against the bidder
    for bu in range(nb):
        for bt in range(nb):
            us, them = (rule.bands[b - 1] if b else -NEVER for b in (bu, bt))
            for place in range(4):
                for situation in range(rules.n_situations):
                    agree = turns.agree[bu, bt, place, situation]  # [bucket, slot]
                    if agree.sum() <= 0:
                        continue
                    call = np.array([rule.call(int(k), place, situation, us, them) for k in values])
                    mine = turns.share * agree[:, call].T  # [count, bucket]: turns where the bidder calls as the count
                    totals[place, 0] += turns.share.sum(axis=0) @ agree.sum(axis=1)
                    totals[place, 1] += mine.sum()
                    win = turns.win[bu, bt, place, situation]
                    valued = turns.best[bu, bt, place, situation] != 0
                    weight = turns.share @ (agree.sum(axis=1) * valued)
                    totals[place, 2] += weight.sum()
                    got = (turns.share * win[:, call].T).sum()
                    best = turns.share.sum(axis=0) @ turns.best[bu, bt, place, situation]
                    theirs = turns.share.sum(axis=0) @ turns.bidder[bu, bt, place, situation]
                    totals[place, 3] += got - best
                    totals[place, 4] += got - theirs

    def summary(t: np.ndarray) -> dict[str, float]:
        return {"agree": round(float(t[1] / t[0]), 4), "cost": round(float(t[3] / t[2]), 5),
                "cost_vs_bidder": round(float(t[4] / t[2]), 5)}

    out: dict[str, Any] = summary(totals.sum(axis=0))
    out["by_place"] = {PLACES[p]: summary(totals[p]) for p in range(4)}
    return out


def fit_count(table: ClassTable, tables: BidderTables, *, hands: int = 100_000, seed: int = 1, ace: int = 4,
              objective: str = "win", passes: int = 2, bands: tuple[int, ...] = (10, 15, 18)) -> CountRule:
    """The count for the rules of ``tables``: weights fitted to ``table``'s class points (least squares, scaled so
    that the ace of trump is worth ``ace``, then whole-number steps that call better at 0-0:
    :func:`search_weights`), needs by score band over every score (:func:`game_scores`) by ``objective`` (module
    docstring); its ``meta`` records the fit and its accuracy, measured on a second sample of as many hands."""
    sample = count_sample(table, hands, seed)
    start, coef, _ = fit_weights(sample, ace)
    weights = search_weights(sample, tables, start, objective, passes) if passes else start
    scores, score_weights = game_scores(tables.rules)
    needs = fit_needs(sample, weights, tables, objective, bands, scores, score_weights)
    rule = CountRule(variant_of(tables.rules), tables.rules, weights, needs, bands)
    check = count_sample(table, hands, seed + 1)
    met = tables.decisions.sum(axis=-1) > 0
    meta = {"hands": int(len(sample.points)), "seed": seed, "ace": ace, "objective": objective,
            "points_per_card": {k: round(float(c), 4) for k, c in zip(KINDS, coef, strict=True)},
            "least_squares_weights": list(start), "r2": round(r_squared(check, weights), 4),
            "class_hands": table.hands,
            "accuracy": count_accuracy(check, rule, tables, scores, score_weights),
            "accuracy_0_0": count_accuracy(check, rule, tables),
            "met": {f"{p},{s}": bool(met[p, s]) for p in range(met.shape[0]) for s in range(met.shape[1])}}
    return CountRule(rule.variant, rule.rules, weights, needs, bands, meta)


def band_label(bands: tuple[int, ...], band: int) -> str:
    """``below 12``, ``12-16``, ``17 or more``: the scores of one band."""
    if not bands:
        return "any"
    if band == 0:
        return f"below {bands[0]}"
    if band == len(bands):
        return f"{bands[-1]} or more"
    return f"{bands[band - 1]}–{bands[band] - 1}"


def fitted_count(rules: Rules) -> CountRule | None:
    """The shipped count fitted under exactly ``rules`` (the report and the page show it), else None: a count
    fitted under the defaults says nothing of a game to 11."""
    rule = count_rule(rules)
    return rule if rule is not None and rule.rules == rules else None


def count_view(rule: CountRule, us_bands: Sequence[int] | None = None) -> dict[str, Any]:
    """The count as plain values (the report, the page's ``GET /api/tables``): ``variant``, ``weights`` (each kind
    worth points: ``kind``, ``label``, ``points``), ``bands`` (for each band of your team's score of ``us_bands``,
    all by default: ``us``, the band in words, ``columns``, the other team's bands, and ``rows`` of ``place``,
    ``standing`` and ``cells`` as :func:`count_markdown` writes them; a row that passes everywhere is left out) and
    ``accuracy`` (``all`` scores and ``0-0``, as ``rule.meta`` holds them; null where it holds none)."""
    rules = rule.rules
    slots = call_slots(rules)
    met = rule.meta.get("met") or {}
    nb = len(rule.bands) + 1
    floor = 3 * rule.weight["trump"]  # the best suit holds at least 3 trumps
    rows = [(place, situation) for place in range(4) for situation in range(rule.needs.shape[3])
            if met.get(f"{place},{situation}", situation == 0 or place > 0)]
    bands = []
    for bu in range(nb) if us_bands is None else us_bands:
        table = []
        for place, situation in rows:
            legal = np.flatnonzero(legal_slots(rules, place, situation))
            cells = []
            for bt in range(nb):
                needs = rule.needs[bu, bt, place, situation]
                calls = [f"{slots[s]}: {'any' if needs[s] <= floor else needs[s]}" for s in legal[1:]
                         if needs[s] < NEVER]
                cells.append(", ".join(calls) if calls else "pass" if legal[0] == 0 else f"{slots[legal[0]]}")
            if all(c == "pass" for c in cells):
                continue
            table.append({"place": PLACES[place], "standing": situation_label(situation), "cells": cells})
        bands.append({"us": band_label(rule.bands, bu),
                      "columns": [band_label(rule.bands, bt) for bt in range(nb)], "rows": table})
    return {"variant": rule.variant,
            "weights": [{"kind": k, "label": KIND_LABELS[k], "points": w}
                        for k, w in zip(KINDS, rule.weights, strict=True) if w],
            "bands": bands,
            "accuracy": {"all": rule.meta.get("accuracy"), "0-0": rule.meta.get("accuracy_0_0")}}


def count_markdown(rule: CountRule, us_bands: Sequence[int] | None = None) -> str:
    """The count as Markdown: what each card is worth, then for each band of your team's score (of ``us_bands``, all
    by default) a table of what each call needs by place and standing call (rows) and the other team's score
    (columns). A cell lists each call above the lowest legal one with the count it needs (``3: 12`` is "bid 3 with a
    count of 12 or more"); with less than every listed count, or where a cell says ``pass``, the seat passes (the
    opener bids 2)."""
    view = count_view(rule, us_bands)
    lines = ["| card | points |", "|---|---:|"]
    lines += [f"| {w['label']} | {w['points']} |" for w in view["weights"]]
    for band in view["bands"]:
        lines += ["", f"Your score {band['us']}:" if rule.bands else "What each call needs:", "",
                  "| place | standing | " + " | ".join(f"theirs {c}" for c in band["columns"]) + " |",
                  "|---|---|" + "---|" * len(band["columns"])]
        lines += [f"| {r['place']} | {r['standing']} | " + " | ".join(r["cells"]) + " |" for r in band["rows"]]
    return "\n".join(lines) + "\n"
