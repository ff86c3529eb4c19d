"""Fit the count a person adds up at the table and write what ships (``smear_sim/data/count.json``).

For each set of rules with shipped equity-bidder tables (the default rules; round points once its tables ship)
this fits the count's weights to the bid table's class points and what each call needs to the equity bidder's
calls at 0-0 (:mod:`smear_sim.analysis.count`), prints its accuracy and the Markdown table, and writes the file.

    .venv/bin/python tools/count_fit.py                       # both variants where their tables are at hand
    .venv/bin/python tools/count_fit.py --hands 100000 --objective win

The bid tables read are results/bid_table.npz and results/round-points/bid_table.npz (made by ``smear-sim
report``). After the file changes, delete the kernels' Numba caches (the ``count`` player compiles it in).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from smear_sim.analysis.classes import ClassTable
from smear_sim.analysis.count import count_markdown, fit_count
from smear_sim.analysis.session_tables import loaded_tables
from smear_sim.core.count import COUNT_FILE, save_counts
from smear_sim.core.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
BID_TABLES = {"default": (Rules(), ROOT / "results" / "bid_table.npz"),
              "round_points": (Rules(round_points=True), ROOT / "results" / "round-points" / "bid_table.npz")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=100_000, help="random hands to fit on (default 100000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ace", type=int, default=4, help="the count of the ace of trump the scale starts from")
    parser.add_argument("--objective", choices=("win", "agree"), default="win",
                        help="fit the needs to lose the least P(win) (win) or to agree most with the bidder")
    parser.add_argument("--passes", type=int, default=2, help="passes of whole-number weight steps (0: none)")
    parser.add_argument("--bands", default="10,15,18", help="the lowest score of each score band after the first")
    parser.add_argument("--out", type=Path, default=ROOT / "smear_sim" / "data" / COUNT_FILE)
    args = parser.parse_args()
    fitted = {}
    for name, (rules, path) in BID_TABLES.items():
        tables = loaded_tables(rules)
        if tables is None or not path.exists():
            print(f"{name}: no shipped equity-bidder tables or bid table yet; skipped")
            continue
        bands = tuple(int(b) for b in args.bands.split(",") if b.strip())
        rule = fit_count(ClassTable.load(path), tables, hands=args.hands, seed=args.seed, ace=args.ace,
                         objective=args.objective, passes=args.passes, bands=bands)
        fitted[name] = rule
        meta = {k: v for k, v in rule.meta.items() if k != "met"}
        print(f"== {name}: weights {dict(zip(rule.weight, rule.weights, strict=True))}")
        print(json.dumps(meta, indent=1))
        print(count_markdown(rule))
    if fitted:
        save_counts(fitted, args.out)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
