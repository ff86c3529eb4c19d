"""The second process of a first compile (:func:`smear_sim.engine.compiling.compile_apart`): ``python -m
smear_sim.engine.compile_helper I ...`` compiles the compile units ``I ...`` (indices of
:data:`smear_sim.kernels.compile_units.ALL`) into Numba's cache, each under its function's lock
(:mod:`smear_sim.kernels.shared_cache`), and stops at once when its standard input closes (the compile it helps is
over, or that process is gone)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence

from .._frame_stack import keep_frame_chunks
from .runner import kernels

__all__ = ["compile_into_cache"]


def compile_into_cache(order: Sequence[int]) -> None:
    """Compile the units ``order`` into the cache; end the process when standard input closes."""

    def watch() -> None:
        sys.stdin.buffer.read()
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()
    kernels()  # the kernels' modules, with the cache the main process uses
    keep_frame_chunks()
    from ..kernels import compile_units

    for i in order:
        dispatcher, sig = compile_units.ALL[i]
        dispatcher.compile(sig)


if __name__ == "__main__":
    compile_into_cache([int(i) for i in sys.argv[1:]])
