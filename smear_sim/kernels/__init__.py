"""Numba kernels: the compiled hand simulator.

Everything here is ``@njit(cache=True)`` and works on integer card codes and ``uint64`` hand masks. The
Python code that validates inputs, allocates arrays and calls these kernels lives in
:mod:`smear_sim.engine` and :mod:`smear_sim.analysis`; importing this package imports Numba.

Before any kernel module runs, the kernels' cache entries are keyed by the source of every kernel
(:mod:`smear_sim.kernels.source_stamp`), so that no cached kernel keeps the old code of a function it calls, and each
function's signature is compiled under a lock of its own, so that processes can share one cache
(:mod:`smear_sim.kernels.shared_cache`).
"""

from .shared_cache import share_cache
from .source_stamp import stamp_kernel_caches

stamp_kernel_caches()
share_cache()
