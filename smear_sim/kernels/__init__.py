"""Numba kernels: the compiled hand simulator.

Everything here is ``@njit(cache=True)`` and works on integer card codes and ``uint64`` hand masks. The
Python code that validates inputs, allocates arrays and calls these kernels lives in
:mod:`smear_sim.engine` and :mod:`smear_sim.analysis`; importing this package imports Numba.
"""
