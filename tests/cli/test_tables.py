"""``smear-sim bid-table`` and ``moon`` from the outside, and bad input to every command that analyses hands.

Happy paths run with small sizes and write into pytest's tmp_path. Bad input must end with exit status 2,
exactly one line on standard error that says what to type instead, and no traceback.
"""

from __future__ import annotations

import json

import pytest
from cli_helpers import assert_clean_failure, assert_clean_process_failure, invoke, ok, run

from smear_sim import evaluate_hand
from smear_sim.analysis import report as analysis_report
from smear_sim.core import layout as L

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"


@pytest.fixture
def small_strength_buckets(monkeypatch):
    """The strength buckets from 100,000 declarer's-view hands instead of 2,000,000: the same code writes the same
    files and rows, without a 2,000,000-hand class table at every call (most of the command's time)."""
    monkeypatch.setattr(analysis_report, "POSITION_CLASS_HANDS", 100_000)


@pytest.mark.parametrize(("args", "name", "suffixes"), [
    (["bid-table", "--hands", "2000", "--show", "0"], "bid_table", (".csv", ".md", ".npz", ".parquet")),
    (["bid-table", "--by-position", "--hands", "300", "--equity-hands", "20000", "--show", "0"], "by_position",
     (".csv", ".md", ".npz")),
], ids=["bid-table", "by-position"])
def test_a_table_without_out_is_written_here_never_into_the_reports_results(tmp_path, monkeypatch, args, name,
                                                                             suffixes, small_strength_buckets):
    """Regression: the README's ``smear-sim bid-table --by-position``, run in a checkout, replaced the committed
    results/by_position.* with a table made differently. The report's files are written by ``report`` only."""
    (tmp_path / "results").mkdir()
    monkeypatch.chdir(tmp_path)
    ok(*args)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["results", *(name + s for s in suffixes)])
    assert list((tmp_path / "results").iterdir()) == []


def test_the_tables_help_says_where_they_go_by_default():
    text = " ".join(ok("bid-table", "--help").stdout.replace("│", " ").split())
    assert "default bid_table in the current folder" in text and "default by_position" in text
    assert "Never results/ unless you say so" in text


def test_bid_table_by_position_writes_its_files(tmp_path, small_strength_buckets):
    out = tmp_path / "calls"
    data = json.loads(ok("bid-table", "--by-position", "--hands", "3000", "--out", str(out), "--equity-hands",
                         "20000", "--min-count", "50", "--json").stdout)
    expected = [out.with_suffix(s) for s in (".csv", ".md", ".npz")]
    assert data["files"] == [str(p) for p in expected] and all(p.is_file() for p in expected)
    assert data["deals"] == 3000 and data["score"] == [0, 0]
    places = {row["place"] for row in data["rows"]}
    assert places == {"opener", "second", "third", "dealer"}
    assert {"win_pass", "ev_moon", "call", "win_margin", "strength", "standing"} <= set(data["rows"][0])
    markdown = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "## The opener" in markdown and "| strength | none |" in markdown
    text = ok("bid-table", "--by-position", "--hands", "3000", "--out", str(out), "--equity-hands", "20000",
              "--score", "15,19").stdout
    assert "What to call" in text and "The dealer" in text and "at 15–19" in text


def test_bid_table_writes_its_files(tmp_path):
    out = tmp_path / "tables" / "bids"
    result = ok("bid-table", "--hands", "20000", "--out", str(out), "--by", "trumps,top", "--json")
    data = json.loads(result.stdout)
    expected = [out.with_suffix(s) for s in (".csv", ".md", ".npz", ".parquet")]
    assert data["files"] == [str(p) for p in expected]
    assert all(p.is_file() and p.stat().st_size > 0 for p in expected)
    assert data["hands"] == 20_000 and data["by"] == ["trumps", "top"]
    assert sum(row["hands"] for row in data["rows"]) == 20_000
    assert all(isinstance(row["top"], str) for row in data["rows"])
    table = ok("bid-table", "--hands", "20000", "--out", str(out), "--show", "4").stdout
    assert "The 4 most common groups" in table and "Wrote" in table


def test_moon_classes_and_one_hand(counts_file):
    out = ok("moon", "--hands", "20000", "--show", "5").stdout
    assert "Shooting the moon" in out
    data = json.loads(ok("moon", "--counts", str(counts_file), "--by", "trumps,top", "--json").stdout)
    moons = [row["moon"] for row in data["rows"]]
    assert moons == sorted(moons, reverse=True) and data["by"] == ["trumps", "top"]
    one = json.loads(ok("moon", "AH KH QH JH JD HJ 2H 10H AS", "--hands", "3000", "--json").stdout)
    assert one["samples"] == 3000
    assert {"success", "se", "ev", "ev_se", "pays", "best_bid"} <= set(one)
    # The same analysis through the API: the moon's EV is (2p - 1) x 21 exactly, on the counts.
    analysis = evaluate_hand("AH KH QH JH JD HJ 2H 10H AS", samples=3000)
    p = analysis.counts[L.CLS_MOON] / analysis.counts[L.CLS_COUNT]
    assert analysis.estimates.moon_ev.value[0] == (2 * p - 1) * 21
    assert {key: one[key] for key in ("success", "se", "ev", "ev_se", "pays")} == {
        key: analysis.to_json()["moon"][key] for key in ("success", "se", "ev", "ev_se", "pays")}
    assert "moon" in ok("moon", HAND, "--hands", "2000").stdout.lower()


def test_moon_with_counts_takes_rule_options_that_match_the_table(counts_file):
    plain = ok("moon", "--counts", str(counts_file), "--json").stdout
    same = ok("moon", "--counts", str(counts_file), "--rule", "target=21", "--policy", "heuristic", "--json")
    assert same.stdout == plain


def cannot_apply(counts_file, hand_json, tmp_path):
    """Options that cannot apply to what was asked, and the line that says so (regression: they were ignored,
    so --rule target=11 with --counts printed EVs for a target of 21)."""
    counts, hand = str(counts_file), str(hand_json)
    house = tmp_path / "house.toml"
    house.write_text("round_points = true\n", encoding="utf-8")
    return [
        (["moon", HAND, "--by", "trumps"], "--by cannot apply with CARDS"),
        (["moon", HAND, "--counts", counts], "--counts cannot apply with CARDS"),
        (["moon", HAND, "--min-count", "5"], "--min-count cannot apply with CARDS"),
        (["moon", HAND, "--show", "5"], "--show cannot apply with CARDS"),
        (["moon", "--counts", counts, "--hands", "5"], "--hands cannot apply with --counts"),
        (["moon", "--counts", counts, "--seed", "1"], "--seed cannot apply with --counts"),
        (["moon", "--counts", counts, "--threads", "1"], "--threads cannot apply with --counts"),
        (["moon", "--counts", counts, "--rule", "target=11"], "was made under target=21, not target=11"),
        (["moon", "--counts", counts, "--rules", str(house)], "was made under round_points=false, not "
                                                               "round_points=true"),
        (["moon", "--counts", counts, "--policy", "random"], "was made with --policy heuristic, not random"),
        (["moon", "--counts", counts, "--json", "--show", "3"], "--show cannot apply with --json"),
        (["bid-table", "--hands", "100", "--json", "--show", "3"], "--show cannot apply with --json"),
        (["plot", "hand", hand, "--value", "moon"], "--value cannot apply to a hand chart, which takes no chart"),
        (["plot", "make", counts, "--y", "top"], "--y cannot apply to a make chart, which takes --x, --min-count"),
        (["plot", "moon", counts, "--x", "top"], "--x cannot apply to a moon chart"),
        (["plot", "heatmap", counts, "--by", "trumps"], "--by cannot apply to a heatmap chart"),
        (["rules", "--toml", "--json"], "--toml cannot apply with --json"),
    ]


def test_an_option_that_cannot_apply_is_an_error(counts_file, hand_json, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args, words in cannot_apply(counts_file, hand_json, tmp_path):
        assert words in assert_clean_failure(invoke(*args)), args
    assert [p.name for p in tmp_path.iterdir()] == ["house.toml"]


BAD = {
    "hand_of_8": (["hand", "AH KH 2H JD 10C 5S 9S 4D"], "9 cards"),
    "hand_of_10": (["hand", "AH KH 2H JD 10C 5S 9S 4D 3C 3D"], "9 cards"),
    "duplicate_card": (["hand", "AH KH 2H JD 10C 5S 9S 4D AH"], "appears twice"),
    "unknown_card": (["hand", "AH KH 2H JD 10C 5S 9S 4D ZZ"], "write a rank"),
    "unknown_policy": (["hand", HAND, "--policy", "psychic"], "choose random, heuristic, heuristic-v1, pimc:K, equity, count, expert:K, oracle, net or guided:K"),
    "two_policies": (["hand", HAND, "--policy", "heuristic,random"], "give a single --policy"),
    "trump_X": (["hand", HAND, "--trump", "X"], "one of S H D C"),
    "threads_999": (["hand", HAND, "--threads", "999"], "--threads must be between 1 and"),
    "precision_0": (["hand", HAND, "--precision", "0"], "positive standard error such as 0.01"),
    "bad_rule": (["hand", HAND, "--rule", "high=king"], "high must be one of ace, highest"),
    "unknown_rule": (["hand", HAND, "--rule", "jokers=3"], "known options are"),
    "by_unknown_feature": (["bid-table", "--hands", "100", "--by", "trumps,colour"], "choose from"),
    "bid_table_threads_999": (["bid-table", "--hands", "100", "--threads", "999"], "--threads must be between"),
    "moon_by_unknown_feature": (["moon", "--hands", "100", "--by", "suit"], "choose from"),
    "moon_bad_hand": (["moon", "AH KH"], "9 cards"),
    "moon_off": (["moon", "--hands", "100", "--rule", "moon=false"], "drop --rule moon=false"),
    "moon_missing_counts": (["moon", "--counts", "missing.npz"], "bid-table --out"),
    "plot_missing_hand_file": (["plot", "hand", "missing.json"], "smear-sim hand CARDS --json"),
    "plot_missing_counts": (["plot", "heatmap", "missing.npz"], "bid-table --out"),
    "plot_wrong_kind": (["plot", "pie", "x.npz"], "choose heatmap, make, moon, hand"),
    "report_unknown_feature": (["report", "--hands", "100", "--by", "luck"], "choose from"),
    "bid_table_out_is_a_folder": (["bid-table", "--hands", "100", "--out", "."], "give a path without suffix in it"),
    "position_without_its_auction": (["hand", HAND, "--position", "3"], "needs the 2 call(s) made before it"),
    "auction_without_position": (["hand", HAND, "--auction", "pass"], "--auction cannot apply without --position"),
    "illegal_auction": (["hand", HAND, "--position", "3", "--auction", "3,2"], "the second call, a bid of 2, is not legal after a bid of 3"),
    "trump_with_position": (["hand", HAND, "--position", "1", "--trump", "H"], "--trump cannot apply with"),
    "auction_too_rare": (["hand", HAND, "--position", "4", "--auction", "moon,pass,pass", "--max-deals", "200000",
                          "--samples", "50000", "--equity-hands", "20000"], "fit only"),
    "by_position_with_by": (["bid-table", "--by-position", "--by", "trumps"], "--by cannot apply with --by-position"),
    "score_without_by_position": (["bid-table", "--hands", "100", "--score", "1,2"],
                                  "--score cannot apply without --by-position"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_exits_2_with_one_line(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # relative paths and default outputs stay in the test's folder
    args, words = BAD[case]
    line = assert_clean_failure(invoke(*args))
    assert words in line
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_bad_counts_file_names_the_command_that_makes_one(tmp_path, monkeypatch):
    """The library's message names its own way to make the file; the command line words it as its command."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "junk.npz").write_text("not a zip file")
    (tmp_path / "folder.npz").mkdir()
    lines = {name: assert_clean_failure(invoke("moon", "--counts", name)) for name in ("missing.npz", "folder.npz",
                                                                                       "junk.npz")}
    assert lines["missing.npz"] == "error: missing.npz does not exist: make it with 'smear-sim bid-table --out ...'"
    assert lines["folder.npz"] == "error: folder.npz is a folder; give the .npz file that 'smear-sim bid-table' wrote"
    assert lines["junk.npz"].startswith("error: junk.npz is not a class-count file from smear-sim bid-table (")
    assert lines["junk.npz"].endswith("); make it again with 'smear-sim bid-table --out ...'")
    assert not any("smear_sim." in line for line in lines.values())


@pytest.mark.parametrize(("args", "words"), [
    (["hand", HAND, "--threads", "0"], "--threads"),
    (["hand", HAND, "--samples", "0"], "--samples"),
    (["bid-table", "--hands", "0"], "--hands"),
    (["moon", "--min-count", "0"], "--min-count"),
    (["hand"], "CARDS"),
], ids=["threads_0", "samples_0", "hands_0", "min_count_0", "missing_cards"])
def test_typer_usage_errors_exit_2_with_one_line(args, words):
    line = assert_clean_process_failure(run(*args))
    assert words in line
