"""What each of `expert`'s parts is worth on its own, in duplicate games against `pimc:K` (run from the repo root).

    python tools/expert_parts.py [--k 16] [--games 400] [--seed 5] [--threads N] [--out results/expert_parts.md]

`expert:K` is `pimc:K` with four parts added: its calls (the equity tables), worlds that read the auction
(inference), trump and keep by search, and card play valued by P(win the game). With all four left out
(`expert:K:no-calls:no-inference:no-keep:no-game`) it plays card for card as `pimc:K`. So `expert:K` with only one
part kept, set against `pimc:K` on the same deals with the teams swapped, measures that part alone: each match
is `--games` game pairs from 0-0 (`smear_sim.analysis.match.duplicate_games`, as `smear-sim match` plays them),
all on the same `--seed`, so the same deal sequences. The last match is the whole `expert:K`.

Writes `--out` (markdown: each match's game-win rate and points margin a hand, each with its standard error, its
hands and time). Expect about 12 hands a second on two cores for each match; 400 game pairs are about 6,000 hands.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from smear_sim import duplicate_games
from smear_sim.analysis.match import GamesResult
from smear_sim.core import layout as L
from smear_sim.core.errors import SmearError
from smear_sim.core.io import atomic_write
from smear_sim.core.players import EXPERT_PARTS, parse_policy
from smear_sim.core.rules import Rules
from smear_sim.core.stats import Estimate
from smear_sim.output.format import rules_label

CHUNK = 32  # game pairs a kernel call: progress every half minute or so (the result does not depend on it)
WHAT = {"calls": "calls by the equity tables", "inference": "worlds that read the auction",
        "keep": "trump and keep by search", "game": "cards valued by P(win the game)"}


def variants(k: int) -> list[tuple[str, str]]:
    """``(player, what it adds to pimc:K)``: expert:K with one part kept, for each part, then the whole expert:K."""
    rows = []
    for part in EXPERT_PARTS:
        left_out = ":".join(f"no-{other}" for other in EXPERT_PARTS if other != part)
        rows.append((f"expert:{k}:{left_out}", WHAT[part]))
    rows.append((f"expert:{k}", "all four"))
    return rows


def _progress(player: str, total: int):
    started = time.perf_counter()
    done = [0]

    def progress(n: int) -> None:
        done[0] += n
        print(f"\r{player}: {done[0]:,} of {total:,} game pairs, {time.perf_counter() - started:.0f} s", end="",
              file=sys.stderr, flush=True)
    return progress


def _cell(estimate: Estimate, percent: bool = False) -> str:
    if percent:
        return f"{100 * estimate.value:.1f} ± {100 * estimate.se:.1f}%"
    return f"{estimate.value:+.3f} ± {estimate.se:.3f}"


def markdown(results: list[tuple[str, str, GamesResult]], k: int, command: str) -> str:
    first = results[0][2]
    lines = [f"# What each of `expert`'s parts is worth against `pimc:{k}`", "",
             f"Duplicate games from 0-0 against `pimc:{k}`, {first.games:,} game pairs a match (each game's deals "
             f"played twice, the teams swapped), seed {first.seed}, {rules_label(first.rules)}. `expert:{k}` with "
             f"only one part kept plays as `pimc:{k}` plus that part, so each row but the last is that part's worth "
             "on its own; the last row is the whole player. A win rate is the player's share of the games, a margin "
             "its points won minus `pimc`'s, a hand; each ± is one standard error over the game pairs.", "",
             f"Made by `{command}`.", "",
             "| player | adds to pimc | game-win rate | points margin a hand | hands | seconds |",
             "|---|---|---|---|---|---|"]
    for player, what, result in results:
        lines.append(f"| `{player}` | {what} | {_cell(result.win_rate, True)} | {_cell(result.points_margin)} | "
                     f"{int(result.counts[L.DUP_HANDS]):,} | {result.seconds:,.0f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, default=16, help="worlds a decision, for expert and pimc alike")
    parser.add_argument("--games", type=int, default=400, help="game pairs a match")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", default="results/expert_parts.md")
    args = parser.parse_args()
    if not 1 <= args.games <= 1_000_000:
        sys.exit("error: --games must be from 1 to 1,000,000")
    try:
        parse_policy(f"expert:{args.k}")  # the players' own bound on K
    except SmearError as error:
        sys.exit(f"error: --k: {error}")
    results = []
    for player, what in variants(args.k):
        result = duplicate_games(player, f"pimc:{args.k}", games=args.games, seed=args.seed, rules=Rules(),
                                 threads=args.threads, chunk_size=CHUNK, progress=_progress(player, args.games))
        print(f"\r{player}: game-win rate {_cell(result.win_rate, True)}, points margin "
              f"{_cell(result.points_margin)} a hand, {result.seconds:.0f} s", file=sys.stderr)
        results.append((player, what, result))
    command = f"python tools/expert_parts.py --k {args.k} --games {args.games} --seed {args.seed}"
    out = Path(args.out)
    with atomic_write(out, "w") as handle:
        handle.write(markdown(results, args.k, command))
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
