"""Writing results: bid tables as CSV, Markdown, Parquet and JSON, moon tables, the match-equity table, charts,
an HTML page and a README."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..analysis.classes import DEFAULT_FEATURES, ClassTable, moon_table
from ..analysis.count import count_markdown, count_view, fitted_count
from ..analysis.report import Report
from ..analysis.rules_change import RulesChange, rules_change
from ..core.errors import SmearError
from ..core.io import MANIFEST, atomic_write, replace_folder, report_folders
from ..core.rules import Rules
from .format import (
    CLASS_SUIT_HELP,
    COUNT_TITLE,
    FEATURES,
    FORMATS_DOC,
    PLAYERS_DOC,
    RULES_DOC,
    STANDING_HELP,
    STRENGTH_HELP,
    Column,
    bid_table_columns,
    call_charts,
    count_accuracy_cells,
    count_words,
    moon_needs,
    moon_table_columns,
    rules_change_columns,
    rules_change_name,
    rules_change_points,
    rules_label,
    rules_name,
    tournament_cells,
)

__all__ = [
    "BID_TABLE_SUFFIXES",
    "POSITION_TABLE_SUFFIXES",
    "NestedReport",
    "count_section",
    "markdown_table",
    "nested_reports",
    "parent_change",
    "position_markdown",
    "rules_change_markdown",
    "table_json",
    "tournament_markdown",
    "write_bid_table",
    "write_count",
    "write_equity_table",
    "write_moon_table",
    "write_position_table",
    "write_report",
    "write_report_folder",
    "write_tournament",
]


def markdown_table(frame: pd.DataFrame, columns: Sequence[Column]) -> str:
    """A table for people: estimates ± standard errors; † marks the hand counts of imprecise rows."""
    lines = ["| " + " | ".join(c.header for c in columns) + " |", "|" + "---|" * len(columns)]
    for row in frame.to_dict("records"):
        cells = [c.text(row) + (" †" if c.key == "hands" and not row["reliable"] else "") for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def table_json(frame: pd.DataFrame) -> dict:
    """A bid or moon table as one JSON object: its metadata (``frame.attrs``) and ``rows`` of plain values,
    the top trump as its name and missing values as null."""
    plain = frame.astype({"top": str}) if "top" in frame else frame
    return {**frame.attrs, "rows": json.loads(plain.to_json(orient="records"))}


def _preamble(meta: dict, by: Sequence[str], title: str, docs: str) -> str:
    features = "\n".join(f"- **{name}**: {FEATURES[name].help}" for name in by)
    return (
        f"# {title}\n\n"
        f"{meta['hands']:,} random deals, seed {meta['seed']}, all four seats playing the `{meta['policy']}` "
        f"policy, {rules_label(meta['rules'])} ({docs}). Seat 0 holds the hand and takes the kitty as bidder. "
        f"Hands are grouped by what a player sees at a glance in the hand's class suit, {CLASS_SUIT_HELP}:"
        f"\n\n{features}\n\n"
        "Figures are estimate ± standard error, rounded to the digits the sample supports.\n\n"
    )


def _docs_link(out_dir: Path, html: bool = False) -> str:
    """Where the rules are written down: a relative link to docs/rules.md when ``out_dir`` sits in a checkout
    of the repository (``../docs/rules.md`` from ``results/``, ``../../docs/rules.md`` from ``results/round-points``),
    else the document's name."""
    for up, folder in enumerate(Path(out_dir).resolve().parents, start=1):
        if (folder / RULES_DOC).is_file():
            link = "../" * up + RULES_DOC
            return f'<a href="{link}">{RULES_DOC}</a>' if html else f"[{RULES_DOC}]({link})"
    return f"{RULES_DOC} in the smear-sim repository" if html else f"`{RULES_DOC}` in the smear-sim repository"


_BID_TABLE_NOTES = (
    "*EV b* is the bidding team's hand score with bid b minus the opponents' points; *bid up to* is the highest "
    "bid whose EV is not negative. † marks groups of fewer than {min_count:,} hands: shown, but imprecise, and "
    "given no bid.\n\n"
)


BID_TABLE_SUFFIXES = (".csv", ".md", ".npz", ".parquet")  # the files write_bid_table writes


def write_bid_table(table: ClassTable, frame: pd.DataFrame, out: str | Path) -> list[Path]:
    """Write ``out``.csv, .md, .npz (raw counts for regrouping) and .parquet."""
    out = Path(out)
    by = frame.attrs["by"]
    written = []
    csv = out.with_suffix(".csv")
    with atomic_write(csv) as handle:
        frame.to_csv(handle, index=False, float_format="%.6g")
    written.append(csv)
    md = out.with_suffix(".md")
    with atomic_write(md) as handle:
        handle.write(_preamble(frame.attrs, by, "Bid table", _docs_link(out.parent)))
        handle.write(_BID_TABLE_NOTES.format(min_count=frame.attrs["min_count"]))
        handle.write(markdown_table(frame, bid_table_columns(by, table.rules)))
    written.append(md)
    counts = out.with_suffix(".npz")
    table.save(counts)
    written.append(counts)
    parquet = out.with_suffix(".parquet")
    plain = frame.copy()
    if "top" in plain:
        plain["top"] = plain["top"].astype(str)  # Parquet stores the ordered categories as their names
    plain.attrs = {}
    with atomic_write(parquet, "wb") as handle:
        plain.to_parquet(handle, index=False)
    written.append(parquet)
    return written


POSITION_TABLE_SUFFIXES = (".csv", ".md", ".npz")  # the files write_position_table writes


def position_markdown(frame: pd.DataFrame, docs: str) -> str:
    """The call to make by place in the auction, for people: one chart per place (docs/formats.md)."""
    meta = frame.attrs
    us, them = meta["score"]
    lines = [
        "# What to call, by place in the auction\n",
        f"{meta['deals']:,} random deals, seed {meta['seed']}, all four seats bidding and playing the "
        f"`{meta['policy']}` policy, {rules_label(meta['rules'])} ({docs}). At each seat's turn every legal call was "
        "played out on the same deal: the later seats called by the policy, the auction's winner declared and the "
        "hand was played. So a pass is worth what the others then make, and an overcall meets a hand that has "
        "shown strength.\n",
        f"The call is the one most likely to win the game at {us}–{them} (the match-equity table of "
        f"{meta['equity_hands']:,} hands reads the score each deal leaves). Rows are hand strengths: {STRENGTH_HELP}; "
        f"find your hand's class in the bid table. Columns are the standing call, {STANDING_HELP}. · marks cells "
        f"of fewer than {meta['min_count']:,} hands: too few to say. `by_position.csv` has every call's P(win) and EV "
        "with standard errors.\n",
    ]
    for chart in call_charts(frame.to_dict("records")):
        lines.append(f"\n## The {chart.place}\n")
        lines.append("| strength | " + " | ".join(chart.standings) + " |")
        lines.append("|---|" + "---|" * len(chart.standings))
        for label, row in zip(chart.strengths, chart.cells, strict=True):
            lines.append(f"| {label} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def write_position_table(table, frame: pd.DataFrame, out: str | Path) -> list[Path]:
    """Write ``out``.csv (a row per place, standing call and strength: every call's P(win) and EV with standard
    errors, and the call to make), ``out``.md (the charts for people) and ``out``.npz (the raw counts)."""
    out = Path(out)
    csv = out.with_suffix(".csv")
    with atomic_write(csv) as handle:
        frame.to_csv(handle, index=False, float_format="%.6g")
    md = out.with_suffix(".md")
    with atomic_write(md) as handle:
        handle.write(position_markdown(frame, _docs_link(out.parent)))
    counts = out.with_suffix(".npz")
    table.save(counts)
    return [csv, md, counts]


def write_moon_table(table: ClassTable, out: str | Path, by: Sequence[str] = DEFAULT_FEATURES,
                     min_count: int = 200) -> list[Path]:
    out = Path(out)
    frame = moon_table(table, by, min_count)
    csv = out.with_suffix(".csv")
    with atomic_write(csv) as handle:
        frame.to_csv(handle, index=False, float_format="%.6g")
    md = out.with_suffix(".md")
    intro = (
        f"{_preamble(table.metadata(), by, 'Shooting the moon', _docs_link(out.parent))}"
        f"A moon decides the game: a won game counts +{table.rules.target} points and a lost one "
        f"-{table.rules.target}, so the moon's EV is (2p - 1) x {table.rules.target} for success rate p. It pays "
        f"when that beats the EV of the best numeric bid. {moon_needs(table.rules)} The classes below have at "
        f"least {min_count:,} hands, best moon rate first.\n\n"
    )
    with atomic_write(md) as handle:
        handle.write(intro + markdown_table(frame[frame["reliable"]], moon_table_columns(by)))
    return [csv, md]


def equity_markdown(table, low: int = -10) -> str:
    """The match-equity table for people: one grid of P(win) in percent per dealing team."""
    lo = max(table.floor, low)
    scores = list(range(lo, table.target))
    worst = float(table.win_se_grid[:, lo - table.solve_floor:, lo - table.solve_floor:].max())
    lines = [
        "# Match equity\n",
        f"The chance that a team wins the game from each score, {table.hands:,} simulated hands (seed "
        f"{table.outcomes.seed}), all four seats playing the `{table.policy}` policy, {rules_label(table.rules)}. "
        "It is solved exactly from the distribution of one hand's outcome over every score state "
        f"({FORMATS_DOC}, section \"The match-equity table\"); "
        f"`equity.csv` has every state from {table.floor} with its standard error. Here the standard errors are "
        f"at most {100 * worst:.2g} percentage points. Falling below {table.solve_floor} is treated as staying "
        f"there, which changes no value by more than {table.truncation_bound:.1g}.\n",
        "Read a row for your score and a column for theirs. At the start, 0–0, you win "
        f"{table.win(0, 0, 'them')} (as a probability) when they deal the first hand and "
        f"{table.win(0, 0, 'us')} when you deal it.\n",
    ]
    for dealer in ("them", "us"):
        lines.append(f"\n## P(win) in %, '{dealer}' dealing the next hand\n")
        lines.append("| us \\ them | " + " | ".join(map(str, scores)) + " |")
        lines.append("|---|" + "---|" * len(scores))
        for us in reversed(scores):
            cells = [f"{100 * table.win(us, them, dealer).value:.1f}" for them in scores]
            lines.append(f"| **{us}** | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_equity_table(table, out: str | Path) -> list[Path]:
    """Write ``out``.csv (every state with its standard error and expected hands left) and ``out``.md."""
    out = Path(out)
    csv = out.with_suffix(".csv")
    with atomic_write(csv) as handle:
        table.frame().to_csv(handle, index=False, float_format="%.6g")
    md = out.with_suffix(".md")
    with atomic_write(md) as handle:
        handle.write(equity_markdown(table))
    return [csv, md]


# -- the count ----------------------------------------------------------------------------------------------------

def _rows(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows]) + "\n"


def count_section(rule, level: str = "##", every_band: bool = False) -> str:
    """The count (:func:`smear_sim.analysis.count.count_view`) as a section of Markdown headed ``level``: what it is,
    its weights, what each call needs with your team's score in the first band (every band with ``every_band``),
    and how often its call is the equity bidder's and what it costs."""
    view = count_view(rule)
    how, agree = count_words(view)
    first = view["bands"][0]["us"]
    text = (f"{level} {COUNT_TITLE}\n\n{how}\n\n"
            + count_markdown(rule, None if every_band else [0]))
    if not every_band and len(view["bands"]) > 1:
        text += (f"\nThat is with your score {first}, as at 0–0; `count.md` has every band of your score, as does "
                 f"{PLAYERS_DOC} (section \"The count\").\n")
    if agree:
        text += f"\n{agree}\n\n" + _rows(*count_accuracy_cells(view["accuracy"]))
    return text


def write_count(rule, out: str | Path) -> Path:
    """Write ``out`` (``count.md``): the count for people, every band of your score."""
    out = Path(out)
    with atomic_write(out) as handle:
        handle.write(count_section(rule, "#", every_band=True))
    return out


# -- reports under other rules -----------------------------------------------------------------------------


@dataclass(frozen=True)
class NestedReport:
    """A report in a subfolder of a report's folder: the same report under other rules (``results/round-points``)."""

    name: str  # the subfolder's name
    rules: Rules | None  # those of its bid table; None when it has none that loads
    hands: int | None

    def label(self) -> str:
        return "another report" if self.rules is None else rules_name(self.rules)

    def described(self) -> str:
        if self.rules is None:
            return "a report without a bid table"
        return f"{rules_name(self.rules)} ({rules_label(self.rules)}), {self.hands:,} random deals"


def _load_table(path: Path) -> ClassTable | None:
    try:
        return ClassTable.load(path) if path.is_file() else None
    except (SmearError, OSError, ValueError):
        return None


def nested_reports(folder: str | Path) -> list[NestedReport]:
    """The reports in the subfolders of ``folder`` (those holding a report's ``.smear-sim-files``), by name."""
    found = []
    for name in report_folders(folder):
        table = _load_table(Path(folder) / name / "bid_table.npz")
        found.append(NestedReport(name, None if table is None else table.rules, None if table is None else table.hands))
    return found


def parent_change(folder: str | Path, table: ClassTable, by: Sequence[str], min_count: int) -> RulesChange | None:
    """What changes from the rules of the report in the folder above ``folder`` to those of ``table``: None when
    that folder holds no report with a bid table that loads, or one made under the same rules or by another policy."""
    parent = Path(os.path.realpath(folder)).parent
    if not (parent / MANIFEST).is_file():
        return None
    base = _load_table(parent / "bid_table.npz")
    if base is None or base.rules == table.rules or base.policy != table.policy:
        return None
    return rules_change(base, table, by, min_count)


def _parent_words(change: RulesChange) -> str:
    base = change.base
    return f"{base.hands:,} random deals, seed {base.seed}, policy `{base.policy}`, {rules_label(base.rules)}"


def rules_change_markdown(change: RulesChange) -> str:
    """The section of a nested report's README that compares it with the report in the folder above."""
    levels, common, moon = rules_change_columns(change)
    return (
        f"## What changes with {rules_change_name(*change.rules)}\n\n"
        f"Compared with the report in the folder above ([`../README.md`](../README.md): {_parent_words(change)}), "
        f"class by class, hands grouped by {', '.join(change.by)}. Every figure is read from the two bid tables, "
        "`bid_table.npz` here and `../bid_table.npz`.\n\n"
        + "".join(f"- {line}\n" for line in rules_change_points(change))
        + "\nThe share of hands whose best bid (bid up to) is at least each bid:\n\n"
        + markdown_table(change.levels, levels)
        + "\nThe most common classes (the moon needs the success rate at which it beats the best numeric bid):\n\n"
        + markdown_table(change.classes, common)
        + "\nThe best moon classes under each rule set:\n\n"
        + markdown_table(change.moon, moon)
    )


def nested_markdown(others: Sequence[NestedReport]) -> str:
    """The section of a report's README that links the reports in its subfolders."""
    lines = ["## Other rules\n", "The same report under other rules, in subfolders of this one:\n"]
    lines += [f"- [`{o.name}/`]({o.name}/README.md): {o.described()}; on one page: "
              f"[`{o.name}/index.html`]({o.name}/index.html)" for o in others]
    return "\n".join(lines) + "\n"


def write_report_folder(out_dir: str | Path, report: Report, *, command: str, by: Sequence[str],
                        min_count: int) -> list[Path]:
    """Replace ``out_dir`` with the files of :func:`write_report` for ``report``
    (:func:`smear_sim.analysis.report.build_report`), so the folder always holds one complete report."""
    with replace_folder(out_dir) as folder:
        return write_report(report.table, folder, command=command, by=by, min_count=min_count,
                            example_hand=report.example_hand, equity=report.equity, moon_hand=report.moon_hand,
                            positions=report.positions, home=out_dir)


def write_report(table: ClassTable, out_dir: str | Path, *, command: str, by: Sequence[str] = DEFAULT_FEATURES,
                 min_count: int = 200, example_hand=None, equity=None, moon_hand=None, positions=None,
                 home: str | Path | None = None) -> list[Path]:
    """The reference results: the call by place in the auction, bid table, moon table, match-equity table, charts,
    one HTML page of it all and a README naming the command.

    ``equity`` is a match-equity table to write; ``moon_hand`` a hand analysis (with its equity table) whose
    moon break-even by score is charted; ``positions`` a position table (``analysis.positions``), valued at 0-0
    with ``equity``, which it needs.

    ``home`` is the folder the files end up in (default ``out_dir``; :func:`write_report_folder` writes them to a
    temporary folder first). The README and the page link the reports in its subfolders (:func:`nested_reports`),
    and, when the folder above it holds a report under other rules, say what changes from those rules to these
    (:func:`parent_change`).
    """
    from .charts import (
        calls_chart,
        equity_heatmap,
        heatmap,
        make_curves,
        moon_break_even_chart,
        moon_chart,
        points_distribution,
        save_figure,
    )
    from .html import report_page

    out_dir = Path(out_dir)
    home = out_dir if home is None else Path(home)
    frame = table.frame(by, min_count)
    change = parent_change(home, table, by, min_count)
    others = nested_reports(home)
    files = {
        "by_position.csv": "what to call by place in the auction, standing call and hand strength: every call's "
                           "P(win) and EV with standard errors, pass included",
        "by_position.md": "the call to make, one chart per place in the auction, for people",
        "by_position.npz": "raw outcome counts per place, standing call, strength and call "
                           "(`smear_sim.analysis.positions.PositionTable.load`)",
        "bid_table.csv": "the declarer's view: the bid table, one row per hand class, every estimate with its standard "
                         "error",
        "bid_table.md": "the same table for people (estimate ± SE)",
        "bid_table.parquet": "the same table as Parquet",
        "bid_table.npz": "raw integer counts per hand class, for regrouping and charts (`smear_sim.ClassTable.load`)",
        "moon_table.csv": "moon success rate and moon EV by hand class",
        "moon_table.md": "the reliable moon classes for people, best first",
    }
    written = []
    position_frame = None
    if positions is not None:
        position_frame = positions.frame(equity, min_count)
        written += write_position_table(positions, position_frame, out_dir / "by_position")
    written += write_bid_table(table, frame, out_dir / "bid_table")
    written += write_moon_table(table, out_dir / "moon_table", by, min_count)
    count = fitted_count(table.rules)
    if count is not None:
        files["count.md"] = ("a count to use at the table: points per card, the count each call needs by place, "
                             "standing call and both scores, and how often its call is the equity bidder's")
        written.append(write_count(count, out_dir / "count.md"))
    if equity is not None:
        files["equity.csv"] = ("the match-equity table: P(win the game) from every score state, with its standard "
                               "error and the expected hands left")
        files["equity.md"] = "the match-equity table for people, one grid per dealing team"
        written += write_equity_table(equity, out_dir / "equity")
    bid = min(table.rules.min_bid + 1, table.rules.max_points)
    charts = [
        ("points_by_trumps_and_top.png", "heatmap of expected points by trumps held and top trump",
         lambda: heatmap(table, "trumps", "top", "points", min_count)),
        ("bid_up_to_by_trumps_and_top.png", "heatmap of the highest bid worth making (EV ≥ 0)",
         lambda: heatmap(table, "trumps", "top", "bid_up_to", min_count)),
        (f"make{bid}_by_trumps_and_top.png", f"heatmap of P(make {bid}) by trumps held and top trump",
         lambda: heatmap(table, "trumps", "top", f"make{bid}", min_count)),
        ("make_curves_by_trumps.png", "P(make) of each bid against the number of trumps",
         lambda: make_curves(table, "trumps", min_count)),
        ("moon_by_class.png", "the best hand classes for shooting the moon, against break-even",
         lambda: moon_chart(table, tuple(by), 20, min_count)),
    ]
    if position_frame is not None:
        charts.insert(0, ("calls_by_position.png", "what to call by place in the auction, hand strength and "
                          "standing call", lambda: calls_chart(position_frame)))
    if example_hand is not None:
        hand = " ".join(example_hand.to_json()["hand"])
        charts.append(("example_hand_points.png", f"points distribution of the example hand {hand}",
                       lambda: points_distribution(example_hand)))
    if equity is not None:
        charts.append(("equity.png", "heatmap of the match-equity table, P(win the game) by both scores",
                       lambda: equity_heatmap(equity)))
    if moon_hand is not None:
        hand = " ".join(moon_hand.to_json()["hand"])
        charts.append(("moon_break_even_by_score.png", f"where shooting the moon pays, by score, for {hand}",
                       lambda: moon_break_even_chart(moon_hand)))
    images = []
    for name, description, draw in charts:
        path = save_figure(draw(), out_dir / "charts" / name)
        written.append(path)
        images.append((name, description, path.read_bytes()))
        files[f"charts/{name}"] = description
    page = out_dir / "index.html"
    with atomic_write(page) as handle:
        handle.write(report_page(table, frame, moon_table(table, by, min_count), command=command, charts=images,
                                 example_hand=example_hand, equity=equity, docs=f"The rules are stated in full in "
                                 f"{_docs_link(out_dir, html=True)}.", positions=position_frame, change=change,
                                 others=others, count=count))
    written.append(page)
    files["index.html"] = "all of the above on one page: sortable tables, the charts, the example hand, the rules"
    present = {p.relative_to(out_dir).as_posix() for p in written}
    rows = "\n".join(f"| `{name}` | {text} |" for name, text in files.items() if name in present)
    readme = out_dir / "README.md"
    with atomic_write(readme) as handle:
        title = f"Reference results: {rules_name(table.rules)}" if table.rules.changed() else "Reference results"
        handle.write(
            f"# {title}\n\n"
            "Made by one command (the seed fixes every number; the thread count does not matter):\n\n"
            f"```\n{command}\n```\n\n"
            f"{table.hands:,} random deals, seed {table.seed}, policy `{table.policy}`, {rules_label(table.rules)} "
            f"(stated in {_docs_link(out_dir)}). Open `index.html` in a browser to see it all on one page.\n\n"
            "| file | what it is |\n|---|---|\n" + rows + "\n"
            + ("" if count is None else "\n" + count_section(count))
            + ("" if change is None else "\n" + rules_change_markdown(change))
            + ("" if not others else "\n" + nested_markdown(others))
        )
    written.append(readme)
    return written


# -- tournaments ------------------------------------------------------------------------------------------


def tournament_markdown(result, command: str) -> str:
    """A tournament's pairs and ratings as Markdown, with the command that made it."""
    rules = result.rules.summary("the defaults of docs/rules.md")
    lines = [
        "# Players rated against each other",
        "",
        "Made by:",
        "",
        "```",
        command,
        "```",
        "",
        f"Seed {result.seed}, rules: {rules}. Every pair of players meets in duplicate: each deal is played twice, "
        "each side holding each team's cards, so the luck of the deal cancels. Margins are the first player's "
        "hand score (or points won) minus the second's, per hand, ± standard error."
        + (" Games are complete games from 0-0, each game's deals played twice with the teams swapped; the win "
           "rate is A's share of the games won." if result.games else ""),
        "",
    ]
    columns, pairs, ratings = tournament_cells(result)
    lines += ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cells) + " |" for cells in pairs]
    lines += [
        "",
        f"Ratings: {result.rating_basis} (400 points = odds of 10 to 1), with a 95% interval.",
        "",
        "| player | rating | 95% interval |",
        "|---|---|---|",
    ]
    lines += ["| " + " | ".join(cells) + " |" for cells in ratings]
    return "\n".join(lines) + "\n"


def write_tournament(result, path: str | Path, command: str) -> Path:
    path = Path(path)
    with atomic_write(path) as handle:
        handle.write(tournament_markdown(result, command))
    return path
