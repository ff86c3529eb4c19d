"""Strategy charts. Each function returns a matplotlib ``Figure`` (no pyplot state), noting the sample
size, seed, policy and rules on the chart.

- :func:`heatmap`: a value (expected points, bid up to, P(make), EV, moon rate) over two hand features;
- :func:`make_curves`: P(make) of each bid against one feature;
- :func:`moon_chart`: moon success rate by hand class, against the rate at which the moon pays (in points,
  or in games won at a score);
- :func:`points_distribution`: one hand's distribution of points won;
- :func:`equity_heatmap`: the match-equity table, P(win the game) over both scores, for each team dealing;
- :func:`moon_break_even_chart`: for one hand, the moon's break-even success rate at every score, and where
  the hand's own success rate beats it;
- :func:`calls_chart`: what to call at each place in the auction, by hand strength and standing call;
- :func:`call_values_chart`: P(win) of every call against hand strength, at one place and standing call.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib import colormaps
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure

from ..analysis.classes import DEFAULT_FEATURES, ClassTable, moon_table, parse_features
from ..analysis.hand import HandAnalysis
from ..analysis.match_equity import EquityTable
from ..analysis.scores import DEALERS
from ..core.errors import SmearError
from ..core.io import atomic_write, writes_through
from .format import FEATURES, PLACES, STANDING_HELP, call_charts, class_words, estimate_text, rules_label

__all__ = [
    "VALUES",
    "call_values_chart",
    "calls_chart",
    "chart_path",
    "equity_heatmap",
    "heatmap",
    "make_curves",
    "moon_break_even_chart",
    "moon_chart",
    "points_distribution",
    "save_figure",
]

# Heatmap values: column (or pattern) -> label.
VALUES = {
    "points": "expected points won by the bidding team",
    "bid_up_to": "bid up to (highest bid with EV ≥ 0)",
    "moon": "moon success rate",
    "make{b}": "P(make a bid of {b})",
    "ev{b}": "EV of bidding {b} (bidder's score − opponents')",
}


def _value_label(value: str) -> str:
    if value in VALUES:
        return VALUES[value]
    for prefix in ("make", "ev"):
        if value.startswith(prefix) and value[len(prefix):].isdigit():
            return VALUES[prefix + "{b}"].format(b=value[len(prefix):])
    choices = "points, bid_up_to, moon, make2..make7, ev2..ev7"
    raise SmearError(f"unknown chart value {value!r}: choose one of {choices}")


def _footnote(fig: Figure, meta: dict[str, Any]) -> None:
    samples = meta.get("hands") or meta.get("samples")
    fig.text(0.01, 0.01, f"smear-sim · {samples:,} simulated hands · seed {meta['seed']} · "
             f"policy {meta['policy']} · {rules_label(meta['rules'])}", fontsize=7, color="0.35", ha="left",
             va="bottom")


def _new_figure(width: float = 8.0, height: float = 5.5) -> tuple[Figure, Any]:
    fig = Figure(figsize=(width, height), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.3)
    return fig, fig.add_subplot()


def heatmap(table: ClassTable, x: str = "trumps", y: str = "top", value: str = "points",
            min_count: int = 200) -> Figure:
    """``value`` over features ``x`` and ``y``; cells with fewer than ``min_count`` hands are hatched out."""
    x, y = parse_features([x, y])
    label = _value_label(value)
    frame = table.frame((x, y), min_count)
    if value not in frame.columns:
        raise SmearError(f"the chart value {value!r} does not exist under these rules (bids run "
                         f"{table.rules.min_bid}..{table.rules.max_points})")
    bids = value == "bid_up_to"
    if bids:  # among precise groups, no bid worth making is a pass (0), not a gap
        frame[value] = frame[value].astype("Float64").fillna(0.0).where(frame["reliable"])
    grid = frame.pivot(index=y, columns=x, values=value)
    counts = frame.pivot(index=y, columns=x, values="hands")
    grid = grid.where(counts >= min_count)
    ys = list(grid.index)
    xs = list(grid.columns)
    data = grid.to_numpy(dtype=float, na_value=np.nan)
    fig, ax = _new_figure(max(6.0, 0.7 * len(xs) + 3), max(4.5, 0.45 * len(ys) + 2))
    if bids:
        levels = [0, *table.rules.bids()]
        cmap = ListedColormap(colormaps["RdYlGn"](np.linspace(0.1, 0.9, len(levels))))
        norm = BoundaryNorm(np.arange(len(levels) + 1) - 0.5, cmap.N)
        data = np.where(data > 0, data - table.rules.min_bid + 1, data)  # colour index: pass, then each bid
        image = ax.imshow(np.ma.masked_invalid(data), cmap=cmap, norm=norm, aspect="auto")
        bar = fig.colorbar(image, ax=ax, label=label, shrink=0.85, ticks=range(len(levels)))
        bar.ax.set_yticklabels(["pass", *map(str, levels[1:])])
        cell_text = ["pass", *map(str, levels[1:])]
    else:
        image = ax.imshow(np.ma.masked_invalid(data), cmap="RdYlGn", aspect="auto")
        fig.colorbar(image, ax=ax, label=label, shrink=0.85)
    ax.set_facecolor("0.92")
    ax.set_xticks(range(len(xs)), [FEATURES[x].cell(v) for v in xs])
    ax.set_yticks(range(len(ys)), [FEATURES[y].cell(v) for v in ys])
    ax.set_xlabel(FEATURES[x].help)
    ax.set_ylabel(FEATURES[y].help)
    for i in range(len(ys)):
        for j in range(len(xs)):
            v = data[i, j]
            if math.isfinite(v):
                text = cell_text[int(v)] if bids else (f"{v:.2f}" if abs(v) < 10 else f"{v:.0f}")
                ax.text(j, i, text, ha="center", va="center", fontsize=7, color="black")
    ax.set_title(f"{label[0].upper()}{label[1:]}\nby {x} and {y} (grey: fewer than {min_count} hands)")
    _footnote(fig, table.metadata())
    return fig


def make_curves(table: ClassTable, x: str = "trumps", min_count: int = 200) -> Figure:
    """P(make) of every bid against feature ``x``, with ±1.96 SE bars."""
    (x,) = parse_features([x])
    frame = table.frame((x,), min_count)
    frame = frame[frame["reliable"]]
    fig, ax = _new_figure()
    positions = np.arange(len(frame))
    for b in table.rules.bids():
        ax.errorbar(positions, frame[f"make{b}"], yerr=1.96 * frame[f"make{b}_se"], marker="o", capsize=3,
                    label=f"bid {b}")
    ax.set_xticks(positions, [FEATURES[x].cell(v) for v in frame[x]])
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(FEATURES[x].help)
    ax.set_ylabel("probability the bidding team makes the bid")
    ax.grid(alpha=0.3)
    ax.legend(title="bid", loc="best")
    ax.set_title(f"P(make) by bid and {x}\n(groups with at least {min_count} hands; bars: 95% intervals)")
    _footnote(fig, table.metadata())
    return fig


def moon_chart(table: ClassTable, by: tuple[str, ...] = DEFAULT_FEATURES, top: int = 20,
               min_count: int = 200, score: tuple[int, int] | None = None,
               equity: EquityTable | None = None) -> Figure:
    """The ``top`` reliable classes by moon success rate, with the rate at which the moon pays.

    Without ``score`` the moon is valued in points (a won game +target, a lost one -target); with ``score`` and
    a match-equity table, by the chance of winning the game from that score.
    """
    by = parse_features(by)
    frame = moon_table(table, by, min_count, score, equity)
    frame = frame[frame["reliable"]].head(top).iloc[::-1]
    if frame.empty:
        raise SmearError(f"no class has {min_count} hands yet; simulate more hands or lower --min-count")
    target = table.rules.target
    if score is None:
        # The moon pays when (2p - 1) * target beats the best numeric bid's EV.
        break_even = np.clip((1 + frame["best_numeric_ev"] / target) / 2, 0, 1)
        pays = frame["moon_pays"]
        how = f"a won game counts +{target} points, a lost one −{target}"
    else:
        break_even, pays = frame["break_even"], frame["moon_pays_game"]
        how = f"P(win the game) at {score[0]}–{score[1]}, they deal"
    labels = [class_words(row, by) for _, row in frame.iterrows()]
    fig, ax = _new_figure(9.0, max(4.5, 0.32 * len(frame) + 2))
    positions = np.arange(len(frame))
    colors = ["tab:green" if p else "tab:gray" for p in pays]
    ax.barh(positions, frame["moon"], xerr=1.96 * frame["moon_se"], color=colors, capsize=2)
    ax.scatter(break_even, positions, marker="|", s=200, color="black", label="break-even rate", zorder=3)
    ax.set_yticks(positions, labels, fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("moon success rate (green: the moon pays)")
    ax.legend(loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"Shooting the moon: the {len(frame)} best hand classes\n({how}; bars: 95% intervals)")
    _footnote(fig, table.metadata())
    return fig


def equity_heatmap(table: EquityTable, low: int = -10) -> Figure:
    """P(win the game) over both scores (from ``low`` or the floor to the target), one panel per dealing team,
    with contours at 25, 50 and 75%."""
    lo = max(table.floor, low)
    scores = np.arange(lo, table.target)
    fig = Figure(figsize=(12.0, 6.0), layout="constrained")
    fig.get_layout_engine().set(h_pad=0.3)
    axes = fig.subplots(1, 2, sharey=True)
    start = lo - table.solve_floor
    for ax, dealer in zip(axes, ("them", "us"), strict=True):
        grid = table.win_grid[DEALERS.index(dealer), start:, start:]
        image = ax.imshow(grid, origin="lower", cmap="RdYlGn", vmin=0, vmax=1, aspect="equal",
                          extent=(lo - 0.5, table.target - 0.5, lo - 0.5, table.target - 0.5))
        lines = ax.contour(scores, scores, grid, levels=[0.25, 0.5, 0.75], colors="black", linewidths=0.8)
        ax.clabel(lines, fmt=lambda v: f"{100 * v:.0f}%", fontsize=7)
        ax.set_xlabel("their score")
        ax.set_title(f"'{dealer}' deal{'s' if dealer == 'them' else ''} the next hand")
        ax.grid(alpha=0.2)
    axes[0].set_ylabel("your score")
    fig.colorbar(image, ax=axes, label="P(your team wins the game)", shrink=0.85)
    fig.suptitle(f"Match equity to {table.target}: P(win) from every score (SE at most "
                 f"{100 * float(table.win_se_grid[:, start:, start:].max()):.2g} points of %)")
    _footnote(fig, {"hands": table.hands, "seed": table.outcomes.seed, "policy": table.policy,
                    "rules": table.rules.as_dict()})
    return fig


def moon_break_even_chart(analysis: HandAnalysis, low: int = -10) -> Figure:
    """For one hand: the moon's break-even success rate at every score (from ``low`` to the target), against
    the hand's own success rate; dots mark where shooting wins more games than the best numeric bid."""
    if analysis.equity is None or not analysis.rules.moon:
        raise SmearError("the break-even chart needs a hand analysed with moons allowed and an equity table")
    target = analysis.rules.target
    lo = max(analysis.equity.floor, low)
    scores = np.arange(lo, target)
    grid = np.empty((len(scores), len(scores)))
    pays = np.zeros_like(grid, dtype=bool)
    for i, us in enumerate(scores):
        for j, them in enumerate(scores):
            game = analysis.game_at((int(us), int(them)), se=False)
            grid[i, j] = game.moon_break_even()[0][0]
            pays[i, j] = game.win[0, -1] > game.best_numeric()[0][0]
    success = analysis.estimates.moon[0]
    fig, ax = _new_figure(8.0, 6.8)
    image = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=1, aspect="equal",
                      extent=(lo - 0.5, target - 0.5, lo - 0.5, target - 0.5))
    them_grid, us_grid = np.meshgrid(scores, scores)
    ax.scatter(them_grid[pays], us_grid[pays], s=5, color="white", label="the moon pays")
    fig.colorbar(image, ax=ax, label="break-even moon success rate", shrink=0.85)
    ax.set_xlabel("their score")
    ax.set_ylabel("your score")
    hand = " ".join(analysis.to_json()["hand"])
    ax.set_title(f"{hand}: where shooting the moon pays, by score\n(dots: this hand's success rate "
                 f"{100 * success.value:.1f}% beats the break-even rate; they deal)", fontsize=10)
    _footnote(fig, {"hands": analysis.samples, "seed": analysis.seed, "policy": analysis.policy,
                    "rules": analysis.rules.as_dict()})
    return fig


def _position_footnote(fig: Figure, meta: dict[str, Any]) -> None:
    fig.text(0.01, 0.01, f"smear-sim · {meta['deals']:,} deals, every call at every turn · seed {meta['seed']} · "
             f"policy {meta['policy']} · {rules_label(meta['rules'])}", fontsize=7, color="0.35", ha="left",
             va="bottom")


def calls_chart(frame) -> Figure:
    """The call to make at each place in the auction (a position table's frame): hand strength up, the standing call
    across, one panel per place; grey where too few hands were seen."""
    charts = call_charts(frame.to_dict("records"))
    calls = ["pass", *map(str, range(1, 8)), "moon"]
    used = sorted({c for chart in charts for row in chart.cells for c in row if c in calls}, key=calls.index)
    cmap = ListedColormap(colormaps["RdYlGn"](np.linspace(0.15, 0.95, max(len(used), 2)))[: len(used)])
    fig = Figure(figsize=(13, 7), layout="constrained")
    axes = fig.subplots(1, len(charts), squeeze=False)[0]
    for ax, chart in zip(axes, charts, strict=True):
        ax.set_title(f"the {chart.place}")
        if not chart.cells:  # no strength seen often enough at this place (a small run)
            ax.text(0.5, 0.5, "too few hands\nto say", ha="center", va="center", transform=ax.transAxes)
            ax.set_xticks([])
            ax.set_yticks([])
            continue
        data = np.array([[used.index(c) if c in used else np.nan for c in row] for row in chart.cells], dtype=float)
        ax.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=-0.5, vmax=len(used) - 0.5, aspect="auto")
        ax.set_facecolor("0.92")
        for i, row in enumerate(chart.cells):
            for j, c in enumerate(row):
                if c:
                    ax.text(j, i, c, ha="center", va="center", fontsize=6)
        ax.set_xticks(range(len(chart.standings)), chart.standings, rotation=60, ha="right", fontsize=7)
        step = max(1, len(chart.strengths) // 12)
        ax.set_yticks(range(0, len(chart.strengths), step), chart.strengths[::step], fontsize=7)
    axes[0].set_ylabel("hand strength: the declarer's expected points of its class")
    us, them = frame.attrs["score"]
    fig.suptitle(f"What to call, by place in the auction: the call that wins the most games at {us}–{them}\n"
                 f"columns: {STANDING_HELP}", fontsize=11)
    _position_footnote(fig, frame.attrs)
    return fig


def call_values_chart(frame, place: str = "opener", standing: str = "none") -> Figure:
    """P(win the game) of each legal call against hand strength, at one place and standing call, with ±1.96 SE."""
    if place not in PLACES:
        raise SmearError(f"place must be one of {', '.join(PLACES)}, got {place!r}")
    rows = frame[(frame["place"] == place) & (frame["standing"] == standing) & frame["reliable"]]
    if rows.empty:
        raise SmearError(f"no hand strength was seen often enough for the {place} with {standing} standing")
    rows = rows.sort_values("strength")
    mid = (rows["strength"] + rows["strength_to"]) / 2
    fig, ax = _new_figure()
    for call in ["pass", *map(str, range(1, 8)), "moon"]:
        column = f"win_{call}"
        if column in rows and rows[column].notna().any():
            ax.errorbar(mid, 100 * rows[column], yerr=196 * rows[f"win_se_{call}"], marker="o", markersize=3,
                        capsize=2, label=call)
    ax.set_xlabel("hand strength: the declarer's expected points of its class")
    ax.set_ylabel("P(win the game) %")
    us, them = frame.attrs["score"]
    ax.set_title(f"The {place}, {standing} standing: P(win the game) of each call at {us}–{them}")
    ax.legend(title="call")
    ax.grid(alpha=0.3)
    _position_footnote(fig, frame.attrs)
    return fig


def points_distribution(analysis: HandAnalysis | dict[str, Any]) -> Figure:
    """A hand's distribution of points won as bidder, from an analysis or its JSON."""
    data = analysis.to_json() if isinstance(analysis, HandAnalysis) else analysis
    try:
        dist = np.array(data["points"]["distribution"], dtype=float)
        se = np.array(data["points"].get("distribution_se") or [0.0] * len(dist), dtype=float)
        bids = data["bids"]
        hand = " ".join(data["hand"])
    except (KeyError, TypeError) as exc:
        raise SmearError(f"not a hand analysis (make one with 'smear-sim hand ... --json'): missing {exc}") from None
    fig, ax = _new_figure()
    k = np.arange(len(dist))
    ax.bar(k, dist, yerr=1.96 * se, capsize=3, color="tab:blue")
    for x, p in zip(k, dist, strict=True):
        ax.text(x, p + 0.01, f"{100 * p:.1f}%", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(k)
    ax.set_xlabel("points won by the bidding team")
    ax.set_ylabel("probability")
    ax.set_ylim(0, min(1.0, dist.max() + 0.12))
    makes = ", ".join(f"{row['bid']}: {100 * row['make']:.1f}%" for row in bids)
    trump = data["trump"]["fixed"] or max(data["trump"]["chosen"], key=data["trump"]["chosen"].get)
    mean = estimate_text(data["points"]["mean"], data["points"]["se"])
    ax.set_title(f"{hand}\nmean {mean} points, trump {trump}; P(make) {makes}", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    _footnote(fig, {"hands": data["samples"], "seed": data["seed"], "policy": data["policy"],
                    "rules": data.get("rules", {})})
    return fig


def chart_path(path: str | Path, fmt: str | None = None) -> tuple[Path, str]:
    """Where :func:`save_figure` writes and in which format: ``fmt``, else the file's suffix, else PNG."""
    path = Path(path)
    fmt = (fmt or path.suffix.lstrip(".") or "png").lower()
    if fmt not in ("png", "svg"):
        raise SmearError(f"charts are saved as png or svg, not {fmt!r}")
    if path.suffix.lower() != f".{fmt}" and not writes_through(path):  # /dev/stdout stays itself
        path = path.with_suffix(f".{fmt}")
    return path, fmt


def save_figure(fig: Figure, path: str | Path, fmt: str | None = None) -> Path:
    """Save atomically as PNG or SVG (from ``fmt`` or the file's suffix)."""
    path, fmt = chart_path(path, fmt)
    with atomic_write(path, "wb") as handle:
        fig.savefig(handle, format=fmt, dpi=150)
    return path
