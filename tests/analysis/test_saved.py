"""Files read back (smear_sim/analysis/saved.py): a class-count file or hand analysis that is empty, cut
short, from another version or edited by hand is refused with one line, never trusted."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from smear_sim import class_table, evaluate_hand
from smear_sim.analysis.classes import ClassTable
from smear_sim.analysis.saved import CountsFileError, check_hand_analysis, load_class_counts
from smear_sim.core import layout as L
from smear_sim.core.errors import SmearError
from smear_sim.core.rules import Rules


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A real table's file, and its arrays to edit."""
    path = tmp_path_factory.mktemp("counts") / "bid_table.npz"
    class_table(3000, seed=5, rules=Rules(round_points=True)).save(path)
    with np.load(path) as data:
        return path, data["counts"], json.loads(str(data["meta"]))


def test_a_saved_table_loads_as_it_was(saved):
    path, counts, meta = saved
    table = ClassTable.load(path)
    assert (table.counts == counts).all() and table.counts.dtype == np.int64
    assert (table.hands, table.seed, table.policy, table.rules) == (3000, 5, "heuristic", Rules(round_points=True))


def test_a_table_of_a_search_player_loads(saved, tmp_path):
    """A policy with its K ("expert:8", as `bid-table --policy expert:8` saves it) is a policy too."""
    path, counts, meta = saved
    searched = tmp_path / "expert.npz"
    np.savez_compressed(searched, counts=counts, meta=np.array(json.dumps(meta | {"policy": "expert:8"})))
    assert ClassTable.load(searched).policy == "expert:8"


def cell(counts, field, offset=0):
    """The first used class's ``field + offset`` entry."""
    return np.flatnonzero(counts[:, L.CLS_COUNT])[0], field + offset


EDITS = {
    "negative": (lambda c, m: c.__setitem__((5, L.CLS_COUNT), -1), "negative counts"),
    "histogram": (lambda c, m: c.__setitem__(cell(c, L.CLS_HIST), c[cell(c, L.CLS_HIST)] + 1), "histogram"),
    "rules_changed": (lambda c, m: m.__setitem__("rules", {}), "inconsistent"),  # 7 points at stake, not 4
    "trumps": (lambda c, m: c.__setitem__(cell(c, L.CLS_TRUMP), c[cell(c, L.CLS_TRUMP)] + 1), "trump"),
    "moons": (lambda c, m: c.__setitem__(cell(c, L.CLS_MOON), 10**6), "more moons"),
    "other_points": (lambda c, m: c.__setitem__(cell(c, L.CLS_OTHER_BY_K, 7), 5), "inconsistent"),
    "hands": (lambda c, m: m.__setitem__("hands", 3001), "hold 3,000 hands, but it says 3,001"),
    "hands_type": (lambda c, m: m.__setitem__("hands", "many"), "'hands' must be a whole number"),
    "seed": (lambda c, m: m.__setitem__("seed", -1), "'seed' must be"),
    "policy": (lambda c, m: m.__setitem__("policy", "clever"), "'policy' must be"),
    "policy_k": (lambda c, m: m.__setitem__("policy", "pimc:0"), "'policy' must be"),
    "no_rules": (lambda c, m: m.pop("rules"), "has no 'rules'"),
    "bad_rules": (lambda c, m: m.__setitem__("rules", {"target": 10**30}), "out of range"),
    "rules_type": (lambda c, m: m.__setitem__("rules", [1]), "must be a table"),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_an_edited_table_is_refused(saved, tmp_path, name):
    path, counts, meta = saved
    counts, meta = counts.copy(), dict(meta)
    edit, fragment = EDITS[name]
    edit(counts, meta)
    edited = tmp_path / "edited.npz"
    np.savez_compressed(edited, counts=counts, meta=np.array(json.dumps(meta)))
    with pytest.raises(SmearError, match=fragment) as caught:
        ClassTable.load(edited)
    assert str(caught.value).startswith(str(edited)) and "\n" not in str(caught.value)


def test_a_broken_file_is_refused(saved, tmp_path):
    path, counts, meta = saved
    data = path.read_bytes()
    files = {
        "empty.npz": (b"", "the file is empty"),
        "half.npz": (data[: len(data) // 2], "not a class-count file"),
        "text.npz": (b"counts,meta\n1,2\n" * 10, "not a class-count file"),
    }
    for name, (content, fragment) in files.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(SmearError, match=fragment):
            load_class_counts(tmp_path / name)
    arrays = {
        "one_array.npz": lambda p: p.write_bytes(npy_bytes(counts)),
        "no_meta.npz": lambda p: np.savez(p, counts=counts),
        "floats.npz": lambda p: np.savez(p, counts=counts.astype(float), meta=np.array(json.dumps(meta))),
        "old_shape.npz": lambda p: np.savez(p, counts=counts[:100], meta=np.array(json.dumps(meta))),
        "objects.npz": lambda p: np.savez(p, counts=np.array([{}], dtype=object), meta=np.array("{}")),
        "meta_number.npz": lambda p: np.savez(p, counts=counts, meta=np.array(3)),
        "meta_not_json.npz": lambda p: np.savez(p, counts=counts, meta=np.array("{oops")),
        "meta_list.npz": lambda p: np.savez(p, counts=counts, meta=np.array("[]")),
    }
    for name, write in arrays.items():
        write(tmp_path / name)
        with pytest.raises(SmearError, match=str(tmp_path / name)):
            load_class_counts(tmp_path / name)
    with pytest.raises(SmearError, match="does not exist"):
        load_class_counts(tmp_path / "missing.npz")
    with pytest.raises(SmearError, match="is a folder"):
        load_class_counts(tmp_path)


def test_a_bad_file_names_the_library_not_a_command(tmp_path):
    """This layer speaks of the file and the library's way to make one; a front end names its own command
    (worded), the path and the reason kept as they are, braces included."""
    (tmp_path / "{odd}.npz").write_text("not a zip file")
    cases = {tmp_path / "missing.npz": "does not exist: make it with smear_sim.class_table(...).save(path)",
             tmp_path: "is a folder; give the .npz file that smear_sim.class_table(...).save wrote",
             tmp_path / "{odd}.npz": "is not a class-count file from smear_sim.class_table ("}
    for path, library in cases.items():
        with pytest.raises(CountsFileError) as caught:
            load_class_counts(path)
        assert library in str(caught.value) and "smear-sim" not in str(caught.value)
        assert str(caught.value).startswith(str(path))
        worded = caught.value.worded(maker="M", make="'M --out'", writer="'W'")
        assert worded.startswith(str(path)) and "smear_sim." not in worded
        assert any(words in worded for words in ("make it with 'M --out'", "file that 'W' wrote", "file from M ("))


def npy_bytes(array):
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


# -- hand analyses ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def analysis():
    return evaluate_hand("AH KH 2H JD 10C 5S 9S 4D 3C", samples=2000, seed=1).to_json()


def test_a_hand_analysis_passes_and_a_tiny_sample_too(analysis):
    assert check_hand_analysis(analysis, "hand.json") is analysis
    tiny = evaluate_hand("AH KH 2H JD 10C 5S 9S 4D 3C", samples=1, seed=1).to_json()  # standard errors null
    assert check_hand_analysis(json.loads(json.dumps(tiny)), "hand.json") == tiny


@pytest.mark.parametrize(
    "edit, fragment",
    [
        (lambda d: d.clear(), "'hand' is missing"),
        (lambda d: d["points"]["distribution"].__setitem__(0, -0.5), r"distribution\[0\] must be a number"),
        (lambda d: d["points"].__setitem__("distribution", []), "1 to 8 probabilities"),
        (lambda d: d["points"].__setitem__("distribution_se", [0.1]), "as many standard errors"),
        (lambda d: d["points"].__setitem__("mean", "3"), "points.mean"),
        (lambda d: d["bids"].__setitem__(0, 2), r"bids\[0\] must be an object"),
        (lambda d: d["bids"][0].__setitem__("make", 2), r"bids\[0\].make"),
        (lambda d: d["trump"].__setitem__("chosen", {}), "'chosen'"),
        (lambda d: d.__setitem__("samples", 0), "'samples'"),
        (lambda d: d.__setitem__("hand", [1, 2]), "card names"),
    ],
)
def test_an_edited_hand_analysis_is_refused(analysis, edit, fragment):
    data = json.loads(json.dumps(analysis))
    edit(data)
    with pytest.raises(SmearError, match=fragment):
        check_hand_analysis(data, "hand.json")
    with pytest.raises(SmearError, match="not a JSON object"):
        check_hand_analysis([analysis], "hand.json")
