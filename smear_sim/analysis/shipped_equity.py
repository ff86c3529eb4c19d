"""The match-equity table that ships in the package, so that a first hand analysis need not make it.

Every hand analysis values its outcomes in games won through a match-equity table (:mod:`.match_equity`),
by default one of ``DEFAULT_HANDS`` hands under the default rules, ``heuristic`` play, seed 1 and the default
floor. Making it takes a second once the kernels are compiled, but compiling its kernels (the outcome
histogram's driver and the chain's Gauss-Seidel solves) is a fifth of a first ``smear-sim hand`` from an empty
cache. So that table is saved in ``smear_sim/data/match_equity.npz`` and read back: its outcome counts
(integers), the solved grids and their standard errors. The chain is rebuilt from the counts, which is plain
NumPy; only a question that needs a new solve (the standard error of a hand's game value) compiles the solve.

``python tools/match_equity_table.py`` makes the file; a test holds it to what this code makes (the counts
exactly, the grids to rounding).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from ..core.errors import SmearError
from ..core.io import atomic_write
from ..core.rules import Rules
from .game_chain import build_chain
from .hand_outcomes import DEFAULT_HANDS, HandOutcomes
from .match_equity import EquityTable
from .scores import DEFAULT_FLOOR

__all__ = ["SHIPPED_SETTINGS", "load_shipped", "save_table", "shipped_table_path"]

FORMAT = 1
# The settings of the shipped table: (hands, seed, rules, policy, floor), as shared_equity keys a table.
SHIPPED_SETTINGS = (DEFAULT_HANDS, 1, Rules(), "heuristic", DEFAULT_FLOOR)
_GRIDS = ("win_grid", "hands_left", "truncation", "win_se_grid")


def shipped_table_path() -> Path:
    return Path(__file__).resolve().parent.parent / "data" / "match_equity.npz"


def save_table(table: EquityTable, path: str | Path) -> Path:
    """Write ``table`` (its counts, solved grids and standard errors) as one compressed ``.npz``, atomically."""
    outcomes = table.outcomes
    meta = {"format": FORMAT, "rules": outcomes.rules.as_dict(), "policy": outcomes.policy, "seed": outcomes.seed,
            "scores": list(outcomes.scores), "floor": table.floor, "solve_floor": table.solve_floor,
            "truncation_bound": table.truncation_bound, "solve_error": table.solve_error}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as handle:
        np.savez_compressed(handle, counts=outcomes.counts, meta=np.array(json.dumps(meta)),
                            **{name: getattr(table, name) for name in _GRIDS})
    return path


def load_table(path: str | Path) -> EquityTable:
    """The table :func:`save_table` wrote; a file that is not one is a one-line :class:`SmearError`."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT:
                raise SmearError(f"{path} holds a match-equity table of format {meta.get('format')}; this version "
                                 f"reads format {FORMAT}: make it again (tools/match_equity_table.py)")
            grids = {name: data[name] for name in _GRIDS}
            counts = data["counts"].astype(np.int64)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise SmearError(f"{path} is not a match-equity table file: {exc}") from None
    rules = Rules.from_mapping(meta["rules"])
    outcomes = HandOutcomes(counts, meta["seed"], meta["policy"], rules, tuple(meta["scores"]))
    table = EquityTable(outcomes, meta["floor"], grids["win_grid"], grids["hands_left"], grids["truncation"],
                        meta["truncation_bound"], meta["solve_error"],
                        build_chain(outcomes, rules.target, meta["solve_floor"]))
    table.__dict__["win_se_grid"] = grids["win_se_grid"]  # a cached property, solved when the table was made
    return table


def load_shipped(hands: int, seed: int, rules: Rules, policy: str, floor: int) -> EquityTable | None:
    """The shipped table when these are its settings (and the file is there), else None."""
    path = shipped_table_path()
    if (hands, seed, rules, policy, floor) != SHIPPED_SETTINGS or not path.is_file():
        return None
    return load_table(path)
