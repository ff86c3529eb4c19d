"""The equity bidder's tables: what they hold, the arrays the kernels read, and their file.

The ``equity`` policy (:mod:`smear_sim.kernels.players.equity`, whose docstring states its decision rule) bids
from tables that :mod:`smear_sim.analysis.bidder_tables` makes by simulation:

- ``counts[place, situation, bucket, call slot, outcome]``: how often each hand outcome (layout ``OUT_*``, from
  the caller's team) followed each legal call, for each place in the auction, situation there, and hand-strength
  bucket (layout, "The auction seen from one seat");
- ``bucket_of_class``: the strength bucket of every hand class (:mod:`smear_sim.kernels.classes`);
- ``grid``: the match-equity table of the policy against itself, ``[dealer, us, them]`` from ``solve_floor``;
- ``settled``, optional: the call slot each ``[place, situation, bucket]`` settled on at 0-0 while the tables were
  made (-1: none), with ``keep_z``.

**Settled calls.** A bidder that always takes the call of highest P(win) in its tables can cycle while the tables
are made: one cell's change changes which situations the others meet, and back (the round-points rules did). So
the iteration (:mod:`smear_sim.analysis.bidder_tables`) settles: from a later step on, a cell keeps the call it
settled on unless another call's P(win) beats it by more than ``keep_z`` standard errors of their difference
(each call's P(win) has the multinomial spread of its outcomes; the two are taken as independent, which
overstates the SE of calls played on the same deals), and a cell with no settled call is left to the heuristic.
The kernel applies the same rule at every score (:mod:`smear_sim.kernels.players.equity`), so the tables are a
fixed point of the bidder that reads them.

Where they are kept, and which files are current for this code, is :mod:`smear_sim.engine.bidder_store`'s
concern; this module is the data contract only.

This module imports no Numba: it reads and writes the tables and packs them for the kernels.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from . import layout as L
from .errors import SmearError
from .io import atomic_write
from .rules import Rules

__all__ = [
    "FORMAT",
    "MARGIN",
    "MIN_COUNT",
    "NET_AT",
    "NET_LAYERS",
    "N_BUCKETS",
    "BidderTables",
    "no_bidder_arrays",
    "no_net_arrays",
    "table_shape",
    "with_net",
]

FORMAT = 1  # the file layout; a file of another format is refused (and a cached one made again)
MIN_COUNT = 100  # a cell with fewer decisions is left to the heuristic
MARGIN = 0.0  # the bidder leaves the heuristic's call only for a call this much likelier to win the game


N_BUCKETS = 32  # hand-strength buckets (analysis.positions.strength_buckets)


def table_shape(rules: Rules) -> tuple[int, ...]:
    """``[place, situation, bucket, call slot, outcome]``."""
    return (L.N_POSITIONS, rules.n_situations, N_BUCKETS, rules.n_call_slots, L.N_OUTCOMES)


# The players' arrays (``bidder_arrays``) are the equity bidder's 8 tables, then from NET_AT the learned player's
# weights (kernels/players/net.py): the ``card`` head's NET_LAYERS layers (w0, b0, w1, b1, w2, b2, float32), then the
# ``keep`` head's. They travel together because they reach every decision the same way; a game without a net carries
# the placeholders of :func:`no_net_arrays`, of the same types.
NET_AT = 8
NET_LAYERS = 6
_NET_OUTPUTS = (54, 1)  # the card head's outputs (one per card code) and the keep head's


def no_net_arrays() -> tuple[np.ndarray, ...]:
    """The learned player's arrays where no net is loaded: one-unit layers of the right types (a loaded net's first
    layer has a row per view-tensor entry; the kernels tell the two apart by that)."""
    arrays = []
    for n_out in _NET_OUTPUTS:
        arrays += [np.zeros((1, 1), dtype=np.float32), np.zeros(1, dtype=np.float32),
                   np.zeros((1, 1), dtype=np.float32), np.zeros(1, dtype=np.float32),
                   np.zeros((1, n_out), dtype=np.float32), np.zeros(n_out, dtype=np.float32)]
    return tuple(arrays)


def with_net(bidder_arrays: tuple[np.ndarray, ...], net_arrays: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """``bidder_arrays`` with the learned player's arrays replaced by ``net_arrays`` (card head, then keep head)."""
    if len(net_arrays) != 2 * NET_LAYERS:
        raise SmearError(f"a net's arrays are {2 * NET_LAYERS} (two heads of {NET_LAYERS} layers), not "
                         f"{len(net_arrays)}")
    return tuple(bidder_arrays[:NET_AT]) + tuple(net_arrays)


def no_bidder_arrays() -> tuple[np.ndarray, ...]:
    """The arrays of a game without the equity bidder: the kernels' arguments have the same types either way."""
    header = np.zeros(L.BM_HEADER, dtype=np.int64)
    return (header, np.zeros(1, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.float64), np.zeros((2, 1, 1), dtype=np.float64),
            np.full(1, -1, dtype=np.int64)) + no_net_arrays()


@dataclass(frozen=True)
class BidderTables:
    """The equity bidder's tables for one set of rules (module docstring)."""

    rules: Rules
    counts: np.ndarray  # [place, situation, bucket, call slot, outcome] int64
    bucket_of_class: np.ndarray  # [N_CLASSES] int64
    grid: np.ndarray  # [2, size, size] float64
    solve_floor: int
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    settled: np.ndarray | None = None  # [place, situation, bucket] int64 call slot, -1 for none ("Settled calls")
    keep_z: float = 0.0  # how many standard errors a call must gain to replace a settled one; 0: none settled

    def __post_init__(self) -> None:
        if self.counts.shape != table_shape(self.rules):
            raise SmearError(f"equity bidder tables of shape {self.counts.shape} do not fit these rules")
        if self.settled is not None and self.settled.shape != self.counts.shape[:3]:
            raise SmearError(f"settled calls of shape {self.settled.shape} do not fit these tables")
        if not 0 <= self.keep_z < 100:
            raise SmearError(f"keep_z {self.keep_z} is out of range (0 to 100 standard errors)")

    @property
    def decisions(self) -> np.ndarray:
        """Decisions counted per ``[place, situation, bucket]``: every legal call was played on each."""
        return self.counts.sum(axis=-1).max(axis=-1)

    def arrays(self, min_count: int = MIN_COUNT, margin: float = MARGIN) -> tuple[np.ndarray, ...]:
        """The arrays the kernels read: header, bucket of each class, then for each call cell (``[place, situation,
        bucket, call slot]`` flattened) its outcomes as ``codes[cell_start[c]:cell_start[c + 1]]`` with their
        probabilities ``weights``, the decisions of each ``[place, situation, bucket]``, the equity grid and the
        settled call slot of each ``[place, situation, bucket]`` (-1 for none)."""
        rows = self.counts.reshape(-1, L.N_OUTCOMES)
        cell, code = np.nonzero(rows)
        cell_start = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(np.bincount(cell, minlength=len(rows)), out=cell_start[1:])
        decisions = self.decisions.reshape(-1)
        per_call = self.counts.shape[3]
        weights = rows[cell, code] / decisions[cell // per_call]
        header = np.zeros(L.BM_HEADER, dtype=np.int64)
        header[L.BM_LOADED] = 1
        header[L.BM_BUCKETS] = N_BUCKETS
        header[L.BM_MIN_COUNT] = min_count
        header[L.BM_SOLVE_FLOOR] = self.solve_floor
        header[L.BM_MARGIN] = round(margin * 1e4)
        settled = np.full(len(decisions), -1, dtype=np.int64)
        if self.settled is not None and self.keep_z > 0:
            header[L.BM_KEEP_Z] = round(self.keep_z * 100)
            settled[:] = self.settled.reshape(-1)
        return (header, self.bucket_of_class.astype(np.int64), cell_start, decisions.astype(np.int64),
                code.astype(np.int64), weights.astype(np.float64), np.ascontiguousarray(self.grid, dtype=np.float64),
                settled) + no_net_arrays()

    # -- files ------------------------------------------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Write the tables (sparse counts) as one compressed ``.npz``."""
        rows = self.counts.reshape(-1, L.N_OUTCOMES)
        cell, code = np.nonzero(rows)
        meta = self.meta | {"format": FORMAT, "buckets": N_BUCKETS, "rules": self.rules.as_dict(),
                            "solve_floor": self.solve_floor}
        settled = {}
        if self.settled is not None:
            meta["keep_z"] = self.keep_z
            settled["settled"] = self.settled.astype(np.int8)
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(path, "wb") as handle:
            np.savez_compressed(handle, cell=cell.astype(np.uint32), code=code.astype(np.uint16),
                                count=rows[cell, code].astype(np.uint32 if rows.max(initial=0) < 2**32 else np.int64),
                                bucket_of_class=self.bucket_of_class.astype(np.uint8), grid=self.grid,
                                meta=np.array(json.dumps(meta)), **settled)
        return path

    @classmethod
    def load(cls, path: str | Path) -> BidderTables:
        """Tables that :meth:`save` wrote; a file that is not one is a one-line :class:`SmearError`."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                if meta.get("format") != FORMAT or meta.get("buckets") != N_BUCKETS:
                    raise SmearError(f"{path} holds equity bidder tables of another format (format "
                                     f"{meta.get('format')}, {meta.get('buckets')} buckets; this version reads format "
                                     f"{FORMAT}, {N_BUCKETS} buckets): make them again (tools/equity_bidder.py)")
                rules = Rules.from_mapping(meta["rules"])
                counts = np.zeros(table_shape(rules), dtype=np.int64)
                rows = counts.reshape(-1, L.N_OUTCOMES)
                rows[data["cell"].astype(np.int64), data["code"].astype(np.int64)] = data["count"]
                settled = data["settled"].astype(np.int64) if "settled" in data.files else None
                return cls(rules, counts, data["bucket_of_class"].astype(np.int64), data["grid"],
                           int(meta["solve_floor"]), meta, settled, float(meta.get("keep_z", 0.0)))
        except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile) as exc:
            raise SmearError(f"{path} is not a file of equity bidder tables: {exc}") from None
