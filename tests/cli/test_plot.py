"""``smear-sim plot`` from the outside: valid charts in each format, and bad input refused."""

from __future__ import annotations

import pytest
from cli_helpers import assert_clean_failure, invoke, ok

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("fmt", ["png", "svg"])
@pytest.mark.parametrize("kind", ["heatmap", "make", "moon", "hand"])
def test_plot_writes_valid_charts(kind, fmt, counts_file, hand_json, tmp_path):
    source = hand_json if kind == "hand" else counts_file
    target = tmp_path / f"{kind}.{fmt}"
    extra = ["--value", "bid_up_to"] if kind == "heatmap" else []
    result = ok("plot", kind, str(source), "--out", str(target), *extra)
    assert f"Chart: {target}" in result.stdout
    data = target.read_bytes()
    if fmt == "png":
        assert data[:8] == PNG_MAGIC
    else:
        assert b"<svg" in data


def test_plot_format_option_sets_the_suffix(counts_file, tmp_path):
    ok("plot", "make", str(counts_file), "--out", str(tmp_path / "curves.png"), "--format", "svg")
    assert [p.name for p in tmp_path.iterdir()] == ["curves.svg"]


def test_plot_rejects_unknown_value_and_non_hand_json(counts_file, tmp_path):
    line = assert_clean_failure(invoke("plot", "heatmap", str(counts_file), "--value", "luck",
                                       "--out", str(tmp_path / "x.png")))
    assert "choose one of points, bid_up_to, moon" in line
    line = assert_clean_failure(invoke("plot", "heatmap", str(counts_file), "--x", "suits",
                                       "--out", str(tmp_path / "x.png")))
    assert "choose from" in line
    junk = tmp_path / "junk.json"
    junk.write_text('{"hand": 1}', encoding="utf-8")
    assert "not a hand analysis" in assert_clean_failure(invoke("plot", "hand", str(junk), "--out",
                                                                str(tmp_path / "y.png")))
    junk.write_text("{not json", encoding="utf-8")
    assert "not a hand analysis JSON file" in assert_clean_failure(invoke("plot", "hand", str(junk)))
    line = assert_clean_failure(invoke("plot", "make", str(counts_file), "--out", str(tmp_path / "c.pdf")))
    assert "png or svg" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.json"]


def test_a_chart_without_out_is_saved_here_never_into_the_reports_results(counts_file, tmp_path, monkeypatch):
    """Regression: the README's ``smear-sim plot heatmap results/bid_table.npz`` added results/charts/heatmap.png to
    the committed report."""
    (tmp_path / "results").mkdir()
    monkeypatch.chdir(tmp_path)
    assert ok("plot", "heatmap", str(counts_file), "--value", "bid_up_to").stdout == "Chart: heatmap.png\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heatmap.png", "results"]
    assert list((tmp_path / "results").iterdir()) == []
    assert "KIND.png in the current folder" in " ".join(ok("plot", "--help").stdout.replace("│", " ").split())
