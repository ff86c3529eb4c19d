"""The report as one self-contained web page: ``index.html`` beside the CSV and the charts.

Everything the page needs is inside it: the charts as base64 PNG, a small style sheet, and a few lines of
script that sort a table when its column header is clicked. It loads nothing from the network, so it opens
the same from a disk, an archive or a mail attachment.

Each sortable cell carries its value in ``data-value``, written exactly as the CSV writes it (``%.6g``), so a
test (or a reader) can hold the page to the CSV.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..analysis.classes import TOP_LABELS
from ..core.cards import SUIT_NAMES, SUIT_SYMBOLS
from ..core.rules import OPTION_HELP, Rules, format_value
from .format import (
    CLASS_SUIT_HELP,
    COUNT_TITLE,
    FEATURES,
    STANDING_HELP,
    STRENGTH_HELP,
    Column,
    bid_table_columns,
    call_charts,
    count_accuracy_cells,
    count_words,
    estimate_text,
    moon_needs,
    moon_table_columns,
    rules_change_columns,
    rules_change_name,
    rules_change_points,
    rules_label,
    rules_name,
    suit_label,
)

if TYPE_CHECKING:
    import pandas as pd

    from ..analysis.classes import ClassTable
    from ..analysis.hand import HandAnalysis
    from ..analysis.match_equity import EquityTable
    from ..analysis.rules_change import RulesChange

__all__ = ["Chart", "report_page"]

Chart = tuple[str, str, bytes]  # file name, description, PNG bytes

_STYLE = """
:root { --ink: #1d2330; --muted: #5b6475; --line: #d9dde5; --band: #f4f6f9; --accent: #2458a6; --red: #c0262d; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--ink); background: #fff; }
header, main, footer { max-width: 1400px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 24px; border-bottom: 1px solid var(--line); }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 32px 0 8px; padding-top: 8px; border-top: 1px solid var(--line); }
h3 { font-size: 16px; margin: 20px 0 6px; }
p, li { max-width: 80ch; }
.lead { color: var(--muted); margin: 0 0 12px; }
nav { margin: 8px 0 16px; display: flex; flex-wrap: wrap; gap: 6px 18px; }
nav a, a { color: var(--accent); text-decoration: none; }
nav a:hover, a:hover { text-decoration: underline; }
.scroll { overflow-x: auto; max-height: 640px; overflow-y: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 6px; text-align: right; white-space: nowrap; border-bottom: 1px solid var(--line); }
th { position: sticky; top: 0; background: #e9edf3; font-weight: 600; }
tbody tr:nth-child(even) { background: var(--band); }
tbody tr:hover { background: #e3ecfa; }
td.text, th.text { text-align: left; white-space: normal; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \\2195"; color: #9aa3b2; font-weight: 400; }
table.sortable th[aria-sort="ascending"]::after { content: " \\25B2"; color: var(--accent); }
table.sortable th[aria-sort="descending"]::after { content: " \\25BC"; color: var(--accent); }
td.yes { color: #1e7a35; font-weight: 600; }
.changed { color: #a35b00; font-weight: 600; }
.cards { font-size: 22px; letter-spacing: 2px; margin: 6px 0 12px; }
.card { display: inline-block; padding: 2px 7px; margin-right: 4px; border: 1px solid var(--line);
        border-radius: 5px; background: #fff; box-shadow: 0 1px 2px rgba(0, 0, 0, .08); }
.red { color: var(--red); }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 18px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: #fff; }
figure img { width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
.calls { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
.calls td { text-align: center; min-width: 3.2em; }
td.call-pass { color: var(--muted); }
td.call-1, td.call-2 { background: #e3ecfa; }
td.call-3 { background: #c4d7f4; }
td.call-4, td.call-5, td.call-6, td.call-7 { background: #9dbbea; font-weight: 600; }
td.call-moon { background: #e9d5f2; font-weight: 600; }
.side { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.side > div { flex: 1 1 380px; max-width: 600px; }
.side figure { flex: 1 1 520px; max-width: 680px; }
pre { background: var(--band); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px;
      overflow-x: auto; }
footer { color: var(--muted); font-size: 13px; padding: 24px 20px 40px; }
"""

# Clicking a header sorts by that column: the first click puts the largest value first, the next the smallest.
# Numbers compare as numbers, other values as text; empty cells go last either way.
_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var headers = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(headers, function (th, column) {
    th.tabIndex = 0;
    function sort() {
      var down = th.getAttribute("aria-sort") !== "descending";
      Array.prototype.forEach.call(headers, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", down ? "descending" : "ascending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      function key(row) {
        var text = row.cells[column].getAttribute("data-value");
        var number = parseFloat(text);
        return text === "" ? null : (isNaN(number) ? text : number);
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === null || y === null) { return (x === null) - (y === null); }
        return (x < y ? -1 : x > y ? 1 : 0) * (down ? -1 : 1);
      });
      rows.forEach(function (row) { body.appendChild(row); });
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
  });
});
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def data_value(column: Column, value: Any) -> str:
    """A cell's value for sorting, as the CSV writes it: ``%.6g`` floats, whole numbers, ranks for the top."""
    if column.kind == "feature":
        if column.key == "top":
            return str(15 - TOP_LABELS.index(str(value)))  # trump rank: A 15 .. 2 0
        return str(int(value))
    if column.kind == "flag":
        return "1" if value else "0"
    try:
        number = float(value)
    except (TypeError, ValueError):  # pandas' NA: no bid worth making
        return ""
    if number != number:
        return ""
    return str(int(number)) if column.kind in ("count", "bid") else f"{number:.6g}"


def _table(frame: pd.DataFrame, columns: Sequence[Column], table_id: str, sorted_by: str) -> str:
    head = "".join(
        f'<th scope="col" data-key="{_e(c.key)}" title="{_e(FEATURES[c.key].help if c.kind == "feature" else c.header)}"'
        + (' aria-sort="descending"' if c.key == sorted_by else "") + f">{_e(c.header)}</th>"
        for c in columns
    )
    body = []
    for row in frame.to_dict("records"):
        cells = []
        for c in columns:
            css = ' class="yes"' if c.kind == "flag" and row[c.key] else ""
            cells.append(f'<td data-value="{_e(data_value(c, row[c.key]))}"{css}>{_e(c.text(row))}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="scroll"><table id="{table_id}" class="sortable"><thead><tr>{head}</tr></thead>'
            f"<tbody>\n" + "\n".join(body) + "\n</tbody></table></div>")


def _card(name: str) -> str:
    if name in ("HJ", "LJ"):
        return f'<span class="card">{name}</span>'
    rank, suit = name[:-1], SUIT_NAMES.index(name[-1])
    red = ' red' if suit in (1, 2) else ""
    return f'<span class="card{red}">{_e(rank)}{SUIT_SYMBOLS[suit]}</span>'


def _image(chart: Chart) -> str:
    name, description, png = chart
    data = base64.b64encode(png).decode("ascii")
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{_e(description)}">'
            f"<figcaption>{_e(description)} (<code>charts/{_e(name)}</code>)</figcaption></figure>")


def _example(analysis: HandAnalysis, chart: Chart | None) -> str:
    data = analysis.to_json()
    e = analysis.estimates
    rules = analysis.rules
    trump = data["trump"]["chosen"]
    shares = ", ".join(f"{suit_label(s)} {100 * p:.1f}%" for s, p in sorted(trump.items(), key=lambda kv: -kv[1])
                       if p)
    rows = [f"<tr><td>{b}</td><td>{_e(estimate_text(e.make.value[0, i], e.make.se[0, i], True))}</td>"
            f"<td>{_e(estimate_text(e.ev.value[0, i], e.ev.se[0, i]))}</td></tr>" for i, b in enumerate(e.bids)]
    if rules.moon:
        rows.append(f"<tr><td>moon</td><td>{_e(estimate_text(e.moon.value[0], e.moon.se[0], True))}</td>"
                    f"<td>{_e(estimate_text(e.moon_ev.value[0], e.moon_ev.se[0]))}</td></tr>")
    up_to = analysis.bid_up_to
    verdict = (f"Worth bidding up to <b>{up_to}</b> (the highest bid with EV ≥ 0)." if up_to
               else "No bid has EV ≥ 0.")
    moon = ""
    if rules.moon:
        moon = (f" Shooting the moon {'pays' if analysis.moon_pays else 'does not pay'}: it succeeds "
                f"{_e(estimate_text(e.moon.value[0], e.moon.se[0], True))} of the time.")
    text = (
        f'<div class="cards">{"".join(_card(c) for c in data["hand"])}</div>'
        f"<p>As bidder, over {analysis.samples:,} deals of the other 45 cards (seed {analysis.seed}, "
        f"{_e(analysis.policy)} play): <b>{_e(analysis.mean_points)}</b> points of {rules.max_points}. Trump "
        f"named after the kitty: {_e(shares)}. {verdict}{moon}</p>"
        '<table><thead><tr><th class="text">bid</th><th>P(make)</th><th>EV</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    return f'<div class="side"><div>{text}</div>{_image(chart) if chart else ""}</div>'


EQUITY_CHARTS = ("equity.png", "moon_break_even_by_score.png")


def _equity(table: EquityTable, charts: Sequence[Chart]) -> str:
    """The match-equity table: how to read it, one grid of P(win) per dealing team, and its charts."""
    lo = max(table.floor, 0)
    scores = range(lo, table.target)
    shown = np.s_[:, table.floor - table.solve_floor:, table.floor - table.solve_floor:]
    worst = float(table.win_se_grid[shown].max())
    text = (
        f"<p>The chance that a team wins the game from each score, solved exactly from the distribution of one "
        f"hand's outcome ({table.hands:,} simulated hands, seed {table.outcomes.seed}, "
        f"<code>{_e(table.policy)}</code> at all four seats). Read a row for your score and a column for theirs. "
        f"At 0–0 you win {_e(estimate_text(*_pair(table.win(0, 0, 'them')), True))} when they deal the first hand "
        f"and {_e(estimate_text(*_pair(table.win(0, 0, 'us')), True))} when you deal it. Standard errors are at "
        f"most {100 * worst:.2g} points of percentage; <code>equity.csv</code> has every state from "
        f"{table.floor} with its own. Scores below {table.solve_floor} are held there, which changes no value by "
        f"more than {table.truncation_bound:.1g}.</p>"
    )
    grids = []
    for dealer in ("them", "us"):
        head = "".join(f'<th scope="col">{them}</th>' for them in scores)
        rows = "".join(
            f'<tr><th scope="row">{us}</th>'
            + "".join(f"<td>{100 * table.win(us, them, dealer).value:.1f}</td>" for them in scores) + "</tr>"
            for us in reversed(scores))
        grids.append(f"<h3>P(win) in %, '{_e(dealer)}' dealing the next hand</h3>"
                     f'<div class="scroll"><table><thead><tr><th scope="col">us \\ them</th>{head}</tr></thead>'
                     f"<tbody>{rows}</tbody></table></div>")
    images = '<div class="charts">' + "".join(map(_image, charts)) + "</div>" if charts else ""
    return text + "".join(grids) + images


def _positions(frame: pd.DataFrame, picture: Chart | None) -> str:
    """What to call, by place in the auction: one chart per place, hand strengths down, standing calls across."""
    meta = frame.attrs
    us, them = meta["score"]
    text = (
        f"<p>The bid table below is the declarer's view: it gives the hand the auction unopposed, so passing is "
        f"worth nothing and the best bid is always the lowest. Here {meta['deals']:,} deals were bid by the "
        f"<code>{_e(meta['policy'])}</code> policy at all four seats, and at each seat's turn every legal call was "
        f"played out on the same deal: the later seats called by the policy, the auction's winner declared and the "
        f"hand was played. So a pass is worth what the others then make, and an overcall meets a hand that has shown "
        f"strength. Each cell is the call most likely to win the game at {us}–{them} (the match-equity table reads "
        f"the score each deal leaves).</p><p>Rows: the hand's strength, {_e(STRENGTH_HELP)}: find your hand's class "
        f"in the bid table. Columns: the standing call, {_e(STANDING_HELP)}. · marks cells of fewer than "
        f"{meta['min_count']:,} hands; <code>by_position.csv</code> has every call's P(win) and EV with standard "
        "errors.</p>"
    )
    tables = []
    for chart in call_charts(frame.to_dict("records")):
        head = "".join(f'<th scope="col">{_e(s)}</th>' for s in chart.standings)
        rows = "".join(
            f'<tr><th scope="row">{_e(label)}</th>'
            + "".join(f'<td class="call-{_e(c)}" data-value="{_e(c)}">{_e(c)}</td>' if c not in ("", "·")
                      else f"<td>{_e(c)}</td>" for c in cells) + "</tr>"
            for label, cells in zip(chart.strengths, chart.cells, strict=True))
        tables.append(f'<div><h3>The {_e(chart.place)}</h3><div class="scroll"><table data-place="{_e(chart.place)}">'
                      f'<thead><tr><th scope="col">strength</th>{head}</tr></thead><tbody>{rows}</tbody></table>'
                      "</div></div>")
    image = f'<div class="charts">{_image(picture)}</div>' if picture else ""
    return text + '<div class="calls">' + "".join(tables) + "</div>" + image


def _text(words: str) -> str:
    """Plain words of the report as HTML, each `name` as code."""
    parts = _e(words).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _plain_table(columns: Sequence[str], rows: Sequence[Sequence[str]], attrs: str = "") -> str:
    head = "".join(f'<th scope="col">{_e(c)}</th>' for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="scroll"><table{attrs}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _count(rule: Any) -> str:
    """A count to use at the table: what it is, its weights, what each call needs with your score in the first
    band, and its accuracy (:func:`smear_sim.analysis.count.count_view`)."""
    from ..analysis.count import count_view

    view = count_view(rule)
    how, agree = count_words(view)
    weights = _plain_table(["card", "points"], [[w["label"], str(w["points"])] for w in view["weights"]],
                           ' id="count-weights"')
    band = view["bands"][0]
    needs = _plain_table(["place", "standing", *(f"theirs {c}" for c in band["columns"])],
                         [[r["place"], r["standing"], *r["cells"]] for r in band["rows"]], ' id="count-needs"')
    more = "" if len(view["bands"]) < 2 else (
        f"<p>That is with your score {_e(band['us'])}, as at 0–0; <code>count.md</code> has every band of your "
        'score, as does docs/players.md (section "The count").</p>')
    text = f"<p>{_text(how)}</p>{weights}<h3>What each call needs, your score {_e(band['us'])}</h3>{needs}{more}"
    if agree:
        text += (f"<h3>How well it calls</h3><p>{_text(agree)}</p>"
                 + _plain_table(*count_accuracy_cells(view["accuracy"]), ' id="count-accuracy"'))
    return text


def _pair(estimate) -> tuple[float, float]:
    return estimate.value, estimate.se


def _rules(rules: Rules) -> str:
    default = Rules().as_dict()
    rows = []
    for name, value in rules.as_dict().items():
        changed = value != default[name]
        shown = _e(format_value(value))
        rows.append(f'<tr><td class="text"><code>{name}</code></td><td class="text{" changed" if changed else ""}">'
                    f'{shown}</td><td class="text">{_e(format_value(default[name]))}</td>'
                    f'<td class="text">{_e(OPTION_HELP[name])}</td></tr>')
    return ('<table><thead><tr><th class="text">option</th><th class="text">value</th><th class="text">default</th>'
            f'<th class="text">meaning</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def _change(change: RulesChange) -> str:
    """What changes from the rules of the report in the folder above to these: sentences, then three tables."""
    levels, common, moon = rules_change_columns(change)
    base = change.base
    points = "".join(f"<li>{_e(line)}</li>" for line in rules_change_points(change))
    return (
        f'<p>Compared with <a href="../index.html">the report in the folder above</a> ({base.hands:,} random deals, '
        f"seed {base.seed}, policy <code>{_e(base.policy)}</code>, {_e(rules_label(base.rules))}), class by class, "
        f"hands grouped by {_e(', '.join(change.by))}. Every figure is read from the two bid tables, "
        "<code>bid_table.npz</code> here and <code>../bid_table.npz</code>.</p>"
        f"<ul>{points}</ul>"
        "<h3>How high the bids go</h3><p>The share of hands whose best bid (bid up to) is at least each bid.</p>"
        + _table(change.levels, levels, "change-levels", "")
        + "<h3>The most common classes</h3><p>The moon needs the success rate at which it beats the best numeric "
        "bid.</p>" + _table(change.classes, common, "change-classes", "hands")
        + "<h3>The best moon classes under each rule set</h3>" + _table(change.moon, moon, "change-moon", "")
    )


def _others(others: Sequence[Any]) -> str:
    """Links to the reports in the subfolders (:class:`smear_sim.output.report.NestedReport`)."""
    items = "".join(f'<li><a href="{_e(o.name)}/index.html">{_e(o.name)}/</a>: {_e(o.described())}</li>'
                    for o in others)
    return f"<p>The same report under other rules, in subfolders of this one:</p><ul>{items}</ul>"


def report_page(table: ClassTable, frame: pd.DataFrame, moon: pd.DataFrame, *, command: str,
                charts: Sequence[Chart] = (), example_hand: HandAnalysis | None = None,
                equity: EquityTable | None = None, docs: str = "", positions: pd.DataFrame | None = None,
                change: RulesChange | None = None, others: Sequence[Any] = (), count: Any = None) -> str:
    """The whole report as one HTML page.

    ``positions`` is the position table (``PositionTable.frame``): the call to make by place in the auction,
    shown first, with the chart named ``calls_by_position.png``. ``frame`` is the bid table, the declarer's view, and ``moon`` the moon table (as the CSV files
    hold them); only their rows with enough hands (``reliable``) are shown. ``charts`` are embedded; the one named ``example_hand_points.png``
    goes with the example hand, and those of ``EQUITY_CHARTS`` with the match-equity table ``equity``. ``docs``
    is HTML naming where the rules are written down. ``change`` (what changes from the rules of the report in the
    folder above) comes first; ``others`` (the reports in subfolders) are linked after the rules. ``count`` (a
    :class:`smear_sim.core.count.CountRule`) is shown after what to call by place.
    """
    rules = table.rules
    by = frame.attrs["by"]
    min_count = frame.attrs["min_count"]
    reliable = frame[frame["reliable"]].sort_values("hands", ascending=False, kind="stable")
    moon_rows = moon[moon["reliable"]]
    example_chart = next((c for c in charts if c[0] == "example_hand_points.png"), None)
    calls_chart = next((c for c in charts if c[0] == "calls_by_position.png"), None) if positions is not None else None
    equity_charts = [c for c in charts if c[0] in EQUITY_CHARTS] if equity is not None else []
    other_charts = [c for c in charts if c is not example_chart and c is not calls_chart and c not in equity_charts]
    features = "".join(f"<li><b>{_e(name)}</b>: {_e(FEATURES[name].help)}</li>" for name in by)
    label = rules_label(rules)
    sections = [] if change is None else [("changes", f"What changes with {rules_change_name(*change.rules)}",
                                            _change(change))]
    if positions is not None:
        sections.append(("calls", "What to call, by place in the auction", _positions(positions, calls_chart)))
    if count is not None:
        sections.append(("count", COUNT_TITLE, _count(count)))
    sections += [
        ("bid-table", "The declarer's view: bid table", (
            f"<p>The declarer's view: each random hand is dealt to seat 0, who wins the auction unopposed and takes "
            f"the kitty; all four seats play the "
            f"<code>{_e(table.policy)}</code> policy. Hands are grouped by what a player sees at a glance in the "
            f"hand's class suit: {_e(CLASS_SUIT_HELP)}.</p><ul>{features}</ul>"
            f"<p><b>P(make b)</b> is the chance the bidding team wins at least b points; <b>EV b</b> is its hand "
            f"score with bid b (its points if it makes the bid, else −b) minus the opponents' points; <b>bid up "
            f"to</b> is the highest bid whose EV is not negative. Every figure is estimate ± standard error. The "
            f"{len(reliable):,} groups with at least {min_count:,} hands are shown (of {len(frame):,}; all are in "
            f"<code>bid_table.csv</code>). Click a column header to sort.</p>"
            + _table(reliable, bid_table_columns(by, rules), "bid-table-rows", "hands"))),
        ("moon", "Shooting the moon", (
            f"<p>A moon decides the game: a won game counts +{rules.target} points and a lost one −{rules.target}, "
            f"so its EV is (2p − 1) × {rules.target} for success rate p. It pays when that beats the EV of the best "
            f"numeric bid. {_e(moon_needs(rules))} {int(moon_rows['moon_pays'].sum())} of the {len(moon_rows):,} "
            f"classes with at least "
            f"{min_count:,} hands should shoot the moon.</p>"
            + _table(moon_rows, moon_table_columns(by), "moon-table-rows", "moon"))),
    ]
    if equity is not None:
        sections.append(("equity", "Match equity: the chance of winning from every score",
                         _equity(equity, equity_charts)))
    if other_charts:
        sections.append(("charts", "Charts", '<div class="charts">' + "".join(map(_image, other_charts)) + "</div>"))
    if example_hand is not None:
        sections.append(("example", "An example hand", _example(example_hand, example_chart)))
    sections.append(("rules", "Rules", f"<p>These results were made under the {_e(label)}"
                     f"{' (changed options in colour)' if rules.changed() else ''}. {docs}</p>{_rules(rules)}"))
    if others:
        sections.append(("other-rules", "Other rules", _others(others)))
    sections.append(("command", "The command that made this page", (
        "<p>The seed fixes every number; the thread count does not change any.</p>"
        f"<pre><code>{_e(command)}</code></pre>")))
    nav = "".join(f'<a href="#{key}">{_e(title)}</a>' for key, title, _ in sections)
    variant = f", {_e(rules_name(rules))}" if rules.changed() else ""
    also = "" if not others else " The same report under " + ", ".join(
        f'<a href="{_e(o.name)}/index.html">{_e(o.label())}</a>' for o in others) + "."
    body = "\n".join(f'<section id="{key}"><h2>{_e(title)}</h2>\n{content}\n</section>' for key, title, content in sections)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>Smear bid table{variant}: smear-sim report</title>\n"
        f"<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>Smear: what to bid, and when to shoot the moon{variant}</h1>"
        f'<p class="lead">{table.hands:,} random deals, seed {table.seed}, policy <code>{_e(table.policy)}</code>, '
        f"{_e(label)}. Made by <code>{_e(command)}</code>.{also}</p><nav>{nav}</nav></header>\n"
        f"<main>\n{body}\n</main>\n"
        "<footer>Made by smear-sim, a Monte Carlo strategy analyzer for Smear. Every estimate carries its "
        "standard error; digits the sample cannot support are not shown.</footer>\n"
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )
