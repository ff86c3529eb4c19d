"""The public API (smear_sim/__init__.py): every lazy name resolves and is known to dir() and to type checkers, the
``*_table`` functions give DataFrames, and the API gets the players' tables ready before the work, as the CLI does."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import smear_sim
from smear_sim.analysis import session_tables
from smear_sim.core.rules import Rules

INIT = Path(smear_sim.__file__)
KEPT_NAMES = {"class_table": "hand_classes", "position_table": "position_counts"}  # old names, kept working


def type_checking_names() -> set[str]:
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") ==
                 "TYPE_CHECKING")
    return {alias.asname or alias.name for node in block.body for alias in node.names}


def test_every_lazy_name_resolves_and_is_listed():
    for name in smear_sim._LAZY:
        assert getattr(smear_sim, name) is not None, name
        assert name in smear_sim.__all__ and name in dir(smear_sim), name
    assert set(smear_sim._LAZY) == type_checking_names()  # the names type checkers see are the names that load
    assert sorted(smear_sim.__all__) == sorted(set(smear_sim.__all__))
    assert all(hasattr(smear_sim, name) for name in smear_sim.__all__)


def test_estimate_is_exported():
    from smear_sim.core.stats import Estimate

    assert smear_sim.Estimate is Estimate and smear_sim.Estimate(0.5, 0.1).value == 0.5


def test_a_table_function_gives_a_dataframe():
    for name in smear_sim.__all__:
        if name.endswith("_table") and name not in KEPT_NAMES:
            assert "DataFrame" in str(inspect.signature(getattr(smear_sim, name)).return_annotation), name
    for old, new in KEPT_NAMES.items():  # the counts under their new names; the old names still work
        assert inspect.unwrap(getattr(smear_sim, old)) is inspect.unwrap(getattr(smear_sim, new))


def test_the_api_gets_the_equity_bidder_ready_first(monkeypatch):
    import smear_sim.analysis.bidder_tables as B

    asked = []
    monkeypatch.setattr(session_tables, "_LOADED", {})
    monkeypatch.setattr(session_tables, "load_tables", lambda rules: None)
    monkeypatch.setattr(B, "ready_tables", lambda policies, rules, **_: asked.append((policies, rules)))
    with pytest.raises(session_tables.TablesMissing):  # readied by the fake above: nothing was made
        smear_sim.simulate(10, rules=Rules(target=9), policies="equity,heuristic")
    assert asked == [("equity,heuristic", Rules(target=9))]
    with pytest.raises(session_tables.TablesMissing):
        smear_sim.duplicate_match("heuristic", "equity", deals=10, rules=Rules(target=9))
    assert asked[-1] == ("equity", Rules(target=9))


def test_the_model_keyword_is_the_plans_bidder_arrays():
    """The API's ``model`` keyword (its public name) reaches the run plan as the equity bidder's arrays."""
    from smear_sim.core.bidder import no_bidder_arrays

    seen = {}

    def analysis(*, plan=None):
        seen["plan"] = plan

    arrays = no_bidder_arrays()
    smear_sim._planned("hand_outcomes", analysis)(model=arrays)
    assert seen["plan"].bidder_arrays is arrays
    assert all("model" in inspect.signature(getattr(smear_sim, name)).parameters
               for name in ("hand_outcomes", "match_equity", "position_table", "position_counts"))
