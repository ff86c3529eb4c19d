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
from web_helpers import all_routes, post, running

from smear_sim.analysis.hand import shared_equity
from smear_sim.analysis.hand_outcomes import DEFAULT_HANDS
from smear_sim.analysis.match_equity import DEFAULT_FLOOR
from smear_sim.core.rules import PRESETS, Rules
from smear_sim.engine.turns import Simulator
from smear_sim.web.limits import Limits
from smear_sim.web.routes.analysis import HAND_FIELDS
from smear_sim.web.server import STATIC, create_app

EXAMPLE = "AH KH 2H JD 10C 5S 9S 4D 3C"
RESULTS = Path(__file__).parents[2] / "results"
LOCAL = "http://127.0.0.1:8000"  # the server answers only to the host names it was started for


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(results=RESULTS, limits=Limits(max_samples=50_000)), raise_server_exceptions=False, base_url=LOCAL)


@pytest.mark.parametrize(("body", "args"), [
    ({"cards": EXAMPLE, "samples": 3000, "seed": 5}, ["--samples", "3000", "--seed", "5"]),
    ({"cards": EXAMPLE.split(), "samples": 2000, "trump": "D", "policy": "random", "rules": {"round_points": True}},
     ["--samples", "2000", "--trump", "D", "--policy", "random", "--rule", "round_points=true"]),
    ({"cards": "ah,kh,2♥ jd th 5s 9s 4d 3c", "precision": 0.02, "seed": 2}, ["--precision", "0.02", "--seed", "2"]),
    ({"cards": EXAMPLE, "samples": 2000, "score": [-5, 19]}, ["--samples", "2000", "--score=-5,19"]),
    ({"cards": EXAMPLE, "samples": 2000, "position": 3, "auction": "2,pass", "score": "15,19", "max_deals": 100_000},
     ["--samples", "2000", "--position", "3", "--auction", "2,pass", "--score", "15,19", "--max-deals", "100000"]),
    ({"cards": EXAMPLE, "samples": 1000, "position": 1}, ["--samples", "1000", "--position", "1"]),
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
    progress = [line["progress"] for line in lines[:-1] if line["progress"]["stage"] == "hand"]
    assert progress[0] == {"stage": "hand", "done": 0, "total": 10_000}
    assert progress[-1] == {"stage": "hand", "done": 10_000, "total": 10_000}
    assert [p["done"] for p in progress] == sorted(p["done"] for p in progress)
    # then the match-equity table for seed 3 (made once a session: 200,000 hands, in slices)
    equity = [line["progress"] for line in lines[:-1] if line["progress"]["stage"] == "equity"]
    assert equity[0] == {"stage": "equity", "done": 0, "total": 200_000}
    assert equity[-1] == {"stage": "equity", "done": 200_000, "total": 200_000}
    assert lines[-1]["result"] == client.post("/api/hand", json=body).json()


def test_stream_with_a_seat_reports_the_hand_then_the_deals_tried_for_the_calls(client):
    body = {"cards": EXAMPLE, "samples": 1000, "position": 2, "auction": [2]}
    lines = [json.loads(line) for line in client.post("/api/hand/stream", json=body).text.splitlines()]
    auction = [line["progress"] for line in lines[:-1] if line["progress"]["stage"] == "auction"]
    assert auction[0] == {"stage": "auction", "done": 0, "total": None}
    assert auction[-1]["done"] == lines[-1]["result"]["auction"]["deals"]  # every deal tried, kept or not
    assert lines[-1]["result"]["recommended_call"] == lines[-1]["result"]["advice"]["call"]


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
    ({"cards": EXAMPLE, "position": 5}, "--position must be 1 (the opener, left of the dealer) to 4 (the dealer)"),
    ({"cards": EXAMPLE, "position": "2"}, 'position must be 1 (the opener, left of the dealer) to 4 (the dealer), got "2"'),
    ({"cards": EXAMPLE, "position": 3, "auction": "2"}, "--position 3 needs the 2 call(s) made before it"),
    ({"cards": EXAMPLE, "position": 2, "auction": "pass"}, "the first call, a pass, is not legal at the start of the auction"),
    ({"cards": EXAMPLE, "position": 2, "auction": "two"}, "'two' is not a call"),
    ({"cards": EXAMPLE, "position": 2, "auction": [None]}, "auction must list calls"),
    ({"cards": EXAMPLE, "auction": "2"}, "--auction cannot apply without --position"),
    ({"cards": EXAMPLE, "position": 2, "auction": "2", "trump": "H"}, "--trump cannot apply with --position"),
    ({"cards": EXAMPLE, "position": 2, "auction": "2", "max_deals": 2_000_001}, "max_deals must be at most 2,000,000"),
    ({"cards": EXAMPLE, "score": "15-19"}, "give two whole-number scores separated by a comma"),
    ({"cards": EXAMPLE, "score": [1, 2, 3]}, "give two whole-number scores separated by a comma"),
    ({"cards": EXAMPLE, "score": [21, 0]}, "a game in progress has both scores below the target 21"),
    ({"cards": EXAMPLE, "score": 5}, 'score must be two whole-number scores, "US,THEM" or [us, them]'),
])
@pytest.mark.parametrize("path", ["/api/hand", "/api/hand/stream"])
def test_bad_requests_get_400_and_the_one_line_message(client, path, body, words):
    response = client.post(path, json=body)
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert words in message and "\n" not in message and "Traceback" not in response.text


@pytest.mark.parametrize(("body", "args"), [
    ({"cards": "AH KH 2H JD 10C 5S 9S 4D ZZ"}, []),
    ({"cards": EXAMPLE, "position": 2, "auction": "pass"}, ["--position", "2", "--auction", "pass"]),
    ({"cards": EXAMPLE, "position": 4, "auction": "2,moon,3"}, ["--position", "4", "--auction", "2,moon,3"]),
    ({"cards": EXAMPLE, "score": "21,3"}, ["--score", "21,3"]),
    ({"cards": EXAMPLE, "auction": "2"}, ["--auction", "2"]),
])
def test_bad_input_gets_the_same_message_as_the_command_line(client, body, args):
    from cli_helpers import assert_clean_failure, invoke

    line = assert_clean_failure(invoke("hand", body["cards"], *args))
    response = client.post("/api/hand", json=body)
    assert response.status_code == 400 and "error: " + response.json()["error"] == line


def test_calls_offers_only_the_legal_calls_at_each_turn(client):
    answer = client.post("/api/calls", json={"auction": [2, "pass", "2"]}).json()
    assert answer == {"auction": [2, "pass", "pass"],  # 2 is not legal after 2: the first legal call instead
                      "legal": [[2, 3, 4, "moon"], ["pass", 3, 4, "moon"], ["pass", 3, 4, "moon"],
                                ["pass", 3, 4, "moon"]]}
    assert client.post("/api/calls", json={"auction": ["moon"]}).json()["legal"][1] == ["pass"]
    dealer = client.post("/api/calls", json={"auction": ["pass"] * 3, "rules": {"forced_bid": "dealer"}}).json()
    assert dealer["legal"] == [["pass", 2, 3, 4, "moon"]] * 3 + [[2, 3, 4, "moon"]]  # the dealer must bid
    assert client.post("/api/calls", json={"auction": [1, 2, 3, 4]}).status_code == 400


def test_requests_that_are_not_json_objects(client):
    assert client.post("/api/hand", content="{", headers={"Content-Type": "application/json"}).status_code == 400
    response = client.post("/api/hand", content=json.dumps({"cards": EXAMPLE}), headers={"Content-Type": "text/plain"})
    assert response.status_code == 400 and "Content-Type: application/json" in response.json()["error"]
    assert set(client.get("/api/hand").json()) == {"error"}
    assert client.get("/api/nowhere").json() == {"error": "Not Found"}


def test_a_bug_is_a_500_with_one_line(monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("smear_sim.web.routes.analysis.hand_request", broken)
    app = create_app(warm_up=False)
    response = TestClient(app, raise_server_exceptions=False, base_url=LOCAL).post("/api/hand", json={"cards": EXAMPLE})
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
                            "max_samples": 50_000, "max_deals": 2_000_000, "max_span": 120}
    assert {"position", "auction", "score"} <= set(HAND_FIELDS)
    assert data["policies"] == ["random", "heuristic", "heuristic-v1", "equity", "count"]
    assert "trumps" in data["table_features"]
    assert [(p["name"], p["rules"]) for p in data["presets"]] == [
        (p.name, p.rules.changed()) for p in PRESETS.values()]
    assert all(p["about"] for p in data["presets"])


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
    response = TestClient(create_app(results=tmp_path), base_url=LOCAL).get("/api/tables")
    assert response.status_code == 400
    assert "smear-sim report" in response.json()["error"] and "--results DIR" in response.json()["error"]


def test_tables_serve_what_to_call_by_position_and_the_match_equity(small_results):
    import pandas as pd

    data = TestClient(create_app(results=small_results, warm_up=False), base_url=LOCAL).get("/api/tables").json()
    assert data["bid_table"] is None and data["moon_table"] is None  # no bid_table.npz here
    positions = data["by_position"]
    assert (positions["deals"], positions["seed"], positions["score"]) == (1000, 1, [3, 5])
    frame = pd.read_csv(small_results / "by_position.csv")
    assert len(positions["rows"]) == len(frame) and positions["rows"][0]["place"] == "opener"
    assert [chart["place"] for chart in positions["charts"]] == ["opener", "second", "third", "dealer"]
    markdown = (small_results / "by_position.md").read_text(encoding="utf-8")
    dealer = positions["charts"][3]
    assert "| " + " | ".join([dealer["strengths"][0], *dealer["cells"][0]]) + " |" in markdown  # the same grid
    equity = data["equity"]
    assert equity["scores"] == list(range(-10, 21)) and equity["dealers"] == ["them", "us"]
    states = pd.read_csv(small_results / "equity.csv").set_index(["us", "them", "dealer"])
    assert equity["win"][1][10 + 4][10 + 7] == pytest.approx(states.loc[(4, 7, "us"), "win"], abs=1e-6)
    assert equity["win_se"][0][0][30] == pytest.approx(states.loc[(-10, 20, "them"), "win_se"], abs=1e-6)


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
    app = create_app(results=RESULTS, limits=Limits(max_samples=10_000_000), simulator=simulator, warm_up=False)
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


# -- hostile input (issue 20): bounded work for every request --------------------------------------------------


@pytest.mark.parametrize(("body", "words"), [
    # the lowest score sizes the match-equity table (it grows with the square): -300 held the simulator 65 s
    ({"cards": EXAMPLE, "samples": 2000, "score": [-300, 0]}, "give scores from -99 up"),
    ({"cards": EXAMPLE, "samples": 2000, "score": "-100000000000000000,0"}, "give scores from -99 up"),
    # a target in the documented range that the page's equity cap cannot take: 43 s, then 500 MemoryError
    ({"cards": EXAMPLE, "rules": {"target": 1000}}, "give a target up to 80"),
    ({"cards": EXAMPLE, "position": 2, "auction": "2", "score": [-200, 5]}, "give scores from -99 up"),
    ({"cards": EXAMPLE, "policy": ""}, "unknown policy ''"),  # the command line rejects it too
    ({"cards": EXAMPLE, "precision": 10**6}, "at most 1000"),
])
def test_work_no_cap_bounded_is_refused_before_any_work(client, monkeypatch, body, words):
    from smear_sim.engine.settings import RunSettings

    ran = []
    run = RunSettings.run
    monkeypatch.setattr(RunSettings, "run", lambda self, job, **how: ran.append(job.driver) or run(self, job, **how))
    response = client.post("/api/hand", json=body)
    assert response.status_code == 400 and words in response.json()["error"], response.text
    assert ran == []  # not one kernel ran


def test_the_equity_span_cap_is_the_servers_setting():
    app = create_app(results=RESULTS, warm_up=False, limits=Limits(max_span=61))
    client = TestClient(app, base_url=LOCAL)
    assert client.get("/api/rules").json()["hand"]["max_span"] == 61
    assert client.post("/api/hand", json={"cards": EXAMPLE, "score": [-41, 0]}).status_code == 400


def test_tables_groupings_are_keyed_in_one_order_and_bounded(tmp_path):
    """100 orderings of the 7 features added 359 MB: any order now gives the one grouping, and only the last
    TABLE_GROUPINGS are kept."""
    from itertools import combinations, islice, permutations

    from smear_sim.output.results_folder import TABLE_GROUPINGS

    app = create_app(results=RESULTS, warm_up=False)
    client = TestClient(app, base_url=LOCAL)
    names = ["trumps", "top", "two", "jack", "jick", "jokers", "aces"]
    answers = [client.get("/api/tables", params={"by": ",".join(order)}).json()
               for order in islice(permutations(names[:3]), 6)]
    assert all(a == answers[0] for a in answers)
    assert [f["name"] for f in answers[0]["features"]] == names[:3]
    for combo in islice(combinations(names, 2), 12):
        assert client.get("/api/tables", params={"by": ",".join(combo)}).status_code == 200
    assert len(app.state.context.results._made) == TABLE_GROUPINGS


def _long_requests(path: str) -> list[tuple[str, dict]]:
    """For an analysis route: (stage, body) pairs whose stage lasts long enough to drop the connection in it."""
    if path == "/api/hint":  # a card at the first lead on 20,000 worlds: half a minute
        return [("hint", {"view": _hint_view(0, 0), "samples": 20_000})]
    if path in ("/api/review", "/api/review/stream"):  # a hand's card play on 20,000 worlds a decision: minutes
        return [("review", {"record": _review_record(), "samples": 20_000, "kinds": "card", "luck": False})]
    return [("hand", {"cards": EXAMPLE, "samples": 10_000_000, "seed": 11}),
            ("equity", {"cards": EXAMPLE, "samples": 1000, "seed": 12, "score": [-90, 0]}),
            ("auction", {"cards": EXAMPLE, "samples": 1000, "seed": 1, "position": 1, "max_deals": 10_000_000,
                         "precision": 1e-6})]


ANALYSES = ("/api/hand", "/api/hand/stream", "/api/hint", "/api/review", "/api/review/stream")  # the routes that
# simulate; add new ones (the practice table's hint has its own test: tests/web/test_practice_server.py)
TABLE_HINT = "/api/table/{table_id}/hint"
AT_ONCE = {"/api/calls", "/api/table", "/api/table/{table_id}/act", "/api/table/{table_id}/bot",
           "/api/table/{table_id}/next"}  # answered at once, without the simulator (a bot's move: a kernel call)


def _review_record() -> dict:
    from smear_sim.analysis.simulate import trace_records

    return trace_records(1, seed=8)[0]


def test_every_route_that_simulates_is_listed():
    app = create_app(results=RESULTS, warm_up=False)
    posts = {route.path for route in all_routes(app) if "POST" in getattr(route, "methods", ())}
    assert posts - set(ANALYSES) - {TABLE_HINT} == AT_ONCE


@pytest.mark.parametrize("path", ANALYSES)
def test_a_request_whose_client_goes_away_stops_at_every_stage(monkeypatch, path):
    """Dropping the connection in the hand's deals, while the equity table is made, or in the auction stops the
    analysis at its next slice (it went on for 8.6 s, or to the end for a plain request)."""
    import socket
    import threading

    from smear_sim.engine.turns import AnalysisCancelled
    from smear_sim.web.routes import analysis

    stages: list[str] = []
    ended: list[BaseException | None] = []  # how each run ended: None when it ran to its end
    reached = threading.Condition()
    from smear_sim.web.review import ReviewRequest

    request = {"/api/hint": analysis.HintRequest, "/api/review": ReviewRequest,
               "/api/review/stream": ReviewRequest}.get(path, analysis.HandRequest)
    run = request.run

    def watched(self, executor, stage=lambda _: None, **more):
        def heard(name):
            with reached:
                stages.append(name)
                reached.notify_all()
            stage(name)

        try:
            answer = run(self, executor, stage=heard, **more)
        except AnalysisCancelled as stopped:
            ended.append(stopped)
            raise
        ended.append(None)
        return answer

    monkeypatch.setattr(request, "run", watched)
    simulator = Simulator()
    app = create_app(results=RESULTS, limits=Limits(max_samples=10_000_000, max_deals=10_000_000),
                     simulator=simulator, warm_up=False)
    with running(app) as url:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        post(url + "api/hand", {"cards": EXAMPLE, "samples": 1000, "seed": 1})  # the equity table of seed 1
        if path in ("/api/hint", "/api/review", "/api/review/stream"):  # compiled first: a compile cannot stop halfway, a slice of work can
            for _, body in _long_requests(path):
                post(url + path.removesuffix("/stream").lstrip("/"), body | {"samples": 1})
        for stage, body in _long_requests(path):
            stages.clear()
            data = json.dumps(body).encode()
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(b"POST /" + path.lstrip("/").encode() + b" HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                               b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (port, len(data))
                               + data)
            with reached:
                assert reached.wait_for(lambda stage=stage: stage in stages, timeout=120), (stage, stages)
            connection.close()
            assert simulator.wait_idle(timeout=120), (path, stage)
            assert isinstance(ended[-1], AnalysisCancelled), (path, stage)  # stopped, not run to its end
            assert stages[-1] == stage, (path, stage, stages)  # in that stage


def test_while_warming_up_analyses_are_answered_at_once_with_503(monkeypatch):
    """Until the warm-up (the kernels and seed 1's match-equity table) is done, an analysis is refused at once
    with 503 and Retry-After, the other endpoints answer, and bad input is still a 400; then all answer."""
    import threading

    from smear_sim.web.routes.analysis import HandRequest

    gate = threading.Event()
    run = HandRequest.run

    def held(self, executor, stage=lambda _: None):
        gate.wait(60)
        return run(self, executor, stage=stage)

    monkeypatch.setattr(HandRequest, "run", held)
    app = create_app(results=RESULTS)
    with TestClient(app, base_url=LOCAL) as warming:
        assert warming.get("/api/rules").json()["ready"] is False
        for path in ("/api/hand", "/api/hand/stream"):
            response = warming.post(path, json={"cards": EXAMPLE, "samples": 1000})  # the warm-up is held: at once
            assert response.status_code == 503 and response.headers["retry-after"] == "1"
            assert "warming up" in response.json()["error"]
        assert warming.post("/api/hand", json={"cards": "AH"}).status_code == 400
        assert warming.post("/api/calls", json={"auction": [2]}).status_code == 200
        gate.set()
        assert app.state.ready.wait(120)
        assert warming.get("/api/rules").json()["ready"] is True
        # the table's error, which every hint reads, was made in the warm-up, not in the first hint
        table = shared_equity(DEFAULT_HANDS, 1, Rules(), "heuristic", DEFAULT_FLOOR)
        assert "gradient" in table.__dict__
        assert warming.post("/api/hand", json={"cards": EXAMPLE, "samples": 1000}).status_code == 200


def _hint_view(seat: int = 1, plays: int = 8) -> dict:
    basic = json.loads((Path(__file__).parents[1] / "golden" / "basic.json").read_text())
    obj = {k: v for k, v in basic.items() if k not in ("why", "expected")}
    return obj | {"seat": seat, "plays": basic["plays"][:plays],
                  "hands": [h if s == seat else None for s, h in enumerate(basic["hands"])]}


@pytest.mark.parametrize(("body", "message"), [
    ({}, "view is missing"),
    ({"view": _hint_view(), "color": 1}, "unknown field 'color'"),
    ({"view": _hint_view(2)}, "not seat 2's turn: it is seat 1's, to play a card"),
    ({"view": _hint_view(), "samples": 10**7}, "at most"),
    ({"view": _hint_view(), "inference": "maybe"}, "inference must be policy or none"),
    ({"view": _hint_view(), "playout": "pimc:8"}, "not offered here"),
])
def test_hint_requests_are_checked_before_work(client, body, message):
    response = client.post("/api/hint", json=body)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_a_hint_request_answers_what_the_command_line_prints(client, tmp_path):
    view = _hint_view()
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view))
    response = client.post("/api/hint", json={"view": view, "samples": 16, "seed": 3})
    assert response.status_code == 200, response.text
    printed = json.loads(ok("hint", str(path), "--samples", "16", "--seed", "3", "--json").stdout)
    assert response.json() == printed


# -- reports under other rules, in the results folder's subfolders ------------------------------------------------


def test_tables_offer_the_reports_under_other_rules(variant_results):
    client = TestClient(create_app(results=variant_results, warm_up=False), base_url=LOCAL)
    default = client.get("/api/tables").json()
    assert default["variants"] == [{"name": "", "label": "default rules"},
                                   {"name": "round-points", "label": "round points"}]  # not notes/: no manifest
    assert default["variant"] == "" and default["bid_table"]["rules"]["round_points"] is False
    assert client.get("/api/tables", params={"variant": ""}).json() == default
    answer = client.get("/api/tables", params={"by": "trumps,top", "variant": "round-points"}).json()
    assert answer["variant"] == "round-points" and answer["variants"] == default["variants"]
    bid = answer["bid_table"]
    assert bid["rules"]["round_points"] is True and bid["hands"] == 5000 and "make7" in bid["rows"][0]
    assert [f["name"] for f in answer["features"]] == ["trumps", "top"]
    printed = json.loads(ok("moon", "--counts", str(variant_results / "round-points" / "bid_table.npz"), "--by",
                            "trumps,top", "--min-count", "200", "--json").stdout)
    assert answer["moon_table"] == printed
    assert answer["by_position"] is None and answer["equity"] is None  # not in that folder


def test_tables_give_the_count_of_each_rule_set(variant_results):
    """``count``: the shipped count fitted under the bid table's rules, each figure as smear_sim/data/count.json
    holds it, for the folder (default rules) and for round-points/ (round points)."""
    from smear_sim.core.count import KIND_LABELS, KINDS, load_counts

    client = TestClient(create_app(results=variant_results, warm_up=False), base_url=LOCAL)
    shipped = load_counts()
    for variant, name in (("", "default"), ("round-points", "round_points")):
        count = client.get("/api/tables", params={"variant": variant}).json()["count"]
        rule = shipped[name]
        assert count["variant"] == name
        assert count["weights"] == [{"kind": k, "label": KIND_LABELS[k], "points": w}
                                    for k, w in zip(KINDS, rule.weights, strict=True) if w]
        assert count["accuracy"] == {"all": rule.meta["accuracy"], "0-0": rule.meta["accuracy_0_0"]}
        assert len(count["bands"]) == len(rule.bands) + 1 and count["bands"][0]["us"] == f"below {rule.bands[0]}"
        opener = count["bands"][0]["rows"][0]
        assert (opener["place"], opener["standing"]) == ("opener", "none")
        for part in opener["cells"][0].split(", "):  # at 0-0: each call from the count it needs, not from one less
            call, need = part.split(": ")
            slot = rule.rules.max_points + 1 if call == "moon" else int(call)
            assert rule.call(int(need), 0, 0) == slot and rule.call(int(need) - 1, 0, 0) < slot


def test_tables_without_a_bid_table_have_no_count(small_results):
    data = TestClient(create_app(results=small_results, warm_up=False), base_url=LOCAL).get("/api/tables").json()
    assert data["count"] is None


@pytest.mark.parametrize("variant", ["nope", "..", "../results", "round-points/..", "/etc", "round-points/",
                                     "notes", "Round-Points", "round-points\x00", "x" * 10_000])
def test_an_unknown_variant_is_a_400_in_one_line(variant_results, variant):
    client = TestClient(create_app(results=variant_results, warm_up=False), base_url=LOCAL)
    response = client.get("/api/tables", params={"variant": variant})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error.startswith("unknown variant") and "'round-points'" in error and "\n" not in error
    assert len(error) < 400 and str(variant_results) not in error


def test_a_results_folder_without_reports_under_other_rules(small_results):
    client = TestClient(create_app(results=small_results, warm_up=False), base_url=LOCAL)
    assert client.get("/api/tables").json()["variants"] == [{"name": "", "label": "this folder"}]  # no bid table
    response = client.get("/api/tables", params={"variant": "round-points"})
    assert response.status_code == 400 and "are none" in response.json()["error"]
