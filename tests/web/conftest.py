"""Fixtures of the web tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def small_results(tmp_path_factory):
    """A results folder with a small table of what to call by position (judged at 3-5) and a small match-equity
    table, as 'smear-sim bid-table --by-position' and 'smear-sim equity' write them (no bid table)."""
    from smear_sim.analysis.match_equity import match_equity
    from smear_sim.analysis.positions import position_table
    from smear_sim.output.report import write_equity_table, write_position_table

    folder = tmp_path_factory.mktemp("results")
    equity = match_equity(2000, seed=1)
    positions = position_table(1000, seed=1, class_hands=5000)
    write_position_table(positions, positions.frame(equity, 20, (3, 5)), folder / "by_position")
    write_equity_table(equity, folder / "equity")
    return folder
