"""The heuristic player's strength against random, on duplicate deals (run from the repo root).

    python benchmarks/duplicate.py [--deals 1000000] [--seed 1]

Every deal is played twice with the teams swapped, so the luck of the cards cancels; the standard error
comes from the spread of the paired margins over the deals.
"""

from __future__ import annotations

import argparse
import json

import smear_sim as ss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = ss.duplicate_match("heuristic", "random", deals=args.deals, seed=args.seed)
    print(json.dumps(result.to_json() | {"seconds": round(result.seconds, 2)}, indent=2))


if __name__ == "__main__":
    main()
