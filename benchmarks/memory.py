"""Peak memory of `smear-sim simulate` against the number of hands (run from the repo root).

    python benchmarks/memory.py [--hands 100000 10000000]

Each run is a fresh process; its peak resident set size comes from getrusage. Aggregates are streamed
chunk by chunk, so the peak should not grow with the number of hands.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys


def peak_mib(hands: int) -> float:
    code = (
        f"import resource, smear_sim as ss; ss.simulate({hands}, seed=1); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return int(out.split()[-1]) / 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[100_000, 10_000_000])
    hands = parser.parse_args().hands
    peaks = {n: peak_mib(n) for n in hands}
    print(json.dumps({"peak_rss_mib": {str(n): round(p, 1) for n, p in peaks.items()},
                      "growth_mib": round(max(peaks.values()) - min(peaks.values()), 1)}, indent=2))


if __name__ == "__main__":
    main()
