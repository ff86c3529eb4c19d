"""Where the equity bidder's tables are kept and which are current (smear_sim/engine/bidder_store.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import smear_sim
from smear_sim._version import __version__
from smear_sim.core.bidder import BidderTables
from smear_sim.core.rules import Rules
from smear_sim.engine import bidder_store as S

PACKAGE = Path(smear_sim.__file__).parent


def test_the_code_version_reads_the_code_not_its_prose():
    source = b'"""A module."""\n\ndef f(x):\n    """Twice x."""\n    return 2 * x  # doubled\n'
    reworded = b'"""Another text."""\n\ndef f(x):\n    """x, twice."""\n    # comment\n    return 2 * x\n'
    assert S._code_of(source) == S._code_of(reworded)
    assert S._code_of(source) != S._code_of(source.replace(b"2 * x", b"3 * x"))


def test_the_code_version_is_the_documented_digest():
    """The version, then every kernels/**/*.py in path order, its path and its code less prose: part of the key of
    the tables cached for other rules, so that a change to the kernels makes new ones rather than reading stale
    ones."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted((PACKAGE / "kernels").rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(S._code_of(path.read_bytes()).encode())
    assert S.code_version() == f"{__version__}+{digest.hexdigest()[:12]}"


def test_the_shipped_tables_are_in_the_package():
    tables = BidderTables.load(S.shipped_path())
    assert S.shipped_path() == PACKAGE / "data" / "equity_bidder.npz"
    assert tables.rules == Rules()
    # whether they are still what the code makes: tests/analysis/test_bidder_tables.py, by their behaviour digest
