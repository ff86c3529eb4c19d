"""Writing results (smear_sim/output/report.py): bid and moon tables in every format.

The whole report folder (charts and README) is checked through the command line in test_cli_analysis.py.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

import smear_sim
from smear_sim import class_table, match_equity
from smear_sim.analysis.classes import DEFAULT_FEATURES, ClassTable
from smear_sim.core.rules import Rules
from smear_sim.output.format import bid_table_columns
from smear_sim.output.report import markdown_table, write_bid_table, write_equity_table, write_moon_table


@pytest.fixture(scope="module")
def table():
    return class_table(20_000, seed=1)


def test_markdown_table_marks_small_groups(table):
    frame = table.frame(("trumps",), min_count=500)
    text = markdown_table(frame, bid_table_columns(["trumps"], table.rules))
    lines = text.splitlines()
    assert lines[0].startswith("| trumps | hands | points | bid up to | P(make 2) |")
    assert len(lines) == 2 + len(frame)
    small = frame[frame["hands"] < 500]
    assert len(small) > 0
    assert sum("†" in line for line in lines[2:]) == len(small)
    assert "±" in text


def test_write_bid_table_writes_every_format(table, tmp_path):
    frame = table.frame(DEFAULT_FEATURES, 200)
    written = write_bid_table(table, frame, tmp_path / "out" / "bid_table")
    names = [p.name for p in written]
    assert names == ["bid_table.csv", "bid_table.md", "bid_table.npz", "bid_table.parquet"]
    assert all(p.exists() for p in written)
    csv = pd.read_csv(tmp_path / "out" / "bid_table.csv")
    assert len(csv) == len(frame) and csv["hands"].sum() == 20_000
    assert list(csv.columns) == list(frame.columns)
    md = (tmp_path / "out" / "bid_table.md").read_text(encoding="utf-8")
    assert md.startswith("# Bid table") and "20,000 random deals, seed 1" in md
    loaded = ClassTable.load(tmp_path / "out" / "bid_table.npz")
    assert (loaded.counts == table.counts).all()
    parquet = pd.read_parquet(tmp_path / "out" / "bid_table.parquet")
    assert len(parquet) == len(frame) and parquet["hands"].sum() == 20_000
    assert list(parquet["top"]) == [str(top) for top in frame["top"]]
    narrow = table.frame(("trumps", "two"), 200)  # regression: a table without "top" got a column of None
    write_bid_table(table, narrow, tmp_path / "narrow" / "bid_table")
    assert list(pd.read_parquet(tmp_path / "narrow" / "bid_table.parquet").columns) == list(narrow.columns)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(names)  # no temporary files left


def test_write_moon_table(table, tmp_path):
    csv, md = write_moon_table(table, tmp_path / "moon", ("trumps", "top"), 200)
    frame = pd.read_csv(csv)
    assert list(frame["moon"]) == sorted(frame["moon"], reverse=True)
    text = md.read_text(encoding="utf-8")
    assert "(2p - 1) x 21" in text
    rows = [line for line in text.splitlines() if re.match(r"\| \d", line)]
    assert len(rows) == int(frame["reliable"].sum())


def test_the_class_table_named_in_the_report_readme_exists():
    """The README of a report sends users to `smear_sim.ClassTable.load`."""
    assert smear_sim.ClassTable is ClassTable


def test_write_equity_table(tmp_path):
    equity = match_equity(20_000, seed=2, rules=Rules(target=11), floor=-12)
    csv, md = write_equity_table(equity, tmp_path / "equity")
    frame = pd.read_csv(csv)
    assert list(frame.columns) == ["us", "them", "dealer", "win", "win_se", "hands_left"]
    assert len(frame) == 2 * 23 * 23 and frame["us"].min() == -12 and frame["them"].max() == 10
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# Match equity") and "20,000 simulated hands" in text
    assert "## P(win) in %, 'them' dealing the next hand" in text
    grid = [line for line in text.splitlines() if line.startswith("| **")]
    assert len(grid) == 2 * 21  # rows from -10 (the window shown) to 10, for each dealing team


def test_write_position_table(tmp_path):
    from smear_sim import class_table, match_equity, position_table
    from smear_sim.analysis.positions import PositionTable
    from smear_sim.output.report import write_position_table

    positions = position_table(2000, seed=4, classes=class_table(20_000, seed=4))
    frame = positions.frame(match_equity(20_000, seed=4), min_count=50)
    written = write_position_table(positions, frame, tmp_path / "by_position")
    assert [p.name for p in written] == ["by_position.csv", "by_position.md", "by_position.npz"]
    markdown = written[1].read_text(encoding="utf-8")
    assert markdown.startswith("# What to call, by place in the auction")
    for place in ("opener", "second", "third", "dealer"):
        assert f"## The {place}" in markdown
    assert "2,000 random deals" in markdown and "· marks cells of fewer than 50 hands" in markdown
    assert PositionTable.load(written[2]).deals == 2000
    import pandas as pd

    csv = pd.read_csv(written[0])
    assert len(csv) == len(frame) and set(csv["place"]) == {"opener", "second", "third", "dealer"}


def test_a_nested_report_links_the_rules_from_its_depth(table, tmp_path):
    """results/round-points/moon_table.md links ../../docs/rules.md, results/moon_table.md ../docs/rules.md."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n")
    for folder, link in (("results", "../docs/rules.md"), ("results/round-points", "../../docs/rules.md")):
        _, md = write_moon_table(table, tmp_path / folder / "moon_table", ("trumps",), 200)
        assert f"default rules ([docs/rules.md]({link}))" in md.read_text(encoding="utf-8")
        assert (md.parent / link).resolve() == tmp_path / "docs" / "rules.md"


# -- the count ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["default", "round_points"])
def test_a_report_shows_the_count_of_its_rules(variant, tmp_path):
    """README.md, count.md and index.html show the shipped count of the report's rules: its weights, what each call
    needs with your score in the first band, and its accuracy, every figure read from smear_sim/data/count.json."""
    from smear_sim.analysis.plan import RunPlan
    from smear_sim.core.count import KIND_LABELS, KINDS, load_counts
    from smear_sim.output.report import write_report

    rule = load_counts()[variant]
    small = class_table(5_000, seed=2, plan=RunPlan.of("heuristic", rule.rules))
    write_report(small, tmp_path, command="smear-sim report (a test)", min_count=50)
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    count = (tmp_path / "count.md").read_text(encoding="utf-8")
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "| `count.md` |" in readme and "## A count to use at the table" in readme
    assert count.startswith("# A count to use at the table\n") and '<section id="count">' in page
    for kind, weight in zip(KINDS, rule.weights, strict=True):
        if weight:
            assert f"| {KIND_LABELS[kind]} | {weight} |" in readme and f"| {KIND_LABELS[kind]} | {weight} |" in count
            assert f"<tr><td>{KIND_LABELS[kind]}</td><td>{weight}</td></tr>" in page
    # what the opener needs at 0-0: each call of its cell is the count's call from that count and not from one less
    opener = next(line for line in readme.splitlines() if line.startswith("| opener | none |"))
    for part in opener.split(" | ")[2].split(", "):
        call, need = part.split(": ")
        slot = rule.rules.max_points + 1 if call == "moon" else int(call)
        assert rule.call(int(need), 0, 0) == slot and rule.call(int(need) - 1, 0, 0) < slot
    assert readme.count("Your score ") == 1 and count.count("Your score ") == len(rule.bands) + 1
    every, start = rule.meta["accuracy"], rule.meta["accuracy_0_0"]
    for place in ("every place", "opener", "second", "third", "dealer"):
        a, b = (every, start) if place == "every place" else (every["by_place"][place], start["by_place"][place])
        cells = (f"| {place} | {100 * a['agree']:.1f}% | {100 * b['agree']:.1f}% | "
                 f"{100 * a['cost']:.2f} pp | {100 * b['cost']:.2f} pp |").replace("-", "−")
        assert cells in readme and cells in count
        assert f"<td>{100 * a['agree']:.1f}%</td><td>{100 * b['agree']:.1f}%</td>" in page


def test_a_report_under_rules_no_count_was_fitted_for_has_none(tmp_path):
    from smear_sim.analysis.plan import RunPlan
    from smear_sim.output.report import write_report

    small = class_table(5_000, seed=2, plan=RunPlan.of("heuristic", Rules(target=11)))
    write_report(small, tmp_path, command="smear-sim report (a test)", min_count=50)
    assert not (tmp_path / "count.md").exists()
    assert "count to use" not in (tmp_path / "README.md").read_text(encoding="utf-8")
    assert 'id="count"' not in (tmp_path / "index.html").read_text(encoding="utf-8")
