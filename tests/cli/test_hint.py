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


# -- --evaluator net and both (the tiny golden net through SMEAR_SIM_NET) --------------------------------

GOLDEN_NET = Path(__file__).parents[1] / "golden" / "net" / "net.npz"


def write_changed(tmp_path: Path, seat: int, plays: int, **changes) -> str:
    path = Path(write_view(tmp_path, seat, plays))
    path.write_text(json.dumps(json.loads(path.read_text()) | changes))
    return str(path)


def net_json(*args: str) -> dict:
    return json.loads(ok("hint", *args, "--evaluator", "net", "--json").stdout)


def test_the_net_hint_json_has_the_search_hints_shape(tmp_path, monkeypatch):
    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN_NET))
    out = net_json(write_view(tmp_path, 1, 8))
    assert set(out) >= {"seat", "decision", "actions", "best"} and out["evaluator"] == "net"
    assert out["seat"] == 1 and out["decision"] == "card" and out["valued_by"] == "net"
    assert {a["action"] for a in out["actions"]} == {"AS", "6C", "9S", "3D"}
    for a in out["actions"]:
        assert set(a) == {"action", "points", "points_se", "win", "win_se"}
        assert a["points"] is None and a["points_se"] is None and a["win_se"] == 0
        assert 0 <= a["win"] <= 1
    assert out["best"] == out["actions"][0]["action"]
    assert [a["win"] for a in out["actions"]] == sorted((a["win"] for a in out["actions"]), reverse=True)
    table = ok("hint", write_view(tmp_path, 1, 8), "--evaluator", "net").stdout
    assert "Valued by the net" in table and "AS" in table


def test_the_net_hint_of_trump_and_of_a_keep(tmp_path, monkeypatch):
    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN_NET))
    trump = net_json(write_changed(tmp_path, 0, 0, trump=None, discards=None))
    assert trump["decision"] == "trump" and sorted(a["action"] for a in trump["actions"]) == ["C", "D", "H", "S"]
    held = set(BASIC["hands"][0]) | set(BASIC["kitty"])
    for a in trump["actions"]:
        assert len(a["keep"]) == 6 and set(a["keep"]) <= held and a["points"] is None
    keep = net_json(write_changed(tmp_path, 1, 0, discards=None))
    assert keep["decision"] == "keep"
    for a in keep["actions"]:
        assert len(a["action"]) == 6 and set(a["action"]) <= set(BASIC["hands"][1])
    assert keep["best"] == keep["actions"][0]["action"]


def test_the_net_hint_reads_only_what_the_seat_sees(tmp_path, monkeypatch):
    """The other seats' hands and discards given, or null: the same bytes, the timing aside."""
    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN_NET))
    for seat, plays, changes in [(1, 8, {}), (0, 0, {"trump": None, "discards": None}), (1, 0, {"discards": None})]:
        bare = net_json(write_changed(tmp_path, seat, plays, **changes))
        given = net_json(write_changed(tmp_path, seat, plays, **changes, hands=BASIC["hands"],
                                       **({} if "discards" in changes else {"discards": BASIC["discards"]})))
        bare.pop("milliseconds"), given.pop("milliseconds")
        assert json.dumps(bare) == json.dumps(given)


def test_no_weights_is_one_line_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setenv("SMEAR_SIM_NET", str(tmp_path / "none.npz"))
    for evaluator in ("net", "both"):
        line = assert_clean_failure(invoke("hint", str(tmp_path / "nothing.json"), "--evaluator", evaluator))
        assert "no net weights at" in line and "none.npz" in line  # before the view is even read
    assert "--evaluator" in assert_clean_failure(invoke("hint", write_view(tmp_path, 1, 8), "--evaluator", "guess"))
    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN_NET))
    line = assert_clean_failure(invoke("hint", write_view(tmp_path, 1, 8), "--evaluator", "net", "--samples", "9"))
    assert "--samples is for the search" in line


def test_help_shows_the_net_evaluator():
    out = ok("hint", "--help").stdout
    assert "smear-sim hint view.json --evaluator net" in out and "search|net|both" in out


def test_both_sets_the_nets_values_beside_the_search(tmp_path, monkeypatch):
    monkeypatch.setenv("SMEAR_SIM_NET", str(GOLDEN_NET))
    view = write_view(tmp_path, 1, 8)
    net = {a["action"]: a["win"] for a in net_json(view)["actions"]}
    out = json.loads(ok("hint", view, "--samples", "16", "--equity-hands", "2000", "--evaluator", "both",
                        "--json").stdout)
    assert out["evaluator"] == "both" and out["net_best"] == max(net, key=net.get)
    for a in out["actions"]:
        assert a["net_win"] == net[a["action"]] and isinstance(a["net_disagrees"], bool)
        if abs(a["net_win"] - a["win"]) > 2 * a["win_se"]:
            assert a["net_disagrees"]
    assert out["net_disagrees"] == any(a["net_disagrees"] for a in out["actions"])
    if out["net_best"] != out["best"]:
        assert out["net_disagrees"] and out["actions"][0]["net_disagrees"]
    table = ok("hint", view, "--samples", "16", "--equity-hands", "2000", "--evaluator", "both").stdout
    assert "net P(win)" in table and "its best is" in table
