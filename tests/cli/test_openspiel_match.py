"""``smear-sim match`` with an OpenSpiel bot seated: the duplicate table at the OpenSpiel game
(smear_sim.openspiel.match), its output, and its one-line refusals (exit 2)."""

import sys

import pytest
from cli_helpers import assert_clean_failure, invoke, ok, ok_json

pytest.importorskip("pyspiel")

from smear_sim.core.rules import Rules  # noqa: E402
from smear_sim.openspiel import match  # noqa: E402


def test_a_small_match_is_the_librarys_with_its_seed_and_rules():
    out = ok_json("match", "openspiel:ismcts:5", "heuristic", "--deals", "2", "--seed", "2", "--rule", "target=11")
    expected = match.openspiel_match("openspiel:ismcts:5", "heuristic", deals=2, seed=2, rules={"target": 11})
    timing = ("seconds_per_decision",)
    assert {k: v for k, v in out.items() if k not in timing} == {
        **{k: v for k, v in expected.to_json().items() if k not in timing}, "seed": 2,
        "rules": Rules(target=11).as_dict()}
    assert out["deals"] == 2 and out["decisions"]["a"] > 0 and out["seconds_per_decision"]["a"] > 0


def test_games_and_the_table_for_people():
    text = ok("match", "heuristic", "openspiel:ismcts:5", "--games", "1", "--seed", "3", "--rule", "target=11").stdout
    assert "heuristic vs openspiel:ismcts:5 at the OpenSpiel game: 1 deal sequences" in " ".join(text.split())
    assert "of the games" in text and "Time per decision: heuristic" in text and "Rules: target=11" in text


def test_without_deals_it_plays_a_hundred(monkeypatch):
    asked = {}

    def fake(a, b, **kwargs):
        asked.update(kwargs)
        return match.MatchResult(a, b)

    monkeypatch.setattr(match, "openspiel_match", fake)
    ok("match", "openspiel:ismcts", "heuristic", "--json")
    assert (asked["deals"], asked["games"]) == (100, 0)


@pytest.mark.parametrize(("args", "says"), [
    (["openspiel:cfr", "heuristic"], "unknown OpenSpiel bot 'openspiel:cfr'"),
    (["openspiel:ismcts:0", "heuristic"], "from 1 to 100000"),
    (["openspiel:ismcts", "nobody"], "unknown policy 'nobody'"),
    (["openspiel:ismcts", "oracle"], "oracle sees every hand"),
    (["openspiel:ismcts", "heuristic", "--threads", "2"], "--threads cannot apply with an OpenSpiel bot"),
    (["openspiel:ismcts", "heuristic", "--games", "1", "--deals", "3"], "--deals cannot apply with --games"),
    (["openspiel:ismcts", "heuristic", "--rule", "target=0"], "target=0 is out of range"),
    (["openspiel:ismcts", "heuristic", "--deals", "1000001"], "--deals must be a whole number from 1 to 1,000,000"),
    (["openspiel:ismcts", "heuristic", "--games", "1000001"], "--games must be a whole number from 1 to 1,000,000"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    assert says in assert_clean_failure(invoke("match", *args))  # before any work


def test_without_the_extra_it_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "smear_sim.openspiel.match", None)
    line = assert_clean_failure(invoke("match", "openspiel:ismcts", "heuristic", "--deals", "1"))
    assert "pip install 'smear-sim[openspiel]'" in line
