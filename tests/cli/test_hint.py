"""``smear-sim hint``: the JSON of docs/formats.md, the table, and bad views refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import assert_clean_failure, invoke, ok

BASIC = json.loads((Path(__file__).parents[1] / "golden" / "basic.json").read_text())


def write_view(tmp_path: Path, seat: int, plays: int) -> str:
    obj = {k: v for k, v in BASIC.items() if k not in ("why", "expected")}
    obj |= {"seat": seat, "plays": BASIC["plays"][:plays],
            "hands": [h if s == seat else None for s, h in enumerate(BASIC["hands"])]}
    path = tmp_path / "view.json"
    path.write_text(json.dumps(obj))
    return str(path)


def test_hint_json_has_the_documented_fields(tmp_path):
    view = write_view(tmp_path, 1, 8)
    out = json.loads(ok("hint", view, "--samples", "16", "--equity-hands", "2000", "--json").stdout)
    assert set(out) >= {"seat", "decision", "samples", "seed", "actions", "best"}
    assert out["seat"] == 1 and out["decision"] == "card" and out["samples"] == 16 and out["seed"] == 1
    assert {a["action"] for a in out["actions"]} == {"AS", "6C", "9S", "3D"}
    for a in out["actions"]:
        assert set(a) >= {"action", "points", "points_se", "win", "win_se"}
    assert out["best"] == out["actions"][0]["action"]
    table = ok("hint", view, "--samples", "16", "--equity-hands", "2000").stdout
    assert "best" in table and "cost" in table


def test_a_view_out_of_turn_is_refused(tmp_path):
    line = assert_clean_failure(invoke("hint", write_view(tmp_path, 2, 8), "--samples", "4"))
    assert "not seat 2's turn: it is seat 1's, to play a card" in line


def test_bad_input_is_refused_before_work(tmp_path):
    view = write_view(tmp_path, 1, 8)
    assert "inference" in assert_clean_failure(invoke("hint", view, "--inference", "maybe"))
    assert "does not exist" in assert_clean_failure(invoke("hint", str(tmp_path / "nothing.json")))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(json.loads(Path(view).read_text()) | {"plays": ["AH", "AH"]}))
    assert "already played" in assert_clean_failure(invoke("hint", str(bad)))
    for searching in ("expert:4", "oracle"):
        assert "cannot play out" in assert_clean_failure(invoke("hint", view, "--playout", searching))


def test_help_has_examples():
    out = ok("hint", "--help").stdout
    assert "smear-sim hint view.json" in out and "--inference" in out


def test_a_view_without_a_seat_says_so_in_its_own_words(tmp_path):
    """Regression: a view with no seat was refused with "got None", Python's word, not the view's."""
    view = json.loads(Path(write_view(tmp_path, 1, 8)).read_text())
    for change, words in [({}, "but the view has none"), ({"seat": None}, "got null"), ({"seat": "north"},
                                                                                         'got "north"')]:
        obj = {k: v for k, v in view.items() if k != "seat"} | change
        path = tmp_path / "seatless.json"
        path.write_text(json.dumps(obj))
        line = assert_clean_failure(invoke("hint", str(path)))
        assert line == f"error: seat must be the seat 0-3 whose decision is asked, {words}"
        assert "None" not in line
