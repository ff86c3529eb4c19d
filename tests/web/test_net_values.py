"""The net's values on the page (smear_sim/web/net_values.py): ``evaluator`` on ``POST /api/hint`` and ``POST
/api/table/ID/hint`` (search, net, both), the net's answer the command line's, given outside the simulator's turns,
bad values refused in one line, the net warmed as the server starts, and ``net`` among the bots."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from smear_sim.analysis.net_hint import net_hint
from smear_sim.analysis.session_tables import loaded_net
from smear_sim.reference.view import parse_view
from smear_sim.web.server import create_app

LOCAL = "http://127.0.0.1:8000"
BASIC = json.loads((Path(__file__).parents[1] / "golden" / "basic.json").read_text())


def card_view(seat: int = 1, plays: int = 8) -> dict:
    obj = {k: v for k, v in BASIC.items() if k not in ("why", "expected")}
    return obj | {"seat": seat, "plays": BASIC["plays"][:plays],
                  "hands": [h if s == seat else None for s, h in enumerate(BASIC["hands"])]}


def without_time(obj: dict) -> dict:
    return {k: v for k, v in obj.items() if k not in ("milliseconds", "net_milliseconds")}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(results=None, games_dir=tmp_path_factory.mktemp("games"))
    return TestClient(app, raise_server_exceptions=False, base_url=LOCAL)


def test_the_net_evaluator_answers_the_nets_hint(client):
    view = card_view()
    response = client.post("/api/hint", json={"view": view, "evaluator": "net"})
    assert response.status_code == 200, response.text
    expected = net_hint(parse_view(view), net=loaded_net()).to_json()
    assert without_time(response.json()) == without_time(expected)
    assert response.json()["evaluator"] == "net" and "simulate;dur=" in response.headers["server-timing"]


def test_search_is_the_default_and_both_puts_the_nets_values_beside_it(client):
    view = card_view()
    plain = client.post("/api/hint", json={"view": view, "samples": 4}).json()
    assert client.post("/api/hint", json={"view": view, "samples": 4, "evaluator": "search"}).json() == plain
    both = client.post("/api/hint", json={"view": view, "samples": 4, "evaluator": "both"}).json()
    net = {a["action"]: a["win"] for a in net_hint(parse_view(view), net=loaded_net()).to_json()["actions"]}
    assert both["evaluator"] == "both" and both["net_best"] == max(net, key=net.get)
    assert [a["action"] for a in both["actions"]] == [a["action"] for a in plain["actions"]]
    for row, search in zip(both["actions"], plain["actions"], strict=True):
        assert row["net_win"] == net[row["action"]]
        assert {k: v for k, v in row.items() if not k.startswith("net_")} == search


@pytest.mark.parametrize(("body", "message"), [
    ({"evaluator": "neural"}, "evaluator must be search, net or both, got 'neural'"),
    ({"evaluator": 1}, "evaluator must be search, net or both, got 1"),
    ({"evaluator": "net", "samples": 100}, "samples is for the search; evaluator net plays nothing out (use both)"),
    ({"evaluator": "net", "playout": "heuristic"}, "playout is for the search"),
])
def test_bad_evaluators_are_400_with_one_line(client, body, message):
    response = client.post("/api/hint", json={"view": card_view(), **body})
    assert response.status_code == 400
    assert message in response.json()["error"] and "\n" not in response.json()["error"]


def open_table(client, seed: int = 7):
    response = client.post("/api/table", json={"seat": 1, "seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def until_yours(client, state, decision: str):
    """The bots' moves and the person's first legal action until the person is to make ``decision``."""
    while not (state["turn"]["yours"] and state["turn"]["decision"] == decision):
        assert not state["hand_over"], f"the hand ended before a {decision} of the person's"
        if state["turn"]["yours"]:
            state = client.post(f"/api/table/{state['id']}/act", json={"action": state["legal"][0],
                                                                       "step": state["step"]}).json()
        else:
            state = client.post(f"/api/table/{state['id']}/bot", json={"step": state["step"]}).json()
    return state


def test_the_tables_net_hint_values_every_legal_action_with_its_cost(client):
    state = until_yours(client, open_table(client), "card")
    route = f"/api/table/{state['id']}/hint"
    response = client.post(route, json={"evaluator": "net", "action": state["legal"][-1], "step": state["step"]})
    assert response.status_code == 200, response.text
    hint = response.json()
    assert hint["evaluator"] == "net" and hint["step"] == state["step"]
    assert sorted(a["action"] for a in hint["actions"]) == sorted(state["legal"])
    wins = [a["win"] for a in hint["actions"]]
    assert wins == sorted(wins, reverse=True) and hint["costs"][0] == {"points": None, "win": 0, "mark": None}
    for action, cost in zip(hint["actions"], hint["costs"], strict=True):
        assert cost["win"] == pytest.approx(wins[0] - action["win"], abs=1e-4)
    taken = next(c for a, c in zip(hint["actions"], hint["costs"], strict=True) if a["action"] == state["legal"][-1])
    assert hint["taken"] == {"action": state["legal"][-1], **taken}
    shown = {k: v for k, v in state.items() if k != "move"}  # the bot's last move is told only as it is made
    assert client.get(f"/api/table/{state['id']}").json() == shown  # a hint changes nothing
    both = client.post(route, json={"evaluator": "both", "samples": 4}).json()
    by_net = {a["action"]: a["win"] for a in hint["actions"]}
    assert all(row["net_win"] == by_net[row["action"]] for row in both["actions"])
    assert len(both["costs"]) == len(both["actions"])


def test_the_tables_net_hint_values_a_keep_and_trump(client):
    """Seat 1 with seed 7 may or may not win the auction: whichever of trump and keep is the person's is valued."""
    state = until_yours(client, open_table(client, seed=3), "keep")
    hint = client.post(f"/api/table/{state['id']}/hint", json={"evaluator": "net"}).json()
    legal = {tuple(sorted(keep)) for keep in state["legal"]}
    assert hint["decision"] == "keep" and {tuple(sorted(a["action"])) for a in hint["actions"]} <= legal


@pytest.mark.parametrize(("body", "message"), [
    ({"evaluator": "mcts"}, "evaluator must be search, net or both, got 'mcts'"),
    ({"evaluator": "net", "samples": 100}, "samples is for the search"),
    ({"evaluator": ["net"]}, "evaluator must be search, net or both"),
])
def test_the_tables_bad_evaluators_are_400_with_one_line(client, body, message):
    state = until_yours(client, open_table(client), "card")
    response = client.post(f"/api/table/{state['id']}/hint", json=body)
    assert response.status_code == 400 and message in response.json()["error"]


def test_the_nets_values_do_not_wait_for_the_simulator(client):
    """A hint by the net runs outside the simulator's turns: it answers while a long analysis holds the simulator
    (a review, say), where the search's hint would wait for its slices."""
    state = until_yours(client, open_table(client, seed=11), "card")
    simulator = client.app.state.simulator
    holding, release = threading.Event(), threading.Event()

    def hold(executor) -> None:
        holding.set()
        release.wait(60)

    future = simulator.submit(hold)
    try:
        assert holding.wait(60)
        for route, body in ((f"/api/table/{state['id']}/hint", {"evaluator": "net"}),
                            ("/api/hint", {"view": card_view(), "evaluator": "net"})):
            response = client.post(route, json=body)
            assert response.status_code == 200, response.text
        assert not future.done()  # the simulator was held throughout
    finally:
        release.set()
    future.result(60)


def test_no_net_is_one_line_before_any_work(client, monkeypatch, tmp_path):
    from smear_sim.web.net_values import warm_net

    monkeypatch.setenv("SMEAR_SIM_NET", str(tmp_path / "missing.npz"))
    response = client.post("/api/hint", json={"view": card_view(), "evaluator": "net"})
    assert response.status_code == 400 and "has no weights" in response.json()["error"]
    assert warm_net() is False  # the server's warm-up skips it: the hints say it in one line


def test_the_net_is_warmed_and_offered_among_the_bots(client):
    from smear_sim.web.net_values import warm_net

    assert warm_net() is True
    bots = client.get("/api/rules").json()["bots"]
    assert [b["name"] for b in bots] == ["heuristic", "equity", "count", "net"]
    assert all(b["summary"] for b in bots)
    state = client.post("/api/table", json={"seat": 0, "seed": 2, "bots": "net"}).json()
    assert state["bots"] == "net" and "learned" in state["bot_cost"]
