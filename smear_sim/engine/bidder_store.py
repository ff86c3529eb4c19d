"""Where the equity bidder's tables are kept, and which files are current for this code.

The tables' contents and file format are the data contract of :mod:`smear_sim.core.bidder`; this module knows
the places and the versions, which depend on the installed package:

- for the default rules and for round points (the rules' main variant), the tables ship in the package
  (``smear_sim/data/equity_bidder.npz`` and ``equity_bidder_round_points.npz``), made by
  ``python tools/equity_bidder.py``;
- for any other rules, they are made on first use (:mod:`smear_sim.analysis.bidder_tables`) and cached in the user's
  cache folder, ``$SMEAR_SIM_CACHE_DIR``, else ``$XDG_CACHE_HOME/smear-sim``, else ``~/.cache/smear-sim``, as
  ``equity-bidder/<key>.npz``: the key is a digest of the rules, the code version (:func:`code_version`), the file
  format and the bidder's ``MIN_COUNT`` and ``MARGIN``, so changing any of them makes new tables rather than
  reading stale ones.

It imports no Numba: it reads the kernels' source files as text.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from .._version import __version__
from ..core.bidder import FORMAT, MARGIN, MIN_COUNT, BidderTables
from ..core.errors import SmearError
from ..core.rules import Rules

__all__ = ["CACHE_VARIABLE", "SHIPPED_RULES", "cache_path", "cache_root", "code_version", "load_tables", "shipped_path"]

CACHE_VARIABLE = "SMEAR_SIM_CACHE_DIR"
_PACKAGE = Path(__file__).resolve().parent.parent  # smear_sim/


# The rules whose tables ship in the package, and their files in smear_sim/data/.
SHIPPED_RULES = {Rules(): "equity_bidder.npz", Rules(round_points=True): "equity_bidder_round_points.npz"}


def shipped_path(rules: Rules | None = None) -> Path | None:
    """The tables shipped in the package for ``rules`` (default: the default rules); None for rules that ship none."""
    name = SHIPPED_RULES.get(Rules() if rules is None else rules)
    return None if name is None else _PACKAGE / "data" / name


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
    """The code the tables cached for other rules were made by: ``"<package version>+<digest>"``, the digest being the first 12 hex
    digits of a SHA-256 over the package version, then, for every ``smear_sim/kernels/**/*.py`` in sorted path
    order, its path relative to ``smear_sim/`` and its code less docstrings and comments (:func:`_code_of`).

    It keys the cache: a change to the kernels' code makes new tables on first use rather than reading ones made by
    other code. The shipped tables are held to the code by what it does instead (their behaviour digest,
    :func:`smear_sim.analysis.bidder_tables.behaviour`), since remaking them takes half an hour."""
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
    """The tables for ``rules``: shipped (:data:`SHIPPED_RULES`) or cached; None when they must be made first."""
    shipped = shipped_path(rules)
    if shipped is not None and shipped.is_file():
        return BidderTables.load(shipped)
    path = cache_path(rules)
    if not path.is_file():
        return None
    try:
        tables = BidderTables.load(path)
    except SmearError:
        return None  # a damaged cache file is made again
    return tables if tables.rules == rules else None
