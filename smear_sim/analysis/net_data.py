"""The learned player's training data (issue 47, part 2; docs/learned.md): hands played by a table's players, each
decision after the auction recorded as the seat's view tensor with the search's value of each action, written in
chunks of ``.npz`` files.

Chunk ``c`` holds hands ``c*hands_per_chunk ..`` (``chunk-000000.npz`` ...), each hand on its own stream, so a chunk
is the same bytes whatever the threads, and a run that stops (Ctrl-C, a crash) resumes by writing only the chunks
that are missing: each is written whole (a temporary file, then a rename), and a chunk holding fewer hands than the
run now asks for (the last of a shorter run) is made again. ``run.json`` in the folder holds what decides the data
(seed, players, K, rules, chunk size, scores); a folder made by another run is refused.

Arrays of a chunk (the contract of issue 47; ``N_card`` card decisions, ``N_keep`` keep rows):

- ``card_tensor`` float32[N_card, VT_SIZE], ``card_legal`` bool[N_card, 54], ``card_win`` float32[N_card, 54] (each
  legal card's mean P(win the game) over the K worlds, for the seat's team; 0 where not legal), ``card_points``
  float32[N_card, 54] (the mean points below it: the team's score change minus the other's);
- ``keep_tensor`` float32[N_keep, VT_SIZE] (the state after the keep), ``keep_win``, ``keep_points`` float32[N_keep],
  ``keep_decision`` int64[N_keep] (the decision of the chunk a candidate belongs to: rows of one decision share it);
- ``card_hand``, ``keep_hand`` int64: the hand index of each row (to hold out whole hands);
- ``meta``: a JSON string (seed, chunk, first hand, hands, policies, K, rules, scores, the package version, the card
  worlds that fell back).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._version import __version__
from ..core.errors import BadValue, OutputError, SmearError
from ..core.io import atomic_write
from ..core.players import parse_policies, player
from ..core.rules import Rules
from ..engine.compiling import compiling, will_compile
from ..engine.jobs import net_data_job
from ..engine.runner import Pace, Progress, check_count, kernels, paced_calls, seed_value, thread_count
from .plan import RunPlan
from .session_tables import TablesMissing, loaded_tables

__all__ = ["DEFAULT_HANDS_PER_CHUNK", "MAX_HANDS", "MAX_HANDS_PER_CHUNK", "MAX_WORLDS", "NetDataResult",
           "chunk_name", "make_net_data", "read_chunk"]

DEFAULT_HANDS_PER_CHUNK = 500  # about 80 MB in memory while a chunk is made, about 1 MB on disk
MAX_HANDS_PER_CHUNK = 2_000  # a chunk is held in memory whole: about 160 kB a hand, 320 MB at most
MAX_HANDS = 10**9
MAX_WORLDS = player("expert").parameter.high  # expert's own bound on K
RUN_FILE = "run.json"  # what decides the data (module docstring)
FORMAT = 1


@dataclass(frozen=True)
class NetDataResult:
    """What a run wrote: the chunks made now and those already there, and the rows of the chunks made now."""

    out_dir: Path
    hands: int
    chunks_written: int
    chunks_skipped: int
    card_rows: int
    keep_rows: int
    seconds: float

    @property
    def decisions_per_second(self) -> float:
        return self.card_rows / self.seconds if self.seconds > 0 else 0.0


def chunk_name(index: int) -> str:
    return f"chunk-{index:06d}.npz"


def read_chunk(path: str | Path) -> dict[str, np.ndarray]:
    """The arrays of one chunk, ``meta`` parsed into a dict."""
    with np.load(path, allow_pickle=False) as data:
        out = {key: data[key] for key in data.files}
    out["meta"] = json.loads(str(out["meta"]))
    return out


def _check(hands: int, seed: int, worlds: int, hands_per_chunk: int) -> None:
    check_count("hands", hands, 1, MAX_HANDS)
    seed_value(seed)
    check_count("worlds", worlds, 1, MAX_WORLDS)
    check_count("hands_per_chunk", hands_per_chunk, 1, MAX_HANDS_PER_CHUNK)


def make_net_data(
    out_dir: str | Path, *, hands: int, seed: int = 1, policies: str | tuple[str, str] = "heuristic",
    worlds: int = 16, hands_per_chunk: int = DEFAULT_HANDS_PER_CHUNK, rules: Rules | None = None,
    random_scores: bool = True, threads: int | None = None, progress: Progress | None = None,
) -> NetDataResult:
    """Write the training data of hands ``0 .. hands-1`` into ``out_dir`` (module docstring) and return what was
    written.

    Bounds: ``hands`` 1 to 10**9; ``seed`` 0 to 2**64-1; ``worlds`` (K, the worlds each decision is valued on) 1 to
    expert's largest K; ``hands_per_chunk`` 1 to 2,000; ``threads`` 1 to this machine's. ``policies`` is one
    player for all four seats or team 0's and team 1's (any registered player). The equity tables for ``rules`` must
    be at hand (the values are P(win the game)). ``progress`` is called with the hands just finished (chunks already
    there count at once). Ctrl-C stops it within about a second; the chunks written stay whole.
    """
    _check(hands, seed, worlds, hands_per_chunk)
    threads = thread_count(threads)
    rules = Rules() if rules is None else rules
    parse_policies(policies)  # before the tables are read
    tables = loaded_tables(rules)
    if tables is None:
        raise TablesMissing(f"the equity tables for {rules.summary()} are not made yet: make them first "
                            "(smear_sim.bidder_tables(rules)); the values are P(win the game)")
    plan = RunPlan.of(policies, rules, bidder_arrays=tables.arrays())
    job = net_data_job(players=plan.players, seed=seed, hands=hands, k=worlds, random_scores=random_scores)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise BadValue("out_dir", f"{out} is a file; give a folder for the chunks")
    settings = {"format": FORMAT, "seed": seed, "policies": list(plan.policies), "worlds": worlds,
                "hands_per_chunk": hands_per_chunk, "rules": rules.changed(), "random_scores": random_scores}
    _claim(out, settings)

    drivers = kernels()
    driver = getattr(drivers, job.driver)
    key, seated = seed_value(job.seed), drivers.seated_arg(job.policy_codes)
    lock = threading.Lock()

    def piece(first: int, n: int):
        result = driver(key, first, n, *job.args, seated)
        if progress is not None:
            with lock:
                progress(n)
        return first, result

    with compiling(will_compile(driver, (key, 0, 0, *job.args, seated))):  # a line on stderr while it compiles
        piece(0, 0)
    pace = Pace()
    began = time.perf_counter()
    written = skipped = card_rows = keep_rows = 0
    for c, first in enumerate(range(0, hands, hands_per_chunk)):
        n = min(hands_per_chunk, hands - first)
        path = out / chunk_name(c)
        if _complete(path, n):
            skipped += 1
            if progress is not None:
                progress(n)
            continue
        pieces = sorted(paced_calls(piece, first, n, threads, pace), key=lambda p: p[0])
        arrays = _compact([result for _, result in pieces], first, worlds)
        meta = {**settings, "chunk": c, "first_hand": first, "hands": n, "version": __version__,
                "fallbacks": int(arrays.pop("fallbacks"))}
        arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
        with atomic_write(path, "wb") as handle:
            np.savez_compressed(handle, **arrays)
        written += 1
        card_rows += len(arrays["card_tensor"])
        keep_rows += len(arrays["keep_tensor"])
    return NetDataResult(out, hands, written, skipped, card_rows, keep_rows, time.perf_counter() - began)


def _claim(out: Path, settings: dict) -> None:
    """Write ``run.json`` into ``out``, or check that the one there is this run's."""
    path = out / RUN_FILE
    if path.exists():
        try:
            there = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SmearError(f"{path} is not a training-data run file ({exc})") from None
        if there != json.loads(json.dumps(settings)):
            changed = sorted(name for name in settings if there.get(name) != json.loads(json.dumps(settings[name])))
            raise BadValue("out_dir", f"holds the data of another run (it differs in {', '.join(changed)}): give a "
                           "new folder, or the same settings to resume")
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(out, exc) from exc
    with atomic_write(path, "w") as handle:
        handle.write(json.dumps(settings, indent=2, sort_keys=True) + "\n")


def _complete(path: Path, hands: int) -> bool:
    """Whether the chunk at ``path`` is there with ``hands`` hands (a whole file: chunks are written atomically)."""
    if not path.exists():
        return False
    try:
        with np.load(path, allow_pickle=False) as data:
            return json.loads(str(data["meta"]))["hands"] == hands
    except (OSError, ValueError, KeyError):
        return False


def _compact(results: list[tuple], first: int, worlds: int) -> dict[str, np.ndarray]:
    """The rows the hands used, in hand order, as the chunk's arrays (module docstring)."""
    from ..kernels.drivers.net_data import CARD_ROWS, KEEP_ROWS, NET_FALLBACKS, NET_N_CARD, NET_N_KEEP
    from ..kernels.players.card_choice import WIN_SCALE

    parts: dict[str, list[np.ndarray]] = {name: [] for name in (
        "card_tensor", "card_legal", "card_win", "card_points", "card_hand", "keep_tensor", "keep_win", "keep_points",
        "keep_decision", "keep_hand")}
    decisions = 0
    fallbacks = 0
    hand = first
    for card_tensor, card_legal, card_wins, card_points, keep_tensor, keep_wins, keep_points, keep_decision, counts \
            in results:
        for i, row in enumerate(counts):
            cards = slice(i * CARD_ROWS, i * CARD_ROWS + int(row[NET_N_CARD]))
            keeps = slice(i * KEEP_ROWS, i * KEEP_ROWS + int(row[NET_N_KEEP]))
            parts["card_tensor"].append(card_tensor[cards])
            parts["card_legal"].append(card_legal[cards])
            parts["card_win"].append((card_wins[cards] / (worlds * WIN_SCALE)).astype(np.float32))
            parts["card_points"].append((card_points[cards] / worlds).astype(np.float32))
            parts["card_hand"].append(np.full(int(row[NET_N_CARD]), hand, dtype=np.int64))
            parts["keep_tensor"].append(keep_tensor[keeps])
            parts["keep_win"].append((keep_wins[keeps] / (worlds * WIN_SCALE)).astype(np.float32))
            parts["keep_points"].append((keep_points[keeps] / worlds).astype(np.float32))
            parts["keep_decision"].append(keep_decision[keeps] + decisions)
            parts["keep_hand"].append(np.full(int(row[NET_N_KEEP]), hand, dtype=np.int64))
            if row[NET_N_KEEP]:
                decisions += int(keep_decision[keeps].max()) + 1
            fallbacks += int(row[NET_FALLBACKS])
            hand += 1
    arrays = {name: np.concatenate(items) for name, items in parts.items()}
    arrays["fallbacks"] = np.int64(fallbacks)
    return arrays

