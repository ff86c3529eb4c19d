"""Strategy charts (smear_sim/output/charts.py): each chart draws from a small table and saves as PNG or SVG."""

from __future__ import annotations

import json

import pytest
from matplotlib.figure import Figure

from smear_sim import class_table, evaluate_hand, match_equity
from smear_sim.core.errors import SmearError
from smear_sim.core.rules import Rules
from smear_sim.output.charts import (
    equity_heatmap,
    heatmap,
    make_curves,
    moon_break_even_chart,
    moon_chart,
    points_distribution,
    save_figure,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def table():
    return class_table(20_000, seed=1)


@pytest.fixture(scope="module")
def analysis():
    return evaluate_hand("AH KH 2H JD 10C 5S 9S 4D 3C", samples=5000, seed=1)


def footnote(fig: Figure) -> str:
    return " ".join(t.get_text() for t in fig.texts)


@pytest.mark.parametrize("value", ["points", "bid_up_to", "moon", "make3", "ev2"])
def test_heatmap_values(table, value):
    fig = heatmap(table, "trumps", "top", value, min_count=200)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel()
    assert "20,000 simulated hands" in footnote(fig) and "seed 1" in footnote(fig)
    assert "default rules" in footnote(fig)


def test_heatmap_rejects_unknown_and_missing_values(table):
    with pytest.raises(SmearError, match="choose one of"):
        heatmap(table, value="colour")
    with pytest.raises(SmearError, match="does not exist under these rules"):
        heatmap(table, value="make7")  # bids stop at 4 without round points
    with pytest.raises(SmearError, match="choose from"):
        heatmap(table, x="suits")


def test_make_curves_and_moon_chart(table):
    fig = make_curves(table, "trumps", min_count=200)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["bid 2", "bid 3", "bid 4"]
    fig = moon_chart(table, ("trumps", "top"), top=5, min_count=200)
    assert len(fig.axes[0].get_yticks()) == 5
    with pytest.raises(SmearError, match="no class has"):
        moon_chart(table, min_count=10**9)


def test_points_distribution_from_an_analysis_or_its_json(analysis):
    fig = points_distribution(analysis)
    assert "AH KH 2H JD 10C 5S 9S 4D 3C" in fig.axes[0].get_title()
    data = json.loads(json.dumps(analysis.to_json()))
    assert points_distribution(data).axes[0].get_title() == fig.axes[0].get_title()
    with pytest.raises(SmearError, match="not a hand analysis"):
        points_distribution({"points": {}})


def test_save_figure_png_and_svg(analysis, tmp_path):
    fig = points_distribution(analysis)
    png = save_figure(fig, tmp_path / "charts" / "hand.png")
    assert png == tmp_path / "charts" / "hand.png"
    assert png.read_bytes()[:8] == PNG_MAGIC
    svg = save_figure(fig, tmp_path / "hand.png", "svg")  # the format wins over the suffix
    assert svg == tmp_path / "hand.svg"
    assert "<svg" in svg.read_text(encoding="utf-8")
    assert save_figure(fig, tmp_path / "noext").suffix == ".png"
    with pytest.raises(SmearError, match="png or svg"):
        save_figure(fig, tmp_path / "hand.pdf")
    assert not (tmp_path / "hand.pdf").exists()


@pytest.fixture(scope="module")
def equity():
    return match_equity(30_000, seed=1, rules=Rules(target=11), floor=-10)


def test_equity_heatmap_has_a_panel_per_dealing_team(equity):
    fig = equity_heatmap(equity)
    titles = [ax.get_title() for ax in fig.axes]
    assert "'them' deals the next hand" in titles and "'us' deal the next hand" in titles
    assert fig.axes[0].get_xlabel() == "their score" and fig.axes[0].get_ylabel() == "your score"
    assert "30,000 simulated hands" in footnote(fig) and "target=11" in footnote(fig)


def test_moon_break_even_chart_for_a_hand(equity):
    analysis = evaluate_hand("AH KH QH 2H 10H 6S 9S 4D 3C", samples=3000, rules=Rules(target=11), equity=equity)
    fig = moon_break_even_chart(analysis)
    ax = fig.axes[0]
    assert "where shooting the moon pays" in ax.get_title()
    image = ax.get_images()[0].get_array()
    assert image.shape == (21, 21)  # scores -10..10 both ways
    assert float(image.max()) <= 1.0 and float(image.min()) >= 0.0
    with pytest.raises(SmearError, match="needs a hand analysed"):
        moon_break_even_chart(evaluate_hand("AH KH QH 2H 10H 6S 9S 4D 3C", samples=1000, score=None))


def test_moon_chart_at_a_score(table):
    score_equity = match_equity(30_000, seed=1, floor=-10)
    fig = moon_chart(table, ("trumps", "top"), top=5, min_count=200, score=(15, 19), equity=score_equity)
    assert "P(win the game) at 15–19" in fig.axes[0].get_title()
    with pytest.raises(SmearError, match="same rules and policy"):
        moon_chart(table, ("trumps",), score=(15, 19), equity=None)
