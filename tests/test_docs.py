"""The user docs (README.md, docs/): links that resolve inside the repository, and tables that match the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from smear_sim.core.layout import CLASS_DIMS
from smear_sim.core.rules import Rules, format_value

ROOT = Path(__file__).parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_links_stay_in_the_repository_and_resolve(path):
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://")):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.is_file() and ROOT in linked.parents, (path.name, target)
        if anchor:
            assert anchor in anchors(linked), (path.name, target)


def test_rules_doc_lists_every_option_with_its_default():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| `([^`]+)` \|", text, flags=re.MULTILINE))
    assert rows == {name: format_value(value) for name, value in Rules().as_dict().items()}
    for name in rows:
        assert f"[option `{name}` = {rows[name]}]" in text  # stated where the rule is


def test_rules_doc_describes_every_hand_feature():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    features = re.findall(r"^\| `(\w+)` \| [^|]+ \| [^|]+ \|$", text, flags=re.MULTILINE)
    assert features == [name for name, _ in CLASS_DIMS]


def test_the_readme_quotes_the_round_points_report():
    """The README's figures for round points are those the committed report read from its tables."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraph = next(p for p in readme.split("\n\n") if p.startswith("`results/round-points/`"))
    report = (ROOT / "results" / "round-points" / "README.md").read_text(encoding="utf-8")
    section = report[report.index("## What changes with round points"):]
    figures = re.findall(r"\d+\.\d+|\d{2,}", paragraph.split("every figure", 1)[1])
    assert len(figures) >= 12
    for figure in figures:
        assert re.search(rf"(?<![\d.]){re.escape(figure)}(?![\d])", section), figure
