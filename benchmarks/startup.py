"""Start-up and compile times of the command line, median of repeated runs (run from the repo root).

    python benchmarks/startup.py [--repeats 5]

- cold compile: `smear-sim simulate --hands 1000` with an empty, private Numba cache (NUMBA_CACHE_DIR);
- warm: `smear-sim --help`, `smear-sim simulate --hands 100000` and `smear-sim hand ...` (100,000 samples)
  with the compile cache filled.
"""

from __future__ import annotations

import argparse
import json
import os
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    cache = tempfile.mkdtemp(prefix="smear-numba-cache-")
    env = os.environ | {"NUMBA_CACHE_DIR": cache}
    try:
        cold = timed([*SMEAR, "simulate", "--hands", "1000"], env)
        cold_analysis = timed([*SMEAR, "hand", HAND, "--samples", "1000"], env)
        commands = {
            "help": [*SMEAR, "--help"],
            "simulate_100k": [*SMEAR, "simulate", "--hands", "100000"],
            "hand_100k": [*SMEAR, "hand", HAND, "--samples", "100000"],
        }
        warm = {name: statistics.median(timed(args, env) for _ in range(repeats)) for name, args in commands.items()}
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(json.dumps({
        "cold_compile_simulate_s": round(cold, 2),
        "cold_compile_hand_analysis_s": round(cold_analysis, 2),
        **{f"warm_{name}_s": round(seconds, 3) for name, seconds in warm.items()},
        "repeats": repeats,
    }, indent=2))


if __name__ == "__main__":
    main()
