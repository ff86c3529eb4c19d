"""What every request passes before the app sees it (smear_sim/web/guard.py and the body rules of server.py),
checked on every route the app registers, so that routes added later (a hint, a review, a practice table)
are covered as soon as they exist: only local callers, security headers, the body cap, nesting, numbers, and
no absolute path in any answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import all_routes

from smear_sim.web.answers import MAX_DEPTH
from smear_sim.web.guard import MAX_BODY, SECURITY_HEADERS, allowed_hosts
from smear_sim.web.server import create_app

EXAMPLE = "AH KH 2H JD 10C 5S 9S 4D 3C"
RESULTS = Path(__file__).parents[2] / "results"
LOCAL = "http://127.0.0.1:8000"
# A small valid body for each POST route; a new POST route must add one here (test_every_post_route_has_an_example).
EXAMPLES = {
    "/api/hand": {"cards": EXAMPLE, "samples": 1000, "seed": 1},
    "/api/hand/stream": {"cards": EXAMPLE, "samples": 1000, "seed": 1},
    "/api/calls": {"auction": [2, "pass"], "rules": {"target": 21}},
    "/api/hint": {"view": {"dealer": 3, "scores_before": [0, 0], "seat": 1,
                           "hands": [None, ["10H", "KH", "AS", "6C", "9S", "3D", "AD", "3C", "9C"], None, None],
                           "bids": [3, "pass", "pass", "pass"], "trump": "H",
                           "discards": [None, ["AD", "3C", "9C"], None, None],
                           "plays": ["AH", "10H", "8H", "QH", "7H", "KH", "5D", "JH"]},
                  "samples": 8, "seed": 1},
    "/api/review": {"record": json.loads((Path(__file__).parents[1] / "golden" / "basic.json").read_text()),
                    "samples": 8, "kinds": "card", "luck": False},
    "/api/table": {"seat": 1, "bots": "heuristic", "seed": 7},
    "/api/table/{table_id}/act": {"action": "pass", "step": 1},
    "/api/table/{table_id}/bot": {"step": 1},
    "/api/table/{table_id}/next": {"step": 1},
    "/api/table/{table_id}/hint": {"samples": 8, "step": 1},
}
EXAMPLES["/api/review/stream"] = EXAMPLES["/api/review"]


@pytest.fixture(scope="module")
def app():
    return create_app(results=RESULTS, warm_up=False)


@pytest.fixture(scope="module")
def client(app):
    return TestClient(app, base_url=LOCAL, raise_server_exceptions=False)


def routes(app, method: str | None = None) -> list[str]:
    """The paths of the API routes the app has registered (with ``method`` if given)."""
    return sorted({route.path for route in all_routes(app) if getattr(route, "path", "").startswith("/api")
                   and (method is None or method in getattr(route, "methods", ()))})


def request(client, method: str, path: str, **kwargs):
    if method == "POST":
        kwargs.setdefault("json", EXAMPLES.get(path, {}))
    return client.request(method, path, **kwargs)


def every_route(app):
    return [(method, p) for method in ("GET", "POST", "DELETE") for p in routes(app, method)]


def test_every_post_route_has_an_example(app):
    assert routes(app, "POST") and set(routes(app, "POST")) <= set(EXAMPLES), "give the new route an example body"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost:9999",
                                  "127.0.0.1:8000@evil", ""])
def test_a_host_that_is_not_this_server_is_refused_on_every_route(app, client, host):
    """DNS rebinding: a page whose name was rebound to 127.0.0.1 still sends its own name as Host."""
    for method, path in [*every_route(app), ("GET", "/"), ("GET", "/app.js")]:
        response = request(client, method, path, headers={"host": host})
        assert response.status_code == 400, (method, path, host, response.text)
        assert "Host header" in response.json()["error"]


def test_the_hosts_the_server_was_started_for_are_accepted(app):
    for base in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        assert TestClient(app, base_url=base).get("/api/rules").status_code == 200, base
    assert allowed_hosts("192.168.1.5") >= {"127.0.0.1", "localhost", "[::1]", "192.168.1.5"}
    wide = TestClient(create_app(results=RESULTS, warm_up=False, host="0.0.0.0"), base_url="http://10.1.2.3:8000")
    assert wide.get("/api/rules").status_code == 200  # an address of this machine, never a name
    assert wide.get("/api/rules", headers={"host": "evil.example:8000"}).status_code == 400


@pytest.mark.parametrize("headers", [{"origin": "http://evil.example"}, {"origin": "null"},
                                     {"origin": "http://127.0.0.1:9999"}, {"sec-fetch-site": "cross-site"},
                                     # another port of this machine: http://localhost is port 80, not this one
                                     {"origin": "http://localhost"}, {"origin": "http://127.0.0.1"},
                                     {"origin": "http://[::1]"}, {"origin": "https://127.0.0.1:8000"},
                                     {"origin": "http://127.0.0.1:8000@evil.example"},
                                     {"origin": "http://127.0.0.1:99999"}, {"sec-fetch-site": "same-site"}])
def test_api_requests_from_other_sites_are_refused_on_every_route(app, client, headers):
    for method, path in every_route(app):
        response = request(client, method, path, headers=headers)
        assert response.status_code == 403, (method, path, response.text)
    assert request(client, "GET", "/api/rules", headers={"origin": LOCAL}).status_code == 200  # the page itself


def test_the_pages_own_origin_is_accepted_on_every_host_name(app):
    for base in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        client = TestClient(app, base_url=base)
        assert client.get("/api/rules", headers={"origin": base, "sec-fetch-site": "same-origin"}).status_code == 200
    on_80 = TestClient(app, base_url="http://localhost")
    assert on_80.get("/api/rules", headers={"origin": "http://localhost"}).status_code == 200  # 80 is 80


def test_a_page_on_another_port_cannot_move_a_bot_without_a_preflight(client):
    """A POST with no body and no Content-Type (sent by a browser without a preflight) from http://localhost moved
    a bot: an Origin without a port counted as this server."""
    state = client.post("/api/table", json={"seat": 2, "seed": 7}).json()  # seat 0 calls first: a bot's turn
    for origin in ("http://localhost", "http://127.0.0.1", "http://localhost:8080"):
        moved = client.post(f"/api/table/{state['id']}/bot", headers={"origin": origin})
        assert moved.status_code == 403, (origin, moved.text)
    assert client.get(f"/api/table/{state['id']}").json()["step"] == state["step"]
    assert client.post(f"/api/table/{state['id']}/bot", headers={"origin": LOCAL}).status_code == 200


def test_every_answer_keeps_out_of_frames_and_content_sniffing(app, client):
    for method, path in [*every_route(app), ("GET", "/"), ("GET", "/nowhere"), ("POST", "/api/hand")]:
        response = request(client, method, path, headers={"host": "evil.example"} if path == "/nowhere" else {})
        for name, value in SECURITY_HEADERS:
            assert response.headers[name.decode()] == value.decode(), (method, path, name)
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_a_body_over_the_cap_is_refused_on_every_route(app, client):
    big = b'{"cards": "' + b"A" * MAX_BODY + b'"}'
    for method, path in every_route(app):
        response = client.request(method, path, content=big, headers={"content-type": "application/json"})
        assert response.status_code == 413, (method, path, response.status_code)
        assert len(response.content) < 200

    def streamed():  # no Content-Length: the bytes read are counted
        yield b'{"cards": "'
        for _ in range(MAX_BODY // 4096 + 1):
            yield b"A" * 4096
        yield b'"}'

    for path in routes(app, "POST"):
        response = client.post(path, content=streamed(), headers={"content-type": "application/json"})
        assert response.status_code == 413, (path, response.text[:200])


@pytest.mark.parametrize("body", ["[" * 100_000 + "]" * 100_000, '{"a":' * 2000 + "1" + "}" * 2000,
                                  "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)])
def test_deep_nesting_is_not_valid_json_here_on_every_route(app, client, body):
    for path in routes(app, "POST"):
        response = client.post(path, content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400, (path, response.text[:300])
        assert "not valid JSON" in response.json()["error"]


def _numbers(body, path=()):
    """Where each number of ``body`` is, as a path of keys and indices."""
    if isinstance(body, dict):
        for key, value in body.items():
            yield from _numbers(value, (*path, key))
    elif isinstance(body, list):
        for i, value in enumerate(body):
            yield from _numbers(value, (*path, i))
    elif isinstance(body, int | float) and not isinstance(body, bool):
        yield path


def _set(body, path, value):
    body = json.loads(json.dumps(body))
    inner = body
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return body


@pytest.mark.parametrize("value", ["10" + "0" * 38, "1" + "0" * 400, "-" + "9" * 5000, "1e999", "NaN",
                                   "-Infinity"])
def test_every_number_out_of_any_range_is_a_400_on_every_route(app, client, value):
    """Each number of each example body in turn, and a number in an extra field: 400, one short line."""
    for path in routes(app, "POST"):
        example = {**EXAMPLES[path], "rules": {"target": 21}} if path != "/api/calls" else EXAMPLES[path]
        places = list(_numbers(example))
        assert places, path
        for place in places:
            text = json.dumps(_set(example, place, "@@")).replace('"@@"', value)
            response = client.post(path, content=text, headers={"content-type": "application/json"})
            assert response.status_code == 400, (path, place, value, response.text[:300])
            assert len(response.json()["error"]) < 1200


def test_precision_and_seed_far_out_of_range(client):
    for body in ({"cards": EXAMPLE, "precision": 10**39}, {"cards": EXAMPLE, "precision": 1e300},
                 {"cards": EXAMPLE, "seed": 2**64}, {"cards": EXAMPLE, "samples": 10**19}):
        response = client.post("/api/hand", json=body)
        assert response.status_code == 400, (body, response.text)


def test_no_answer_reveals_an_absolute_path(app, client, tmp_path):
    results = str(RESULTS.resolve())
    for method, path in every_route(app):
        response = request(client, method, path)
        assert results not in response.text and str(Path.home()) not in response.text, (method, path)
    assert client.get("/api/tables").json()["source"] == "bid_table.npz"
    empty = TestClient(create_app(results=tmp_path, warm_up=False), base_url=LOCAL).get("/api/tables")
    assert empty.status_code == 400 and str(tmp_path) not in empty.text


def test_a_message_quoting_a_huge_input_is_one_short_line(client):
    response = client.post("/api/hand", json={"cards": EXAMPLE.replace("3C", "3" + "C" * 300_000)})
    assert response.status_code == 413  # over the body cap before anything quotes it
    response = client.post("/api/hand", json={"cards": EXAMPLE.replace("3C", "3" + "C" * 100_000)})
    assert response.status_code == 400 and len(response.content) < 1200 and "unknown card" in response.text
