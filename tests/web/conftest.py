"""Fixtures of the web tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_browser_log(request):
    """A test that reads the browser's log reads its own: the module shares one browser, so what earlier tests left
    there (the 400s of the bad input some send on purpose) is dropped before each test."""
    if "browser" in request.fixturenames:
        request.getfixturevalue("browser").get_log("browser")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium for the page tests of one file; skipped, saying why, where none is installed."""
    from web_helpers import browser_paths, chrome

    paths = browser_paths()
    if isinstance(paths, str):
        pytest.skip(paths)
    with chrome(*paths) as driver:
        yield driver


@pytest.fixture(scope="module")
def small_results(tmp_path_factory):
    """A results folder with a small table of what to call by position (judged at 3-5) and a small match-equity
    table, as 'smear-sim bid-table --by-position' and 'smear-sim equity' write them (no bid table)."""
    from smear_sim import match_equity, position_table
    from smear_sim.output.report import write_equity_table, write_position_table

    folder = tmp_path_factory.mktemp("results")
    equity = match_equity(2000, seed=1)
    positions = position_table(1000, seed=1, class_hands=5000)
    write_position_table(positions, positions.frame(equity, 20, (3, 5)), folder / "by_position")
    write_equity_table(equity, folder / "equity")
    return folder


@pytest.fixture(scope="module")
def variant_results(tmp_path_factory):
    """A results folder with a small bid table under the default rules and, in round-points/, a report folder
    (with its own manifest) holding one under round points, as 'smear-sim report --out results/round-points'
    leaves it; and a subfolder that is no report (no manifest)."""
    from smear_sim import class_table
    from smear_sim.analysis.plan import RunPlan
    from smear_sim.core.io import MANIFEST
    from smear_sim.core.rules import Rules
    from smear_sim.output.report import write_bid_table

    folder = tmp_path_factory.mktemp("results")
    for where, rules in ((folder, Rules()), (folder / "round-points", Rules(round_points=True))):
        table = class_table(5000, seed=3, plan=RunPlan.of("heuristic", rules))
        written = write_bid_table(table, table.frame(min_count=50), where / "bid_table")
        (where / MANIFEST).write_text("".join(f"{p.name}\n" for p in written))
    (folder / "notes").mkdir()
    (folder / "notes" / "bid_table.npz").write_bytes((folder / "bid_table.npz").read_bytes())
    return folder
