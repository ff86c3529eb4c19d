"""``smear-sim report`` from the outside: a small report whose README lists files that exist."""

from __future__ import annotations

import re

from cli_helpers import ok

from smear_sim.core.io import MANIFEST


def test_report_readme_lists_files_that_exist(tmp_path):
    out = tmp_path / "results"
    (out / "charts").mkdir(parents=True)  # a folder from an earlier report, with a file of the user's in it
    (out / "notes.txt").write_text("mine")
    (out / "charts" / "make9_by_trumps_and_top.png").write_text("an earlier report's chart")
    (out / MANIFEST).write_text("charts/make9_by_trumps_and_top.png\n")
    result = ok("report", "--hands", "20000", "--equity-hands", "20000", "--out", str(out), "--rule", "target=15")
    assert f"to {out}/" in result.stdout
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert f"smear-sim report --hands 20000 --equity-hands 20000 --out {out} --rule target=15" in readme
    assert "rules: target=15" in readme and "RULES.md" not in readme  # the rules themselves, not a file name
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<!DOCTYPE html>" in page and 'id="equity"' in page
    listed = re.findall(r"^\| `([^`]+)` \|", readme, flags=re.MULTILINE)
    assert {"bid_table.csv", "bid_table.md", "bid_table.npz", "moon_table.csv", "moon_table.md", "equity.csv",
            "equity.md", "index.html", "by_position.csv", "by_position.md", "by_position.npz"} <= set(listed)
    assert 'id="calls"' in page and "charts/calls_by_position.png" in listed
    assert sum(name.startswith("charts/") for name in listed) == 9
    assert {"charts/equity.png", "charts/moon_break_even_by_score.png"} <= set(listed)
    for name in listed:
        assert (out / name).is_file(), name
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == sorted([*listed, "README.md", MANIFEST, "notes.txt"])  # nothing unlisted, no temporary files
    assert (out / "notes.txt").read_text() == "mine"  # kept; the earlier report's chart is gone
    assert (out / MANIFEST).read_text().split() == sorted([*listed, "README.md"])  # what the next run replaces
    assert [p.name for p in tmp_path.iterdir()] == ["results"]  # no temporary folder beside it
