"""The training data's chunks (analysis/net_data.py): the contract's arrays, the same data whatever the threads and
the chunk size, a resumed run the same bytes, and bad input refused before any work.

The table is the driver tests' (``expert:4`` against ``heuristic``, K = 4), so the kernel compiles once for both.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from smear_sim.analysis.net_data import RUN_FILE, chunk_name, make_net_data, read_chunk
from smear_sim.core.errors import BadValue, SmearError
from smear_sim.core.view_layout import VT_SIZE

POLICIES = ("expert:4", "heuristic")
K = 4
HANDS = 5


def _make(folder, **how):
    options = {"hands": HANDS, "seed": 3, "policies": POLICIES, "worlds": K, "hands_per_chunk": 2, "threads": 1}
    return make_net_data(folder, **(options | how))


def _rows(folder, n_chunks):
    """Every chunk's arrays (meta and keep_decision left out) joined, in hand order."""
    chunks = [read_chunk(folder / chunk_name(c)) for c in range(n_chunks)]
    keys = [k for k in chunks[0] if k not in ("meta", "keep_decision")]
    return {k: np.concatenate([chunk[k] for chunk in chunks]) for k in keys}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("net") / "data"
    result = _make(folder)
    return folder, result


def test_a_chunk_holds_the_contracts_arrays(made):
    folder, result = made
    assert result.chunks_written == 3 and result.chunks_skipped == 0
    chunk = read_chunk(folder / chunk_name(0))
    n_card, n_keep = len(chunk["card_tensor"]), len(chunk["keep_tensor"])
    assert n_card > 0 and n_keep > 0
    assert chunk["card_tensor"].dtype == np.float32 and chunk["card_tensor"].shape == (n_card, VT_SIZE)
    assert chunk["card_legal"].dtype == np.bool_ and chunk["card_legal"].shape == (n_card, 54)
    for key in ("card_win", "card_points"):
        assert chunk[key].dtype == np.float32 and chunk[key].shape == (n_card, 54)
        assert np.all(chunk[key][~chunk["card_legal"]] == 0)
    assert np.all((chunk["card_win"] >= 0) & (chunk["card_win"] <= 1))
    assert chunk["keep_tensor"].shape == (n_keep, VT_SIZE)
    for key in ("keep_win", "keep_points"):
        assert chunk[key].dtype == np.float32 and chunk[key].shape == (n_keep,)
    assert np.all((chunk["keep_win"] >= 0) & (chunk["keep_win"] <= 1))
    decisions = chunk["keep_decision"]
    assert decisions.dtype == np.int64 and decisions[0] == 0 and np.all(np.diff(decisions) >= 0)
    assert np.all(np.diff(np.unique(decisions)) == 1)  # numbered 0, 1, ... within the chunk
    for d in np.unique(decisions):  # one decision's rows are one seat's, of one hand
        assert len(set(chunk["keep_hand"][decisions == d])) == 1
    meta = chunk["meta"]
    assert meta["worlds"] == K and meta["seed"] == 3 and meta["chunk"] == 0 and meta["hands"] == 2
    assert meta["policies"] == list(POLICIES)
    assert set(chunk["card_hand"]) <= {0, 1}


def test_the_data_is_the_same_whatever_the_threads_and_the_chunk_size(made, tmp_path):
    folder, _ = made
    other = tmp_path / "other"
    _make(other, threads=2, hands_per_chunk=3)
    a, b = _rows(folder, 3), _rows(other, 2)
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    threaded = tmp_path / "threaded"
    _make(threaded, threads=2)  # the same chunks: the same bytes
    for c in range(3):
        assert (threaded / chunk_name(c)).read_bytes() == (folder / chunk_name(c)).read_bytes()


def test_a_resumed_run_writes_only_the_missing_chunk_and_the_same_bytes(made, tmp_path):
    folder, _ = made
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in (RUN_FILE, chunk_name(0), chunk_name(2)):
        (copy / name).write_bytes((folder / name).read_bytes())
    result = _make(copy)
    assert result.chunks_written == 1 and result.chunks_skipped == 2
    assert (copy / chunk_name(1)).read_bytes() == (folder / chunk_name(1)).read_bytes()
    assert not [p for p in copy.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_a_folder_of_another_run_is_refused(made):
    folder, _ = made
    with pytest.raises(BadValue, match="another run.*seed"):
        _make(folder, seed=4)
    assert json.loads((folder / RUN_FILE).read_text())["seed"] == 3


@pytest.mark.parametrize(("how", "word"), [
    ({"hands": 0}, "hands"), ({"worlds": 0}, "worlds"), ({"hands_per_chunk": 10**6}, "hands_per_chunk"),
    ({"seed": -1}, "seed"), ({"policies": "nobody"}, "nobody"), ({"threads": 0}, "threads"),
])
def test_bad_input_is_refused_before_any_work(tmp_path, how, word):
    with pytest.raises(SmearError, match=word):
        _make(tmp_path / "bad", **how)
    assert not (tmp_path / "bad").exists()
