"""This checkout against an earlier commit: paired runs, medians and the median ratio of each figure.

    python benchmarks/compare.py --baseline ede2e6e
    python benchmarks/compare.py --baseline ede2e6e --threads 1 --threads 2 --repeats 7 --json
    python benchmarks/compare.py --baseline ede2e6e --new 14c54bb --no-bench     # two commits, neither checked out

REF (``--baseline``, and ``--new`` if given) is any git ref of this repository. Each is exported with ``git archive``
into a temporary folder and installed with ``pip install`` into a virtual environment of its own there, with its own
empty Numba cache (``--keep DIR`` keeps both under DIR and reuses them next time). Without ``--new`` the new side is
this checkout, run as ``python -m smear_sim`` from its root with the interpreter running this script.

Each side runs once untimed first (the kernels compile or load from the cache there), then the two sides take turns
(old-new, then new-old, ...) so that a machine that slows down or speeds up meets both alike. Figures, for each
``--threads`` value:

- ``simulate wall s`` and ``simulate cpu s``: the whole process of ``smear-sim simulate --hands N --seed S --threads T
  --json``, its wall time and its CPU time (user + system, from ``getrusage`` of the child); on a shared machine the
  CPU time of a single-threaded run is the steadier figure;
- ``bench full hands/s``: ``full_hand_per_s`` of ``smear-sim bench --json --threads T --repeats 1`` (``heuristic`` at
  every seat), and ``bench deal-only/s``; ``--no-bench`` leaves them out.

For each figure it prints each side's median and the median of the ratios new/old of the pairs (below 1 is faster for
a time, above 1 for a rate). Both sides' simulate JSON, apart from its ``timing``, must be byte for byte the same
(same seed, same results): the script says so, and exits with status 1 where they differ. Ctrl-C stops the run and
removes the temporary folders.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Figure:
    """One measured quantity: its name, and whether more of it is better (a rate) or less (a time)."""

    name: str
    higher_is_better: bool


@dataclass
class Side:
    """One version of smear-sim: the command that runs it, its environment, and the figures measured so far."""

    label: str
    command: list[str]
    env: dict[str, str]
    cwd: Path
    values: dict[str, list[float]] = field(default_factory=dict)
    bench_search_option: bool = True


def median_ratio(old: list[float], new: list[float]) -> float:
    """The median of new/old over the pairs (old[i], new[i]): a pair measured in turn shares the machine's state."""
    if len(old) != len(new) or not old:
        raise ValueError("ratios need as many old values as new ones, and at least one")
    if any(value <= 0 for value in old):
        raise ValueError("an old value is not positive")
    return statistics.median(n / o for o, n in zip(old, new, strict=True))


def order_of_pair(index: int) -> tuple[str, str]:
    """Which side runs first in pair ``index``: old first, then new first, in turn."""
    return ("old", "new") if index % 2 == 0 else ("new", "old")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", required=True, metavar="REF", help="the old side: a git ref of this repository")
    parser.add_argument("--new", metavar="REF", help="the new side as a git ref (default: this checkout as it is)")
    parser.add_argument("--repeats", type=int, default=5, help="pairs of runs per figure (default 5)")
    parser.add_argument("--threads", type=int, action="append", choices=(1, 2),
                        help="worker threads, repeatable (default: 1 and 2)")
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands of each simulate run (default 1,000,000)")
    parser.add_argument("--bench-hands", type=int, default=300_000,
                        help="hands of each bench run (--hands of smear-sim bench; default 300,000)")
    parser.add_argument("--seed", type=int, default=3, help="simulate's seed (default 3)")
    parser.add_argument("--no-bench", action="store_true", help="time simulate only")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="install the refs under DIR and keep them there (reused while present)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args(argv)
    problem = check_args(args)
    if problem:
        parser.exit(2, f"compare.py: {problem}\n")
    args.threads = sorted(set(args.threads or (1, 2)))
    return args


def check_args(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, in one line, or None."""
    if args.repeats < 1:
        return "--repeats must be at least 1"
    if args.hands < 1000:
        return "--hands must be at least 1000"
    if not args.no_bench and args.bench_hands < 1000:
        return "--bench-hands must be at least 1000 (smear-sim bench's own minimum)"
    if args.seed < 0:
        return "--seed must not be negative"
    for ref in (args.baseline, args.new):
        if ref is not None and (not ref.strip() or ref.startswith("-")):
            return f"not a git ref: {ref!r}"
    return None


def resolve(ref: str) -> str:
    """The commit a ref names, or exit 2 with one line."""
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"compare.py: no commit {ref!r} in {ROOT}")
    return done.stdout.strip()


def install(commit: str, folder: Path, label: str) -> Side:
    """REF's tree exported into ``folder/src`` and installed into ``folder/venv`` (reused if already there)."""
    venv, source = folder / "venv", folder / "src"
    python = venv / "bin" / "python"
    done_marker = folder / "installed"
    if not done_marker.exists():
        shutil.rmtree(folder, ignore_errors=True)
        source.mkdir(parents=True)
        print(f"installing {label} ({commit[:9]}) into {folder}", file=sys.stderr)
        archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", commit], stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", str(source)], stdin=archive.stdout, check=True)
        if archive.wait() != 0:
            raise SystemExit(f"compare.py: git archive {commit} failed")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                               str(source)], capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"compare.py: pip install of {label} failed:\n{done.stderr.strip()[-2000:]}")
        done_marker.write_text(commit)
    env = os.environ | {"NUMBA_CACHE_DIR": str(folder / "numba-cache"),
                        "SMEAR_SIM_CACHE_DIR": str(folder / "smear-cache")}
    # Run from the folder, not the checkout: `python -m` puts the working folder first on sys.path.
    return Side(label, [str(python), "-m", "smear_sim"], env, folder)


def this_checkout() -> Side:
    return Side("new", [sys.executable, "-m", "smear_sim"], dict(os.environ), ROOT)


def run_child(side: Side, args: list[str]) -> tuple[str, float, float]:
    """stdout, wall seconds and CPU seconds (user + system of the child and what it waited for) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([*side.command, *args], env=side.env, cwd=side.cwd, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"compare.py: {side.label}: smear-sim {' '.join(args)} failed ({done.returncode}):\n"
                         f"{done.stderr.strip()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, wall, cpu


def simulate_args(args: argparse.Namespace, threads: int) -> list[str]:
    return ["simulate", "--hands", str(args.hands), "--seed", str(args.seed), "--threads", str(threads), "--json"]


def bench_args(side: Side, args: argparse.Namespace, threads: int) -> list[str]:
    line = ["bench", "--json", "--hands", str(args.bench_hands), "--repeats", "1", "--threads", str(threads)]
    return line + (["--search-hands", "0"] if side.bench_search_option else [])


def results_without_timing(stdout: str) -> str:
    """simulate's JSON with its ``timing`` (which differs from run to run) left out, in its own key order."""
    figures = json.loads(stdout)
    figures.pop("timing", None)
    return json.dumps(figures, indent=2)


def learn_options(side: Side) -> None:
    """An older commit's bench may lack --search-hands (which then has no search players to leave out)."""
    help_text, _, _ = run_child(side, ["bench", "--help"])
    side.bench_search_option = "--search-hands" in help_text


def measure(side: Side, args: argparse.Namespace, threads: int) -> str:
    """One run of each figure on ``side``; returns simulate's results for the identity check."""
    stdout, wall, cpu = run_child(side, simulate_args(args, threads))
    side.values.setdefault(f"simulate wall s, {threads} thread(s)", []).append(wall)
    side.values.setdefault(f"simulate cpu s, {threads} thread(s)", []).append(cpu)
    if not args.no_bench:
        bench, _, _ = run_child(side, bench_args(side, args, threads))
        figures = json.loads(bench)
        side.values.setdefault(f"bench full hands/s, {threads} thread(s)", []).append(figures["full_hand_per_s"])
        side.values.setdefault(f"bench deal-only/s, {threads} thread(s)", []).append(figures["deal_only_per_s"])
    return results_without_timing(stdout)


def summary(old: Side, new: Side) -> list[dict[str, object]]:
    rows = []
    for name, old_values in old.values.items():
        new_values = new.values[name]
        rows.append({"figure": name, "old_median": statistics.median(old_values),
                     "new_median": statistics.median(new_values),
                     "median_ratio": round(median_ratio(old_values, new_values), 4),
                     "higher_is_better": "/s" in name, "pairs": len(old_values),
                     "old": old_values, "new": new_values})
    return rows


def print_table(rows: list[dict[str, object]], old_name: str, new_name: str, identical: bool, args) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{new_name} against {old_name}: medians of {args.repeats} pairs, simulate --hands "
                        f"{args.hands:,} --seed {args.seed}", title_justify="left")
    table.add_column("figure")
    table.add_column("old", justify="right")
    table.add_column("new", justify="right")
    table.add_column("median new/old", justify="right")
    table.add_column("better", justify="left")
    for row in rows:
        rate = row["higher_is_better"]
        fmt = "{:,.0f}" if rate else "{:.2f}"
        ratio = row["median_ratio"]
        better = "new" if (ratio > 1) == rate and ratio != 1 else "old" if ratio != 1 else "-"
        table.add_row(row["figure"], fmt.format(row["old_median"]), fmt.format(row["new_median"]), f"{ratio:.3f}",
                      better)
    console = Console()
    console.print(table)
    console.print("simulate's results (JSON apart from timing): "
                  + ("byte for byte identical" if identical else "[bold red]DIFFERENT[/bold red]"))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    old_commit = resolve(args.baseline)
    new_commit = resolve(args.new) if args.new else None
    scratch = None if args.keep else Path(tempfile.mkdtemp(prefix="smear-compare-"))
    home = args.keep or scratch
    try:
        old = install(old_commit, home / old_commit, "old")
        new = install(new_commit, home / new_commit, "new") if new_commit else this_checkout()
        sides = {"old": old, "new": new}
        for side in sides.values():
            learn_options(side)
        identical = True
        for threads in args.threads:
            print(f"warming up ({threads} thread(s))", file=sys.stderr)
            for side in sides.values():  # compiles or loads the kernels: not timed
                run_child(side, simulate_args(args, threads)[:2] + ["1000", "--threads", str(threads)])
                if not args.no_bench:
                    run_child(side, ["bench", "--json", "--hands", "1000", "--repeats", "1", "--threads",
                                     str(threads)] + (["--search-hands", "0"] if side.bench_search_option else []))
            for pair in range(args.repeats):
                print(f"pair {pair + 1}/{args.repeats} ({threads} thread(s))", file=sys.stderr)
                results = {name: measure(sides[name], args, threads) for name in order_of_pair(pair)}
                identical &= results["old"] == results["new"]
        rows = summary(old, new)
        old_name = f"{args.baseline} ({old_commit[:9]})"
        new_name = f"{args.new} ({new_commit[:9]})" if new_commit else "this checkout"
        if args.json:
            print(json.dumps({"baseline": old_name, "new": new_name, "hands": args.hands, "bench_hands":
                              None if args.no_bench else args.bench_hands, "seed": args.seed,
                              "repeats": args.repeats, "results_identical": identical, "figures": rows}, indent=2))
        else:
            print_table(rows, old_name, new_name, identical, args)
        return 0 if identical else 1
    except KeyboardInterrupt:
        print("compare.py: interrupted", file=sys.stderr)
        return 130
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
