"""Checkpoints: a long run saves the counts of its finished chunks, so that an interrupted run can finish.

Counts are integer sums over hands and every hand has its own random stream, so the counts of the chunks
finished before an interruption plus those of the chunks run after it are exactly the counts of an
uninterrupted run. A checkpoint file holds, for each job of a command, those counts and the ranges of hand
indices they cover (as intervals, so a resumed run may use another chunk size or another executor), with
the arguments of the command that saved it. Resuming with different arguments is refused, naming the
argument that differs.

:func:`smear_sim.engine.runner.run` records each finished chunk and starts from the file when resuming; a
command builds one :class:`Checkpoint` beside its output, passes it to every run, and leaves the ``with``
block once its output is written, which removes the file. The file is written atomically: at most every
``interval`` seconds while chunks finish (so a run shorter than that writes none), and once more when a run
is interrupted (Ctrl-C or an error).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import SmearError
from ..core.io import atomic_write
from ..core.rules import format_value
from .job import Job, job_fingerprint

__all__ = ["CHECKPOINT_SUFFIX", "INTERVAL_VARIABLE", "Checkpoint", "default_interval"]

CHECKPOINT_SUFFIX = ".checkpoint.npz"
INTERVAL_VARIABLE = "SMEAR_SIM_CHECKPOINT_SECONDS"  # seconds between saves (default 60); 0 saves every chunk
_FORMAT = 1

Ranges = list[tuple[int, int]]  # (start, stop) intervals of hand indices


def default_interval() -> float:
    text = os.environ.get(INTERVAL_VARIABLE, "60")
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:
        raise SmearError(f"{INTERVAL_VARIABLE} must be a number of seconds, 0 or more, got {text!r}")
    return seconds


def _plain(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as they come back from the file (JSON: tuples become lists)."""
    return json.loads(json.dumps(dict(arguments)))


def _shown(name: str, value: Any) -> str:
    return f"{name} {format_value(value) if isinstance(value, bool | int | str) else json.dumps(value)}"


def _difference(saved: dict[str, Any], current: dict[str, Any]) -> tuple[str, str] | None:
    """The first argument that differs, as the saved run and this one give it; None if none does.

    An argument whose value is a mapping (the rules) is compared key by key, so that the message names the
    rule option: ``--rule round_points=true``.
    """
    for name in [*current, *(n for n in saved if n not in current)]:
        old, new = saved.get(name), current.get(name)
        if old == new:
            continue
        if isinstance(old, dict) and isinstance(new, dict):
            key = next(k for k in [*new, *old] if old.get(k) != new.get(k))
            return (f"{name} {key}={format_value(old[key]) if key in old else '(unset)'}",
                    f"{name} {key}={format_value(new[key]) if key in new else '(unset)'}")
        return _shown(name, old), _shown(name, new)
    return None


class Checkpoint:
    """Where a command saves the finished chunks of its runs, and what it must match to resume from them.

    ``arguments`` are the options that decide the counts, by the names a user types, e.g. ``{"--hands":
    10_000, "--seed": 1, "--policy": "heuristic", "--rule": rules.as_dict()}`` (any JSON values); options
    that only change how results are shown stay out, so that they may change on resume. With ``resume``
    the file is read at once, so a checkpoint of other arguments is refused before any work starts.
    ``notify`` hears one line when a run resumes and when the file is first written.

    Use it as a context manager around the runs and the writing of the output: leaving the block normally
    removes the file; leaving it by an exception saves what was recorded.
    """

    def __init__(self, path: str | Path, arguments: Mapping[str, Any], *, resume: bool = False,
                 interval: float | None = None, notify: Callable[[str], None] | None = None) -> None:
        self.path = Path(path)
        self.arguments = _plain(arguments)
        self.interval = default_interval() if interval is None else interval
        self.notify = notify
        self._jobs: dict[str, tuple[dict[str, Any], np.ndarray, Ranges]] = {}  # fingerprint -> state
        self._last_save = time.monotonic()
        self._unsaved = False
        self._written = False
        if resume:
            self._read()

    @classmethod
    def beside(cls, output: str | Path, arguments: Mapping[str, Any], **options: Any) -> Checkpoint:
        """The checkpoint of a command writing ``output`` (a file, or a path without suffix): ``output`` +
        ``.checkpoint.npz``."""
        return cls(Path(f"{output}{CHECKPOINT_SUFFIX}"), arguments, **options)

    def _say(self, line: str) -> None:
        if self.notify:
            self.notify(line)

    def _read(self) -> None:
        if not self.path.exists():
            self._say(f"no checkpoint at {self.path}: starting from the beginning")
            return
        try:
            with np.load(self.path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta["format"] != _FORMAT:
                    raise ValueError(f"format {meta['format']}, expected {_FORMAT}")
                jobs = {entry["fingerprint"]: (entry, data[f"counts_{i}"], [(int(a), int(b)) for a, b in entry["done"]])
                        for i, entry in enumerate(meta["jobs"])}
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise SmearError(f"{self.path} is not a smear-sim checkpoint ({exc}); delete it, or start over "
                             "without --resume") from None
        differs = _difference(meta["arguments"], self.arguments)
        if differs:
            raise SmearError(f"{self.path} was saved by a run with {differs[0]}, not {differs[1]}: resume it "
                             f"with {differs[0]}, or start over without --resume")
        self._jobs = jobs

    def start(self, job: Job, zero: np.ndarray) -> tuple[np.ndarray, Ranges]:
        """The counts and the ``(start, stop)`` intervals done that ``job`` starts from: those saved when
        resuming (a job of other settings, say another version, has none), else ``zero`` and none."""
        state = self._jobs.get(job_fingerprint(job))
        if state is None or state[1].shape != zero.shape:
            return zero, []
        _, counts, done = state
        finished = sum(stop - start for start, stop in done)
        self._say(f"resuming from {self.path}: {finished:,} of {job.total:,} {job.label.lstrip('-')} already done")
        return counts.astype(zero.dtype, copy=True), list(done)

    def record(self, job: Job, counts: np.ndarray, done: Sequence[tuple[int, int]]) -> None:
        """``counts`` now hold the hands of the ``(start, stop)`` intervals ``done``; save once the interval
        has passed since the last save. The counts are copied, so the caller may go on adding to them."""
        entry = {"fingerprint": job_fingerprint(job), "driver": job.driver, "seed": job.seed, "total": job.total}
        self._jobs[entry["fingerprint"]] = (entry, counts.copy(), list(done))  # one assignment: never half done
        self._unsaved = True
        if time.monotonic() - self._last_save >= self.interval:
            self.save()

    def save(self) -> None:
        """Write what was recorded, atomically, if anything is new since the last save."""
        if not self._unsaved:
            return
        jobs = list(self._jobs.values())
        meta = {"format": _FORMAT, "arguments": self.arguments,
                "jobs": [entry | {"done": [list(r) for r in done]} for entry, _, done in jobs]}
        arrays = {f"counts_{i}": counts for i, (_, counts, _) in enumerate(jobs)}
        with atomic_write(self.path, "wb") as handle:
            np.savez_compressed(handle, meta=np.array(json.dumps(meta)), **arrays)
        self._unsaved = False
        self._last_save = time.monotonic()
        if not self._written:
            self._written = True
            self._say(f"progress is saved to {self.path} as the run goes: if it stops, the same command with "
                      "--resume finishes it")

    def discard(self) -> None:
        """Remove the file: the command it belongs to is complete."""
        self._unsaved = False
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            self.discard()
            return
        self.save()
        if self.path.exists():
            self._say(f"the finished part is saved in {self.path}: the same command with --resume finishes it")
