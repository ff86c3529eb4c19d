"""Saying so while the kernels compile: one line on stderr before a first run's wait.

From an empty Numba cache the first call of a driver compiles it (seconds to a minute); after that it loads
from the cache at once. A user facing a silent terminal thinks the tool has hung, so before a call that will
compile, :func:`compiling` writes one line on stderr (with a spinner when stderr is a terminal), once per
process. Nothing goes to stdout, so ``--json`` output stays one object, and nothing is written when the
kernel is cached.

Whether a call will compile is read from Numba's cache index for the call's argument types before the call
(:func:`will_compile`). That is Numba's internal API; where it is missing the call is watched instead, and
the line written if it has not returned after :data:`WATCH_SECONDS`.

Compiling is single-threaded: Numba compiles a driver's callees one after another. On a machine with a second
core, :func:`compile_apart` has a second process compile the kernels' compile units
(:mod:`smear_sim.kernels.compile_units`: functions every driver calls with the same types) into the cache meanwhile,
and this process loads them when it reaches them, so a first run waits for the longer of the two halves rather than
their sum (docs/performance.md has the figures). Every function compiles under a lock of its own
(:mod:`smear_sim.kernels.shared_cache`): whichever process reaches a unit first compiles it while the other waits, then
loads it, so no unit is compiled twice and no two processes write one function's cache entries at once. The command
line turns this on (:func:`use_helper`) unless ``SMEAR_SIM_COMPILE_HELPER=0``; the helper ends with the compile it
helps, and with this process if that dies first.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from .._frame_stack import keep_frame_chunks

__all__ = [
    "COMPILING",
    "HELPER_MODULE",
    "HELPER_VARIABLE",
    "WATCH_SECONDS",
    "compile_apart",
    "compiling",
    "use_helper",
    "will_compile",
]

COMPILING = "compiling the simulator for first use (up to a minute; later runs start at once)"
WATCH_SECONDS = 1.0
_SPINNER = "|/-\\"

_said = False  # the line has been written in this process
_lock = threading.Lock()


def will_compile(dispatcher: Any, args: Sequence[Any]) -> bool | None:
    """Whether calling ``dispatcher`` with ``args`` compiles it: False when this process has it or Numba's cache
    holds it for these argument types, True when not, None when Numba's internals do not say."""
    try:
        sig = tuple(dispatcher.typeof_pyval(arg) for arg in args)
    except Exception:  # an internal API of Numba that moved: watch the call instead
        return None
    return _will_compile(dispatcher, sig)


def _will_compile(dispatcher: Any, sig: tuple) -> bool | None:
    """:func:`will_compile` for the argument types ``sig``."""
    try:
        if sig in dispatcher.overloads:
            return False
        cache = dispatcher._cache
        if not getattr(cache, "_enabled", False):  # no cache folder: every process compiles
            return True
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key not in cache._cache_file._load_index()
    except Exception:
        return None


def _cached(dispatcher: Any) -> bool:
    """Whether ``dispatcher`` keeps what it compiles in a cache folder another process reads."""
    return bool(getattr(getattr(dispatcher, "_cache", None), "_enabled", False))


def _write(stream: TextIO, text: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # a closed or broken stderr must not stop the run
        stream.write(text)
        stream.flush()


@contextlib.contextmanager
def compiling(expected: bool | None, stream: TextIO | None = None) -> Iterator[None]:
    """Around a kernel's first call: write :data:`COMPILING` before the wait when ``expected`` is True, after
    :data:`WATCH_SECONDS` when it is None and the call still runs, never when False or once already written. On a
    terminal a spinner turns at the end of the line while the call runs."""
    global _said
    if expected is False:
        yield
        return
    keep_frame_chunks()  # a compile is coming: spare it CPython's frame-stack remapping
    stream = stream if stream is not None else sys.stderr
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    done = threading.Event()
    first = not _said

    def say() -> None:
        global _said
        with _lock:
            if _said and not tty:
                return
            _said = True
        if not tty:
            _write(stream, COMPILING + "\n")
            return
        text = COMPILING if first else "compiling"
        turn = 0
        while not done.is_set():
            _write(stream, f"\r{text} {_SPINNER[turn % len(_SPINNER)]}")
            turn += 1
            done.wait(0.1)
        _write(stream, f"\r{text}  \n" if first else "\r\033[K")

    if expected is None:
        def watch() -> None:
            if not done.wait(WATCH_SECONDS):
                say()
        thread = threading.Thread(target=watch, daemon=True)
        thread.start()
    elif tty:
        thread = threading.Thread(target=say, daemon=True)
        thread.start()
    else:
        thread = None
        say()
    try:
        yield
    finally:
        done.set()
        if thread is not None:
            thread.join()


# -- the compile units compiled in a second process -----------------------------------------------------------------

HELPER_VARIABLE = "SMEAR_SIM_COMPILE_HELPER"  # 0: no helper, whoever asks
HELPER_MODULE = "smear_sim.engine.compile_helper"  # what the helper runs (python -m)
_helper = False  # compile_apart starts a helper: the command line turns it on (use_helper)


def use_helper(on: bool = True) -> None:
    """Let :func:`compile_apart` compile the units in a second process (the command line's choice: a library caller
    or a worker does not get processes it did not ask for)."""
    global _helper
    _helper = on and os.environ.get(HELPER_VARIABLE, "1") != "0"


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def compile_apart(expected: bool | None, seated: tuple | None) -> Iterator[None]:
    """Around a driver's compile (``expected``: :func:`will_compile`'s answer for it; ``seated``: its players, or
    None): where the helper is on, this machine has a second core and some unit the driver calls is not in the
    cache, a second process compiles those units while this one compiles the rest (module docstring)."""
    if not (expected and _helper and _cores() >= 2):
        yield
        return
    from ..kernels import compile_units

    order = [compile_units.ALL.index(unit) for unit in compile_units.for_table(seated)
             if _cached(unit[0]) and _will_compile(*unit)]
    if not order:
        yield
        return
    helper = None
    try:
        with contextlib.suppress(OSError):
            helper = subprocess.Popen([sys.executable, "-m", HELPER_MODULE, *map(str, order)],
                                      stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        yield
    finally:
        if helper is not None:
            with contextlib.suppress(OSError):
                helper.stdin.close()  # the helper's cue to stop: what it has not finished, a later compile does
            try:
                helper.wait(timeout=5)
            except subprocess.TimeoutExpired:
                helper.kill()
                helper.wait()
