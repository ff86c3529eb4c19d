"""``smear-sim report`` from the outside: a small report whose README lists files that exist."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_helpers import ok

from smear_sim.core.io import MANIFEST


def test_report_readme_lists_files_that_exist(first_report):
    """A report replaces the folder of an earlier one and keeps the user's files (:func:`first_report`)."""
    out, stdout, written = first_report.out, first_report.stdout, first_report.files
    assert f"to {out}/" in stdout
    readme = written["README.md"].decode("utf-8")
    assert f"smear-sim report {' '.join(SMALL_COMMAND)} --out {out} --rule target=11" in readme
    assert "rules: target=11" in readme and "RULES.md" not in readme  # the rules themselves, not a file name
    page = written["index.html"].decode("utf-8")
    assert "<!DOCTYPE html>" in page and 'id="equity"' in page
    listed = re.findall(r"^\| `([^`]+)` \|", readme, flags=re.MULTILINE)
    assert {"bid_table.csv", "bid_table.md", "bid_table.npz", "moon_table.csv", "moon_table.md", "equity.csv",
            "equity.md", "index.html", "by_position.csv", "by_position.md", "by_position.npz"} <= set(listed)
    assert 'id="calls"' in page and "charts/calls_by_position.png" in listed
    assert sum(name.startswith("charts/") for name in listed) == 9
    assert {"charts/equity.png", "charts/moon_break_even_by_score.png"} <= set(listed)
    for name in listed:
        assert name in written, name  # a file, there
    # nothing unlisted, no temporary files
    assert sorted(written) == sorted([*listed, "README.md", MANIFEST, "notes.txt"])
    assert written["notes.txt"] == b"mine"  # kept; the earlier report's chart is gone
    assert written[MANIFEST].decode().split() == sorted([*listed, "README.md"])  # what the next run replaces
    assert first_report.beside == ["results"]  # no temporary folder beside it


# -- a report under round points, nested in a default one ----------------------------------------------------------

# Small sizes: these tests check the files, the links and that a report reproduces, not the published numbers.
# The match-equity table's standard errors cost a solve per distinct hand outcome, and under round points (many
# outcomes) most of the report's time: a few dozen hands give each of its files.
SMALL_COMMAND = ["--hands", "20000", "--equity-hands", "50", "--position-deals", "2000"]  # as the README names them
SMALL = [*SMALL_COMMAND, "--rule", "target=11"]


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) and its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@dataclass(frozen=True)
class FirstReport:
    """What the first report of :func:`nested` left: its folder, the command's output, its files, and the names
    in the folder above."""

    out: Path
    stdout: str
    files: dict[str, bytes]
    beside: list[str]


@pytest.fixture(scope="module")
def first_report(tmp_path_factory) -> FirstReport:
    """The first report of :func:`nested` (target 11, small), made over a folder from an earlier report with a
    file of the user's in it; the user's file is then taken away, so that the other tests see only reports'
    files."""
    home = tmp_path_factory.mktemp("nested")
    out = home / "results"
    (out / "charts").mkdir(parents=True)  # a folder from an earlier report, with a file of the user's in it
    (out / "notes.txt").write_text("mine")
    (out / "charts" / "make9_by_trumps_and_top.png").write_text("an earlier report's chart")
    (out / MANIFEST).write_text("charts/make9_by_trumps_and_top.png\n")
    result = ok("report", *SMALL, "--out", str(out))
    first = FirstReport(out, result.stdout, tree(out), [p.name for p in home.iterdir()])
    (out / "notes.txt").unlink()
    return first


@pytest.fixture(scope="module")
def nested(first_report):
    """results/ (target 11, small) with a report under round points in results/round-points, made as the committed
    ones are: the parent (:func:`first_report`), then the nested one (which compares itself with the parent), then
    the parent again (which links the nested one)."""
    out = first_report.out
    ok("report", *SMALL, "--rule", "round_points=true", "--out", str(out / "round-points"))
    ok("report", *SMALL, "--out", str(out))
    return out


def test_a_round_points_report_has_the_files_of_a_default_one(nested):
    variant = nested / "round-points"
    own = {name for name in tree(nested) if not name.startswith("round-points/")}
    assert set(tree(variant)) == own  # README, index.html, every table in every format, the 9 charts, the manifest
    readme = (variant / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# Reference results: round points, target=11\n")
    command = (f"smear-sim report {' '.join(SMALL_COMMAND)} --out {variant} "
               "--rule round_points=true --rule target=11")
    assert f"```\n{command}\n```" in readme and "rules: round_points=true, target=11" in readme
    listed = re.findall(r"^\| `([^`]+)` \|", readme, flags=re.MULTILINE)
    parent = re.findall(r"^\| `([^`]+)` \|", (nested / "README.md").read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert listed == parent
    moon = (variant / "moon_table.md").read_text(encoding="utf-8")
    assert "A moon must win all 7 points at stake (High, Low, Jack, Game, the jick and both jokers)" in moon
    assert "A moon must win all 4 points at stake (High, Low, Jack and Game)" in (nested / "moon_table.md").read_text()
    page = (variant / "index.html").read_text(encoding="utf-8")
    assert "<title>Smear bid table, round points, target=11: smear-sim report</title>" in page
    assert "the jick and both jokers" in page and "P(make 7)" in page


def test_the_parent_report_keeps_and_links_the_nested_one(nested):
    from smear_sim.core.io import MANIFEST

    variant = nested / "round-points"
    assert (variant / MANIFEST).read_text().split() == sorted(n for n in tree(variant) if n != MANIFEST)
    assert not any(name.startswith("round-points") for name in (nested / MANIFEST).read_text().split())
    readme = (nested / "README.md").read_text(encoding="utf-8")
    assert "## Other rules" in readme and "[`round-points/`](round-points/README.md): round points, target=11" in readme
    assert "What changes with" not in readme  # the folder above it holds no report
    page = (nested / "index.html").read_text(encoding="utf-8")
    assert page.count('href="round-points/index.html"') == 2 and 'id="other-rules"' in page
    assert 'href="../index.html"' in (variant / "index.html").read_text(encoding="utf-8")
    assert "## Other rules" not in (variant / "README.md").read_text(encoding="utf-8")


def test_the_comparison_reads_its_figures_from_the_tables(nested):
    import pandas as pd

    from smear_sim.output.format import share_text

    variant = nested / "round-points"
    readme = (variant / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## What changes with round points\n"):]
    page = (variant / "index.html").read_text(encoding="utf-8")
    assert '<section id="changes"><h2>What changes with round points</h2>' in page
    for line in re.findall(r"^- (.+)$", section, flags=re.MULTILINE):
        assert html.escape(line, quote=True) in page  # the page says the same
    base, new = (pd.read_csv(folder / "bid_table.csv") for folder in (nested, variant))
    features = ["trumps", "top", "two", "jack", "jick", "jokers"]
    # the share of hands whose best bid is at least each bid, from each folder's bid table
    rows = re.findall(r"^\| (\d) \| ([^|]+?) \| ([^|]+?) \|$", section, flags=re.MULTILINE)
    assert [int(r[0]) for r in rows] == [2, 3, 4, 5, 6, 7]
    for bid, shown_base, shown_new in rows:
        for shown, frame in ((shown_base, base), (shown_new, new)):
            reliable = frame[frame["reliable"]]
            if int(bid) > (4 if frame is base else 7):
                assert shown == "-"
                continue
            share = reliable.loc[reliable["bid_up_to"].fillna(0) >= int(bid), "hands"].sum() / reliable["hands"].sum()
            assert shown == share_text(share), (bid, shown)
    # the most common classes: bid up to under each rule set, as each folder's bid table has it
    table = section[section.index("The most common classes"):section.index("The best moon classes")]
    body = [line.split(" | ") for line in table.splitlines() if re.match(r"\| \d", line)]
    assert len(body) == 8
    both = new.merge(base, on=features, suffixes=("", "_base"))
    for cells in body:
        cells[0] = cells[0].lstrip("| ")
        row = both[(both["trumps"] == int(cells[0])) & (both["top"] == cells[1]) & (both["two"] == (cells[2] == "2"))
                   & (both["jack"] == (cells[3] == "J")) & (both["jick"] == (cells[4] == "jick"))
                   & (both["jokers"] == int(cells[5]))]
        assert len(row) == 1 and int(cells[6].replace(",", "")) == row["hands"].iloc[0]
        assert (int(cells[10]), int(cells[11])) == (row["bid_up_to_base"].iloc[0], row["bid_up_to"].iloc[0])
    # the moon: the classes where it pays, as each folder's moon table counts them
    moons = [pd.read_csv(folder / "moon_table.csv") for folder in (nested, variant)]
    counts = [f"{int(m.loc[m['reliable'], 'moon_pays'].sum()) or 'none'} of the {int(m['reliable'].sum())} classes"
              for m in moons]
    assert f"The moon pays in {counts[0]} with at least 200 hands under target=11" in section
    assert f"and in {counts[1]} with at least 200 hands under round points, target=11" in section


def test_a_report_and_its_nested_report_reproduce_byte_for_byte(nested):
    before = tree(nested)
    assert len([name for name in before if name.startswith("round-points/")]) == 23  # 22 and the manifest
    ok("report", *SMALL, "--rule", "round_points=true", "--out", str(nested / "round-points"))
    ok("report", *SMALL, "--out", str(nested))
    after = tree(nested)
    assert after.keys() == before.keys()
    assert [name for name in before if after[name] != before[name]] == []
