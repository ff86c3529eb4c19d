"""``smear-sim score`` and ``smear-sim rules`` from the outside: output formats and bad input.

Bad input of every kind must end with exit status 2, exactly one line on standard error and no traceback,
both through typer's CliRunner and through the real console entry point in a subprocess.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from cli_helpers import assert_clean_failure, assert_clean_process_failure, invoke, run

from smear_sim.core.rules import Rules
from tests.reference.test_record import BAD_RECORDS, GOLDEN_DIR

BASIC = GOLDEN_DIR / "basic.json"
EXPECTED_BASIC = json.loads(BASIC.read_text(encoding="utf-8"))["expected"]


# -- score: good records --------------------------------------------------------------------------------


def test_score_json_prints_the_interfaces_object():
    result = invoke("score", str(BASIC), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == EXPECTED_BASIC


def test_score_reads_standard_input():
    result = invoke("score", "-", "--json", input=BASIC.read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == EXPECTED_BASIC


def test_score_readable_summary_mentions_tricks_points_and_scores():
    result = invoke("score", str(BASIC))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Tricks" in out
    assert "Bidder: seat 0 (team 0) bid 3; trump hearts" in out
    for trick in EXPECTED_BASIC["tricks"]:
        assert "  ".join(trick["cards"]) in out
    # who won each point
    for line, winner in [("high", "team 0"), ("low", "team 0"), ("jack", "team 1"), ("game", "team 1")]:
        assert any(row.split() == [line, *winner.split()] for row in out.splitlines()), line
    assert "team 0 18 – team 1 25" in out
    assert "set on its bid of 3" in out
    assert "Score: 0–0 → -3 to 2" in out


def test_score_readable_summary_of_moon_and_game_end():
    out = invoke("score", str(GOLDEN_DIR / "moon_success.json")).stdout
    assert "Moon succeeded." in out
    assert "Team 0 wins the game." in out
    out = invoke("score", str(GOLDEN_DIR / "round_points.json")).stdout
    assert "Rules: round_points=true" in out
    assert "high joker" in out


def test_score_readable_summary_of_a_thrown_in_hand():
    result = invoke("score", str(GOLDEN_DIR / "forced_bid_none_thrown_in.json"))
    assert result.exit_code == 0
    assert "thrown in" in result.stdout
    assert "5 to -3" in result.stdout


def test_score_applies_command_line_rules_to_a_record_without_rules(tmp_path):
    # Regression: --rule or --rules on a record that leaves out "rules" ended in "internal error: TypeError".
    record = json.loads(BASIC.read_text(encoding="utf-8"))
    del record["rules"]
    path = tmp_path / "no_rules.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    house = tmp_path / "house.toml"
    house.write_text("target = 15\n", encoding="utf-8")
    for options in (["--rule", "target=15"], ["--rules", str(house)]):
        result = invoke("score", str(path), *options, "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == EXPECTED_BASIC
    proc = run("score", str(path), "--rule", "target=15", "--rules", str(house), "--json")
    assert proc.returncode == 0 and proc.stderr == "" and json.loads(proc.stdout) == EXPECTED_BASIC
    assert "Rules: round_points=true" in invoke("score", str(path), "--rule", "round_points=true").stdout


# -- score: bad records ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(BAD_RECORDS))
def test_bad_record_exits_2_with_one_line(tmp_path, name):
    record, _ = BAD_RECORDS[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    for extra in ([], ["--json"]):
        assert_clean_failure(invoke("score", str(path), *extra))


@pytest.mark.parametrize("name", ["malformed_card", "bid_not_raising", "scoring_trump_discarded", "revoke"])
def test_bad_record_on_standard_input_exits_2(name):
    record, _ = BAD_RECORDS[name]
    line = assert_clean_failure(invoke("score", "-", input=json.dumps(record)))
    assert "play" in line or "bid" in line or "discard" in line or "card" in line


def test_bad_record_messages_name_the_problem(tmp_path):
    cases = {
        "malformed_card": "'1H'",
        "duplicate_across_hands": "AH is dealt twice",
        "short_hand": "hands[2] has 8 cards",
        "bid_not_raising": "does not raise",
        "pass_by_forced_opener": "opener must bid",
        "bid_after_moon": "moon",
        "scoring_trump_discarded": "scoring trump discarded",
        "trump_discarded_keeping_non_trump": "trump 7H discarded while non-trump",
        "discard_wrong_count": "discards[1] has 2 cards",
        "revoke": "play 4 (trick 1, seat 3): 2S does not follow suit",
        "wrong_leader": "play 1 (trick 1, seat 0): 10H is seat 1's card",
        "unknown_rule_key": "unknown rule option 'moon_require'",
    }
    for name, fragment in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(BAD_RECORDS[name][0]), encoding="utf-8")
        assert fragment in assert_clean_failure(invoke("score", str(path))), name


def test_invalid_json_exits_2(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"dealer": 3, "hands": [', encoding="utf-8")
    assert "not valid JSON" in assert_clean_failure(invoke("score", str(path)))
    assert "not valid JSON" in assert_clean_failure(invoke("score", "-", input="not json at all"))
    assert "not valid JSON" in assert_clean_failure(invoke("score", "-", input=""))


def test_missing_file_exits_2(tmp_path):
    line = assert_clean_failure(invoke("score", str(tmp_path / "missing.json")))
    assert "does not exist" in line


def test_directory_instead_of_file_exits_2(tmp_path):
    assert "cannot read" in assert_clean_failure(invoke("score", str(tmp_path)))


def test_non_utf8_file_exits_2(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"dealer": "\xe9"}')
    assert_clean_failure(invoke("score", str(path)))


def test_json_with_an_overlong_number_or_deep_nesting_exits_2(tmp_path):
    path = tmp_path / "bigint.json"
    path.write_text('{"dealer": ' + "9" * 5000 + "}", encoding="utf-8")
    assert "not valid JSON" in assert_clean_failure(invoke("score", str(path)))
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert "not valid JSON" in assert_clean_failure(invoke("score", str(path)))


# -- rules ------------------------------------------------------------------------------------------------


def test_rules_json_prints_the_active_options():
    result = invoke("rules", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == Rules().as_dict()
    result = invoke("rules", "--rule", "round_points=true", "--rule", "min_bid=6", "--json")
    assert json.loads(result.stdout) == Rules(round_points=True, min_bid=6).as_dict()


@pytest.mark.parametrize(
    "overrides",
    [[], ["round_points=true"], ["high=highest", "low=lowest", "low_to=taker"], ["forced_bid=none", "moon=false"],
     ["moon_requires=in_play", "trump_anytime=true", "misdeal=false", "target=11", "min_bid=1"]],
)
def test_rules_toml_parses_back_into_identical_rules(overrides):
    args = ["rules", "--toml"]
    for override in overrides:
        args += ["--rule", override]
    result = invoke(*args)
    assert result.exit_code == 0
    rules = Rules.from_mapping(tomllib.loads(result.stdout))
    assert rules == Rules().with_overrides(overrides)


def test_rules_toml_file_then_rule_overrides(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(invoke("rules", "--toml", "--rule", "target=11", "--rule", "round_points=true").stdout,
                    encoding="utf-8")
    result = invoke("rules", "--rules", str(path), "--rule", "target=15", "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == Rules(round_points=True, target=15).as_dict()


def test_rules_list_shows_every_preset_and_a_preset_by_name_is_its_options():
    from smear_sim.core.rules import PRESETS

    listed = json.loads(invoke("rules", "--list", "--json").stdout)
    assert [(p["name"], p["rules"]) for p in listed] == [(p.name, p.rules.changed()) for p in PRESETS.values()]
    table = invoke("rules", "--list")
    assert table.exit_code == 0 and all(name in table.stdout for name in PRESETS)
    assert "round_points=true" in table.stdout
    by_name = invoke("rules", "minnesota-round-points", "--toml").stdout
    assert by_name == invoke("rules", "--rule", "round_points=true", "--toml").stdout
    assert json.loads(invoke("rules", "--rules", "minnesota-round-points", "--rule", "target=15", "--json").stdout) \
        == Rules(round_points=True, target=15).as_dict()


@pytest.mark.parametrize(("args", "fragment"), [
    (["rules", "--list", "--toml"], "--list lists every preset: it takes no PRESET, --rules, --rule or --toml"),
    (["rules", "minnesota", "--rules", "minnesota"], "give the preset once"),
    (["rules", "--rules", "minesota"], "did you mean minnesota?"),
    (["simulate", "--hands", "10", "--rules", "pitch"], "'pitch' is not a preset"),
])
def test_a_bad_preset_or_list_is_one_line_before_any_work(args, fragment):
    assert fragment in assert_clean_failure(invoke(*args))


def test_a_record_made_under_a_preset_scores_without_options(tmp_path):
    """Records name their rules by their options: one traced under a preset is scored as it was played."""
    trace = tmp_path / "trace.jsonl"
    done = invoke("simulate", "--hands", "5", "--seed", "3", "--rules", "minnesota-round-points", "--trace",
                  str(trace), "--json")
    assert done.exit_code == 0, done.output
    record = tmp_path / "hand.json"
    first = json.loads(trace.read_text(encoding="utf-8").splitlines()[0])
    record.write_text(json.dumps(first), encoding="utf-8")
    assert first["rules"] == {"round_points": True}
    scored = invoke("score", str(record), "--json")
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.stdout)["scores_after"] == first["result"]["scores_after"]


def test_rules_table_lists_every_option():
    result = invoke("rules", "--rule", "target=11")
    assert result.exit_code == 0
    for name in Rules().as_dict():
        assert name in result.stdout
    assert "Points at stake per hand: 4" in result.stdout


@pytest.mark.parametrize(
    "override, fragment",
    [
        ("foo=1", "unknown rule option 'foo' in --rule"),
        ("round_point=true", "did you mean 'round_points'"),
        ("target=abc", "target must be a whole number"),
        ("high=king", "high must be one of ace, highest"),
        ("moon=perhaps", "moon must be true or false"),
        ("min_bid=5", "min_bid=5 is impossible"),
        ("target=0", "target=0 is out of range: choose a target from 1 to 1000"),
            ("target=1001", "target=1001 is out of range"),
            ("target=1000000000000000000000000000000", "is out of range"),
        ("round_points", "KEY=VALUE"),
    ],
)
def test_rules_bad_rule_override_exits_2(override, fragment):
    assert fragment in assert_clean_failure(invoke("rules", "--rule", override))
    assert fragment in assert_clean_failure(invoke("rules", "--json", "--rule", override))


def test_rules_bad_toml_exits_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("round_points = \n[[[\n", encoding="utf-8")
    assert "not valid TOML" in assert_clean_failure(invoke("rules", "--rules", str(path)))


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("colour = 3\n", "unknown rule option 'colour'"),
        ('target = "21"\n', "target must be a whole number"),
        ("min_bid = 7\n", "min_bid=7 is impossible"),
    ],
)
def test_rules_bad_toml_contents_exit_2(tmp_path, text, fragment):
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    assert fragment in assert_clean_failure(invoke("rules", "--rules", str(path)))


def test_toml_with_an_overlong_number_or_deep_nesting_exits_2(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text("target = " + "9" * 5000 + "\n", encoding="utf-8")
    assert "cannot be read as TOML" in assert_clean_failure(invoke("rules", "--rules", str(path)))
    path = tmp_path / "deep.toml"
    path.write_text("target = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    assert "TOML" in assert_clean_failure(invoke("rules", "--rules", str(path)))


def test_rules_missing_toml_exits_2(tmp_path):
    assert "does not exist" in assert_clean_failure(invoke("rules", "--rules", str(tmp_path / "none.toml")))


# -- the real entry point in a subprocess ----------------------------------------------------------------


def test_module_entry_point_scores_a_record():
    proc = run("score", str(BASIC), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == EXPECTED_BASIC


def test_console_script_reads_standard_input():
    proc = run("score", "-", "--json", input=BASIC.read_text(encoding="utf-8"), script=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == EXPECTED_BASIC


@pytest.mark.parametrize("name", ["malformed_card", "duplicate_across_hands", "bid_after_moon", "revoke"])
def test_subprocess_bad_record_exits_2_with_one_line(tmp_path, name):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(BAD_RECORDS[name][0]), encoding="utf-8")
    assert_clean_process_failure(run("score", str(path)))


def test_subprocess_invalid_json_and_missing_file(tmp_path):
    assert "not valid JSON" in assert_clean_process_failure(run("score", "-", input="{", script=True))
    assert "does not exist" in assert_clean_process_failure(run("score", str(tmp_path / "nope.json")))


def test_subprocess_rules_errors(tmp_path):
    assert "unknown rule option" in assert_clean_process_failure(run("rules", "--rule", "foo=1", script=True))
    path = tmp_path / "bad.toml"
    path.write_text("= = =\n", encoding="utf-8")
    assert "not valid TOML" in assert_clean_process_failure(run("rules", "--rules", str(path)))


@pytest.mark.parametrize(
    "args",
    [["score"], ["score", "--bogus", "x.json"], ["no-such-command"], ["rules", "--rule"]],
)
def test_subprocess_usage_errors_are_one_line(args):
    assert_clean_process_failure(run(*args, script=True))


def test_subprocess_rules_toml_round_trip():
    proc = run("rules", "--toml", "--rule", "forced_bid=dealer")
    assert proc.returncode == 0
    assert Rules.from_mapping(tomllib.loads(proc.stdout)) == Rules(forced_bid="dealer")


# -- solve ----------------------------------------------------------------------------------------------------


def test_solve_a_hand_in_progress_and_a_finished_hand():
    """The JSON of docs/formats.md; the best card's value is the position's; a full record gives its score."""
    record = json.loads((GOLDEN_DIR / "basic.json").read_text())
    record.pop("result", None)
    finished = json.loads(invoke("solve", "-", "--json", input=json.dumps(record)).stdout)
    scored = json.loads(invoke("score", "-", "--json", input=json.dumps(record)).stdout)
    team = scored["bidding_team"]
    assert finished == {"to_play": None, "value": scored["score_delta"][team] - scored["score_delta"][1 - team],
                        "cards": []}
    record["plays"] = record["plays"][:13]  # the 14th card is seat (leader + 1)'s to play
    result = invoke("solve", "-", "--json", input=json.dumps(record))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"to_play", "value", "cards"} and 0 <= data["to_play"] <= 3
    values = [c["value"] for c in data["cards"]]
    bidder_side = data["to_play"] % 2 == team
    assert data["value"] == (max(values) if bidder_side else min(values))
    people = invoke("solve", "-", input=json.dumps(record))
    assert people.exit_code == 0 and f"Seat {data['to_play']} to play" in people.stdout


def test_solve_bad_input_exits_2_with_one_line():
    record = json.loads((GOLDEN_DIR / "forced_bid_none_thrown_in.json").read_text())
    line = assert_clean_failure(invoke("solve", "-", input=json.dumps(record)))
    assert "thrown in" in line
    record = json.loads((GOLDEN_DIR / "basic.json").read_text())
    record["plays"] = record["plays"][:5] + record["plays"][6:7]  # the 6th card played out of turn
    assert "play 6" in assert_clean_failure(invoke("solve", "-", input=json.dumps(record)))
