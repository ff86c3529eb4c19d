"""The hint engine's warm-up (smear_sim/web/warmup.py): reported by GET /api/warmup and /api/rules while it runs, a
hint asked meanwhile answered as after it, each stage's compile said on stderr, and a failed stage leaving the engine
ready. Stages that wait on an event stand in for a slow compile, so nothing here depends on timing."""

from __future__ import annotations

import threading

from fastapi.testclient import TestClient

from smear_sim.engine.turns import Simulator
from smear_sim.reference.record import replay_position
from smear_sim.reference.view import decision_of, view_of
from smear_sim.web import warmup
from smear_sim.web.server import create_app
from smear_sim.web.warmup import PREPARING, HintEngine, Stage, sample_hand

LOCAL = "http://127.0.0.1:8000"
WAIT = 600  # seconds an event may take at most (a cold Numba cache compiles for minutes)


class Gate:
    """A stage's work that holds its turn on the simulator until released."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def __call__(self, executor) -> None:
        self.entered.set()
        assert self.release.wait(WAIT)


class Watching(Simulator):
    """A simulator that says when an urgent analysis (a hint at the table) was submitted."""

    def __init__(self) -> None:
        super().__init__()
        self.urgent = threading.Event()

    def submit(self, work, **kwargs):
        future = super().submit(work, **kwargs)
        if kwargs.get("urgent"):
            self.urgent.set()
        return future


class Lines:
    """A stream that keeps what is written and says when a line came."""

    def __init__(self) -> None:
        self.text = ""
        self.written = threading.Event()

    def write(self, text: str) -> None:
        self.text += text
        self.written.set()

    def flush(self) -> None:
        pass


def test_the_sample_hand_has_every_decision_the_warmup_asks():
    record = sample_hand()
    assert len(record.plays) == 24
    bidder = replay_position(record).bidder
    keeper = next(s for s in range(4) if s != bidder)
    assert decision_of(view_of(record, keeper, discards=False)) == "keep"
    assert decision_of(view_of(record, bidder, plays=0)) == "card"


def test_the_warmup_is_reported_and_a_hint_asked_during_it_answers_as_after_it(monkeypatch, tmp_path):
    gate = Gate()
    stages = (Stage("gate", "the gated stage", gate), *warmup.STAGES)  # then the real ones
    monkeypatch.setattr(warmup, "STAGES", stages)
    simulator = Watching()
    app = create_app(results=None, games_dir=tmp_path, simulator=simulator)
    with TestClient(app, base_url=LOCAL) as client:
        assert gate.entered.wait(WAIT)  # the server's own warm-up is done, the engine's first stage runs
        status = client.get("/api/warmup").json()
        status.pop("first_use")  # true once the stage has run a second: timing, not asserted here
        assert status == {"ready": False, "words": PREPARING, "stage": "the gated stage", "done": 0,
                          "total": len(stages)}
        rules = client.get("/api/rules").json()
        assert rules["ready"] and not rules["hint_engine"]["ready"]  # the hand's analyses are ready

        state = client.post("/api/table", json={"seat": 1, "seed": 7}).json()
        while not (state["turn"]["yours"] and state["turn"]["decision"] == "keep"):
            if state["turn"]["yours"]:
                state = client.post(f"/api/table/{state['id']}/act",
                                    json={"action": state["legal"][0], "step": state["step"]}).json()
            else:
                state = client.post(f"/api/table/{state['id']}/bot", json={"step": state["step"]}).json()
        ask = {"samples": 64, "step": state["step"]}
        answers = []
        asking = threading.Thread(target=lambda: answers.append(client.post(f"/api/table/{state['id']}/hint",
                                                                           json=ask)))
        asking.start()
        assert simulator.urgent.wait(WAIT)  # the hint is asked while the gate holds the warm-up
        assert not client.get("/api/warmup").json()["ready"]
        gate.release.set()
        asking.join(WAIT)
        assert app.state.hint_engine.wait(WAIT)
        status = client.get("/api/warmup").json()
        assert status["ready"] and status["stage"] is None and status["done"] == status["total"]

        during = answers[0]
        assert during.status_code == 200, during.text
        after = client.post(f"/api/table/{state['id']}/hint", json=ask)
        assert after.status_code == 200, after.text
        assert {k: v for k, v in during.json().items() if k != "seconds"} == \
            {k: v for k, v in after.json().items() if k != "seconds"}
        assert during.json()["decision"] == "keep" and len(during.json()["actions"]) >= 1


def test_an_app_without_the_warmup_is_ready_at_once(tmp_path):
    client = TestClient(create_app(results=None, games_dir=tmp_path, warm_up=False), base_url=LOCAL)
    assert client.get("/api/warmup").json() == {"ready": True, "words": PREPARING, "stage": None, "done": 0,
                                                "total": len(warmup.STAGES), "first_use": False}
    assert client.get("/api/rules").json()["hint_engine"]["ready"]


def test_a_compiling_stage_is_said_on_stderr_and_a_failed_one_leaves_the_engine_ready(monkeypatch):
    gate = Gate()

    def broken(executor) -> None:
        raise ValueError("no such kernel")

    monkeypatch.setattr(warmup, "STAGES", (Stage("gate", "the gated stage", gate),
                                           Stage("broken", "the broken stage", broken)))
    monkeypatch.setattr(warmup, "WATCH_SECONDS", 0.0)  # any stage counts as compiling
    lines = Lines()
    simulator = Simulator()
    engine = HintEngine(simulator, stream=lines)
    try:
        engine.expect()
        assert not engine.ready and engine.status()["stage"] is None  # the server's own warm-up runs first
        engine.start()
        assert lines.written.wait(WAIT)
        assert lines.text == f"smear-sim: {PREPARING}: compiling the gated stage (1 of 2)\n"
        assert engine.status()["first_use"] and not engine.ready
        gate.release.set()
        assert engine.wait(WAIT)
    finally:
        simulator.close()
    said = lines.text.splitlines()  # the broken stage may fail before its watch looks: its own line may be missing
    failed = [i for i, line in enumerate(said)
              if line.startswith("smear-sim: the hint engine's warm-up failed: ValueError: no such kernel")]
    assert len(failed) == 1 and said[-1].startswith("smear-sim: the hint engine is ready (") and failed[0] < len(said) - 1
    assert engine.status()["done"] == 2
