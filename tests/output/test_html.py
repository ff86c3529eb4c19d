"""The report as one web page (smear_sim/output/html.py): its structure, and its numbers against the CSV.

The page is parsed with the standard library's HTML parser; no browser is needed (tools/screenshot_report.sh
renders it in one, to look at).
"""

from __future__ import annotations

import base64
import io
import re
from html.parser import HTMLParser

import pandas as pd
import pytest
from matplotlib.figure import Figure

from smear_sim import class_table, evaluate_hand
from smear_sim.analysis.classes import DEFAULT_FEATURES
from smear_sim.core.rules import Rules
from smear_sim.output.format import bid_table_columns, moon_table_columns
from smear_sim.output.html import report_page
from smear_sim.output.report import write_bid_table, write_moon_table

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class Page(HTMLParser):
    """Tables (by id: header keys and rows of (data-value, text) cells), every src/href, and the scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, dict] = {}
        self.links: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.scripts: list[str] = []
        self._table = None
        self._cell = None
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        self.links += [attrs[name] for name in ("src", "href") if name in attrs]
        if tag == "table" and "id" in attrs:
            self._table = self.tables.setdefault(attrs["id"], {"keys": [], "sorted": None, "rows": []})
        elif self._table is not None and tag == "th":
            self._table["keys"].append(attrs["data-key"])
            if attrs.get("aria-sort"):
                self._table["sorted"] = (attrs["data-key"], attrs["aria-sort"])
        elif self._table is not None and tag == "tr" and self._table["keys"]:
            self._table["rows"].append([])
        elif self._table is not None and tag == "td":
            self._cell = [attrs.get("data-value"), ""]
        elif tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None
        elif tag == "td" and self._cell is not None:
            self._table["rows"][-1].append(tuple(self._cell))
            self._cell = None
        elif tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data
        if self._in_script:
            self.scripts[-1] += data


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A page made from a small table, with the CSV files written from the same table."""
    out = tmp_path_factory.mktemp("report")
    rules = Rules(target=15)
    table = class_table(20_000, seed=3, rules=rules)
    frame = table.frame(DEFAULT_FEATURES, 200)
    write_bid_table(table, frame, out / "bid_table")
    write_moon_table(table, out / "moon_table", DEFAULT_FEATURES, 200)
    fig = Figure(figsize=(1, 1))
    fig.add_subplot().plot([0, 1])
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=20)
    charts = [("points.png", "a chart", png.getvalue()), ("example_hand_points.png", "the hand", png.getvalue())]
    example = evaluate_hand("AH KH 2H JD 10C 5S 9S 4D 3C", samples=2000, rules=rules)
    text = report_page(table, frame, pd.read_csv(out / "moon_table.csv"), command="smear-sim report --rule target=15",
                       charts=charts, example_hand=example, docs="See docs/rules.md.")
    page = Page()
    page.feed(text)
    return {"text": text, "page": page, "table": table, "frame": frame, "bid": pd.read_csv(out / "bid_table.csv"),
            "moon": pd.read_csv(out / "moon_table.csv")}


def cell_values(page_table, key):
    column = page_table["keys"].index(key)
    return [row[column] for row in page_table["rows"]]


def test_the_page_needs_no_network(report):
    page = report["page"]
    assert not [link for link in page.links if re.match(r"\s*(https?:)?//", link, re.IGNORECASE)]
    assert not re.search(r"https?://", report["text"], re.IGNORECASE)
    assert [tag for tag, attrs in page.tags if tag == "link" or (tag == "script" and "src" in attrs)] == []
    images = [attrs["src"] for tag, attrs in page.tags if tag == "img"]
    assert len(images) == 2
    for src in images:
        prefix = "data:image/png;base64,"
        assert src.startswith(prefix) and base64.b64decode(src[len(prefix):])[:8] == PNG_MAGIC
    assert all(link.startswith(("#", "data:")) for link in page.links)


def test_the_bid_table_holds_the_csv_numbers(report):
    page_table = report["page"].tables["bid-table-rows"]
    csv = report["bid"]
    columns = bid_table_columns(DEFAULT_FEATURES, report["table"].rules)
    assert page_table["keys"] == [c.key for c in columns]
    reliable = csv[csv["reliable"]].sort_values("hands", ascending=False, kind="stable").reset_index(drop=True)
    assert len(page_table["rows"]) == len(reliable) > 20
    assert page_table["sorted"] == ("hands", "descending")
    shown = report["frame"][report["frame"]["reliable"]].sort_values("hands", ascending=False, kind="stable")
    for row, (_, expected), exact in zip(page_table["rows"], reliable.iterrows(), shown.to_dict("records"),
                                         strict=True):
        for c, (value, text) in zip(columns, row, strict=True):
            assert text == c.text(exact)  # estimate ± SE, from the unrounded figures
            if c.kind == "feature":
                assert text == c.text(expected)
            elif c.kind == "bid" and pd.isna(expected[c.key]):
                assert value == "" and text == "-"
            else:
                assert float(value) == float(expected[c.key]), (c.key, value, expected[c.key])


def test_the_moon_table_holds_the_csv_numbers(report):
    page_table = report["page"].tables["moon-table-rows"]
    csv = report["moon"]
    reliable = csv[csv["reliable"]].reset_index(drop=True)
    assert page_table["keys"] == [c.key for c in moon_table_columns(DEFAULT_FEATURES)]
    assert len(page_table["rows"]) == len(reliable)
    for key in ("hands", "moon", "moon_ev", "best_numeric_ev", "moon_gain"):
        assert [float(value) for value, _ in cell_values(page_table, key)] == list(reliable[key].astype(float))
    assert [text for _, text in cell_values(page_table, "moon_pays")] == [
        "yes" if pays else "no" for pays in reliable["moon_pays"]]


def test_the_page_shows_the_rules_the_command_and_the_example_hand(report):
    text = report["text"]
    assert "rules: target=15" in text and "RULES.md" not in text
    assert "smear-sim report --rule target=15" in text
    assert "An example hand" in text and "Worth bidding up to" in text
    assert 'class="card red">A♥' in text
    assert "<code>target</code>" in text
    script = " ".join(report["page"].scripts)
    assert "sortable" in script and "aria-sort" in script  # the headers sort their columns


def test_the_page_shows_the_match_equity_table(report):
    from smear_sim import match_equity

    rules = report["table"].rules
    equity = match_equity(20_000, seed=3, rules=rules, floor=-10)
    png = io.BytesIO()
    Figure(figsize=(1, 1)).savefig(png, format="png", dpi=20)
    charts = [("equity.png", "the equity chart", png.getvalue()), ("points.png", "a chart", png.getvalue())]
    text = report_page(report["table"], report["frame"], report["moon"], command="smear-sim report", charts=charts,
                       equity=equity)
    section = text[text.index('<section id="equity">'): text.index("</section>", text.index('id="equity"'))]
    assert "Match equity" in section and "the equity chart" in section and "a chart" not in section
    assert f"{100 * equity.win(14, 0, 'them').value:.1f}" in section
    rows = re.findall(r'<tr><th scope="row">(-?\d+)</th>((?:<td>[\d.]+</td>)+)</tr>', section)
    assert len(rows) == 2 * 15  # scores 0..14 for each dealing team
    first = [float(v) for v in re.findall(r"<td>([\d.]+)</td>", rows[0][1])]
    assert first == [round(100 * equity.win(14, them, "them").value, 1) for them in range(15)]
    assert 'href="#equity"' in text


def test_the_page_leads_with_the_call_by_place_in_the_auction(report):
    from smear_sim import match_equity, position_table

    rules = report["table"].rules
    positions = position_table(3000, seed=3, rules=rules, classes=report["table"])
    frame = positions.frame(match_equity(20_000, seed=3, rules=rules, floor=-10), min_count=50)
    text = report_page(report["table"], report["frame"], report["moon"], command="smear-sim report", positions=frame)
    page = Page()
    page.feed(text)
    assert text.index('<section id="calls">') < text.index('<section id="bid-table">')
    assert "The declarer&#x27;s view: bid table" in text and 'href="#calls"' in text
    shown = 0
    for place in ("opener", "second", "third", "dealer"):
        table = text[text.index(f'data-place="{place}"'):]
        table = table[: table.index("</table>")]
        rows = re.findall(r'<tr><th scope="row">(-?[\d.]+)–[\d.]+</th>(.*?)</tr>', table)
        for low, cells in rows:
            for call in re.findall(r'data-value="([^"]+)"', cells):
                mine = frame[(frame["place"] == place) & (frame["strength"].map("{:.2f}".format) == low)
                             & (frame["call"] == call)]
                assert len(mine) >= 1, (place, low, call)
                shown += 1
    assert shown == int(frame["reliable"].sum())
