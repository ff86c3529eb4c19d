"""Fixtures shared by the tests of the commands that analyse hands (test_hand, test_tables, test_plot): made once
a session."""

from __future__ import annotations

import pytest
from cli_helpers import ok

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"


@pytest.fixture(scope="session")
def counts_file(tmp_path_factory):
    """Class counts from a small bid-table run, for moon --counts and the charts."""
    out = tmp_path_factory.mktemp("bid") / "bid_table"
    ok("bid-table", "--hands", "20000", "--out", str(out), "--show", "3")
    return out.with_suffix(".npz")


@pytest.fixture(scope="session")
def hand_json(tmp_path_factory):
    path = tmp_path_factory.mktemp("hand") / "hand.json"
    path.write_text(ok("hand", HAND, "--samples", "5000", "--json").stdout, encoding="utf-8")
    return path
