"""One Numba cache shared by processes: each signature compiled under a lock of its own, each index written under one.

Numba reads and writes a function's cache entries without a lock: an index file, which maps each compiled signature
to a data file named by the index's length, and the data files. Two processes saving entries of one function into one
cache at once can each add their entry to the index they read and write the same data file name, so that one
signature's entry names another's machine code (numba issue 10128). That happens wherever processes share a cache:
two smear-sim commands run at once from an empty cache, a command and the second process that helps it compile
(:mod:`smear_sim.engine.compiling`), or the test suite's workers.

:func:`share_cache` adds two file locks beside each function's cache index:

- the **index lock**, held while an entry is saved (the index read, the entry added, the index and the data file
  written), so that no two processes write one function's entries at once;
- a **signature lock** for each signature, held while that signature is compiled (which is where Numba loads it from
  the cache, or compiles and saves it). A process that reaches a signature another is compiling waits, then loads what
  the other saved instead of compiling it again. Other signatures of the same function compile meanwhile: the kernels
  are compiled once per table of players (``seated``), and every table's kernels call the same hand functions, so a
  lock per function would have one process wait for another's whole tree of a different table.

The locks are taken inside Numba's own compiler lock, so the threads of one process take them one at a time, and they
are reentrant, because compiling a signature can compile it again (recursion). A signature's callees are compiled
under their own locks while it holds its own; functions call each other without cycles, so two processes never wait
on each other. A process that dies releases its locks with it.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import time
from typing import Any

import numba  # noqa: F401 (Numba whole first: see source_stamp)
from numba.core import caching as numba_caching
from numba.core import dispatcher as numba_dispatcher
from numba.core.compiler_lock import global_compiler_lock

__all__ = ["LOCK_SUFFIX", "WAIT_SECONDS", "share_cache"]

LOCK_SUFFIX = ".lock"  # beside the function's cache index
WAIT_SECONDS = 900.0  # then go on without the lock rather than wait for ever
_POLL_SECONDS = 0.02

_held: dict[str, tuple[Any, int]] = {}  # lock path -> (open file, depth), this process's locks


def _index_path(dispatcher: Any) -> str | None:
    """Where ``dispatcher``'s cache index is, or None where it has no cache folder."""
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    if index is None or not getattr(cache, "_enabled", False):
        return None
    return index


def _signature_lock_path(dispatcher: Any, sig: Any) -> str | None:
    """The lock of ``dispatcher``'s signature ``sig`` (its argument types, named the same in every process)."""
    index = _index_path(dispatcher)
    if index is None:
        return None
    digest = hashlib.sha1(str(sig).encode()).hexdigest()[:16]
    return f"{index}.{digest}{LOCK_SUFFIX}"


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


def _index_lock_path(index_file: Any, key: Any, data: Any) -> str:
    """The lock of the cache index that ``index_file`` (a Numba ``IndexDataCacheFile``) saves ``key`` into."""
    return index_file._index_path + LOCK_SUFFIX


def _locking(method: Any, lock_path: Any) -> Any:
    """``method`` run inside Numba's compiler lock and holding the file lock at ``lock_path(self, *args)`` (without it
    where that is None or cannot be taken)."""

    @functools.wraps(method)
    def locked(self: Any, *args: Any) -> Any:
        with global_compiler_lock:
            path = lock_path(self, *args)
            taken = path is not None and _acquire(path)
            try:
                return method(self, *args)
            finally:
                if taken:
                    _release(path)

    locked.shares_cache = True
    return locked


def share_cache() -> None:
    """Compile each cached signature and save each cache entry under its lock, in this process (once; module
    docstring)."""
    dispatcher, index = numba_dispatcher.Dispatcher, numba_caching.IndexDataCacheFile
    if not getattr(dispatcher.compile, "shares_cache", False):
        dispatcher.compile = _locking(dispatcher.compile, _signature_lock_path)
    if not getattr(index.save, "shares_cache", False):
        index.save = _locking(index.save, _index_lock_path)
