"""tools/openspiel_match.py: duplicate matches at the OpenSpiel game, and its one-line refusals (exit 2)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

ROOT = Path(__file__).parents[2]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "openspiel_match.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_a_small_duplicate_match():
    done = _run("heuristic", "random", "--deals", "2", "--games", "1", "--seed", "2", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["deals"] == 2 and out["games"] == 1
    assert {"mean", "mean_se"} <= set(out["score_margin"]) and 0 <= out["win_rate"]["mean"] <= 1
    assert out["decisions"]["a"] > 0 and out["seconds_per_decision"]["a"] > 0


@pytest.mark.parametrize("args", [["openspiel:cfr", "heuristic"], ["openspiel:ismcts:0", "heuristic"],
                                  ["heuristic", "nobody"], ["heuristic", "random", "--deals", "-1"],
                                  ["heuristic", "random", "--rule", "target=0"]])
def test_bad_input_is_one_line_and_exit_2(args):
    done = _run(*args)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("error:")
