"""``smear-sim simulate``, ``match`` and ``bench`` from the outside: outputs, determinism and bad input.

Bad input must end with exit status 2, exactly one line on standard error and no traceback. Errors that
Typer itself raises (a value below an option's minimum) are checked through the real console entry point
in a subprocess, because only ``smear_sim.cli:main`` turns them into one line; CliRunner would show
Typer's own box.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_helpers import assert_clean_failure, assert_clean_process_failure, invoke, ok, ok_json, run

from smear_sim.core.rules import Rules

# -- simulate -------------------------------------------------------------------------------------------------


def test_simulate_prints_tables():
    out = ok("simulate", "--hands", "2000", "--seed", "3").stdout
    assert "2,000 hands, seed 3" in out
    for heading in ("Winning bids", "Teams", "Who wins each point"):
        assert heading in out


def test_simulate_json_fields():
    data = ok_json("simulate", "--hands", "3000", "--policy", "heuristic,random", "--rule", "round_points=true")
    assert data["hands"] == 3000 and data["seed"] == 1
    assert data["policies"] == ["heuristic", "random"]
    assert data["rules"]["round_points"] is True
    assert {"bids", "teams", "awards", "moon", "margin_team0", "misdeals", "thrown_in", "timing"} <= set(data)
    assert sum(row["count"] for row in data["bids"]) + data["thrown_in"] == 3000


def strict_json(text: str):
    """Parse as RFC 8259 JSON: NaN and Infinity are not JSON."""
    def reject(constant: str):
        raise ValueError(f"{constant} is not valid JSON")

    return json.loads(text, parse_constant=reject)


def test_simulate_and_match_json_stay_valid_json_for_tiny_samples():
    # Regression: with one hand or one deal a standard error cannot be estimated; it must come out as null,
    # not the bare token NaN, which jq and JSON.parse reject.
    strict_json(ok("simulate", "--hands", "1", "--json").stdout)
    strict_json(ok("match", "--deals", "1", "--json").stdout)


def test_hand_json_is_valid_json_for_tiny_samples():
    strict_json(ok("hand", "AH KH 2H JD 10C 5S 9S 4D 3C", "--samples", "1", "--json").stdout)


def without_timing(text: str) -> str:
    data = json.loads(text)
    data.pop("timing")
    return json.dumps(data, sort_keys=True)


def test_simulate_json_is_identical_for_any_threads_and_chunks():
    args = ["simulate", "--hands", "5001", "--seed", "9", "--json"]
    one = ok(*args, "--threads", "1").stdout
    two = ok(*args, "--threads", "2").stdout
    chunked = ok(*args, "--threads", "2", "--chunk-size", "777").stdout
    assert without_timing(one) == without_timing(two) == without_timing(chunked)
    assert without_timing(ok(*args[:-2], "10", "--json").stdout) != without_timing(one)


def test_simulate_trace_round_trips_through_score(tmp_path):
    trace = tmp_path / "hands.jsonl"
    result = ok("simulate", "--hands", "200", "--trace", str(trace), "--trace-hands", "50")
    assert f"Wrote 50 hand records to {trace}" in result.stdout
    lines = trace.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 50
    for line in lines:
        record = json.loads(line)
        scored = ok("score", "-", "--json", input=line)
        assert json.loads(scored.stdout) == record["result"]
    # A short run traces only the hands it simulated.
    ok("simulate", "--hands", "5", "--trace", str(trace), "--json")
    assert len(trace.read_text(encoding="utf-8").splitlines()) == 5


def test_simulate_trace_with_house_rules_file(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('forced_bid = "none"\nround_points = true\n', encoding="utf-8")
    trace = tmp_path / "t.jsonl"
    ok("simulate", "--hands", "100", "--rules", str(rules), "--rule", "target=5", "--policy", "random",
       "--trace", str(trace), "--trace-hands", "20", "--json")
    for line in trace.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        assert record["rules"] == {"round_points": True, "forced_bid": "none", "target": 5}
        assert json.loads(ok("score", "-", "--json", input=line).stdout) == record["result"]


# -- match and bench --------------------------------------------------------------------------------------------


def test_match_json_and_table():
    data = ok_json("match", "heuristic", "random", "--deals", "2000", "--seed", "2")
    assert (data["policy_a"], data["policy_b"], data["deals"], data["hands"]) == ("heuristic", "random", 2000, 4000)
    assert data["score_margin"]["mean"] > 5 * data["score_margin"]["mean_se"]
    assert set(data["points_margin"]) == {"mean", "mean_se"}
    again = ok_json("match", "heuristic", "random", "--deals", "2000", "--seed", "2", "--threads", "1")
    assert again == data
    out = ok("match", "--deals", "500").stdout
    assert "heuristic vs random" in out and "gains per hand" in out


def test_match_expert_games():
    """The strongest player plays a duplicate match from the command line (the smallest size: it searches)."""
    data = ok_json("match", "expert:2", "heuristic", "--games", "1", "--seed", "3", "--threads", "1")
    assert (data["policy_a"], data["policy_b"], data["games_played"]) == ("expert:2", "heuristic", 2)
    assert data["wins"] + data["losses"] + data["unfinished"] == 2


def test_match_games_json_and_table():
    data = ok_json("match", "equity", "heuristic", "--games", "300", "--seed", "2")
    assert (data["policy_a"], data["policy_b"], data["games"], data["games_played"]) == ("equity", "heuristic", 300,
                                                                                        600)
    for key in ("win_rate", "points_margin", "score_margin"):
        assert set(data[key]) == {"mean", "mean_se"}
    assert data["wins"] + data["losses"] + data["unfinished"] == 600
    assert data["win_rate"]["mean"] == pytest.approx((data["wins"] + data["unfinished"] / 2) / 600, abs=1e-3)
    assert ok_json("match", "equity", "heuristic", "--games", "300", "--seed", "2", "--threads", "1") == data
    out = ok("match", "heuristic", "random", "--games", "100").stdout
    assert "two complete games" in out and "heuristic wins" in out


def test_equity_under_new_rules_makes_its_tables_first_with_the_steps_and_time_left(tmp_path, monkeypatch):
    """First use under rules with no tables: one line says what is made and where, each step says how long the
    steps left may take, and the tables land in the user's cache, keyed by the rules and the code version."""
    import smear_sim.analysis.bidder_tables as B
    import smear_sim.analysis.session_tables as M
    from smear_sim.engine import bidder_store as CB

    monkeypatch.setenv(CB.CACHE_VARIABLE, str(tmp_path))
    monkeypatch.setattr(B, "FIRST_USE", {"deals": 2000, "equity_hands": 4000, "class_hands": 20_000,
                                         "max_iterations": 1})
    monkeypatch.setattr(M, "_LOADED", {})
    result = ok("simulate", "--hands", "200", "--policy", "equity", "--rule", "target=9", "--json")
    assert "first use of the equity bidder under target=9" in result.stderr and str(tmp_path) in result.stderr
    assert "step 0 (heuristic bidding)" in result.stderr and "about" in result.stderr  # the time the steps left take
    assert CB.cache_path(Rules(target=9)).is_file() and json.loads(result.stdout)["hands"] == 200
    again = ok("simulate", "--hands", "200", "--policy", "equity", "--rule", "target=9", "--json")
    assert "first use" not in again.stderr


def test_bench_json_fields(monkeypatch, tmp_path):
    monkeypatch.setenv("SMEAR_SIM_NET", str(tmp_path / "no-net.npz"))  # the net's figure: tests/cli/test_net_player.py
    out = ok("bench", "--hands", "1000", "--repeats", "1", "--threads", "1", "--search-hands", "2").stdout
    assert "Throughput" in out and "Complete games" in out and "Search, expert:16 against heuristic" in out
    # all threads again afterwards; bench takes the rule options like every command that simulates
    data = ok_json("bench", "--hands", "1000", "--repeats", "1", "--rule", "round_points=true", "--search-hands", "0")
    assert "pimc_hand_per_s" not in data and "expert_hand_per_s" not in data
    assert data["net_hand_per_s"] is None  # no net at hand: null, not a failure
    assert data["rules"] == Rules(round_points=True).as_dict()
    for name in ("threads", "deal_only_per_s", "full_hand_per_s", "full_hand_per_s_single", "ratio_to_deal_only",
                 "full_game_per_s", "hands_per_game", "game_hand_ratio"):
        assert isinstance(data[name], (int, float)) and data[name] > 0, name
    assert data["game_hand_ratio"] == pytest.approx(
        data["full_game_per_s"] * data["hands_per_game"] / data["full_hand_per_s"], rel=0.01)
    assert data["threads"] >= 1
    assert data["ratio_to_deal_only"] == pytest.approx(data["full_hand_per_s"] / data["deal_only_per_s"], abs=1e-3)


# -- bad input --------------------------------------------------------------------------------------------------


BAD = {
    "threads_999": (["simulate", "--hands", "10", "--threads", "999"], "--threads must be between 1 and"),
    "unknown_policy": (["simulate", "--hands", "10", "--policy", "clever"], "choose random, heuristic, heuristic-v1, pimc:K, equity, count, expert:K, oracle, net or guided:K"),
    "three_policies": (["simulate", "--hands", "10", "--policy", "a,b,c"], "two separated by a comma"),
    "misspelt_rule": (["simulate", "--hands", "10", "--rule", "round_point=true"], "did you mean 'round_points'"),
    "bad_rule_value": (["simulate", "--hands", "10", "--rule", "target=lots"], "whole number"),
    "impossible_rule": (["simulate", "--hands", "10", "--rule", "min_bid=9"], "choose min_bid between 1 and 4"),
    "rule_without_value": (["simulate", "--hands", "10", "--rule", "moon"], "KEY=VALUE"),
    "missing_rules_file": (["simulate", "--hands", "10", "--rules", "no-such-file.toml"], "does not exist"),
    "seed_too_big": (["simulate", "--hands", "10", "--seed", str(2**64)], "--seed must be a whole number"),
    "match_unknown_policy": (["match", "heuristic", "genius", "--deals", "10"], "choose random, heuristic, heuristic-v1, pimc:K, equity, count, expert:K, oracle, net or guided:K"),
    "match_threads_999": (["match", "--deals", "10", "--threads", "999"], "--threads must be between 1 and"),
    "match_games_and_deals": (["match", "--games", "10", "--deals", "10"], "--deals cannot apply with --games"),
    "match_expert_no_k": (["match", "expert:0", "pimc:16", "--games", "2"], "expert:K needs K"),
    "match_expert_bad_k": (["match", "expert:x", "heuristic", "--games", "2"], "expert:K needs K"),
    "match_expert_bad_part": (["match", "expert:2:no-luck", "heuristic", "--games", "2"],
                              "not a part expert can leave out"),
    "match_pimc_part": (["match", "pimc:2:no-game", "heuristic", "--games", "2"], "only expert:K or guided:K may leave out"),
    "bench_threads_999": (["bench", "--hands", "1000", "--threads", "999"], "--threads must be between 1 and"),
    "bench_bad_rule": (["bench", "--hands", "1000", "--rule", "target=0"], "target=0 is out of range"),
    "huge_target": (["simulate", "--hands", "10", "--rule", f"target={10**30}"], "is out of range"),
    "trace_hands_without_trace": (["simulate", "--hands", "10", "--trace-hands", "5"],
                                  "--trace-hands cannot apply without --trace"),
    "trace_is_a_folder": (["simulate", "--hands", "10", "--trace", "."], "--trace . is a folder"),
    "trace_below_a_device": (["simulate", "--hands", "10", "--trace", "/dev/null/x"], "is a file, not a folder"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_exits_2_with_one_line(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args, words = BAD[case]
    line = assert_clean_failure(invoke(*args))
    assert words in line


@pytest.mark.parametrize(("args", "words"), [
    (["simulate", "--threads", "0"], "--threads"),
    (["simulate", "--hands", "0"], "--hands"),
    (["simulate", "--seed", "-1"], "--seed"),
    (["match", "--deals", "0"], "--deals"),
    (["bench", "--hands", "10"], "--hands"),
    (["simulate", "--hands", "ten"], "--hands"),
    (["simulate", "--frobnicate"], "--frobnicate"),
], ids=["threads_0", "hands_0", "seed_negative", "deals_0", "bench_hands_10", "hands_not_a_number",
        "unknown_option"])
def test_typer_usage_errors_exit_2_with_one_line(args, words):
    line = assert_clean_process_failure(run(*args))
    assert words in line and "smear-sim --help" in line


def test_console_script_reports_usage_errors_on_one_line():
    line = assert_clean_process_failure(run("simulate", "--threads", "0", script=True))
    assert "--threads" in line


def test_importing_the_cli_does_not_load_numba_pandas_or_matplotlib():
    code = ("import sys, smear_sim.cli; "
            "print(sorted(m for m in ('numba', 'pandas', 'matplotlib') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_tournament_json_table_and_markdown(tmp_path):
    out = tmp_path / "players.md"
    result = ok("tournament", "random", "heuristic", "pimc:2", "--deals", "300", "--search-deals", "3", "--games",
                "20", "--search-games", "1", "--json", "--out", str(out))
    data = json.loads(result.stdout)
    assert data["players"] == ["random", "heuristic", "pimc:2"]
    assert [p["deals"] for p in data["pairs"]] == [300, 3, 3]
    assert [p["games"]["games"] for p in data["pairs"]] == [20, 1, 1]
    assert {r["player"] for r in data["ratings"]} == set(data["players"])
    text = out.read_text()
    assert text.startswith("# Players rated against each other")
    assert "smear-sim tournament random heuristic pimc:2 --deals 300 --search-deals 3 --games 20" in text
    table = ok("tournament", "random", "heuristic", "--deals", "200").stdout
    assert "Ratings" in table and "score margin" in table
    assert_clean_failure(invoke("tournament", "heuristic", "--deals", "10"))
    assert "pimc:K needs K" in assert_clean_failure(invoke("tournament", "heuristic", "pimc:0", "--deals", "10"))
