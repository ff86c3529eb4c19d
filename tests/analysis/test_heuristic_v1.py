"""``heuristic-v1`` reproduces, byte for byte, what the heuristic gave before v2 replaced it.

``heuristic_v1_from_main.json`` was captured on the main branch before v2 (commits a31dc57 and a1330f7,
which agree on all but the bid-table classes, redefined in between; the only heuristic was today's
``heuristic-v1``): the summed simulate counts of 20,000 hands and the SHA-256 of the
first 300 trace records (``--seed 11``), for the heuristic at all seats and against random, under the default
rules and under a mix of rule options; the SHA-256 of the class counts of a 20,000-hand bid table (``--seed
11``); and a 5,000-deal duplicate match against random (``--seed 5``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from smear_sim import class_table, duplicate_match, simulate
from smear_sim.analysis.simulate import trace_records
from smear_sim.core.rules import Rules

CAPTURED = json.loads((Path(__file__).parent / "heuristic_v1_from_main.json").read_text())
RULE_SETS = {
    "defaults": Rules(),
    "variants": Rules(round_points=True, trump_anytime=True, low_to="taker", high="highest", low="lowest"),
}


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("opponent", ["heuristic", "random"])
def test_heuristic_v1_simulates_as_the_heuristic_did_on_main(name, opponent):
    rules = RULE_SETS[name]
    policies = ("heuristic-v1", "heuristic-v1" if opponent == "heuristic" else "random")
    captured = CAPTURED[f"{name}:heuristic,{opponent}"]
    assert [int(x) for x in simulate(20_000, seed=11, rules=rules, policies=policies).counts] == captured["counts"]
    records = trace_records(300, seed=11, rules=rules, policies=policies)
    assert hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest() == captured["trace_sha256"]


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_heuristic_v1_duplicate_match_is_as_on_main(name):
    result = duplicate_match("heuristic-v1", "random", deals=5000, seed=5, rules=RULE_SETS[name]).to_json()
    captured = CAPTURED[f"{name}:duplicate"]
    assert result["score_margin"] == captured["score_margin"]
    assert result["points_margin"] == captured["points_margin"]


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_heuristic_v1_bid_table_counts_are_as_on_main(name):
    table = class_table(20_000, seed=11, rules=RULE_SETS[name], policy="heuristic-v1")
    digest = hashlib.sha256(np.ascontiguousarray(table.counts).tobytes()).hexdigest()
    assert digest == CAPTURED[f"{name}:class_table"]
