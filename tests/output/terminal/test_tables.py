"""Terminal tables (smear_sim/output/terminal/tables.py, on console.py's fitted tables): tables that fit the
terminal without cutting a number."""

from __future__ import annotations

import pytest

from smear_sim import class_table
from smear_sim.analysis.classes import DEFAULT_FEATURES
from smear_sim.core.rules import Rules
from smear_sim.output.format import bid_table_columns
from smear_sim.output.terminal import print_bid_table, print_moon_table


@pytest.fixture(scope="module")
def round_points():
    """Round points: 7 points at stake, so six make columns, the widest bid table."""
    table = class_table(50_000, seed=2, rules=Rules(round_points=True))
    return table, table.frame(DEFAULT_FEATURES, 200)


def printed(capsys, monkeypatch, width: int, draw) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(width))
    draw()
    return capsys.readouterr().out.splitlines()


def rows_shown(lines: list[str], frame, rules, show: int):
    """The header's column labels and, for each row shown, its cells and the row of the frame it should be."""
    columns = {c.short: c for c in bid_table_columns(frame.attrs["by"], rules)}
    header = next(i for i, line in enumerate(lines) if line.split()[:1] == ["tr"])
    shown = [columns[label.replace("_", " ")] for label in lines[header].replace("up to", "up_to").split()]
    expected = frame[frame["reliable"]].sort_values("hands", ascending=False).head(show).to_dict("records")
    cells = [line.split() for line in lines[header + 2: header + 2 + len(expected)]]
    return shown, cells, expected


@pytest.mark.parametrize(("width", "dropped"), [(80, ["make7", "make6"]), (60, ["make7", "make6", "make5", "make4"])])
def test_bid_table_fits_the_terminal_and_never_cuts_a_number(round_points, capsys, monkeypatch, width, dropped):
    table, frame = round_points
    lines = printed(capsys, monkeypatch, width, lambda: print_bid_table(frame, table, 10))
    assert all(len(line) <= width for line in lines)
    assert "…" not in "\n".join(lines)
    shown, cells, expected = rows_shown(lines, frame, table.rules, 10)
    assert [c.short for c in shown if c.key.startswith("make")] == [
        f"make{b}" for b in range(2, 8) if f"make{b}" not in dropped]
    for row_cells, row in zip(cells, expected, strict=True):
        assert row_cells == [c.text(row, concise=True) for c in shown]  # every number whole
    caption = " ".join(" ".join(lines).split())
    assert f"Left out to fit the terminal: {', '.join(dropped)} (the highest bids go first" in caption


def test_a_wide_terminal_shows_every_column(round_points, capsys, monkeypatch):
    table, frame = round_points
    lines = printed(capsys, monkeypatch, 160, lambda: print_bid_table(frame, table, 5))
    shown, cells, expected = rows_shown(lines, frame, table.rules, 5)
    assert [c.short for c in shown if c.key.startswith("make")] == [f"make{b}" for b in range(2, 8)]
    assert "Left out" not in "\n".join(lines)


def test_a_very_narrow_terminal_wraps_cells_rather_than_cut_them(round_points, capsys, monkeypatch):
    table, frame = round_points
    lines = printed(capsys, monkeypatch, 24, lambda: print_bid_table(frame, table, 3))
    assert all(len(line) <= 24 for line in lines)
    assert "…" not in "\n".join(lines)


def test_moon_table_fits_the_terminal(round_points, capsys, monkeypatch):
    table, _ = round_points
    from smear_sim.analysis.classes import moon_table

    frame = moon_table(table, DEFAULT_FEATURES, 200)
    lines = printed(capsys, monkeypatch, 60, lambda: print_moon_table(frame, table, 5))
    assert all(len(line) <= 60 for line in lines) and "…" not in "\n".join(lines)
    assert "Left out to fit the terminal: bid EV" in " ".join(" ".join(lines).split())
