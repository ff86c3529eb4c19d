"""Make the learned player's training data (issue 47, part 2; docs/learned.md), run from the repo root.

    python tools/make_net_data.py OUT_DIR [--hands 10000] [--worlds 16] [--policy heuristic] [--seed 1]
                                  [--hands-per-chunk 500] [--rule KEY=VALUE ...] [--love] [--threads N]

Plays ``--hands`` hands with ``--policy`` at the table (one player for all four seats, or team 0's and team 1's
separated by a comma) and records, at every decision after the auction, the seat's view tensor and the value the
search gives each action over ``--worlds`` worlds (P(win the game) and points): the card head's and the keep head's
data. Writes ``OUT_DIR/chunk-NNNNNN.npz`` (``smear_sim.analysis.net_data`` says what they hold) and ``run.json``.
Deterministic by seed, whatever the threads. Stop it with Ctrl-C and run the same command again to resume: the
chunks written stay, and only the missing ones are made.

Example (about 15 s on two cores after the first compile, which takes two minutes):

    python tools/make_net_data.py runs/net/heuristic --hands 200 --worlds 16 --threads 2
"""

from __future__ import annotations

import argparse
import signal
import sys
import time

from smear_sim.analysis.net_data import DEFAULT_HANDS_PER_CHUNK, make_net_data
from smear_sim.core.errors import OutputError, SmearError, message
from smear_sim.core.rules import Rules


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python tools/make_net_data.py", description=__doc__.split("\n\n")[0],
        epilog="example: python tools/make_net_data.py runs/net/heuristic --hands 200 --worlds 16 --threads 2",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out_dir", help="the folder of the chunks (made if missing; the same folder resumes a run)")
    parser.add_argument("--hands", type=int, default=10_000, help="hands to play (default 10,000)")
    parser.add_argument("--worlds", type=int, default=16, help="worlds each decision is valued on, K (default 16)")
    parser.add_argument("--policy", default="heuristic",
                        help="the players at the table: one, or team 0's,team 1's (default heuristic)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    parser.add_argument("--hands-per-chunk", type=int, default=DEFAULT_HANDS_PER_CHUNK,
                        help=f"hands a chunk file holds (default {DEFAULT_HANDS_PER_CHUNK})")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a rule changed (repeat)")
    parser.add_argument("--love", action="store_true", help="start every hand from 0-0, not from random scores")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: every core)")
    return parser


class _Args(argparse.ArgumentParser):
    def error(self, text: str) -> None:  # one line, exit 2, as every command of the project
        print(f"error: {text}", file=sys.stderr)
        sys.exit(2)


_DONE = [0]  # hands reported so far: a message after progress starts on a line of its own


def _progress(total: int):
    started = time.perf_counter()
    done = _DONE

    def progress(n: int) -> None:
        done[0] += n
        seconds = time.perf_counter() - started
        print(f"\r{done[0]:,} of {total:,} hands, {seconds:.0f} s", end="", file=sys.stderr, flush=True)

    return progress


def _fresh_line() -> str:
    return "\n" if _DONE[0] else ""


def _interrupted(exc: BaseException | None) -> bool:
    """Whether ``exc`` is how Ctrl-C surfaced: a signal whose handler runs as a kernel hands its result back comes
    out as a SystemError with the KeyboardInterrupt as its cause (as smear_sim.cli.app maps it)."""
    seen = set()
    while exc is not None and id(exc) not in seen:  # one SystemError for each array handed back
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    parser.__class__ = _Args
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)  # as Ctrl-C: the chunk in progress is dropped, those written stay whole
    try:
        rules = Rules().with_overrides(args.rule)
        result = make_net_data(args.out_dir, hands=args.hands, seed=args.seed, policies=args.policy,
                               worlds=args.worlds, hands_per_chunk=args.hands_per_chunk, rules=rules,
                               random_scores=not args.love, threads=args.threads, progress=_progress(args.hands))
    except SmearError as exc:
        print(f"{_fresh_line()}error: {message(exc)}", file=sys.stderr)
        return 2
    except OutputError as exc:
        print(f"{_fresh_line()}error: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:
        if not _interrupted(exc):
            raise
        print(f"{_fresh_line()}stopped: the chunks written are whole; run the same command again to resume",
              file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print(f"{_fresh_line()}stopped: the chunks written are whole; run the same command again to resume",
              file=sys.stderr)
        return 130
    rate = result.card_rows / result.seconds if result.seconds > 0 else 0.0
    print(f"\nwrote {result.chunks_written} chunks ({result.chunks_skipped} already there) into {result.out_dir}: "
          f"{result.card_rows:,} card decisions and {result.keep_rows:,} keep rows in {result.seconds:.1f} s "
          f"({rate:,.0f} card decisions/s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
