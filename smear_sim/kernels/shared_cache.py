"""One Numba cache shared by processes: each function compiled, loaded and saved under a lock of its own.

Numba reads and writes a function's cache entries without a lock: an index file, which maps each compiled signature
to a data file named by the index's length, and the data files. Two processes compiling one function into one cache at
once can each add their entry to the index they read and write the same data file name, so that one signature's entry
names another's machine code (numba issue 10128). That happens wherever processes share a cache: two smear-sim
commands run at once from an empty cache, a command and the second process that helps it compile
(:mod:`smear_sim.engine.compiling`), or the test suite's workers.

:func:`share_cache` makes every cached function's compile (which is where Numba loads it from the cache, or compiles
and saves it) take an exclusive file lock beside the function's cache index. A process that reaches a function another
is compiling waits, then loads what the other saved instead of compiling it again. The lock is taken inside Numba's
own compiler lock, so the threads of one process take it one at a time, and it is reentrant, because compiling a
function can compile it again (recursion). A function's callees are compiled under their own locks while it holds its
own; functions call each other without cycles, so two processes never wait on each other. A process that dies
releases its locks with it.
"""

from __future__ import annotations

import fcntl
import functools
import os
import time
from typing import Any

import numba  # noqa: F401 (Numba whole first: see source_stamp)
from numba.core import dispatcher as numba_dispatcher
from numba.core.compiler_lock import global_compiler_lock

__all__ = ["LOCK_SUFFIX", "WAIT_SECONDS", "share_cache"]

LOCK_SUFFIX = ".lock"  # beside the function's cache index
WAIT_SECONDS = 900.0  # then compile without the lock rather than wait for ever
_POLL_SECONDS = 0.02

_held: dict[str, tuple[Any, int]] = {}  # lock path -> (open file, depth), this process's locks


def _lock_path(dispatcher: Any) -> str | None:
    """Where the lock of ``dispatcher``'s cache is, or None where it has no cache folder."""
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    if index is None or not getattr(cache, "_enabled", False):
        return None
    return index + LOCK_SUFFIX


def _acquire(path: str) -> bool:
    """Take the lock at ``path`` (reentrant); False where the folder is not writable or the wait ran out."""
    if path in _held:
        file, depth = _held[path]
        _held[path] = (file, depth + 1)
        return True
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        file = open(path, "a+b")  # noqa: SIM115 (held until the matching _release)
    except OSError:  # Numba will say so, or compile without a cache
        return False
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                file.close()
                return False
            time.sleep(_POLL_SECONDS)  # polled, so that Ctrl-C is taken at once
        except OSError:  # a file system without flock
            file.close()
            return False
    _held[path] = (file, 1)
    return True


def _release(path: str) -> None:
    file, depth = _held[path]
    if depth > 1:
        _held[path] = (file, depth - 1)
        return
    del _held[path]
    file.close()  # releases the lock


def _locked(compile_: Any) -> Any:
    @functools.wraps(compile_)
    def compile(self: Any, sig: Any) -> Any:
        path = _lock_path(self)
        if path is None:
            return compile_(self, sig)
        with global_compiler_lock:
            taken = _acquire(path)
            try:
                return compile_(self, sig)
            finally:
                if taken:
                    _release(path)

    compile.shares_cache = True
    return compile


def share_cache() -> None:
    """Compile, load and save each cached function under its own lock, in this process (once; module docstring)."""
    cls = numba_dispatcher.Dispatcher
    if not getattr(cls.compile, "shares_cache", False):
        cls.compile = _locked(cls.compile)
