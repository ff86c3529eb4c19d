"""``smear-sim review``: the JSON of the API, a hand trick by trick with its marks for people, and bad input named in
one line with exit status 2 before any work."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import assert_clean_failure, invoke, ok

from smear_sim import review
from smear_sim.analysis.simulate import trace_records

FAST = ["--samples", "8", "--kinds", "card", "--no-luck"]


@pytest.fixture(scope="module")
def records():
    return trace_records(2, seed=8)


@pytest.fixture
def jsonl(tmp_path, records):
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_json_is_the_apis(jsonl, records):
    data = json.loads(ok("review", str(jsonl), *FAST, "--seed", "3", "--json").stdout)
    assert data == review(records, samples=8, kinds=["card"], luck=False, seed=3).to_json()
    assert {d["record"] for d in data["decisions"]} == {0, 1}


def test_a_record_on_standard_input(records):
    data = json.loads(ok("review", "-", *FAST, "--json", input=json.dumps(records[0])).stdout)
    assert {d["record"] for d in data["decisions"]} == {0} and data["samples"] == 8


def test_people_get_the_hand_trick_by_trick(jsonl):
    out = ok("review", str(jsonl), "--samples", "8", "--kinds", "card,trump").stdout
    assert "Record 1, deal 1" in out and "Record 2, deal 1" in out
    assert "Calls:" in out and "won by" in out and "Decisions graded" in out and "Luck" in out


@pytest.mark.parametrize(("args", "message"), [
    (["missing.json"], "does not exist"),
    (["BAD"], "not valid JSON"),
    (["LINE2"], "line 2 is not valid JSON"),
    (["ILLEGAL"], "record 2: "),
    (["HAND", "--kinds", "bid"], "--kinds must name decisions among call, trump, keep, card"),
    (["HAND", "--inference", "maybe"], "--inference must be one of policy, none"),
    (["HAND", "--playout", "nobody"], "nobody"),
    (["HAND", "--playout", "oracle"], "cannot play out"),
    (["HAND", "--precise", "--samples", "9"], "--precise cannot apply with --samples"),
    (["HAND", "--rule", "target=5"], "scores_before"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, records, args, message):
    files = {"BAD": "{not json", "LINE2": json.dumps(records[0]) + "\n{oops\n",
             "ILLEGAL": json.dumps(records[0]) + "\n" + json.dumps({**records[1], "plays": records[1]["plays"][::-1]}),
             "HAND": json.dumps({**records[0], "scores_before": [6, 0]})}
    name = args[0]
    if name in files:
        path = tmp_path / f"{name}.json"
        path.write_text(files[name])
        args = [str(path), *args[1:]]
    line = assert_clean_failure(invoke("review", *args))
    assert message in line


def test_help_has_examples():
    out = ok("review", "--help").stdout
    assert "Examples" in out and "smear-sim review" in out and "--samples" in out


def test_scores_and_marks_read_as_words(tmp_path, records):
    """Regression: the review printed "Score after: 3–-3." and "Seat 1 bid 3 and named diamonds ♦?."."""
    record = records[0] | {"scores_before": [-10, -10]}  # a hand scores at most 4 (5 for a moon): still negative
    path = tmp_path / "negative.json"
    path.write_text(json.dumps(record))
    out = ok("review", str(path), "--samples", "8", "--kinds", "card,trump", "--no-luck").stdout
    assert "deals at -10 to -10 (team 0, team 1)." in out
    assert re.search(r"^Score after: -\d+ to -\d+[.;]", out, flags=re.MULTILINE), out
    assert re.search(r"^Trump \w+ \S+ named by seat \d, who bid \w+\.$", out, flags=re.MULTILINE), out
    assert "–-" not in out and "?." not in out


def test_a_list_ending_with_a_mark_takes_no_full_stop():
    from smear_sim.output.terminal.review import _listed

    assert _listed("Calls: seat 1 2, seat 2 pass") == "Calls: seat 1 2, seat 2 pass."
    assert _listed("Calls: seat 1 2, seat 2 [red]3?[/]") == "Calls: seat 1 2, seat 2 [red]3?[/]"


def test_a_score_with_a_negative_side_reads_as_words():
    from smear_sim.output.format import score_text

    assert [score_text(15, 19), score_text(3, -3), score_text(-5, 19)] == ["15–19", "3 to -3", "-5 to 19"]
