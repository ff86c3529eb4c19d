"""The learned player at the command line: it plays wherever a player is taken, with the net SMEAR_SIM_NET names
(here the tiny golden net), and without a net every command says so in one line, exit status 2, before any work."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import assert_clean_failure, invoke, ok_json

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "net" / "net.npz"


@pytest.fixture
def golden_net(monkeypatch):
    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN))


def test_match_net_against_heuristic(golden_net):
    result = ok_json("match", "net", "heuristic", "--games", "4")
    assert (result["policy_a"], result["policy_b"], result["games"]) == ("net", "heuristic", 4)
    assert result["wins"] + result["losses"] + result["unfinished"] <= result["games_played"] == 8


def test_bench_times_the_net_against_heuristic(golden_net):
    data = ok_json("bench", "--hands", "1000", "--repeats", "1", "--threads", "1", "--search-hands", "0")
    assert data["net_hand_per_s"] > 0


def test_simulate_with_the_net(golden_net):
    result = ok_json("simulate", "--policy", "net", "--hands", "40")
    assert result["hands"] == 40 and result["policies"] == ["net", "net"]


@pytest.mark.parametrize("args", [
    ("simulate", "--policy", "net,heuristic", "--hands", "10"),
    ("match", "net", "heuristic", "--games", "2"),
])
def test_without_a_net_the_command_says_so_in_one_line(monkeypatch, tmp_path, args):
    monkeypatch.setenv("SMEAR_SIM_NET", str(tmp_path / "missing.npz"))
    line = assert_clean_failure(invoke(*args))
    assert "missing.npz" in line and "SMEAR_SIM_NET" in line


def test_a_file_that_is_not_a_net_is_refused_in_one_line(monkeypatch, tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_text("not a net\n")
    monkeypatch.setenv("SMEAR_SIM_NET", str(bad))
    line = assert_clean_failure(invoke("simulate", "--policy", "net", "--hands", "10"))
    assert "bad.npz" in line
