"""Looking up the tables players read (smear_sim/analysis/models.py): never made here, loaded once a session."""

from __future__ import annotations

import pytest

from smear_sim.analysis import models
from smear_sim.core.rules import Rules


def test_the_lookup_never_makes_tables(monkeypatch):
    monkeypatch.setattr(models, "_LOADED", {})
    monkeypatch.setattr(models, "load_tables", lambda rules: None)
    assert models.player_model(("heuristic", "random"), Rules(target=9))[0][0] == 0  # an empty model
    with pytest.raises(models.TablesMissing, match="not made yet"):
        models.player_model(("equity", "heuristic"), Rules(target=9))


def test_tables_are_loaded_once_a_session(monkeypatch):
    monkeypatch.setattr(models, "_LOADED", {})
    loads = []
    real = models.load_tables
    monkeypatch.setattr(models, "load_tables", lambda rules: loads.append(rules) or real(rules))
    first = models.player_model(("equity", "equity"), Rules())  # the shipped tables
    assert models.player_model(("equity", "heuristic"), Rules()) is first and loads == [Rules()]
    assert models.tables_ready(Rules()) and models.loaded_tables(Rules()).rules == Rules()
