"""Remake the equity bidder's tables shipped in the package (smear_sim/data/), for the default rules and for round points.

The tables come from the self-consistent iteration of smear_sim.analysis.bidder_tables: the seed fixes every number, so
the same command gives the same file (and the same bids). Each step is reported: how many of the bidder's
decisions changed from the step before, until none did. Run it from the repository root after any change to the
players' card play or bidding, or to the rules' defaults:

    python tools/equity_bidder.py                   # both shipped sets, at the shipped sizes (30 min + 1 hour on 2 cores)
    python tools/equity_bidder.py --rule round_points=true            # one of them
    python tools/equity_bidder.py --deals 500000 --out /tmp/small.npz  # the default rules, smaller, elsewhere

With ``--rule KEY=VALUE`` it makes the tables for those rules: into the package when they ship there, else into the
user's cache, where a first use under those rules would (with the shipped sizes, larger than a first use's).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from smear_sim.analysis.bidder_tables import SHIPPED, behaviour, build_bidder_tables
from smear_sim.core.bidder import BidderTables
from smear_sim.core.rules import Rules, load_rules
from smear_sim.engine.bidder_store import SHIPPED_RULES, cache_path, shipped_path
from smear_sim.output.terminal import progress_bar


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=SHIPPED["deals"], help="deals per step (position tables)")
    parser.add_argument("--equity-hands", type=int, default=SHIPPED["equity_hands"], help="hands per equity table")
    parser.add_argument("--class-hands", type=int, default=SHIPPED["class_hands"], help="hands behind the buckets")
    parser.add_argument("--max-iterations", type=int, default=SHIPPED["max_iterations"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--resume", type=Path, default=None, metavar="FILE", help="go on from tables this tool "
                        "made that stopped unconverged at their last step (with the same sizes and a larger "
                        "--max-iterations); the result is what one run with that --max-iterations makes")
    parser.add_argument("--out", type=Path, default=None, help="the file to write, with one set of rules (default: the "
                        "package's file for shipped rules, the user's cache for others, where a first use would put them)")
    args = parser.parse_args()
    every = [load_rules(None, args.rule)] if args.rule or args.out or args.resume else list(SHIPPED_RULES)
    for rules in every:
        make(rules, args)


def make(rules: Rules, args: argparse.Namespace) -> None:
    print(f"equity bidder tables under {rules.summary()}", flush=True)
    started = time.perf_counter()
    tables = build_bidder_tables(rules, deals=args.deals, equity_hands=args.equity_hands,
                                 class_hands=args.class_hands, max_iterations=args.max_iterations, seed=args.seed,
                                 progress=lambda total, description: progress_bar(total, description, sys.stderr.isatty()),
                                 notify=print, resume=BidderTables.load(args.resume) if args.resume else None)
    tables.meta["behaviour"] = behaviour(rules, seed=args.seed)  # what tests hold later code to
    path = tables.save(args.out or shipped_path(rules) or cache_path(rules))
    print(json.dumps({"file": str(path), "bytes": path.stat().st_size, "converged": tables.meta["converged"],
                      "iterations": tables.meta["iterations"], "seconds": round(time.perf_counter() - started)},
                     indent=1))


if __name__ == "__main__":
    main()
