"""The equity bidder's tables: what they hold, the arrays the kernels read, and where they are kept.

The ``equity`` policy (:mod:`smear_sim.kernels.players.equity`, whose docstring states its decision rule) bids
from tables that :mod:`smear_sim.analysis.bidder` makes by simulation:

- ``counts[place, situation, bucket, call slot, outcome]``: how often each hand outcome (layout ``OUT_*``, from
  the caller's team) followed each legal call, for each place in the auction, situation there, and hand-strength
  bucket (layout, "The auction seen from one seat");
- ``bucket_of_class``: the strength bucket of every hand class (:mod:`smear_sim.kernels.classes`);
- ``grid``: the match-equity table of the policy against itself, ``[dealer, us, them]`` from ``solve_floor``.

Where they are kept:

- for the default rules, in the package (``smear_sim/data/equity_bidder.npz``), made by
  ``python tools/equity_bidder.py``;
- for any other rules, made on first use and cached in the user's cache folder, ``$SMEAR_SIM_CACHE_DIR``, else
  ``$XDG_CACHE_HOME/smear-sim``, else ``~/.cache/smear-sim``, as ``equity-bidder/<key>.npz``: the key is a digest
  of the rules, the code version (the package version and the code of the kernels, less docstrings and
  comments) and the bidder's :data:`MIN_COUNT` and :data:`MARGIN`, so changing any of them makes new tables rather
  than reading stale ones.

This module imports no Numba: it reads and writes the tables and packs them for the kernels.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from . import layout as L
from .errors import SmearError
from .io import atomic_write
from .rules import Rules

__all__ = [
    "CACHE_VARIABLE",
    "FORMAT",
    "MARGIN",
    "MIN_COUNT",
    "N_BUCKETS",
    "BidderTables",
    "cache_path",
    "code_version",
    "empty_model",
    "load_tables",
    "shipped_path",
    "table_shape",
]

FORMAT = 1  # the file layout; a file of another format is refused (and a cached one made again)
MIN_COUNT = 100  # a cell with fewer decisions is left to the heuristic
MARGIN = 0.0  # the bidder leaves the heuristic's call only for a call this much likelier to win the game
CACHE_VARIABLE = "SMEAR_SIM_CACHE_DIR"
_PACKAGE = Path(__file__).resolve().parent.parent


N_BUCKETS = 32  # hand-strength buckets (analysis.positions.strength_buckets)


def table_shape(rules: Rules) -> tuple[int, ...]:
    """``[place, situation, bucket, call slot, outcome]``."""
    m = rules.max_points
    return (L.N_POSITIONS, 2 * m + 1, N_BUCKETS, m + 2, L.N_OUTCOMES)


def empty_model() -> tuple[np.ndarray, ...]:
    """The model of a game without the equity bidder: the kernels' arguments have the same types either way."""
    header = np.zeros(L.BM_HEADER, dtype=np.int64)
    return (header, np.zeros(1, dtype=np.int64), np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.float64), np.zeros((2, 1, 1), dtype=np.float64))


@dataclass(frozen=True)
class BidderTables:
    """The equity bidder's tables for one set of rules (module docstring)."""

    rules: Rules
    counts: np.ndarray  # [place, situation, bucket, call slot, outcome] int64
    bucket_of_class: np.ndarray  # [N_CLASSES] int64
    grid: np.ndarray  # [2, size, size] float64
    solve_floor: int
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if self.counts.shape != table_shape(self.rules):
            raise SmearError(f"equity bidder tables of shape {self.counts.shape} do not fit these rules")

    @property
    def decisions(self) -> np.ndarray:
        """Decisions counted per ``[place, situation, bucket]``: every legal call was played on each."""
        return self.counts.sum(axis=-1).max(axis=-1)

    def model(self, min_count: int = MIN_COUNT, margin: float = MARGIN) -> tuple[np.ndarray, ...]:
        """The arrays the kernels read: header, bucket of each class, then for each call cell (``[place, situation,
        bucket, call slot]`` flattened) its outcomes as ``codes[cell_start[c]:cell_start[c + 1]]`` with their
        probabilities ``weights``, the decisions of each ``[place, situation, bucket]`` and the equity grid."""
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
        return (header, self.bucket_of_class.astype(np.int64), cell_start, decisions.astype(np.int64),
                code.astype(np.int64), weights.astype(np.float64), np.ascontiguousarray(self.grid, dtype=np.float64))

    # -- files ------------------------------------------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Write the tables (sparse counts) as one compressed ``.npz``."""
        rows = self.counts.reshape(-1, L.N_OUTCOMES)
        cell, code = np.nonzero(rows)
        meta = self.meta | {"format": FORMAT, "buckets": N_BUCKETS, "rules": self.rules.as_dict(),
                            "solve_floor": self.solve_floor}
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(path, "wb") as handle:
            np.savez_compressed(handle, cell=cell.astype(np.uint32), code=code.astype(np.uint16),
                                count=rows[cell, code].astype(np.uint32 if rows.max(initial=0) < 2**32 else np.int64),
                                bucket_of_class=self.bucket_of_class.astype(np.uint8), grid=self.grid,
                                meta=np.array(json.dumps(meta)))
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
                return cls(rules, counts, data["bucket_of_class"].astype(np.int64), data["grid"],
                           int(meta["solve_floor"]), meta)
        except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile) as exc:
            raise SmearError(f"{path} is not a file of equity bidder tables: {exc}") from None


# -- where the tables are kept ---------------------------------------------------------------------------------


def shipped_path() -> Path:
    """The tables shipped in the package, for the default rules."""
    return _PACKAGE / "data" / "equity_bidder.npz"


def _code_of(source: bytes) -> str:
    """A module's code without its prose: the syntax tree with every docstring dropped (comments never enter it),
    so that rewording a docstring or a comment does not make the tables stale."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


@lru_cache(maxsize=1)
def code_version() -> str:
    """The package version and a digest of the kernels' code (their source less docstrings and comments): what
    the simulated tables depend on."""
    from .. import __version__

    digest = hashlib.sha256(__version__.encode())
    for source in sorted((_PACKAGE / "kernels").rglob("*.py")):
        digest.update(source.relative_to(_PACKAGE).as_posix().encode())
        digest.update(_code_of(source.read_bytes()).encode())
    return f"{__version__}+{digest.hexdigest()[:12]}"


def cache_root() -> Path:
    root = os.environ.get(CACHE_VARIABLE)
    if root:
        return Path(root)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "smear-sim"


def cache_path(rules: Rules) -> Path:
    """Where tables made on first use for ``rules`` are cached (module docstring)."""
    key = hashlib.sha256(json.dumps([rules.as_dict(), code_version(), FORMAT, MIN_COUNT, MARGIN],
                                    sort_keys=True).encode())
    return cache_root() / "equity-bidder" / f"{key.hexdigest()[:20]}.npz"


def load_tables(rules: Rules) -> BidderTables | None:
    """The tables for ``rules``: shipped (default rules) or cached; None when they must be made first."""
    if rules == Rules() and shipped_path().is_file():
        return BidderTables.load(shipped_path())
    path = cache_path(rules)
    if not path.is_file():
        return None
    try:
        tables = BidderTables.load(path)
    except SmearError:
        return None  # a damaged cache file is made again
    return tables if tables.rules == rules else None
