"""tools/train_net.py: a seconds-long run on made-up chunks writes a net that the kernels' loader reads, whose held-out
error beats a constant's, the same weights again from the same seed; bad input is one line and status 2, before any
work. The runs need JAX and optax (the [train] extra), which CI does not install: they are skipped there."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from smear_sim.engine.net_weights import HEAD_OUTPUTS, load_net
from tests.net_helpers import write_chunks

ROOT = Path(__file__).parents[2]
TOOL = ROOT / "tools" / "train_net.py"


def _train(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def chunks(tmp_path_factory) -> Path:
    return write_chunks(tmp_path_factory.mktemp("net_data") / "chunks", chunks=5, decisions=300)


def test_a_short_run_writes_a_net_that_loads_and_beats_a_constant(chunks, tmp_path):
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    args = [str(chunks), "--epochs", "12", "--hidden", "32", "--lr", "3e-3", "--seed", "4", "--rank-weight", "0.02"]
    done = _train(*args, "--out", str(tmp_path / "a"))
    assert done.returncode == 0, done.stderr
    assert "epoch 12/12" in done.stderr  # progress, an epoch a line
    net = load_net(tmp_path / "a" / "net.npz")
    card = json.loads((tmp_path / "a" / "net.json").read_text(encoding="utf-8"))
    assert card["weights_sha256"] == net.digest
    assert card["heads"]["card"]["sizes"] == [819, 32, 32, 54] and card["training"]["seed"] == 4
    assert card["data"]["chunks"] == 5 and card["data"]["hands"] == 250 and len(card["data"]["held_out_chunks"]) == 1
    assert card["seconds"] > 0
    for head in HEAD_OUTPUTS:
        held = card["held_out"][head]
        assert held["mae"] < 0.75 * held["baseline_mae"], (head, held)
        assert 0 <= held["agreement"] <= 1 and held["regret"] >= 0
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["net.json", "net.npz"]  # no temporary files

    again = _train(*args, "--out", str(tmp_path / "b"))
    assert again.returncode == 0, again.stderr
    assert load_net(tmp_path / "b" / "net.npz").digest == net.digest


def _one_line_refusal(done: subprocess.CompletedProcess, words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and words in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["--epochs", "0"], "--epochs must be at least 1"),
    (["--held-out", "1"], "--held-out must be between 0 and 1"),
    (["--lr", "nan"], "--lr must be a positive number"),
    (["--hidden", "x"], "invalid int value"),
])
def test_bad_options_are_refused_in_one_line(chunks, args, words, tmp_path):
    _one_line_refusal(_train(str(chunks), "--out", str(tmp_path), *args), words)


def test_a_folder_without_chunks_or_with_a_bad_one_is_refused_in_one_line(chunks, tmp_path):
    _one_line_refusal(_train(str(tmp_path / "none"), "--out", str(tmp_path)), "is not a folder")
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "a.npz").write_bytes((chunks / "chunk_00000.npz").read_bytes())
    _one_line_refusal(_train(str(tmp_path / "one"), "--out", str(tmp_path)), "needs 2 at least")
    pytest.importorskip("optax")  # the chunks are read after the library is found
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("chunk_00000.npz", "chunk_00001.npz"):
        with np.load(chunks / name) as data:
            arrays = dict(data)
        arrays["card_win"] = arrays["card_win"].astype(np.float64)
        np.savez(bad / name, **arrays)
    _one_line_refusal(_train(str(bad), "--out", str(tmp_path / "out")), "'card_win' is float64")
    assert not (tmp_path / "out").exists()


def test_help_gives_an_example():
    done = _train("--help")
    assert done.returncode == 0 and "python tools/train_net.py runs/net/heuristic" in done.stdout


def test_ctrl_c_stops_training_with_nothing_written(chunks, tmp_path):
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    out = tmp_path / "out"
    run = subprocess.Popen([sys.executable, str(TOOL), str(chunks), "--epochs", "100000", "--hidden", "8", "--out",
                            str(out)], cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in run.stderr:
        if line.startswith("epoch 1/"):  # training under way
            break
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=300)
    assert run.returncode == 130 and "stopped; nothing written" in err and "Traceback" not in err
    assert not out.exists()


def test_a_decisions_candidates_are_grouped_in_one_row():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import train_net
    finally:
        sys.path.remove(str(ROOT / "tools"))
    groups = train_net.decision_groups(np.array([2, 2, 0, 1, 1, 1, 7]), offset=10)
    assert groups.tolist() == [[12, -1, -1], [13, 14, 15], [10, 11, -1], [16, -1, -1]]
    assert train_net.data_summary([{"hands": 5, "seed": 1, "chunk": 0, "K": 8}, {"hands": 7, "seed": 1, "chunk": 1,
                                                                                 "K": 16}]) == {
        "chunks": 2, "hands": 12, "seed": 1, "K": [8, 16]}
