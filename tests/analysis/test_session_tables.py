"""Looking up the tables players read (smear_sim/analysis/session_tables.py): never made here, loaded once a session."""

from __future__ import annotations

import pytest

from smear_sim.analysis import session_tables
from smear_sim.core.rules import Rules


def test_the_lookup_never_makes_tables(monkeypatch):
    monkeypatch.setattr(session_tables, "_LOADED", {})
    monkeypatch.setattr(session_tables, "load_tables", lambda rules: None)
    assert session_tables.player_bidder_arrays(("heuristic", "random"), Rules(target=9))[0][0] == 0  # the empty arrays
    with pytest.raises(session_tables.TablesMissing, match="not made yet"):
        session_tables.player_bidder_arrays(("equity", "heuristic"), Rules(target=9))


def test_tables_are_loaded_once_a_session(monkeypatch):
    monkeypatch.setattr(session_tables, "_LOADED", {})
    loads = []
    real = session_tables.load_tables
    monkeypatch.setattr(session_tables, "load_tables", lambda rules: loads.append(rules) or real(rules))
    first = session_tables.player_bidder_arrays(("equity", "equity"), Rules())  # the shipped tables
    assert session_tables.player_bidder_arrays(("equity", "heuristic"), Rules()) is first and loads == [Rules()]
    assert session_tables.tables_ready(Rules()) and session_tables.loaded_tables(Rules()).rules == Rules()
