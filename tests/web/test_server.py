"""The JSON API (smear_sim/web/server.py) through FastAPI's test client, and one live server on loopback for
what only a real connection shows: streamed progress, and a second request answered while a long one runs."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from cli_helpers import ok
from fastapi.testclient import TestClient
from web_helpers import post, running

from smear_sim.core.rules import Rules
from smear_sim.web.scheduler import Simulator
from smear_sim.web.server import HAND_FIELDS, STATIC, create_app

EXAMPLE = "AH KH 2H JD 10C 5S 9S 4D 3C"
RESULTS = Path(__file__).parents[2] / "results"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(results=RESULTS, max_samples=50_000), raise_server_exceptions=False)


@pytest.mark.parametrize(("body", "args"), [
    ({"cards": EXAMPLE, "samples": 3000, "seed": 5}, ["--samples", "3000", "--seed", "5"]),
    ({"cards": EXAMPLE.split(), "samples": 2000, "trump": "D", "policy": "random", "rules": {"round_points": True}},
     ["--samples", "2000", "--trump", "D", "--policy", "random", "--rule", "round_points=true"]),
    ({"cards": "ah,kh,2♥ jd th 5s 9s 4d 3c", "precision": 0.02, "seed": 2}, ["--precision", "0.02", "--seed", "2"]),
])
def test_hand_answers_exactly_what_the_command_prints(client, body, args):
    response = client.post("/api/hand", json=body)
    assert response.status_code == 200, response.text
    cards = body["cards"] if isinstance(body["cards"], str) else " ".join(body["cards"])
    printed = ok("hand", cards, *args, "--json").stdout
    assert json.dumps(response.json(), indent=2) + "\n" == printed
    assert response.headers["server-timing"].startswith("simulate;dur=")


def test_stream_reports_progress_then_the_same_result(client):
    body = {"cards": EXAMPLE, "samples": 10_000, "seed": 3}
    lines = [json.loads(line) for line in client.post("/api/hand/stream", json=body).text.splitlines()]
    progress = [line["progress"] for line in lines[:-1]]
    assert progress[0] == {"done": 0, "total": 10_000} and progress[-1] == {"done": 10_000, "total": 10_000}
    assert [p["done"] for p in progress] == sorted(p["done"] for p in progress)
    assert lines[-1]["result"] == client.post("/api/hand", json=body).json()


@pytest.mark.parametrize(("body", "words"), [
    ({"cards": "AH KH"}, "a hand has 9 cards, got 2"),
    ({"cards": "AH KH 2H JD 10C 5S 9S 4D XX"}, "unknown card 'XX'"),
    ({"cards": "AH AH 2H JD 10C 5S 9S 4D 3C"}, "appears twice"),
    ({"cards": 5}, "cards must be a string"),
    ({}, "cards is missing"),
    ([EXAMPLE], "must be a JSON object"),
    ({"cards": EXAMPLE, "colour": "red"}, "unknown field 'colour'"),
    ({"cards": EXAMPLE, "trump": "X"}, "--trump must be one of S H D C"),
    ({"cards": EXAMPLE, "rules": {"round_point": True}}, "did you mean 'round_points'"),
    ({"cards": EXAMPLE, "rules": {"min_bid": 5}}, "min_bid=5 is impossible"),
    ({"cards": EXAMPLE, "rules": {"moon": "yes"}}, "moon must be true or false"),
    ({"cards": EXAMPLE, "rules": "round_points"}, "rules must be an object"),
    ({"cards": EXAMPLE, "samples": 50_001}, "samples must be at most 50,000 on this server"),
    ({"cards": EXAMPLE, "samples": 0}, "--samples must be a whole number from 1"),
    ({"cards": EXAMPLE, "samples": "many"}, 'samples must be a whole number of deals, got "many"'),
    ({"cards": EXAMPLE, "samples": True}, "samples must be a whole number of deals, got true"),
    ({"cards": EXAMPLE, "precision": -1}, "--precision must be a positive standard error"),
    ({"cards": EXAMPLE, "seed": -1}, "--seed must be a whole number from 0"),
    ({"cards": EXAMPLE, "policy": "heuristic,random"}, "plays one policy at all four seats"),
    ({"cards": EXAMPLE, "policy": "pimc:4"}, "is not offered here"),
])
@pytest.mark.parametrize("path", ["/api/hand", "/api/hand/stream"])
def test_bad_requests_get_400_and_the_one_line_message(client, path, body, words):
    response = client.post(path, json=body)
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in response.text


def test_bad_cards_get_the_same_message_as_the_command_line(client):
    from cli_helpers import assert_clean_failure, invoke

    line = assert_clean_failure(invoke("hand", "AH KH 2H JD 10C 5S 9S 4D ZZ"))
    response = client.post("/api/hand", json={"cards": "AH KH 2H JD 10C 5S 9S 4D ZZ"})
    assert "error: " + response.json()["error"] == line


def test_requests_that_are_not_json_objects(client):
    assert client.post("/api/hand", content="{", headers={"Content-Type": "application/json"}).status_code == 400
    response = client.post("/api/hand", content=json.dumps({"cards": EXAMPLE}), headers={"Content-Type": "text/plain"})
    assert response.status_code == 400 and "Content-Type: application/json" in response.json()["error"]
    assert set(client.get("/api/hand").json()) == {"error"}
    assert client.get("/api/nowhere").json() == {"error": "Not Found"}


def test_a_bug_is_a_500_with_one_line(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("smear_sim.web.server.hand_request", broken)
    response = TestClient(create_app(), raise_server_exceptions=False).post("/api/hand", json={"cards": EXAMPLE})
    assert response.status_code == 500
    assert response.json() == {"error": "internal error: ZeroDivisionError: division by zero (a bug in smear-sim; "
                                         "please report it)"}


def test_rules_describe_every_option_and_the_hand_fields(client):
    data = client.get("/api/rules").json()
    options = {o["name"]: o for o in data["options"]}
    assert list(options) == list(Rules().as_dict())
    assert {name: o["default"] for name, o in options.items()} == Rules().as_dict()
    assert options["low_to"]["choices"] == ["player", "taker"] and options["moon"]["kind"] == "bool"
    assert options["min_bid"] == options["min_bid"] | {"kind": "int", "min": 1, "max": 7}
    assert all(o["help"] for o in data["options"])
    assert data["hand"] == {"fields": list(HAND_FIELDS), "trumps": ["S", "H", "D", "C"], "default_samples": 100_000,
                            "max_samples": 50_000}
    assert data["policies"] == ["random", "heuristic", "heuristic-v1", "equity"] and "trumps" in data["table_features"]


def test_tables_are_the_committed_tables_regrouped(client):
    data = client.get("/api/tables").json()
    printed = json.loads(ok("moon", "--counts", str(RESULTS / "bid_table.npz"), "--json").stdout)
    assert data["moon_table"] == printed
    assert data["bid_table"]["hands"] == 10_000_000
    csv_rows = (RESULTS / "bid_table.csv").read_text(encoding="utf-8").count("\n") - 1  # the header line
    assert len(data["bid_table"]["rows"]) == csv_rows
    by_top = client.get("/api/tables", params={"by": "trumps,top,jack"}).json()
    assert [f["name"] for f in by_top["features"]] == ["trumps", "top", "jack"]
    assert by_top["features"][1]["values"][:4] == ["A", "K", "Q", "J"]
    assert by_top["features"][2]["values"] == [False, True] and by_top["features"][2]["labels"] == ["-", "J"]
    assert sum(row["hands"] for row in by_top["bid_table"]["rows"]) == 10_000_000
    assert client.get("/api/tables", params={"by": "colour"}).status_code == 400


def test_tables_without_results_say_how_to_make_them(tmp_path):
    response = TestClient(create_app(results=tmp_path)).get("/api/tables")
    assert response.status_code == 400
    assert "smear-sim report" in response.json()["error"] and "--results DIR" in response.json()["error"]


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'src="app.js"' in page.text and page.headers["cache-control"] == "no-cache"
    for path in STATIC.iterdir():
        served = client.get(f"/{path.name}")
        assert served.status_code == 200 and served.text == path.read_text(encoding="utf-8")
        # nothing from the network: the only absolute URL is the SVG namespace
        assert re.findall(r"https?://[^'\"\s]*", served.text) in ([], ["http://www.w3.org/2000/svg"]), path.name


def test_a_second_request_is_answered_while_a_long_one_runs():
    """A 10,000,000-deal analysis is streaming; a small one is answered before it ends, and closing the long
    one's connection stops it at its next slice."""
    simulator = Simulator()
    app = create_app(results=RESULTS, max_samples=10_000_000, simulator=simulator, warm_up=False)
    with running(app) as url:
        request = urllib.request.Request(url + "api/hand/stream", method="POST",
                                         data=json.dumps({"cards": EXAMPLE, "samples": 10_000_000}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as long_one:
            assert json.loads(long_one.readline())["progress"]["done"] == 0
            assert json.loads(long_one.readline())["progress"]["done"] > 0  # it is simulating
            status, short = post(url + "api/hand", {"cards": EXAMPLE, "samples": 2000, "seed": 9})
            assert status == 200 and short["samples"] == 2000
            assert simulator.pending == 1  # the long one is still running
        assert simulator.wait_idle(timeout=60)  # the long one stopped when its client went away
