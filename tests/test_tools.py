"""The scripts of tools/ that publish into results/ run end to end on small samples."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).parents[1]


def _model_error(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "model_error.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_model_error_sets_the_published_rows_beside_another_table(tmp_path):
    out = tmp_path / "model_error"
    done = _model_error("--policy", "heuristic", "--hands", "4000", "--position-deals", "400", "--seed", "3", "--rows",
                        "5", "--out", str(out))
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(out.with_suffix(".csv"))
    assert len(table) == 5 and table["hands_published"].is_monotonic_decreasing
    assert {"make2_change", "make2_change_se", "ev4_change", "bid_up_to_strong"} <= set(table.columns)
    # heuristic against heuristic: the changes are noise, nearly all within 3 SE
    changes = table[[f"make{b}_change" for b in (2, 3, 4)]].to_numpy()
    ses = table[[f"make{b}_change_se" for b in (2, 3, 4)]].to_numpy()
    assert (abs(changes) <= 3 * ses + 1e-12).mean() >= 0.8
    text = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "`heuristic` (4,000 deals, seed 3)" in text and "`heuristic` (400 deals, seed 3" in text
    assert "--hands 4000 --position-deals 400 --seed 3 --rows 5`" in text
    assert text.count("\n| ") == 2 * 6  # two tables: a header and 5 rows each
    calls = pd.read_csv(tmp_path / "model_error_calls.csv")
    assert len(calls) == 5 and calls["turns_published"].is_monotonic_decreasing
    assert {"call_published", "call_strong", "win_pass_change", "ev_2_change_se"} <= set(calls.columns)
    again = _model_error("--policy", "heuristic", "--hands", "4000", "--position-deals", "400", "--seed", "3", "--rows",
                         "5", "--out", str(tmp_path / "again"), "--table", str(out.with_suffix(".npz")),
                         "--position-table", str(tmp_path / "model_error_calls.npz"))
    assert again.returncode == 0, again.stderr
    for suffix in (".csv", "_calls.csv"):
        assert (tmp_path / f"again{suffix}").read_text() == (tmp_path / f"model_error{suffix}").read_text()
    wrong = _model_error("--policy", "heuristic", "--hands", "5000", "--table", str(out.with_suffix(".npz")),
                         "--out", str(tmp_path / "wrong"))
    assert wrong.returncode != 0 and "--hands 4000" in wrong.stderr
    wrong = _model_error("--policy", "heuristic", "--hands", "4000", "--seed", "3", "--table", str(out.with_suffix(".npz")),
                         "--position-deals", "500", "--position-table", str(tmp_path / "model_error_calls.npz"),
                         "--out", str(tmp_path / "wrong"))
    assert wrong.returncode != 0 and "--position-deals 400" in wrong.stderr


def test_expert_parts_keeps_one_part_a_row_and_writes_each_estimate_with_its_se(tmp_path):
    """tools/expert_parts.py: each row but the last is expert with one part kept (so pimc plus that part), the
    last the whole expert; the page names the command, the seed and the rules. Bad sizes stop it before any work."""
    import numpy as np

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import expert_parts
    finally:
        sys.path.remove(str(ROOT / "tools"))
    from smear_sim.analysis.match import GamesResult
    from smear_sim.core import layout as L
    from smear_sim.core.players import parse_policy
    from smear_sim.core.rules import Rules

    rows = expert_parts.variants(8)
    assert [player for player, _ in rows] == [
        "expert:8:no-inference:no-keep:no-game", "expert:8:no-calls:no-keep:no-game",
        "expert:8:no-calls:no-inference:no-game", "expert:8:no-calls:no-inference:no-keep", "expert:8"]
    assert all(str(parse_policy(player)) == player for player, _ in rows)  # canonical names
    counts = np.zeros(L.DUP_SIZE, dtype=np.int64)
    counts[[L.DUP_WINS, L.DUP_LOSSES, L.DUP_HANDS]] = 7, 3, 90
    result = GamesResult("expert:8", "pimc:8", 5, 5, Rules(), counts)
    page = expert_parts.markdown([(player, what, result) for player, what in rows], 8, "python tools/expert_parts.py")
    assert "against `pimc:8`" in page and "5 game pairs a match" in page and "seed 5, default rules" in page
    assert page.count("\n| `expert:8") == 5 and "| 90 |" in page
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "expert_parts.py"), "--games", "0", "--out",
                           str(tmp_path / "x.md")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "--games must be from 1" in done.stderr and not (tmp_path / "x.md").exists()


def _make_net_data(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "make_net_data.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_make_net_data_writes_chunks_resumes_and_refuses_bad_input_in_one_line(tmp_path):
    """tools/make_net_data.py: the training data of a few hands (the driver tests' table, so its kernel is cached),
    run again as a resume that writes nothing; bad input one line and exit status 2; --help shows an example."""
    out = tmp_path / "net"
    args = (str(out), "--hands", "3", "--worlds", "4", "--policy", "expert:4,heuristic", "--hands-per-chunk", "2")
    done = _make_net_data(*args)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["chunk-000000.npz", "chunk-000001.npz", "run.json"]
    again = _make_net_data(*args)
    assert again.returncode == 0 and "wrote 0 chunks (2 already there)" in again.stderr
    for bad in (["--hands", "0"], ["--worlds", "100000"], ["--policy", "nobody"], ["--rule", "nonsense=1"]):
        refused = _make_net_data(str(tmp_path / "bad"), *bad)
        assert refused.returncode == 2 and refused.stderr.startswith("error:"), refused.stderr
        assert refused.stderr.count("\n") == 1, refused.stderr
    assert not (tmp_path / "bad").exists()
    shown = _make_net_data("--help")
    assert shown.returncode == 0 and "example: python tools/make_net_data.py" in shown.stdout
