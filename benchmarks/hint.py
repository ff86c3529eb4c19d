"""Hint speed at the default precision, warm (run from the repo root).

    python benchmarks/hint.py [--hands 8] [--seed 1] [--threads N]

The views are real: the first hands of `smear-sim simulate` (heuristic players), each cut to a seat's view at
its decisions: the second seat's call, the bidder's trump, the next seat's keep, and the cards at plays 0 (the
first lead), 4, 8, 12 and 16. The session's match-equity table and its gradient are made first, and each
decision's first view is hinted once to load the kernels (none of it timed: a session that hints many times, as
the server does, makes the gradient once; match_equity._table_variance). Then each view is timed at the default
precision (`samples=None`: a paired SE of 0.05 points between the two best actions, capped). Reports, per
decision, the median and largest wall time, the median CPU time of all threads (on a busy machine, CPU time over
the cores is the better guide to an idle machine's wall time), the median worlds used, the slowest view (its
index among the decision's views, its CPU time and worlds), and the load average at the end. The issue's
targets (2 cores): a card hint within 1 s, a call or trump hint within 3 s.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import time

from smear_sim import hint
from smear_sim.analysis.hand import shared_equity
from smear_sim.analysis.hand_outcomes import DEFAULT_HANDS
from smear_sim.analysis.match_equity import DEFAULT_FLOOR
from smear_sim.analysis.plan import RunPlan
from smear_sim.analysis.simulate import trace_records
from smear_sim.reference.record import parse_record, replay_position
from smear_sim.reference.view import view_of

CARD_PLAYS = (0, 4, 8, 12, 16)


def views(hands: int, seed: int) -> dict[str, list]:
    found: dict[str, list] = {"call": [], "trump": [], "keep": [], "card": []}
    for obj in trace_records(4 * hands, seed=seed):
        if "plays" not in obj or len(found["trump"]) >= hands:
            continue
        obj.pop("result")
        record = parse_record(obj)
        position = replay_position(record)
        bidder = position.bidder
        found["call"].append(view_of(record, (record.dealer + 2) % 4, bids=1))
        found["trump"].append(view_of(record, bidder, trump=False))
        found["keep"].append(view_of(record, (bidder + 1) % 4, discards=False))
        for k in CARD_PLAYS:
            seat = replay_position(dataclasses.replace(record, plays=record.plays[:k])).to_play
            found["card"].append(view_of(record, seat, plays=k))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    plan = RunPlan.of("heuristic", threads=args.threads)
    report = {}
    shared_equity(DEFAULT_HANDS, 1, plan.rules, "heuristic", DEFAULT_FLOOR).gradient  # noqa: B018
    for decision, chosen in views(args.hands, args.seed).items():
        hint(chosen[0], plan=plan)  # loads the kernels
        seconds, cpu, worlds = [], [], []
        for view in chosen:
            started, used = time.perf_counter(), time.process_time()
            result = hint(view, plan=plan)
            seconds.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
            worlds.append(result.samples)
        report[decision] = {"views": len(chosen), "median_s": round(statistics.median(seconds), 3),
                            "max_s": round(max(seconds), 3), "median_cpu_s": round(statistics.median(cpu), 3),
                            "median_worlds": statistics.median(worlds),
                            "slowest": {"view": (i := seconds.index(max(seconds))), "cpu_s": round(cpu[i], 3),
                                        "worlds": worlds[i]}}
    report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
