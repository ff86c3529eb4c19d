"""Smear in OpenSpiel: a random playthrough's time through the Python game, and random playthroughs scored by
``smear-sim score``'s engine exactly as the game scored them, under every rule option the game is given.

  python benchmarks/openspiel.py --playthroughs 2000 --check 10000 --json

The playthrough time is the median of ``--repeats`` batches, per hand (``smear_sim``, default rules): chance
outcomes and legal actions drawn uniformly, as OpenSpiel's random-simulation test plays. The check plays
``--check`` hands, spread evenly over the rule sets (the defaults, then each option changed alone), writes each as a
hand record's JSON, scores it with :func:`smear_sim.reference.record.score_record` (the engine behind
``smear-sim score``) and counts the hands whose score differs from the game's (the target: none), plus the first
``--cli`` of them through the ``smear-sim score --json`` command itself. Needs the [openspiel] extra.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyspiel

from smear_sim.openspiel import game as sg
from smear_sim.reference.record import score_record

RULE_SETS = [{}, {"round_points": True}, {"high": "highest"}, {"low": "lowest"}, {"low_to": "taker"},
             {"forced_bid": "dealer"}, {"forced_bid": "none"}, {"moon": False}, {"moon_requires": "in_play"},
             {"trump_anytime": True}, {"misdeal": False}, {"target": 11}, {"min_bid": 1}]


def random_play(game, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--playthroughs", type=int, default=2000, help="hands a timed batch")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--check", type=int, default=10000, help="hands scored by smear-sim score's engine")
    parser.add_argument("--cli", type=int, default=20, help="of them, how many through the command itself")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    game = pyspiel.load_game(sg.HAND_SHORT_NAME)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for _ in range(args.playthroughs):
            random_play(game, rng)
        times.append((time.perf_counter() - start) / args.playthroughs * 1000)
    differ = 0
    checked = 0
    cli_checked = 0
    by_rules = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k, params in enumerate(RULE_SETS):
            g = pyspiel.load_game(sg.HAND_SHORT_NAME, params)
            n = args.check // len(RULE_SETS) + (1 if k < args.check % len(RULE_SETS) else 0)
            bad = 0
            for _ in range(n):
                state = random_play(g, rng)
                record = state.record().to_json()
                if score_record(json.loads(json.dumps(record))).to_json() != state.result.to_json():
                    bad += 1
                if cli_checked < args.cli:
                    path = Path(tmp) / "hand.json"
                    path.write_text(json.dumps(record))
                    out = subprocess.run([sys.executable, "-m", "smear_sim", "score", str(path), "--json"],
                                         capture_output=True, text=True, check=True).stdout
                    if json.loads(out) != state.result.to_json():
                        bad += 1
                    cli_checked += 1
            checked += n
            differ += bad
            by_rules[json.dumps(params)] = {"hands": n, "differ": bad}
    out = {"playthrough_ms_median": statistics.median(times), "playthrough_ms": times,
           "playthroughs_per_batch": args.playthroughs, "checked": checked, "through_cli": cli_checked,
           "differ": differ, "by_rules": by_rules, "seed": args.seed}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"random playthrough: {out['playthrough_ms_median']:.2f} ms (median of {args.repeats} x "
              f"{args.playthroughs}); {checked} hands checked ({cli_checked} through the command), {differ} differ")


if __name__ == "__main__":
    main()
