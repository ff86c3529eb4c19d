"""Looking up the tables a game's players read: the equity bidder's, or none (empty arrays of the same types).
This module never makes tables; :mod:`smear_sim.analysis.bidder_tables` does, and the entry points (the command
line's ``ready_players``, the public API, the web server) have it make them before any work starts, so every module
below only looks them up.

The tables a session has loaded are kept here with the arrays the kernels read (:meth:`BidderTables.arrays`), so
each file is read once.
"""

from __future__ import annotations

import numpy as np

from ..core.bidder import BidderTables, no_bidder_arrays, with_net
from ..core.errors import SmearError
from ..core.players import reads_net, reads_tables
from ..core.rules import Rules
from ..engine.bidder_store import load_tables
from ..engine.net_weights import NetWeights, kernel_arrays, load_net, net_path

__all__ = ["TablesMissing", "loaded_net", "loaded_tables", "player_bidder_arrays", "remember_tables", "tables_ready"]

_LOADED: dict[Rules, tuple[BidderTables, tuple[np.ndarray, ...]]] = {}  # this session's tables, and their arrays
_NETS: dict[tuple[str, int, int], NetWeights] = {}  # the nets loaded, by path, size and time written


class TablesMissing(SmearError):
    """The equity bidder plays under rules whose tables are neither shipped, cached nor loaded."""


def remember_tables(tables: BidderTables) -> BidderTables:
    """Keep ``tables`` (and their arrays) for this session, for the rules they were made under."""
    _LOADED[tables.rules] = (tables, tables.arrays())
    return tables


def loaded_tables(rules: Rules) -> BidderTables | None:
    """The equity bidder's tables for ``rules``, loaded once from the package or the cache; None when they must
    be made first (:func:`smear_sim.analysis.bidder_tables.bidder_tables`)."""
    if rules not in _LOADED:
        tables = load_tables(rules)
        if tables is None:
            return None
        remember_tables(tables)
    return _LOADED[rules][0]


def tables_ready(rules: Rules) -> bool:
    """Whether the tables for ``rules`` are at hand (loaded, shipped or cached) without being made."""
    return rules in _LOADED or load_tables(rules) is not None


def loaded_net() -> NetWeights:
    """The net the ``net`` player plays by (:func:`smear_sim.engine.net_weights.net_path`: ``SMEAR_SIM_NET`` or the
    shipped one), loaded once while the file stays the same; a one-line SmearError where there is none, or it is not
    a net."""
    path = net_path()
    try:
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
    except OSError:
        key = (str(path), -1, -1)
    if key not in _NETS:
        _NETS[key] = load_net(path)
    return _NETS[key]


def player_bidder_arrays(policies: tuple[str, str], rules: Rules) -> tuple[np.ndarray, ...]:
    """The tables the kernels' players read: the equity bidder's when it plays, else :func:`no_bidder_arrays`; with
    the learned net's weights (:func:`loaded_net`) where the ``net`` player plays."""
    if not reads_tables(policies):
        arrays = no_bidder_arrays()
    elif loaded_tables(rules) is None:
        raise TablesMissing(f"the equity bidder's tables for {rules.summary()} are not made yet: make them first "
                            "(smear_sim.bidder_tables(rules); the command line does it on first use)")
    else:
        arrays = _LOADED[rules][1]
    if reads_net(policies):
        arrays = with_net(arrays, kernel_arrays(loaded_net()))
    return arrays
