"""``POST /api/review``: exactly the object ``smear-sim review --json`` prints, and bad requests answered 400 with the
command line's one-line message before any work."""

from __future__ import annotations

import json

import pytest
from cli_helpers import ok
from fastapi.testclient import TestClient

from smear_sim.analysis.simulate import trace_records
from smear_sim.web.limits import Limits
from smear_sim.web.server import create_app

LOCAL = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(results=None, limits=Limits(max_decisions=60)), raise_server_exceptions=False, base_url=LOCAL)


@pytest.fixture(scope="module")
def record():
    return trace_records(1, seed=8)[0]


def test_review_answers_exactly_what_the_command_prints(client, record, tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    response = client.post("/api/review", json={"record": record, "samples": 8, "seed": 4, "kinds": "card",
                                                "luck": False})
    assert response.status_code == 200, response.text
    printed = json.loads(ok("review", str(path), "--samples", "8", "--seed", "4", "--kinds", "card", "--no-luck",
                            "--json").stdout)
    assert response.json() == printed


@pytest.mark.parametrize(("body", "message"), [
    ({"samples": 8}, "record is missing"),
    ({"record": "x"}, "record must be a hand record"),
    ({"record": "RECORD", "colour": 1}, "unknown field 'colour'"),
    ({"record": "RECORD", "samples": 10**6}, "samples must be from 1 to 20,000"),
    ({"record": "RECORD", "policy": "pimc:8"}, "not offered here"),
    ({"record": "RECORD", "inference": "maybe"}, "inference must be one of policy, none"),
    ({"record": "RECORD", "kinds": "bid"}, "kinds must name decisions"),
    ({"record": "RECORD", "luck": "yes"}, "luck must be true or false"),
    ({"record": ["RECORD", "RECORD", "RECORD"]}, "this server reviews at most 60"),
    ({"record": {"dealer": 9}}, "dealer must be a seat"),
])
def test_bad_requests_are_400_with_one_line(client, record, body, message):
    body = json.loads(json.dumps(body).replace('"RECORD"', json.dumps(record)))
    response = client.post("/api/review", json=body)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"] and "\n" not in response.json()["error"]
