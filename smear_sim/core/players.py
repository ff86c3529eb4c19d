"""The players by name: the one list of policy names and the numbers the kernels know them by.

A policy is a complete player (bidding, trump, discards, play). The kernels dispatch on the number
(:mod:`smear_sim.kernels.players`); people and files use the name. This module imports no Numba, so the
command line can check a ``--policy`` before any kernel loads.
"""

from __future__ import annotations

import numpy as np

from .errors import SmearError

__all__ = ["POLICIES", "parse_policies", "policy_array"]

POLICIES = ("random", "heuristic")  # index = the kernels' policy number


def parse_policies(text: str | tuple[str, str] | list[str]) -> tuple[str, str]:
    """``"heuristic"`` for both teams, or ``"heuristic,random"`` for team 0 and team 1."""
    names = [n.strip().lower() for n in (text.split(",") if isinstance(text, str) else text)]
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise SmearError(f"--policy {text!r}: give one policy, or two separated by a comma (team 0,team 1)")
    for name in names:
        if name not in POLICIES:
            raise SmearError(f"unknown policy {name!r}: choose {' or '.join(POLICIES)}")
    return names[0], names[1]


def policy_array(policies: tuple[str, str]) -> np.ndarray:
    """The kernels' policy numbers for team 0 and team 1."""
    return np.array([POLICIES.index(p) for p in policies], dtype=np.int64)
