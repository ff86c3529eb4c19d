"""Saying so while the kernels compile: one line on stderr before a first run's wait.

From an empty Numba cache the first call of a driver compiles it (seconds to a minute); after that it loads
from the cache at once. A user facing a silent terminal thinks the tool has hung, so before a call that will
compile, :func:`compiling` writes one line on stderr (with a spinner when stderr is a terminal), once per
process. Nothing goes to stdout, so ``--json`` output stays one object, and nothing is written when the
kernel is cached.

Whether a call will compile is read from Numba's cache index for the call's argument types before the call
(:func:`will_compile`). That is Numba's internal API; where it is missing the call is watched instead, and
the line written if it has not returned after :data:`WATCH_SECONDS`.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

__all__ = ["COMPILING", "WATCH_SECONDS", "compiling", "will_compile"]

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
        if sig in dispatcher.overloads:
            return False
        cache = dispatcher._cache
        if not getattr(cache, "_enabled", False):  # no cache folder: every process compiles
            return True
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key not in cache._cache_file._load_index()
    except Exception:  # an internal API of Numba that moved: watch the call instead
        return None


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
