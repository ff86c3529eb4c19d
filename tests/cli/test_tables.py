"""``smear-sim hand``, ``bid-table``, ``moon``, ``plot`` and ``report`` from the outside.

Happy paths run with small sizes and write into pytest's tmp_path. Bad input must end with exit status 2,
exactly one line on standard error that says what to type instead, and no traceback.
"""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import assert_clean_failure, assert_clean_process_failure, invoke, ok, run

from smear_sim.analysis.hand import evaluate_hand
from smear_sim.core import layout as L
from smear_sim.core.io import MANIFEST

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def counts_file(tmp_path_factory):
    """Class counts from a small bid-table run, for moon --counts and the charts."""
    out = tmp_path_factory.mktemp("bid") / "bid_table"
    ok("bid-table", "--hands", "20000", "--out", str(out), "--show", "3")
    return out.with_suffix(".npz")


@pytest.fixture(scope="module")
def hand_json(tmp_path_factory):
    path = tmp_path_factory.mktemp("hand") / "hand.json"
    path.write_text(ok("hand", HAND, "--samples", "5000", "--json").stdout, encoding="utf-8")
    return path


# -- hand ----------------------------------------------------------------------------------------------------


def test_hand_table():
    out = ok("hand", HAND, "--samples", "5000", "--seed", "2").stdout
    assert f"{HAND} as bidder: 5,000 deals, seed 2" in out
    assert "Recommended bid" in out and "P(make)" in out


def test_hand_json_fields(hand_json):
    data = json.loads(hand_json.read_text(encoding="utf-8"))
    assert data["hand"] == HAND.split() and data["samples"] == 5000 and data["policy"] == "heuristic"
    assert {"trump", "points", "awards", "bids", "recommended_bid"} <= set(data)
    assert [row["bid"] for row in data["bids"]] == [2, 3, 4, "moon"]
    assert len(data["points"]["distribution"]) == 5


def test_hand_options_trump_rules_and_plot(tmp_path):
    chart = tmp_path / "dist.svg"
    data = json.loads(ok("hand", "ah,kh,2h,jd,10c,5s,9s,4d,3c", "--trump", "h", "--samples", "3000",
                         "--rule", "round_points=true", "--plot", str(chart), "--json").stdout)
    assert data["trump"]["fixed"] == "H" and data["trump"]["chosen"]["H"] == 1.0
    assert len(data["points"]["distribution"]) == 8
    assert "<svg" in chart.read_text(encoding="utf-8")


def test_hand_precision_is_deterministic():
    args = ["hand", HAND, "--precision", "0.01", "--json"]
    one = json.loads(ok(*args, "--threads", "1").stdout)
    two = json.loads(ok(*args, "--threads", "2").stdout)
    assert one == two
    assert one["samples"] % 10_000 == 0 and one["points"]["se"] < 0.01 and one["stopped_by"] == "precision"


def test_misdeal_callable_hand_warns_on_stderr():
    result = ok("hand", "3S 4S 5D 6D 7C 8C 9H 3H 4H", "--samples", "2000", "--json")
    assert "misdeal" in result.stderr and result.stderr.startswith("warning:")
    assert json.loads(result.stdout)["misdeal_callable"] is True
    quiet = ok("hand", "3S 4S 5D 6D 7C 8C 9H 3H 4H", "--samples", "2000", "--rule", "misdeal=false")
    assert quiet.stderr == ""
    assert ok("hand", HAND, "--samples", "2000").stderr == ""


# -- bid-table and moon ----------------------------------------------------------------------------------------


def test_hand_at_a_place_in_the_auction_advises_a_call():
    args = ("hand", HAND, "--position", "3", "--auction", "2,pass", "--samples", "2000", "--equity-hands", "20000")
    data = json.loads(ok(*args, "--json").stdout)
    assert [row["call"] for row in data["calls"]] == ["pass", 3, 4, "moon"]
    for row in data["calls"]:
        assert {"call", "win", "win_se", "ev", "ev_se", "declares"} <= set(row)
    assert data["recommended_call"] == max(data["calls"], key=lambda row: row["win"])["call"]
    assert data["position"] == 3 and data["auction"]["before"] == [2, "pass"]
    assert 0 < data["auction"]["acceptance"] < 1 and data["auction"]["samples"] >= 2000
    assert data["advice"]["call"] == data["recommended_call"] and data["advice"]["win_gain"] > 0
    assert data["bids"] and data["bid_up_to"]  # the declarer's view is still there
    text = ok(*args).stdout
    assert f"Advice: {'pass' if data['recommended_call'] == 'pass' else 'bid'}" in text or "Advice: shoot" in text
    assert "than " in text and "the next best call" in text and "The declarer's view" in text


def test_bid_table_by_position_writes_its_files(tmp_path):
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


# -- plot ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["png", "svg"])
@pytest.mark.parametrize("kind", ["heatmap", "make", "moon", "hand"])
def test_plot_writes_valid_charts(kind, fmt, counts_file, hand_json, tmp_path):
    source = hand_json if kind == "hand" else counts_file
    target = tmp_path / f"{kind}.{fmt}"
    extra = ["--value", "bid_up_to"] if kind == "heatmap" else []
    result = ok("plot", kind, str(source), "--out", str(target), *extra)
    assert f"Chart: {target}" in result.stdout
    data = target.read_bytes()
    if fmt == "png":
        assert data[:8] == PNG_MAGIC
    else:
        assert b"<svg" in data


def test_plot_format_option_sets_the_suffix(counts_file, tmp_path):
    ok("plot", "make", str(counts_file), "--out", str(tmp_path / "curves.png"), "--format", "svg")
    assert [p.name for p in tmp_path.iterdir()] == ["curves.svg"]


# -- report ----------------------------------------------------------------------------------------------------


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


# -- bad input -------------------------------------------------------------------------------------------------


BAD = {
    "hand_of_8": (["hand", "AH KH 2H JD 10C 5S 9S 4D"], "9 cards"),
    "hand_of_10": (["hand", "AH KH 2H JD 10C 5S 9S 4D 3C 3D"], "9 cards"),
    "duplicate_card": (["hand", "AH KH 2H JD 10C 5S 9S 4D AH"], "appears twice"),
    "unknown_card": (["hand", "AH KH 2H JD 10C 5S 9S 4D ZZ"], "write a rank"),
    "unknown_policy": (["hand", HAND, "--policy", "psychic"], "choose random, heuristic, heuristic-v1, pimc:K or equity"),
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
    "illegal_auction": (["hand", HAND, "--position", "3", "--auction", "3,2"], "call 2 (2) is not legal"),
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


def test_plot_rejects_unknown_value_and_non_hand_json(counts_file, tmp_path):
    line = assert_clean_failure(invoke("plot", "heatmap", str(counts_file), "--value", "luck",
                                       "--out", str(tmp_path / "x.png")))
    assert "choose one of points, bid_up_to, moon" in line
    line = assert_clean_failure(invoke("plot", "heatmap", str(counts_file), "--x", "suits",
                                       "--out", str(tmp_path / "x.png")))
    assert "choose from" in line
    junk = tmp_path / "junk.json"
    junk.write_text('{"hand": 1}', encoding="utf-8")
    assert "not a hand analysis" in assert_clean_failure(invoke("plot", "hand", str(junk), "--out",
                                                                str(tmp_path / "y.png")))
    junk.write_text("{not json", encoding="utf-8")
    assert "not a hand analysis JSON file" in assert_clean_failure(invoke("plot", "hand", str(junk)))
    line = assert_clean_failure(invoke("plot", "make", str(counts_file), "--out", str(tmp_path / "c.pdf")))
    assert "png or svg" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.json"]


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
