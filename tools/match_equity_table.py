"""Remake the match-equity table shipped in the package (smear_sim/data/match_equity.npz).

It is the table a hand analysis uses by default (smear_sim.analysis.shipped_equity): the seed fixes every number, so
the same command gives the same file. Run it from the repository root after any change to the players' play or
bidding, or to the rules' defaults (a test says when the shipped file no longer matches the code):

    python tools/match_equity_table.py
"""

from __future__ import annotations

import argparse
import json
import time

from smear_sim import match_equity
from smear_sim.analysis.shipped_equity import SHIPPED_SETTINGS, save_table, shipped_table_path


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    started = time.perf_counter()
    hands, seed, rules, policy, floor = SHIPPED_SETTINGS
    table = match_equity(hands, seed=seed, rules=rules, policy=policy, floor=floor)
    path = save_table(table, shipped_table_path())
    print(json.dumps({"file": str(path), "bytes": path.stat().st_size, "seconds": round(time.perf_counter() - started)},
                     indent=1))


if __name__ == "__main__":
    main()
