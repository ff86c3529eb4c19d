"""The match-equity table at its default precision: wall time of the whole command and its precision.

    python benchmarks/equity.py [--repeats 5] [--threads 2] [--rule KEY=VALUE ...]

Runs `smear-sim equity --json` once to fill the compile cache, then `--repeats` times, and prints the median
wall time (start-up, simulation and solve), the standard error of P(win) at 0-0 and its largest value over
every state shown, and the truncation bound.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--rule", action="append", default=[])
    args = parser.parse_args()
    command = [sys.executable, "-m", "smear_sim", "equity", "--json", *(f"--rule={r}" for r in args.rule)]
    if args.threads:
        command += ["--threads", str(args.threads)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)  # compile or load the kernels
    times = []
    for _ in range(args.repeats):
        started = time.perf_counter()
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        times.append(time.perf_counter() - started)
    data = json.loads(out)
    at_start = next(s for s in data["states"] if s["us"] == 0 and s["them"] == 0 and s["dealer"] == "them")
    print(json.dumps({
        "median_seconds": round(statistics.median(times), 2),
        "seconds": [round(t, 2) for t in times],
        "hands": data["hands"],
        "win_0_0": at_start["win"],
        "win_se_0_0": at_start["win_se"],
        "win_se_max": max(s["win_se"] for s in data["states"]),
        "truncation_bound": data["truncation_bound"],
        "floor": data["floor"],
        "solve_floor": data["solve_floor"],
    }, indent=2))


if __name__ == "__main__":
    main()
