"""The practice table's API (smear_sim/web/practice.py): a whole game by requests, out-of-turn and illegal actions
refused with the table unchanged, bad input answered 400 with one line, the cap on tables and their idle expiry,
the hint at the table, the saved games (atomic, read by ``smear-sim score`` with the results the table showed), and
the review's stream."""

from __future__ import annotations

import json

import pytest
from cli_helpers import ok
from fastapi.testclient import TestClient

from smear_sim.web.games import GameFolder
from smear_sim.web.limits import Limits
from smear_sim.web.routes.table import TABLE_HINT_WORLDS
from smear_sim.web.server import create_app

LOCAL = "http://127.0.0.1:8000"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def clock():
    return Clock()


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    return tmp_path_factory.mktemp("games")


@pytest.fixture(scope="module")
def client(games, clock):
    app = create_app(results=None, games_dir=games, limits=Limits(max_tables=3, idle_expiry=60, max_decisions=60),
                     clock=clock)
    return TestClient(app, raise_server_exceptions=False, base_url=LOCAL)


def open_table(client, **body):
    response = client.post("/api/table", json={"seat": 1, "seed": 7, **body})
    assert response.status_code == 200, response.text
    return response.json()


def play_hand(client, state, choose=lambda legal: legal[0]):
    """Play the hand to its end: the bots' moves one at a time, the person's by ``choose``; the last state."""
    while not state["hand_over"]:
        if state["turn"]["yours"]:
            response = client.post(f"/api/table/{state['id']}/act", json={"action": choose(state["legal"]),
                                                                          "step": state["step"]})
        else:
            response = client.post(f"/api/table/{state['id']}/bot", json={"step": state["step"]})
        assert response.status_code == 200, response.text
        state = response.json()
    return state


def close_all(client, clock):
    clock.now += 1000  # every open table expires at the next request
    client.get("/api/table/sweep")


def test_a_game_hand_by_hand_saved_and_scored_as_the_table_showed(client, clock, games, tmp_path):
    close_all(client, clock)
    state = open_table(client)
    assert state["hand_number"] == 1 and state["dealer"] == 3 and state["scores"] == [0, 0]
    assert state["hand"] and len(state["hand"]) == 9 and state["kitty"] is None
    shown = []
    for number in (1, 2):
        state = play_hand(client, state)
        assert state["hand_over"] and state["saved"] and state["result"]["scores_after"] == state["scores"]
        shown.append(state["result"])
        if number == 1:
            response = client.post(f"/api/table/{state['id']}/next", json={})
            assert response.status_code == 200, response.text
            state = response.json()
            assert state["hand_number"] == 2 and state["dealer"] == 0
            assert state["scores_before"] == shown[0]["scores_after"]  # the score carried, the deal passed left
    path = games / state["saved"]
    printed = json.loads(ok("score", str(path), "--json").stdout)
    assert printed["deals"] == shown and printed["hands_played"] == 2
    assert printed["scores_after"] == state["scores"]
    listed = client.get("/api/games").json()["games"]
    assert listed[0]["name"] == state["saved"] and listed[0]["hands"] == 2 and listed[0]["seat"] == 1
    assert client.get(f"/api/games/{state['saved']}").json() == json.loads(path.read_text())
    assert not [p for p in games.iterdir() if p.name.startswith(".")]  # no temporary file left behind


def test_the_bots_play_a_deal_again_the_same_way(client, clock):
    """Bots decide by their player and a random stream keyed by the deal: the same seed, seat and actions give the
    same hand, move for move (so "play this deal again" is the same deal against the same play)."""
    close_all(client, clock)
    hands = []
    for _ in range(2):
        state = open_table(client, seat=3, seed=31)
        moves = []
        while not state["hand_over"]:
            route = "act" if state["turn"]["yours"] else "bot"
            state = client.post(f"/api/table/{state['id']}/{route}",
                                json={"action": state["legal"][0]} if route == "act" else {}).json()
            moves.append(state.get("move"))
        hands.append((moves, state["record"], state["result"]))
    assert hands[0] == hands[1] and any(hands[0][0])


def test_the_same_seed_deals_the_same_cards_at_any_seat(client, clock):
    close_all(client, clock)
    first = open_table(client, seed=99, seat=0)
    other = open_table(client, seed=99, seat=2)
    again = open_table(client, seed=99, seat=0)
    assert first["hand"] == again["hand"] and first["hand"] != other["hand"]
    assert first["deal_seed"] == 99


def test_out_of_turn_and_illegal_actions_are_refused_and_change_nothing(client, clock):
    close_all(client, clock)
    state = open_table(client, seat=2)  # seat 0 opens the calls: a bot's turn
    table = state["id"]
    refused = client.post(f"/api/table/{table}/act", json={"action": "pass"})
    assert refused.status_code == 400 and refused.json()["error"].startswith("not your turn: seat 0 is to call")
    assert client.get(f"/api/table/{table}").json() == state
    while not state["turn"]["yours"]:
        state = client.post(f"/api/table/{table}/bot", json={}).json()
    before = client.get(f"/api/table/{table}").json()
    for action, message in ((9, "9 is not a call"), ("moonish", "is not a call"), (5, "5 is not a legal call here"),
                            (["AH"], "a call is a number"), (None, "action is missing")):
        response = client.post(f"/api/table/{table}/act", json={"action": action})
        assert response.status_code == 400 and message in response.json()["error"], response.text
        assert "\n" not in response.json()["error"]
    bot = client.post(f"/api/table/{table}/bot", json={})
    assert bot.status_code == 400 and bot.json()["error"].startswith("it is your turn, seat 2, to call")
    stale = client.post(f"/api/table/{table}/act", json={"action": before["legal"][0], "step": before["step"] - 1})
    assert stale.status_code == 400 and "moved on" in stale.json()["error"]
    assert client.get(f"/api/table/{table}").json() == before


@pytest.mark.parametrize(("route", "body", "message"), [
    ("/api/table", {"seat": 4}, "seat must be your seat, 0 to 3"),
    ("/api/table", {"seat": True}, "seat must be"),
    ("/api/table", {"bots": "pimc:999"}, "at most pimc:64"),
    ("/api/table", {"bots": "robot"}, "unknown policy 'robot'"),
    ("/api/table", {"seed": -1}, "seed must be a whole number"),
    ("/api/table", {"rules": {"target": "x"}}, "target"),
    ("/api/table", {"colour": 1}, "unknown field 'colour'"),
    ("/api/table", [1], "the request must be a JSON object"),
    ("TABLE/act", {"action": "AH", "extra": 1}, "unknown field 'extra'"),
    ("TABLE/act", {"action": 3, "step": "x"}, "step must be the table's step"),
    ("TABLE/hint", {"samples": 10**9}, "samples must be at most 20,000"),
    ("TABLE/hint", {"samples": 0}, "samples"),
    ("TABLE/next", {}, "the hand is still being played"),
    ("/api/review/stream", {"record": "x"}, "record must be a hand record"),
])
def test_bad_input_is_400_with_one_line(client, clock, route, body, message):
    close_all(client, clock)
    table = open_table(client, seat=0)["id"]
    response = client.post(route.replace("TABLE", f"/api/table/{table}"), json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert message in error and "\n" not in error and "Traceback" not in error


def test_a_saved_game_is_named_not_pathed(client):
    for name in ("../etc/passwd", "game-x.json", "..%2F..%2Fsecret"):
        response = client.get(f"/api/games/{name}")
        assert response.status_code in (400, 404) and "\n" not in response.json()["error"]


def test_the_cap_on_tables_and_idle_expiry(client, clock):
    close_all(client, clock)
    tables = [open_table(client)["id"] for _ in range(3)]
    full = client.post("/api/table", json={})
    assert full.status_code == 503 and "3 open tables, its cap" in full.json()["error"]
    clock.now += 30
    assert client.get(f"/api/table/{tables[0]}").status_code == 200  # touched: its idle time starts again
    clock.now += 40  # the other two are idle 70 s > 60 s
    assert client.post("/api/table", json={}).status_code == 200
    gone = client.get(f"/api/table/{tables[1]}")
    assert gone.status_code == 410 and "closed after 1 min idle" in gone.json()["error"]
    assert client.get(f"/api/table/{tables[0]}").status_code == 200
    unknown = client.get("/api/table/nosuchtable")
    assert unknown.status_code == 404 and unknown.json()["error"].startswith("no table nosuchtable here")


def test_a_hint_at_the_table_values_every_legal_action_with_its_cost_and_mark(client, clock):
    close_all(client, clock)
    state = open_table(client, seat=0, seed=3)
    while not (state["turn"]["yours"] and state["turn"]["decision"] == "card"):
        route = "act" if state["turn"]["yours"] else "bot"
        state = client.post(f"/api/table/{state['id']}/{route}",
                            json={"action": state["legal"][0]} if route == "act" else {}).json()
    response = client.post(f"/api/table/{state['id']}/hint", json={"samples": 8, "action": state["legal"][-1]})
    assert response.status_code == 200, response.text
    hint = response.json()
    assert sorted(a["action"] for a in hint["actions"]) == sorted(state["legal"])
    assert len(hint["costs"]) == len(hint["actions"]) and hint["costs"][0]["win"] == 0
    assert hint["taken"]["action"] == state["legal"][-1] and hint["step"] == state["step"]
    assert client.get(f"/api/table/{state['id']}").json() == state  # a hint changes nothing
    own = client.post(f"/api/table/{state['id']}/hint", json={}).json()  # its own precision, capped for a person
    assert 64 <= own["samples"] <= TABLE_HINT_WORLDS
    if len(state["legal"]) > 1:
        before = state
        bot = client.post(f"/api/table/{state['id']}/bot", json={})
        assert bot.status_code == 400
        assert client.get(f"/api/table/{state['id']}").json() == before


def test_the_review_streams_its_progress_then_the_review_and_the_tricks(client, clock):
    close_all(client, clock)
    state = play_hand(client, open_table(client, seed=11))
    with client.stream("POST", "/api/review/stream", json={"record": state["record"], "samples": 4,
                                                           "kinds": "card", "luck": False}) as response:
        assert response.status_code == 200
        lines = [json.loads(line) for line in response.iter_lines() if line]
    assert lines[0]["hands"][0]["result"] == state["result"]
    progress = [line["progress"] for line in lines if "progress" in line]
    assert progress[0]["done"] == 0 and progress[-1]["done"] == progress[-1]["total"] > 0
    result = lines[-1]["result"]
    assert len(result["decisions"]) == progress[-1]["total"]
    plain = client.post("/api/review", json={"record": state["record"], "samples": 4, "kinds": "card",
                                             "luck": False})
    assert plain.json() == result


def test_a_game_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    folder = GameFolder(tmp_path / "games")
    name = "game-20260101-120000-abc.json"
    folder.save(name, {"deals": [1]})

    def broken(record, handle, **_):
        handle.write('{"deals": [1, 2')
        raise OSError("disk full")

    monkeypatch.setattr(json, "dump", broken)
    with pytest.raises(Exception, match="disk full"):
        folder.save(name, {"deals": [1, 2]})
    monkeypatch.undo()
    assert json.loads((tmp_path / "games" / name).read_text()) == {"deals": [1]}
    assert [p.name for p in (tmp_path / "games").iterdir()] == [name]


@pytest.mark.parametrize(("args", "message"), [
    (("--games-dir", "FILE"), "--games-dir FILE is a file"),
    (("--max-tables", "0"), "'--max-tables'"),
    (("--max-tables", "1001"), "'--max-tables'"),
    (("--idle-expiry", "5"), "'--idle-expiry'"),
])
def test_serve_checks_the_practice_options_before_it_starts(tmp_path, args, message):
    from cli_helpers import assert_clean_process_failure, run

    (tmp_path / "FILE").write_text("")
    args = tuple(str(tmp_path / "FILE") if a == "FILE" else a for a in args)
    line = assert_clean_process_failure(run("serve", "--port", "0", *args))  # the real command line: exit 2
    assert message.replace("FILE", str(tmp_path / "FILE")) in line


def test_the_games_folder_follows_xdg_data_home(monkeypatch, tmp_path):
    from smear_sim.web.games import default_games_dir

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_games_dir() == tmp_path / "smear-sim" / "games"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG rule: a relative path is ignored
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_games_dir() == tmp_path / ".local" / "share" / "smear-sim" / "games"


def test_a_table_hint_whose_client_goes_away_stops(tmp_path):
    """As every analysis: the hint at the table stops at its next slice when its client goes away."""
    import socket
    import threading

    from web_helpers import running

    from smear_sim.engine.turns import AnalysisCancelled, Simulator

    simulator = Simulator()
    started = threading.Event()
    ended: list[BaseException | None] = []  # how each analysis ended: None when it ran to its end
    submit = simulator.submit

    def watched(work, **how):
        def run(executor):
            started.set()
            try:
                answer = work(executor)
            except AnalysisCancelled as stopped:
                ended.append(stopped)
                raise
            ended.append(None)
            return answer

        return submit(run, **how)

    simulator.submit = watched
    app = create_app(results=None, games_dir=tmp_path, simulator=simulator, warm_up=False)
    with running(app) as url, TestClient(app, base_url=LOCAL) as client:
        state = open_table(client, seat=0, seed=3)
        while not (state["turn"]["yours"] and state["turn"]["decision"] == "card"):
            route = "act" if state["turn"]["yours"] else "bot"
            state = client.post(f"/api/table/{state['id']}/{route}",
                                json={"action": state["legal"][0]} if route == "act" else {}).json()
        assert client.post(f"/api/table/{state['id']}/hint", json={"samples": 1}).status_code == 200  # compiled
        started.clear()
        port = int(url.rsplit(":", 1)[1].strip("/"))
        data = json.dumps({"samples": 20_000}).encode()
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(b"POST /api/table/" + state["id"].encode() + b"/hint HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                           b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (port, len(data)) + data)
        assert started.wait(120)  # the hint has its turn
        connection.close()
        assert simulator.wait_idle(timeout=120)
        assert isinstance(ended[-1], AnalysisCancelled)  # stopped, not run to its end (20,000 worlds)


def test_a_hand_that_cannot_be_saved_says_so_and_the_game_goes_on(tmp_path):
    blocker = tmp_path / "games"
    blocker.write_text("a file where the folder should be")
    client = TestClient(create_app(results=None, games_dir=blocker, warm_up=False), base_url=LOCAL)
    state = play_hand(client, open_table(client, seed=21))
    assert state["saved"] is None and state["save_error"].startswith("the game could not be saved")
    assert "\n" not in state["save_error"]
    assert client.post(f"/api/table/{state['id']}/next", json={}).status_code == 200


# -- hostile input (issue 46 §1) ------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["\u00b2", "9" * 5000, "\u0663", "\U0001d7d1", " 3\u200b"])
def test_a_crafted_call_at_act_or_hint_is_400_not_500(client, clock, action):
    """'²' and 5,000 nines were a 500 (str.isdigit then int); '٣' (Arabic-Indic three) was taken as a bid of 3."""
    close_all(client, clock)
    state = open_table(client, seat=0)  # seat 0 opens the calls: the person's turn
    assert state["turn"] == {"seat": 0, "decision": "call", "yours": True}
    for route in ("act", "hint"):
        response = client.post(f"/api/table/{state['id']}/{route}", json={"action": action})
        assert response.status_code == 400, (route, response.text)
        error = response.json()["error"]
        assert "\n" not in error and "internal error" not in error and len(error) < 400
    assert client.get(f"/api/table/{state['id']}").json() == state  # nothing was taken as a call


@pytest.mark.parametrize("rules", [0, False, [], "", "target=11", 1.5, [{"target": 11}]])
def test_rules_of_a_wrong_type_are_refused_not_taken_for_the_defaults(client, clock, rules):
    close_all(client, clock)
    response = client.post("/api/table", json={"seat": 0, "rules": rules})
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith("rules must be an object of rule options")
    assert client.post("/api/table", json={"seat": 0, "rules": None}).status_code == 200  # null: the defaults


def test_no_saved_game_name_opens_a_table(client, clock, games):
    """The names were game-...-<table id>.json, and that id opened the live table (its person's hand, its actions)."""
    close_all(client, clock)
    state = play_hand(client, open_table(client, seed=5))
    assert state["saved"] and state["id"] not in state["saved"]
    assert client.get(f"/api/table/{state['id']}").status_code == 200  # the table is open
    listed = [game["name"] for game in client.get("/api/games").json()["games"]]
    assert state["saved"] in listed
    for name in listed:
        tail = name.removesuffix(".json").rsplit("-", 1)[-1]
        for guess in filter(None, (tail, name, name.removesuffix(".json"))):  # a random name may end in "-"
            response = client.get(f"/api/table/{guess}")
            assert response.status_code == 404, (guess, response.text)
            assert client.post(f"/api/table/{guess}/bot", json={}).status_code == 404


def finish_game(client, state):
    """Play ``state``'s table to the end of its game (a target of 1: one hand ends it)."""
    while True:
        state = play_hand(client, state)
        if state["game_over"]:
            return state
        response = client.post(f"/api/table/{state['id']}/next", json={})
        assert response.status_code == 200, response.text
        state = response.json()


def test_a_finished_game_frees_its_slot_and_a_table_can_be_closed(tmp_path):
    """With --max-tables 2, two tables and one played to game over, a new table was refused (503), and there was
    no way to close one: 16 requests locked the practice table out for an hour at the defaults."""
    client = TestClient(create_app(results=None, games_dir=tmp_path, limits=Limits(max_tables=2), warm_up=False),
                        raise_server_exceptions=False, base_url=LOCAL)
    first = open_table(client, seed=3, rules={"target": 1})
    second = open_table(client, seed=4)
    assert client.post("/api/table", json={}).status_code == 503
    over = finish_game(client, first)
    assert over["winner"] is not None
    assert client.get(f"/api/table/{first['id']}").json()["game_over"]  # its end still shows
    third = open_table(client, seed=5)  # the finished game holds no slot
    assert client.post("/api/table", json={}).status_code == 503  # two games in play: the cap
    closed = client.delete(f"/api/table/{second['id']}")
    assert closed.status_code == 200 and closed.json() == {"id": second["id"], "closed": True}
    gone = client.get(f"/api/table/{second['id']}")
    assert gone.status_code == 410 and "closed by its player" in gone.json()["error"]
    assert client.delete(f"/api/table/{second['id']}").status_code == 410
    assert client.delete("/api/table/nosuchtable").status_code == 404
    fourth = open_table(client, seed=6)  # the closed table's slot
    # Finished games are kept open only up to the cap: older ones are closed as more games end.
    for table in (third, fourth):
        finish_game(client, client.get(f"/api/table/{table['id']}").json())
    assert client.get(f"/api/table/{first['id']}").status_code == 410
    assert len(client.app.state.practice) == 2


def planted_games(folder, outside):
    """The game folder's hostile files (issue 46 §1.5), named like games; ``outside`` is a folder beside it."""
    import os

    folder.mkdir(exist_ok=True)
    good = "game-20260101-120000-good.json"
    (folder / good).write_text(json.dumps({"deals": [], "practice": {"seat": 1, "scores_after": [0, 0]}}))
    (folder / "game-20260101-120001-deep.json").write_text("[" * 100_000)
    (folder / "game-20260101-120002-nan.json").write_text('{"deals": [NaN]}')
    (folder / "game-20260101-120003-inf.json").write_text('{"deals": [], "x": -Infinity}')
    with open(folder / "game-20260101-120004-huge.json", "wb") as big:
        big.truncate(300 * 1024 * 1024)  # sparse: 300 MB to read, none on the disk
    os.mkfifo(folder / "game-20260101-120005-fifo.json")
    secret = outside / "secret.json"
    secret.write_text(json.dumps({"deals": ["the secret"]}))
    (folder / "game-20260101-120006-link.json").symlink_to(secret)
    (folder / "game-20260101-120007-dir.json").mkdir()
    (folder / "game-20260101-120008-list.json").write_text("[1, 2]")
    (folder / "game-20260101-120009-deep.json").write_text("[" * 40 + "]" * 40)
    return good


def test_planted_files_in_the_games_folder_cost_one_entry_each(tmp_path):
    """100,000 '[' and a NaN were a 500, a 300 MB file was read whole by the listing, a FIFO hung its request
    forever (40 stopped the server), and a link to a file outside the folder was served."""
    outside = tmp_path / "outside"
    outside.mkdir()
    good = planted_games(tmp_path / "games", outside)
    client = TestClient(create_app(results=None, games_dir=tmp_path / "games", warm_up=False),
                        raise_server_exceptions=False, base_url=LOCAL)
    response = client.get("/api/games")
    assert response.status_code == 200, response.text
    listed = {game["name"]: game for game in response.json()["games"]}
    assert len(listed) == 10 and "error" not in listed[good] and listed[good]["seat"] == 1
    assert "the secret" not in response.text
    for name, game in listed.items():
        if name == good:
            continue
        assert game["error"].startswith("cannot read it: ") and "\n" not in game["error"], game
        assert str(tmp_path) not in game["error"]
        read = client.get(f"/api/games/{name}")
        assert read.status_code == 400, (name, read.text)
        assert read.json()["error"].startswith(f"saved game {name} cannot be read: ")
        assert "\n" not in read.json()["error"] and str(tmp_path) not in read.json()["error"]
    assert "a link" in listed["game-20260101-120006-link.json"]["error"]
    assert "not a regular file" in listed["game-20260101-120005-fifo.json"]["error"]
    assert "over 1,048,576 bytes" in listed["game-20260101-120004-huge.json"]["error"]
    assert "nested more than" in listed["game-20260101-120001-deep.json"]["error"]
    assert "NaN" in listed["game-20260101-120002-nan.json"]["error"]
    assert "not a game record" in listed["game-20260101-120008-list.json"]["error"]
    assert client.get(f"/api/games/{good}").status_code == 200


@pytest.mark.parametrize("samples", [0, -3])
def test_the_tables_hint_words_too_few_samples_as_its_field(client, clock, samples):
    """The page sends its Hint worlds as ``samples``: a count below 1 is named so, not as the command line's option."""
    close_all(client, clock)
    table = open_table(client, seat=0)["id"]
    response = client.post(f"/api/table/{table}/hint", json={"samples": samples})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == f"samples must be a whole number of worlds from 1 to 20,000, got {samples}"
