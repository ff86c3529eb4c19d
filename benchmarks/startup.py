"""Start-up and compile times of the command line (run from the repo root).

    python benchmarks/startup.py [--repeats 5]
    python benchmarks/startup.py --cold [--report-hands 100000 | --report-hands full] [--smear "smear-sim"]

- default: cold `smear-sim simulate --hands 1000` with an empty, private Numba cache (NUMBA_CACHE_DIR), then
  warm `smear-sim --help`, `smear-sim simulate --hands 100000` and `smear-sim hand ...` (100,000 samples) with
  the compile cache filled, median of ``--repeats`` runs.
- ``--cold``: what a new user meets, one run each, from an empty Numba cache and an empty smear-sim cache: the
  first `smear-sim hand CARDS`, then (with the cache it left) the first seated `hand CARDS --position 3 --auction
  2,pass`; and, from empty caches of its own, `smear-sim report` into a temporary folder (``--report-hands`` hands;
  ``full`` for the command's default, the size of results/): each command's seconds and whether it printed the
  compile notice on stderr.
  ``--smear`` names the command to time (default: this checkout, ``python -m smear_sim``), e.g. an installed
  copy to compare with. pip is not included: time ``pip install .`` apart.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SMEAR = [sys.executable, "-m", "smear_sim"]
HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"


def timed(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def timed_cold(args: list[str], env: dict[str, str]) -> dict[str, object]:
    """One run: its seconds, and whether it said on stderr that it compiles."""
    started = time.perf_counter()
    done = subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return {"seconds": round(time.perf_counter() - started, 1), "notice": "compiling" in done.stderr}


def _empty_caches(folder: str) -> dict[str, str]:
    return os.environ | {"NUMBA_CACHE_DIR": os.path.join(folder, "numba"),
                         "SMEAR_SIM_CACHE_DIR": os.path.join(folder, "smear")}


def cold(smear: list[str], report_hands: str) -> dict[str, object]:
    folder = tempfile.mkdtemp(prefix="smear-startup-")
    report = [*smear, "report", "--out", os.path.join(folder, "report")]
    if report_hands != "full":
        report += ["--hands", report_hands]
    try:
        env = _empty_caches(os.path.join(folder, "hand"))
        hand = timed_cold([*smear, "hand", HAND], env)
        seated = timed_cold([*smear, "hand", HAND, "--position", "3", "--auction", "2,pass"], env)
        made = timed_cold(report, _empty_caches(os.path.join(folder, "report-caches")))  # as on a fresh install
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"command": shlex.join(smear), "first_hand": hand, "first_seated_hand_after": seated,
            "first_report": made, "report_hands": report_hands}


def warm(repeats: int) -> dict[str, object]:
    cache = tempfile.mkdtemp(prefix="smear-numba-cache-")
    env = os.environ | {"NUMBA_CACHE_DIR": cache}
    try:
        cold_simulate = timed([*SMEAR, "simulate", "--hands", "1000"], env)
        cold_analysis = timed([*SMEAR, "hand", HAND, "--samples", "1000"], env)
        commands = {
            "help": [*SMEAR, "--help"],
            "simulate_100k": [*SMEAR, "simulate", "--hands", "100000"],
            "hand_100k": [*SMEAR, "hand", HAND, "--samples", "100000"],
        }
        times = {name: statistics.median(timed(args, env) for _ in range(repeats)) for name, args in commands.items()}
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return {
        "cold_compile_simulate_s": round(cold_simulate, 2),
        "cold_compile_hand_analysis_s": round(cold_analysis, 2),
        **{f"warm_{name}_s": round(seconds, 3) for name, seconds in times.items()},
        "repeats": repeats,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="first runs from empty caches, as a new user meets them")
    parser.add_argument("--report-hands", default="100000", help="hands for the cold report, or 'full'")
    parser.add_argument("--smear", default=None, help="the command to time (default: python -m smear_sim)")
    args = parser.parse_args()
    if args.cold:
        result = cold(shlex.split(args.smear) if args.smear else SMEAR, args.report_hands)
    else:
        result = warm(args.repeats)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
