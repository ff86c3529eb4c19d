"""The equity bidder's tables, made by simulation until they agree with the bidder that uses them.

The ``equity`` policy (:mod:`smear_sim.kernels.players.equity`) bids from outcome tables by place, situation,
strength bucket and call (:mod:`smear_sim.analysis.positions`) and from its own match-equity table
(:mod:`smear_sim.analysis.match_equity`). Both depend on how the four seats bid, so :func:`build_bidder_tables` iterates:

0. the tables with every seat bidding like ``heuristic``;
1. the tables with every seat bidding ``equity`` from the tables of the step before; and so on,

until no decision of the bidder changes from one step to the next, or ``max_iterations``. Every step plays the
same deals (the same seed), so a change comes from the bidding, not from the luck of the deal. A decision is the
call of highest P(win) for each place, situation and strength bucket met at least ``MIN_COUNT`` times, at 0-0.
The tables are measured at 0-0, so those decisions are the only ones the next step's tables depend on: when none
changes, the next step would make the very same tables, an exact fixed point.

**Settling.** Plain steps (each cell's best call) can cycle instead of converging. Under round points they did:
217, 247, 119, 185 and 90 decisions changed at steps 1 to 5 (600,000 deals a step). Most of those changes were
cells whose situation stopped or started being met at all (a standing 3 is met only while some seat calls 3),
after a few influential cells had flipped by two to four standard errors. So after :data:`PLAIN_STEPS` plain
steps the iteration settles:

- the cells the bidder decides are those of the last plain step; the others stay with the heuristic;
- a decided cell met fewer than ``MIN_COUNT`` times keeps the counts of the step before (its situation still
  arises at other scores, and the step before is the nearest measure of it), so it stays decided;
- each cell keeps the call it settled on at the step before unless the best call beats it by more than
  ``keep_z`` standard errors, and ``keep_z`` grows by :data:`KEEP_Z_STEP` each step, so that a flip needs an
  ever clearer gain (:mod:`smear_sim.core.bidder`, "Settled calls": the kernel reads the tables by that rule).

Either way a step that changes no decision is an exact fixed point: the bidding at 0-0 is the same at the next
step, so are the counts it measures, and a kept call stays kept under a larger ``keep_z``. The steps before
settling are the plain iteration's, so the default rules' tables, which converged at step 4, are unchanged. Each
step's entry in ``meta["iterations"]`` records its ``keep_z`` and the cells carried over.

**Scores.** The outcome tables and the hand outcomes behind the equity table are measured at 0-0. At other
scores the bidder weighs its calls with the equity table read at the real score, which is exact for its own
decision, but it takes the other seats to answer as they would at 0-0: an approximation, whose error on the
equity table is measured by ``benchmarks/equity_bidder.py`` (whole games from several scores against the table).

:func:`bidder_tables` gives the tables for any rules: shipped in the package for the default rules, else cached,
else made here (:mod:`smear_sim.engine.bidder_store` says where). ``tools/equity_bidder.py`` remakes the shipped
ones, and records in them the digest of what this code makes at a probe size (:func:`behaviour`): a test
holds the code to it, so a change that alters the kernels' behaviour asks for the tables to be remade, while a
change that only reorganises the code does not. This module sits above the analyses it runs; they look the tables
up in :mod:`smear_sim.analysis.session_tables`, which never makes them, so entry points call :func:`bidder_tables` (or :func:`ready_tables`) before the work.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import time
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager
from typing import Any

import numpy as np

from ..core.bidder import MARGIN, MIN_COUNT, BidderTables, no_bidder_arrays
from ..core.errors import SmearError, SmearWarning
from ..core.players import parse_policies, reads_tables
from ..core.rules import Rules
from ..engine.bidder_store import cache_path, code_version
from ..engine.runner import Executor, Progress
from ..engine.settings import RunSettings
from .classes import class_table
from .match_equity import match_equity
from .plan import RunPlan
from .positions import position_table, strength_buckets
from .session_tables import loaded_tables, player_bidder_arrays, remember_tables, tables_ready

__all__ = [
    "FIRST_USE",
    "KEEP_Z_STEP",
    "PLAIN_STEPS",
    "PROBE",
    "SHIPPED",
    "NotConvergedWarning",
    "behaviour",
    "bidder_tables",
    "build_bidder_tables",
    "carry_over",
    "decisions",
    "player_bidder_arrays",
    "ready_tables",
    "settling_z",
    "tables_ready",
]

# Sizes of the tables: shipped for the default rules, and made on first use for other rules (smaller, so that the
# first use takes minutes, not an hour).
SHIPPED = {"deals": 6_000_000, "equity_hands": 1_000_000, "class_hands": 4_000_000, "max_iterations": 14}
FIRST_USE = {"deals": 600_000, "equity_hands": 300_000, "class_hands": 1_000_000, "max_iterations": 8}
PLAIN_STEPS = 4  # steps 1 to 4 take each cell's best call; later steps settle (module docstring)
KEEP_Z_STEP = 2.0  # the standard errors a settled call's rival must gain, added at each settling step
# The probe behind :func:`behaviour`: every stage of the iteration (classes, buckets, the equity table, the position
# tables under heuristic bidding, then under equity bidding from them) at a size that takes seconds.
PROBE = {"deals": 3000, "equity_hands": 5000, "class_hands": 20_000, "max_iterations": 1}


class FirstUseWarning(SmearWarning):
    """The equity bidder's tables are being made for these rules: it takes minutes, once."""


class NotConvergedWarning(SmearWarning):
    """The iteration stopped at its last step with decisions still changing: the tables are not a fixed point."""


def decisions(tables: BidderTables, scores: list[tuple[int, int]] | np.ndarray = ((0, 0),),
              min_count: int = MIN_COUNT) -> np.ndarray:
    """The bidder's call slot ``[score, place, situation, bucket]`` at each of ``scores`` (the caller's team first),
    for the cells met at least ``min_count`` times (-1 for the others), from ``tables``' own counts, equity grid and
    settled calls: the kernel's decision rule (:mod:`smear_sim.kernels.players.equity`)."""
    from ..kernels.equity import outcome_states  # imports Numba: only once there is work

    rules = tables.rules
    scores = np.asarray(scores, dtype=np.int64).reshape(-1, 2)
    n_out = tables.counts.shape[-1]
    floor = tables.solve_floor
    states = [outcome_states(rules.target, int(us), int(them), n_out) for us, them in scores]
    end = np.stack([s[0] for s in states], axis=1)  # [outcome, score]
    us_after = np.maximum(np.stack([s[1] for s in states], axis=1), floor) - floor
    them_after = np.maximum(np.stack([s[2] for s in states], axis=1), floor) - floor
    going_on = end == 0
    n = tables.counts.sum(axis=-1).astype(np.float64)  # [place, situation, bucket, slot]
    z = round(tables.keep_z * 100) * 1e-2 if tables.settled is not None else 0.0  # as the kernel reads it
    best = np.full((len(scores), *tables.decisions.shape), -1, dtype=np.int64)
    for place in range(tables.counts.shape[0]):
        grid = tables.grid[place % 2]  # the opener deals next: the team of places 0 and 2
        value = np.where(going_on, grid[np.where(going_on, us_after, 0), np.where(going_on, them_after, 0)],
                         (end > 0).astype(np.float64))
        counted = n[place] > 0
        rows = tables.counts[place].reshape(-1, n_out)
        per = np.where(counted, n[place], 1)[..., None]
        win = (rows @ value).reshape(*n[place].shape, len(scores)) / per
        win = np.where(counted[..., None], win, -np.inf)  # [situation, bucket, slot, score]
        chosen = np.argmax(win, axis=-2)  # [situation, bucket, score]: the first of equals, as the kernel takes
        if z > 0:  # a settled call stands unless the best beats it by more than z SEs (core.bidder, "Settled calls")
            spread = np.maximum((rows @ value**2).reshape(win.shape) / per - np.where(counted[..., None], win, 0)**2, 0)
            keep = np.broadcast_to(tables.settled[place][..., None], chosen.shape)
            legal = (keep >= 0) & np.take_along_axis(counted, np.maximum(keep, 0), axis=-1)
            at = np.maximum(keep, 0)[..., None, :]
            se = np.sqrt((np.take_along_axis(spread, at, axis=-2)[..., 0, :] +
                          np.take_along_axis(spread, chosen[..., None, :], axis=-2)[..., 0, :]) /
                         np.maximum(tables.decisions[place], 1)[..., None])
            with np.errstate(invalid="ignore"):
                kept = legal & (np.take_along_axis(win, chosen[..., None, :], axis=-2)[..., 0, :] <=
                                np.take_along_axis(win, at, axis=-2)[..., 0, :] + z * se)
            chosen = np.where(kept, keep, chosen)
        enough = tables.decisions[place] >= min_count
        if z > 0:  # settled tables decide in their settled cells only
            enough &= tables.settled[place] >= 0
        enough = enough[..., None]
        best[:, place] = np.moveaxis(np.where(enough, chosen, -1), -1, 0)
    return best


def build_bidder_tables(
    rules: Rules | None = None,
    *,
    deals: int = SHIPPED["deals"],
    equity_hands: int = SHIPPED["equity_hands"],
    class_hands: int = SHIPPED["class_hands"],
    max_iterations: int = SHIPPED["max_iterations"],
    seed: int = 1,
    threads: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, str], ContextManager[Progress | None]] | None = None,
    notify: Callable[[str], None] | None = None,
    resume: BidderTables | None = None,
) -> BidderTables:
    """Make the tables by the iteration of the module docstring; ``meta["iterations"]`` records each step.

    ``resume``: tables an earlier call made with the same arguments that stopped unconverged at its last step; the
    iteration goes on from there up to ``max_iterations``, and gives what one call with that ``max_iterations``
    would have given (every step plays the same deals, and the next step depends only on the last one's tables).

    ``progress(total, description)``, if given, is a context giving a callback for the deals of one step (a
    progress bar); ``notify`` hears a line per step, with the time the steps left may take.
    """
    rules = Rules() if rules is None else rules
    settings = RunSettings(threads, executor)
    started = time.perf_counter()
    if resume is None:
        classes = class_table(class_hands, seed=seed, plan=RunPlan.of("heuristic", rules, settings=settings))
        buckets = strength_buckets(classes)
        policy, bidder_arrays = "heuristic", no_bidder_arrays()
        history: list[dict[str, Any]] = []
        previous = None
        tables = None
    else:  # on from the last step of ``resume``, as if the iteration had not stopped there
        sizes = {"seed": seed, "deals": deals, "equity_hands": equity_hands, "class_hands": class_hands}
        made = {key: resume.meta.get(key) for key in sizes}
        if resume.rules != rules or made != sizes or resume.meta.get("converged") is not False:
            raise SmearError(f"only unconverged tables of the same rules and sizes can be resumed (these: "
                             f"{resume.rules.summary()}, {made}, converged {resume.meta.get('converged')})")
        buckets = (resume.bucket_of_class, *resume.meta["strength"])
        history = [dict(entry) for entry in resume.meta["iterations"]]
        tables = resume
        previous = resume.settled if resume.settled is not None else decisions(resume)[0]
        policy, bidder_arrays = "equity", resume.arrays()
        started -= resume.meta["seconds"]
    for step in range(len(history), max_iterations + 1):
        step_started = time.perf_counter()
        # each step bids from the step before
        plan = RunPlan.of(policy, rules, bidder_arrays=bidder_arrays, settings=settings)
        equity = match_equity(equity_hands, seed=seed, plan=plan)
        with (progress(deals, f"equity bidder tables, step {step}") if progress else contextlib.nullcontext()) as bar:
            positions = position_table(deals, seed=seed, buckets=buckets, plan=plan.replace(progress=bar))
        keep_z = settling_z(step)
        counts, carried = positions.counts, 0
        if keep_z > 0:
            counts, carried = carry_over(counts, tables.counts)
        tables = BidderTables(rules, counts, buckets[0], equity.win_grid, equity.solve_floor,
                              settled=previous if keep_z > 0 else None, keep_z=keep_z)
        chosen = decisions(tables)[0]
        if keep_z > 0:  # the next step bids by the calls settled on now
            tables = dataclasses.replace(tables, settled=chosen)
        entry: dict[str, Any] = {"step": step, "bidding": policy, "decisions": int((chosen >= 0).sum()),
                                 "win_0_0": round(equity.win_value(0, 0, "them"), 5),
                                 "seconds": round(time.perf_counter() - step_started, 1)}
        if keep_z > 0:
            entry |= {"keep_z": keep_z, "carried": carried}
        if previous is not None:
            both = (chosen >= 0) | (previous >= 0)
            entry["changed"] = int((both & (chosen != previous)).sum())
        history.append(entry)
        if notify:
            changed = f", {entry['changed']:,} changed" if "changed" in entry else ""
            settling = f" (settling at {keep_z:g} SE, {carried:,} cells carried over)" if keep_z > 0 else ""
            left = "" if entry.get("changed") == 0 or step == max_iterations else (
                f"; at most {max_iterations - step} more, about {entry['seconds'] * (max_iterations - step) / 60:.0f} "
                "min")
            notify(f"step {step} ({policy} bidding): {entry['decisions']:,} decisions{changed}{settling}, "
                   f"{entry['seconds']:.0f} s{left}")
        if entry.get("changed") == 0:
            break
        previous = chosen
        policy, bidder_arrays = "equity", tables.arrays()
    if history[-1].get("changed") != 0:  # said plainly: the tables are used, but they are not a fixed point
        line = (f"the equity bidder's tables under {rules.summary()} did not converge: step {history[-1]['step']}, the "
                f"last allowed, still changed {history[-1].get('changed', 'all')} decisions; they are used as they are")
        _say(line, NotConvergedWarning, notify)
    meta = {"seed": seed, "deals": deals, "strength": [buckets[1], buckets[2]], "equity_hands": equity_hands,
            "class_hands": class_hands,
            "min_count": MIN_COUNT, "margin": MARGIN, "iterations": history, "converged": history[-1].get("changed") == 0,
            "code_version": code_version(), "seconds": round(time.perf_counter() - started, 1)}
    return dataclasses.replace(tables, meta=meta)


def _say(line: str, warning: type[SmearWarning], notify: Callable[[str], None] | None) -> None:
    """``line`` to ``notify``, or as a warning of class ``warning`` pointing at the caller's caller."""
    if notify is None:
        warnings.warn(line, warning, stacklevel=3)
    else:
        notify(line)


def settling_z(step: int) -> float:
    """The ``keep_z`` of a step: 0 for the plain steps, then :data:`KEEP_Z_STEP` more each step."""
    return KEEP_Z_STEP * max(step - PLAIN_STEPS, 0)


def carry_over(counts: np.ndarray, before: np.ndarray, min_count: int = MIN_COUNT) -> tuple[np.ndarray, int]:
    """``counts`` with each ``[place, situation, bucket]`` cell met fewer than ``min_count`` times replaced by the
    cell of ``before`` where that one was met enough; and how many cells were replaced."""
    met, met_before = counts.sum(axis=-1).max(axis=-1), before.sum(axis=-1).max(axis=-1)
    carry = (met < min_count) & (met_before >= min_count)
    return np.where(carry[..., None, None], before, counts), int(carry.sum())


def behaviour(rules: Rules, seed: int = 1, threads: int | None = None) -> str:
    """A digest of the tables this code makes for ``rules`` at the :data:`PROBE` size: their counts, buckets and
    equity grid (rounded to 1e-9, so that the last bits of a float sum cannot decide it).

    The shipped tables record it (``meta["behaviour"]``). The tables depend on what the kernels do, not on how their
    source reads, so this, not :func:`smear_sim.engine.bidder_store.code_version`, is what says whether the shipped
    tables are still the ones this code would make: the probe runs every stage of the iteration, so a change to the
    bidding, the card play, the scoring or the deal changes its counts.
    """
    probe = build_bidder_tables(rules, seed=seed, threads=threads, **PROBE, notify=lambda line: None)  # one step
    digest = hashlib.sha256()
    for array in (probe.counts, probe.bucket_of_class, np.round(probe.grid, 9)):
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()[:16]


def bidder_tables(
    rules: Rules,
    *,
    progress: Callable[[int, str], ContextManager[Progress | None]] | None = None,
    notify: Callable[[str], None] | None = None,
) -> BidderTables:
    """The tables for ``rules``: shipped or cached, else made now (minutes, once) and cached.

    Made here, they are announced to ``notify`` (by default as a :class:`FirstUseWarning`) with where they will be
    kept, and ``progress`` and ``notify`` follow the steps (:func:`build_bidder_tables`).
    """
    tables = loaded_tables(rules)
    if tables is None:
        steps, deals = FIRST_USE["max_iterations"] + 1, FIRST_USE["deals"]
        line = (f"first use of the equity bidder under {rules.summary()}: making its tables, at most {steps} steps "
                f"of {deals:,} deals (minutes, once); they are cached in {cache_path(rules).parent}")
        _say(line, FirstUseWarning, notify)
        tables = build_bidder_tables(rules, **FIRST_USE, progress=progress, notify=notify)
        tables.save(cache_path(rules))
        remember_tables(tables)
    return tables


def ready_tables(
    policies: str | tuple[str, str],
    rules: Rules,
    *,
    progress: Callable[[int, str], ContextManager[Progress | None]] | None = None,
    notify: Callable[[str], None] | None = None,
) -> None:
    """Make sure the tables the players of ``policies`` read under ``rules`` are at hand (made now if need be):
    what an entry point calls before work that looks them up
    (:func:`smear_sim.analysis.session_tables.player_bidder_arrays`)."""
    if reads_tables(parse_policies(policies)):
        bidder_tables(rules, progress=progress, notify=notify)
