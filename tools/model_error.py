"""How far the published bid table and what-to-call table are from a stronger player model (run from the repo root).

    python tools/model_error.py [--policy expert:8] [--hands 12000] [--position-deals 1500] [--seed 1] [--rows 20]
                                [--out results/model_error]

Every number of `results/bid_table.md` assumes all four seats play `heuristic`. This plays the same kind of
table with all four seats playing `--policy` (`expert:K` by default: search at every decision), on `--hands`
random deals, and sets the `--rows` most common rows of the published table beside it: P(make) and EV of each
bid, and the bid to go up to. A difference is the strong model's value minus the published one, with the standard
error of the two (the published table's is small beside the strong model's sample; for a P(make) the strong
model's is taken at the published rate, so a few hands all made do not claim an SE of 0). The strong model's bid to go
up to is the highest bid with EV at least 0 on its own sample, however few hands the row got.

The same for what to call (`results/by_position.md`): `--position-deals` deals bid by `--policy` at all four seats,
every call played out at every turn, counted in the published table's strength buckets; for the `--rows` rows
(place, standing call, strength) with the most turns in the published table, each call's P(win the game) at 0-0
and EV, and the call to make, both valued with the shipped match-equity table. 0 skips this part.

Writes `OUT.md` (the tables, for people), `OUT.csv` (every figure of the bid table), `OUT.npz` (the strong model's
class counts, as `smear-sim bid-table` saves them), and for what to call `OUT_calls.csv` and `OUT_calls.npz` (its
position counts, as `smear-sim bid-table --by-position` saves them). `--table FILE.npz` reads a class table made before by
`smear-sim bid-table --policy P --hands N --seed S --out FILE` (or `OUT.npz` of an earlier run) instead of
simulating: it must have been made with `--policy`, `--hands` and `--seed` as given here, so the numbers are the
same; `--position-table FILE.npz` likewise for the position counts. Expect about 12 hands a second for `expert:8`
on two cores, and about one deal a second for the what-to-call part (each turn plays out every call).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import pandas as pd

from smear_sim import class_table, position_table
from smear_sim.analysis.classes import DEFAULT_FEATURES, ClassTable
from smear_sim.analysis.hand import shared_equity
from smear_sim.analysis.hand_outcomes import DEFAULT_HANDS
from smear_sim.analysis.match_equity import EquityTable
from smear_sim.analysis.plan import RunPlan
from smear_sim.analysis.positions import PositionTable
from smear_sim.analysis.scores import DEFAULT_FLOOR
from smear_sim.core.io import atomic_write
from smear_sim.core.stats import Estimate
from smear_sim.output.format import class_words, rules_label

BIDS = (2, 3, 4)


def _progress(total: int, unit: str):
    started = time.perf_counter()
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        rate = done[0] / max(time.perf_counter() - started, 1e-9)
        print(f"\r{done[0]:,} of {total:,} {unit}, {rate:.1f} a second", end="", file=sys.stderr, flush=True)

    return progress


def _check_made(path: str, made: tuple, args: argparse.Namespace, count: str, size: int) -> None:
    if made != (args.policy, size, args.seed):
        sys.exit(f"error: {path} was made with --policy {made[0]} --{count} {made[1]} --seed {made[2]}, not "
                 f"--policy {args.policy} --{count} {size} --seed {args.seed}")


def _strong_table(args: argparse.Namespace, reference: ClassTable) -> ClassTable:
    if args.table:
        table = ClassTable.load(args.table)
        _check_made(args.table, (table.policy, table.hands, table.seed), args, "hands", args.hands)
    else:
        plan = RunPlan.of(args.policy, reference.rules, threads=args.threads, progress=_progress(args.hands, "hands"))
        table = class_table(args.hands, seed=args.seed, plan=plan)
        print(file=sys.stderr)
    table.save(Path(args.out).with_suffix(".npz"))  # beside the page, as a run here leaves it
    return table


def _strong_positions(args: argparse.Namespace, published: PositionTable) -> PositionTable:
    """The what-to-call counts under ``--policy``, in the published table's strength buckets."""
    if args.position_table:
        table = PositionTable.load(args.position_table)
        _check_made(args.position_table, (table.policy, table.deals, table.seed), args, "position-deals",
                    args.position_deals)
    else:
        plan = RunPlan.of(args.policy, published.rules, threads=args.threads,
                          progress=_progress(args.position_deals, "deals"))
        table = position_table(args.position_deals, seed=args.seed, plan=plan,
                               buckets=(published.bucket_of_class, *published.strength))
        print(file=sys.stderr)
    table.save(_calls_path(args.out, ".npz"))
    return table


def _calls_path(out: str | Path, suffix: str) -> Path:
    out = Path(out)
    return out.with_name(out.name + "_calls").with_suffix(suffix)


def _difference(strong: pd.Series, published: pd.Series, column: str) -> Estimate:
    """The stronger model's value minus the published one. For a P(make), the stronger model's SE is taken at the
    published rate (p(1 - p) / n): a handful of hands all made would otherwise claim an SE of 0."""
    se = float(strong[f"{column}_se"])
    if column.startswith("make"):
        p = float(published[column])
        se = math.sqrt(p * (1 - p) / max(int(strong["hands"]), 1))
    return Estimate(float(strong[column]) - float(published[column]), math.hypot(se, float(published[f"{column}_se"])))


def _bid_up_to(row: pd.Series) -> int | None:
    made = [b for b in BIDS if float(row[f"ev{b}"]) >= 0]
    return max(made) if made else None


def compare(reference: ClassTable, strong: ClassTable, rows: int) -> pd.DataFrame:
    """One row per class of the ``rows`` most common in ``reference``: both tables' figures and the differences."""
    features = list(DEFAULT_FEATURES)
    published = reference.frame(features).sort_values("hands", ascending=False, kind="stable").head(rows)
    found = strong.frame(features, min_count=1).set_index(features)
    out = []
    for _, pub in published.iterrows():
        key = tuple(pub[f] for f in features)
        row: dict = {f: pub[f] for f in features} | {"class": class_words(pub, features),
                                                        "hands_published": int(pub["hands"])}
        if key not in found.index:
            out.append(row | {"hands_strong": 0})
            continue
        st = found.loc[key]
        row["hands_strong"] = int(st["hands"])
        for b in BIDS:
            for name in (f"make{b}", f"ev{b}"):
                d = _difference(st, pub, name)
                row |= {f"{name}_published": float(pub[name]), f"{name}_strong": float(st[name]),
                        f"{name}_change": d.value, f"{name}_change_se": d.se}
        row["bid_up_to_published"] = None if pd.isna(pub["bid_up_to"]) else int(pub["bid_up_to"])
        row["bid_up_to_strong"] = _bid_up_to(st)
        out.append(row)
    return pd.DataFrame(out)


ROW_KEYS = ["position", "standing", "strength"]


def compare_calls(published: PositionTable, strong: PositionTable, equity: EquityTable, rows: int) -> pd.DataFrame:
    """One row per place, standing call and strength of the ``rows`` with the most turns in ``published``: each legal
    call's P(win) at 0-0 and EV in both tables, their changes, and the call to make in each (on the strong model's
    own turns, however few)."""
    pub = published.frame(equity, min_count=1).sort_values("decisions", ascending=False, kind="stable").head(rows)
    found = strong.frame(equity, min_count=1).set_index(ROW_KEYS)
    calls = [c[len("win_"):] for c in pub.columns if c.startswith("win_") and not c.startswith("win_se_")
             and c != "win_margin"]
    out = []
    for _, p in pub.iterrows():
        key = tuple(p[k] for k in ROW_KEYS)
        row: dict = {k: p[k] for k in ROW_KEYS} | {"place": p["place"], "strength_to": p["strength_to"],
                                                     "turns_published": int(p["decisions"]), "call_published": p["call"]}
        if key not in found.index:
            out.append(row | {"turns_strong": 0})
            continue
        st = found.loc[key]
        row |= {"turns_strong": int(st["decisions"]), "call_strong": st["call"]}
        for call in calls:
            if pd.isna(p[f"win_{call}"]) or pd.isna(st[f"win_{call}"]):
                continue
            for name in ("win", "ev"):
                d = Estimate(float(st[f"{name}_{call}"]) - float(p[f"{name}_{call}"]),
                             math.hypot(float(st[f"{name}_se_{call}"]), float(p[f"{name}_se_{call}"])))
                row |= {f"{name}_{call}_published": float(p[f"{name}_{call}"]),
                        f"{name}_{call}_strong": float(st[f"{name}_{call}"]),
                        f"{name}_{call}_change": d.value, f"{name}_{call}_change_se": d.se}
        out.append(row)
    return pd.DataFrame(out)


def markdown_calls(table: pd.DataFrame, published: PositionTable, strong: PositionTable, equity: EquityTable,
                   seconds: float | None) -> str:
    covered = table["turns_published"].sum() / published.decisions.sum()
    compared = table[table["turns_strong"] > 0]
    moved = compared[compared["call_published"] != compared["call_strong"]]
    lines = [
        "## What to call under the stronger player",
        "",
        f"The published what-to-call table (`results/by_position.md`: {published.deals:,} deals, seed "
        f"{published.seed}, all four seats `{published.policy}`) against the same table with all four seats playing "
        f"`{strong.policy}` ({strong.deals:,} deals, seed {strong.seed}, in the published table's strength buckets), "
        f"for the {len(table)} rows with the most turns ({covered:.0%} of turns). Both are valued with the shipped "
        f"match-equity table ({equity.hands:,} hands) at 0-0. Made by the same command"
        + ("." if seconds is None else f" ({seconds / 60:.0f} min on two cores)."),
        "",
        "For each row: the call to make (highest P(win)), published → stronger model, and each call's change in "
        "P(win) (percentage points) and EV, the stronger model's minus the published, ± the SE of the two; † marks a "
        "change beyond 2 SE. The stronger model's call is read from its own turns, so rows with few of them are rough.",
        "",
        f"**Summary.** The call to make changes in {len(moved)} of the {len(compared)} rows the stronger model met.",
        "",
        "| place | standing | strength | turns (published / stronger) | call | P(win) change by call | EV change by call |",
        "|---|---|---|---|---|---|---|",
    ]
    for _, r in table.iterrows():
        head = (f"| {r['place']} | {r['standing']} | {r['strength']:.2f}–{r['strength_to']:.2f} | "
                f"{r['turns_published']:,} / {r['turns_strong']:,} |")
        if r["turns_strong"] == 0:
            lines.append(head + f" {r['call_published']} → | | |")
            continue
        calls = [c[len("win_"):-len("_change")] for c in r.index if c.startswith("win_") and c.endswith("_change")
                 and not pd.isna(r[c])]
        wins = "; ".join(f"{c}: {_cell(r[f'win_{c}_change'], r[f'win_{c}_change_se'], percent=True)}" for c in calls)
        evs = "; ".join(f"{c}: {_cell(r[f'ev_{c}_change'], r[f'ev_{c}_change_se'])}" for c in calls)
        lines.append(head + f" {r['call_published']} → {r['call_strong']} | {wins} | {evs} |")
    return "\n".join(lines) + "\n"


def _cell(value: float, se: float, percent: bool = False) -> str:
    scale = 100 if percent else 1
    text = Estimate(scale * value, scale * se).concise()
    return (text if text.startswith("-") else "+" + text) + (" †" if abs(value) > 2 * se else "")


def markdown(table: pd.DataFrame, reference: ClassTable, strong: ClassTable, seconds: float | None, out: Path,
             command: str) -> str:
    covered = table["hands_published"].sum() / reference.hands
    compared = table[table["hands_strong"] > 0]
    moved = compared[compared["bid_up_to_published"] != compared["bid_up_to_strong"]]
    shifts = []
    for b in BIDS:  # the mean change of each bid's P(make), weighted by the rows' hands
        w = compared["hands_published"].astype(float)
        mean = float((w * compared[f"make{b}_change"]).sum() / w.sum())
        se = float(math.sqrt((w ** 2 * compared[f"make{b}_change_se"] ** 2).sum()) / w.sum())
        shifts.append(f"{b}: {_cell(mean, se, percent=True)} pp")
    d = compared[[f"make{b}_change" for b in BIDS]].to_numpy()
    se = compared[[f"make{b}_change_se" for b in BIDS]].to_numpy()
    beyond = int((abs(d) > 2 * se).sum())
    lines = [
        "# The bid table under a stronger player",
        "",
        f"The published bid table (`results/bid_table.md`: {reference.hands:,} deals, seed {reference.seed}, all four "
        f"seats `{reference.policy}`, {rules_label(reference.rules)}) against the same table with all four seats "
        f"playing `{strong.policy}` ({strong.hands:,} deals, seed {strong.seed}), for the {len(table)} most common "
        f"rows ({covered:.0%} of hands). Made by `{command}`"
        + ("." if seconds is None else f" ({seconds / 60:.0f} min on two cores)."),
        "",
        f"The stronger model's class counts are in `{Path(out).with_suffix('.npz').name}`: `--table` with that file "
        "remakes this page without simulating.",
        "",
        "Each change is the stronger model's value minus the published one, ± the standard error of the two; † marks "
        "a change beyond 2 SE. P(make) in percentage points. *Bid up to* is the highest bid with EV ≥ 0, "
        "published → stronger model (on the stronger model's own hands, so rows with few of them are rough).",
        "",
        f"**Summary.** Over these rows (weighted by their hands) the mean change of P(make) is, by bid, "
        f"{'; '.join(shifts)}; {beyond} of the rows' {d.size} changes are beyond 2 SE. The bid to go up to changes in {len(moved)} of {len(compared)} rows. That is the model error of the "
        "heuristic tables: how much their numbers depend on every seat playing like `heuristic`.",
        "",
        "| class | hands (published / stronger) | P(make 2) | P(make 3) | P(make 4) | EV 2 | EV 3 | EV 4 | bid up to |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for _, r in table.iterrows():
        if r["hands_strong"] == 0:
            lines.append(f"| {r['class']} | {r['hands_published']:,} / 0 | | | | | | | |")
            continue
        makes = [_cell(r[f"make{b}_change"], r[f"make{b}_change_se"], percent=True) for b in BIDS]
        evs = [_cell(r[f"ev{b}_change"], r[f"ev{b}_change_se"]) for b in BIDS]

        def bid(v) -> str:
            return "-" if v is None or pd.isna(v) else str(int(v))

        lines.append(f"| {r['class']} | {r['hands_published']:,} / {r['hands_strong']:,} | {' | '.join(makes)} | "
                     f"{' | '.join(evs)} | {bid(r['bid_up_to_published'])} → {bid(r['bid_up_to_strong'])} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", default="expert:8")
    parser.add_argument("--hands", type=int, default=12_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--position-deals", type=int, default=1500)
    parser.add_argument("--reference", default="results/bid_table.npz")
    parser.add_argument("--reference-positions", default="results/by_position.npz")
    parser.add_argument("--table", default=None, help="a class table (.npz) made before with these options")
    parser.add_argument("--position-table", default=None, help="position counts (.npz) made before with these options")
    parser.add_argument("--out", default="results/model_error")
    args = parser.parse_args()
    if not 1 <= args.rows <= 500 or not 1 <= args.hands <= 10**9 or not 0 <= args.position_deals <= 10**8:
        sys.exit("error: --rows must be from 1 to 500, --hands from 1 to 1,000,000,000 and --position-deals from 0 to "
                 "100,000,000")
    reference = ClassTable.load(args.reference)
    strong = _strong_table(args, reference)
    if strong.rules != reference.rules:
        sys.exit("error: the two tables were made under different rules")
    seconds = strong.seconds or None  # a table read from a file says nothing of its time
    table = compare(reference, strong, args.rows)
    out = Path(args.out)
    with atomic_write(out.with_suffix(".csv"), "w") as handle:
        table.to_csv(handle, index=False)
    command = (f"python tools/model_error.py --policy {args.policy} --hands {args.hands} --position-deals "
               f"{args.position_deals} --seed {args.seed} --rows {args.rows}")
    page = markdown(table, reference, strong, seconds, out, command)
    if args.position_deals:
        published = PositionTable.load(args.reference_positions)
        if published.rules != reference.rules:
            sys.exit("error: the published tables were made under different rules")
        strong_positions = _strong_positions(args, published)
        equity = shared_equity(DEFAULT_HANDS, 1, published.rules, "heuristic", DEFAULT_FLOOR)
        calls = compare_calls(published, strong_positions, equity, args.rows)
        with atomic_write(_calls_path(out, ".csv"), "w") as handle:
            calls.to_csv(handle, index=False)
        page += "\n" + markdown_calls(calls, published, strong_positions, equity, strong_positions.seconds or None)
    with atomic_write(out.with_suffix(".md"), "w") as handle:
        handle.write(page)
    print(f"wrote {out.with_suffix('.md')} and its tables", file=sys.stderr)


if __name__ == "__main__":
    main()
