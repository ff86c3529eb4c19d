"""Calibrate the heuristic's bid thresholds (run from the repo root).

    python benchmarks/calibrate_bids.py [--hands 3000] [--samples 2000] [--rule round_points=true]
                                        [--policy heuristic-v1]

Deals random 9-card hands (none that could call a misdeal), values each with the heuristic's hand value
(its best suit), and measures the EV of every numeric bid with `smear-sim hand` (the hand as bidder, the
kitty taken, all seats playing the policy, `heuristic` unless `--policy` says `heuristic-v1`). For each bid b it finds the value at which the mean EV of b,
over hands of about that value (bins of equal counts), turns from negative to non-negative, then fits
threshold(b) = BASE + STEP (b - 2) by least squares. These are BID_BASE and BID_STEP of
smear_sim/kernels/players/heuristic.py.
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np

from smear_sim import evaluate_hand
from smear_sim.core.cards import mask_of
from smear_sim.core.rules import load_rules
from smear_sim.core.tables import MISDEAL_MASK
from smear_sim.kernels.players import heuristic, heuristic_v1


def crossing(values: np.ndarray, ev: np.ndarray, bins: int) -> float:
    """The value where the binned mean EV first turns non-negative (linear between bin centres)."""
    order = np.argsort(values)
    groups = np.array_split(order, bins)
    centres = np.array([values[g].mean() for g in groups])
    means = np.array([ev[g].mean() for g in groups])
    for i in range(1, bins):
        if means[i] >= 0 > means[i - 1]:
            return float(centres[i - 1] + (centres[i] - centres[i - 1]) * -means[i - 1] / (means[i] - means[i - 1]))
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--bins", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", action="append", default=[])
    parser.add_argument("--policy", choices=["heuristic", "heuristic-v1"], default="heuristic")
    args = parser.parse_args()
    rules = load_rules(None, args.rule)
    r = random.Random(args.seed)
    values, evs = [], []
    while len(values) < args.hands:
        hand = r.sample(range(54), 9)
        if mask_of(hand) & ~MISDEAL_MASK == 0:
            continue
        module = heuristic if args.policy == "heuristic" else heuristic_v1
        values.append(module.best_suit(np.uint64(mask_of(hand)), rules.to_array())[1])
        analysis = evaluate_hand(hand, samples=args.samples, seed=args.seed + len(values), rules=rules,
                                 policy=args.policy)
        e = analysis.estimates
        evs.append([float(e.ev.value[0, e.column(b)]) for b in e.bids])
    values_array = np.array(values)
    bids = list(analysis.estimates.bids)
    ev_array = np.array(evs)
    thresholds = {b: crossing(values_array, ev_array[:, i], args.bins) for i, b in enumerate(bids)}
    known = [(b, t) for b, t in thresholds.items() if np.isfinite(t)]
    step, base = np.polyfit([b - 2 for b, _ in known], [t for _, t in known], 1)
    print(json.dumps({"policy": args.policy, "rules": rules.changed(), "hands": args.hands, "samples": args.samples,
                      "thresholds": {b: round(t, 3) for b, t in thresholds.items()},
                      "BID_BASE": round(float(base), 2), "BID_STEP": round(float(step), 2)}, indent=2))


if __name__ == "__main__":
    main()
