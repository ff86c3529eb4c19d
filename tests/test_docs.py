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


# -- the shown outputs: each ```console block is a command and what it prints, run here and compared -------------
# A block tagged ```console starts with "$ smear-sim ..." and shows that command's standard output, at a terminal
# 120 columns wide (rich fits its tables to the width). A file the command reads is a block of the same document
# tagged with its name, e.g. ```json file=view.json. A line "..." in the shown output stands for any lines; times
# ("3.1 s") are compared as "N s". Shown outputs are made by the commands themselves: rerun the block's command
# with COLUMNS=120 and paste its output.

SESSION = re.compile(r"^```console\n(.*?)^```$", flags=re.MULTILINE | re.DOTALL)
NAMED_FILE = re.compile(r"^```\w+ file=(\S+)\n(.*?)^```$", flags=re.MULTILINE | re.DOTALL)
TIME = re.compile(r"\b\d+(?:\.\d+)? ?s\b")
SHOWN = [(path, text) for path in DOCS for text in SESSION.findall(path.read_text(encoding="utf-8"))]


def _shown_lines(text: str) -> list[str]:
    return [TIME.sub("N s", line.rstrip()) for line in text.rstrip("\n").split("\n")]


def _matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown``, a "..." line in ``shown`` standing for any lines."""
    if not shown:
        return not printed
    if shown[0] == "...":
        return any(_matches(shown[1:], printed[i:]) for i in range(len(printed) + 1))
    return bool(printed) and shown[0] == printed[0] and _matches(shown[1:], printed[1:])


def test_the_docs_show_outputs_to_check():
    assert {path.name for path, _ in SHOWN} >= {"README.md"} and len(SHOWN) >= 3
    for _, block in SHOWN:
        assert block.startswith("$ smear-sim "), block[:80]


@pytest.mark.parametrize(("path", "block"), SHOWN, ids=[f"{p.name}: {b.split(chr(10))[0][2:60]}" for p, b in SHOWN])
def test_a_shown_output_is_what_the_command_prints(path, block, tmp_path, monkeypatch):
    """Regression: the README's ``hand`` example showed points 3.336 where the command printed 3.342, and no Count
    line; a reader who sees one example disagree doubts every published number."""
    import shlex

    from typer.testing import CliRunner

    from smear_sim.cli import app

    command, _, shown = block.partition("\n")
    for name, content in NAMED_FILE.findall(path.read_text(encoding="utf-8")):
        (tmp_path / name).write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = shlex.split(command.removeprefix("$ "))[1:]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "120", "NO_COLOR": "1"})
    assert result.exit_code == 0, (result.output, result.exception)
    printed = _shown_lines(result.stdout)
    assert _matches(_shown_lines(shown), printed), "\n".join(printed)


def test_an_install_line_installs_into_the_readmes_virtual_environment():
    """Regression: the page's install line was a bare ``pip install '.[web]'``, outside the .venv that the main
    command made, so its ``smear-sim serve`` was not the one installed."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line for block in re.findall(r"^```\n(.*?)^```$", readme, flags=re.MULTILINE | re.DOTALL)
             for line in block.splitlines()]
    installs = [line for line in lines if "pip install" in line.split("#")[0]]
    assert installs and all(re.match(r"(python3 -m venv \.venv && )?\.venv/bin/pip install ", line) for line in installs)
    assert ".venv/bin/pip install '.[web]' && .venv/bin/smear-sim serve --open" in lines


def test_learned_doc_lists_every_field_of_the_view_tensor_with_its_offset_and_size():
    from smear_sim.core.view_layout import VIEW_FIELDS, VT_SIZE

    text = (ROOT / "docs" / "learned.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", text, flags=re.MULTILINE)
    offsets = [sum(size for _, size, _ in VIEW_FIELDS[:i]) for i in range(len(VIEW_FIELDS))]
    assert rows == [(name, str(at), str(size)) for (name, size, _), at in zip(VIEW_FIELDS, offsets, strict=True)]
    assert f"**{VT_SIZE}** entries" in text
