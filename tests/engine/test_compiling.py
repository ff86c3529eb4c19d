"""The compile notice (engine/compiling.py): one line on stderr before a first run's compile, none once cached."""

from __future__ import annotations

import importlib
import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from smear_sim.engine import compiling
from smear_sim.engine.compiling import COMPILING, will_compile
from smear_sim.engine.compiling import compiling as notice


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch):
    """Each test as if no line had been written yet in this process."""
    monkeypatch.setattr(compiling, "_said", False)


def test_the_line_is_written_once_before_a_compile_and_never_when_cached():
    stream = io.StringIO()
    with notice(False, stream):
        pass
    assert stream.getvalue() == ""
    with notice(True, stream):
        assert stream.getvalue() == COMPILING + "\n"  # before the wait, not after it
    with notice(True, stream):
        pass
    assert stream.getvalue() == COMPILING + "\n"


class _Heard(io.StringIO):
    """A stream that says when something is written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.written = threading.Event()

    def write(self, text: str) -> int:
        count = super().write(text)
        self.written.set()
        return count


def test_an_unknown_cache_state_writes_the_line_only_for_a_long_wait(monkeypatch):
    monkeypatch.setattr(compiling, "WATCH_SECONDS", 3600.0)
    stream = _Heard()
    with notice(None, stream):
        pass  # over long before the watch's wait
    assert stream.getvalue() == ""
    monkeypatch.setattr(compiling, "WATCH_SECONDS", 0.0)
    with notice(None, stream):
        assert stream.written.wait(60)  # a call still running when the watch's wait is over
    assert stream.getvalue() == COMPILING + "\n"


class _Terminal(_Heard):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_the_line_with_a_spinner_that_ends_with_it():
    stream = _Terminal()
    with notice(True, stream):
        assert stream.written.wait(60)  # the spinner has turned
    text = stream.getvalue()
    assert text.startswith("\r" + COMPILING + " ") and text.endswith("\n") and text.count("\n") == 1


def test_will_compile_reads_the_cache_index(tmp_path, monkeypatch):
    (tmp_path / "tiny_kernel.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n"
                                             "    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import tiny_kernel

    assert will_compile(tiny_kernel.twice, (np.int64(3),)) is True
    tiny_kernel.twice(np.int64(3))
    assert will_compile(tiny_kernel.twice, (np.int64(3),)) is False  # this process has it
    importlib.reload(tiny_kernel)  # a new dispatcher, as in the next process
    assert will_compile(tiny_kernel.twice, (np.int64(3),)) is False  # the cache has it
    assert will_compile(tiny_kernel.twice, (1.5,)) is True  # not for these types
    assert will_compile(njit(lambda x: x), (1.5,)) is True  # no cache at all: every process compiles


def _cli(args: list[str], cache: Path) -> subprocess.CompletedProcess:
    env = os.environ | {"NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "smear_sim", *args], env=env, capture_output=True, text=True,
                          check=True, timeout=900)


_UNITS_IN_THE_CACHE = """
from smear_sim.kernels import compile_units
for group in ("FAST", "CHAIN", "WORLDS", "EXPERT_PLAY", "PIMC_PLAY", "ORACLE_PLAY"):
    for dispatcher, sig in getattr(compile_units, group):
        index = dispatcher._cache._cache_file._load_index()
        print(group, dispatcher.py_func.__qualname__, len(index), tuple(sig) in [key[0] for key in index])
"""


def test_a_first_hand_says_it_compiles_on_stderr_compiles_only_what_it_runs_and_a_second_says_nothing(tmp_path):
    """The first ``smear-sim hand`` from an empty cache: one line on stderr, one JSON object on stdout, and in the
    cache each compile unit of the heuristic players and the match-equity chain (kernels/compile_units.py) once, with
    the very types the second process compiled it with (otherwise that work was lost), and nothing of the search
    players or their solver. The second run prints no line."""
    args = ["hand", "AH KH 2H JD 10C 5S 9S 4D 3C", "--samples", "1000", "--json"]
    first = _cli(args, tmp_path)
    assert COMPILING in first.stderr
    assert json.loads(first.stdout)["samples"] == 1000  # stdout is still one JSON object
    cached = subprocess.run([sys.executable, "-c", _UNITS_IN_THE_CACHE], capture_output=True, text=True, check=True,
                            env=os.environ | {"NUMBA_CACHE_DIR": str(tmp_path)}).stdout.split("\n")
    units = [line.split() for line in cached if line]
    assert len(units) >= 10
    for group, name, entries, found in units:
        fast = group in ("FAST", "CHAIN")
        assert (entries, found) == (("1", "True") if fast else ("0", "False")), (group, name)
    second = _cli(args, tmp_path)
    assert "compiling" not in second.stderr
    assert json.loads(second.stdout)["samples"] == 1000
