"""Peak memory of `smear-sim simulate` against the number of hands, and of writing a trace of them (run from
the repo root).

    python benchmarks/memory.py [--hands 100000 10000000] [--trace-hands 20000 200000]

Each run is a fresh process; its peak resident set size comes from getrusage. Aggregates are streamed
chunk by chunk, and trace records are written chunk by chunk, so neither peak should grow with the number of
hands.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys


def peak_mib(statement: str) -> float:
    code = f"import resource, smear_sim as ss; {statement}; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return int(out.split()[-1]) / 1024  # Linux reports KiB


def summary(peaks: dict[int, float]) -> dict:
    return {"peak_rss_mib": {str(n): round(p, 1) for n, p in peaks.items()},
            "growth_mib": round(max(peaks.values()) - min(peaks.values()), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[100_000, 10_000_000])
    parser.add_argument("--trace-hands", type=int, nargs="+", default=[20_000, 200_000])
    args = parser.parse_args()
    simulate = {n: peak_mib(f"ss.simulate({n}, seed=1)") for n in args.hands}
    trace = {n: peak_mib("from smear_sim.output.files import write_trace; "
                         f"write_trace('/dev/null', ss.iter_trace_records({n}, seed=1))") for n in args.trace_hands}
    print(json.dumps({"simulate": summary(simulate), "trace": summary(trace)}, indent=2))


if __name__ == "__main__":
    main()
