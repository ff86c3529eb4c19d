"""The net's forward pass in the kernels (smear_sim/kernels/net/mlp.py): equal to a numpy forward pass, the sparse
first layer to the dense one, an accumulator updated input by input to one made afresh; and equal to the training
library's forward pass on saved inputs (tests/golden/net/, made by tests/golden/make_net_golden.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from smear_sim.core.view_layout import VT_SIZE
from smear_sim.engine.net_weights import HEAD_OUTPUTS, load_net
from smear_sim.kernels.borrow import NO_REFCOUNT
from smear_sim.kernels.net import mlp
from smear_sim.kernels.net.mlp import acc_add, acc_fill, acc_remove, forward, forward_dense, head_from_acc
from tests.net_helpers import random_head, sparse_inputs

GOLDEN = Path(__file__).parents[2] / "golden" / "net"


def numpy_forward(head, x: np.ndarray) -> np.ndarray:
    """The head's outputs for the rows of ``x``, as numpy computes them in float64."""
    w0, b0, w1, b1, w2, b2 = (np.asarray(a, dtype=np.float64) for a in head)
    hidden = np.maximum(x.astype(np.float64) @ w0 + b0, 0)
    hidden = np.maximum(hidden @ w1 + b1, 0)
    return hidden @ w2 + b2


def kernel_forward(head, x: np.ndarray, dense: bool = False) -> np.ndarray:
    hidden_size, n_out = head.b0.shape[0], head.b2.shape[0]
    acc, hidden = np.empty(hidden_size, np.float32), np.empty(hidden_size, np.float32)
    out = np.empty((len(x), n_out), np.float32)
    for row, inputs in enumerate(x):
        (forward_dense if dense else forward)(tuple(head), inputs, acc, hidden, out[row])
    return out


@pytest.mark.parametrize(("hidden", "n_out"), [(128, 54), (16, 1), (1, 3)])
def test_the_kernels_forward_pass_equals_numpys(hidden, n_out):
    rng = np.random.default_rng(hidden)
    head = random_head(rng, hidden, n_out)
    x = sparse_inputs(rng, 30)
    x[0] = 0  # no input at all: the biases alone
    x[1] = rng.uniform(-1, 1, VT_SIZE)  # every input set
    got = kernel_forward(head, x)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, numpy_forward(head, x), rtol=1e-5, atol=1e-5)
    assert np.abs(got).max() > 0.1  # the test compares numbers, not zeros


def test_the_sparse_first_layer_equals_the_dense_one_exactly():
    """Skipping an input at zero skips adding zeros: the same sums in the same order, so the same bits."""
    rng = np.random.default_rng(1)
    head = random_head(rng, 128, 54)
    x = sparse_inputs(rng, 20)
    np.testing.assert_array_equal(kernel_forward(head, x), kernel_forward(head, x, dense=True))


def test_an_accumulator_updated_input_by_input_equals_a_fresh_one():
    """NNUE-style: from a position's accumulator, remove the inputs that went away and add those that came (as a
    card moves from a hand to the table), and the outputs are those of the new position computed afresh."""
    rng = np.random.default_rng(2)
    head = random_head(rng, 128, 54)
    before = sparse_inputs(rng, 1)[0]
    after = before.copy()
    gone = np.flatnonzero(before)[:5]
    came = rng.choice(np.flatnonzero(before == 0), 6, replace=False)
    after[gone] = 0
    after[came] = 1
    after[came[0]] = 0.25  # a scaled number, too
    changed = after.copy()
    changed[came[1]] = -0.5  # and one that changes value: removed at the old, added at the new

    acc, hidden = np.empty(128, np.float32), np.empty(128, np.float32)
    fresh_acc, out, fresh = np.empty(128, np.float32), np.empty(54, np.float32), np.empty(54, np.float32)
    acc_fill(acc, head.w0, head.b0, before)
    for i in gone:
        acc_remove(acc, head.w0, i, before[i])
    for i in came:
        acc_add(acc, head.w0, i, after[i])
    acc_remove(acc, head.w0, came[1], after[came[1]])
    acc_add(acc, head.w0, came[1], changed[came[1]])
    acc_fill(fresh_acc, head.w0, head.b0, changed)
    np.testing.assert_allclose(acc, fresh_acc, rtol=1e-5, atol=1e-5)
    head_from_acc(acc, head.w1, head.b1, head.w2, head.b2, hidden, out)
    forward(tuple(head), changed, fresh_acc, hidden, fresh)
    np.testing.assert_allclose(out, fresh, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(fresh, numpy_forward(head, changed[None])[0], rtol=1e-5, atol=1e-5)


def test_the_forward_pass_runs_without_reference_counting():
    """A player's decision calls it: no function here allocates, so each is compiled with NO_REFCOUNT."""
    for name in mlp.__all__:
        assert getattr(mlp, name).targetoptions.get("_nrt") is NO_REFCOUNT["_nrt"], name



def test_the_kernels_agree_with_the_training_librarys_forward_pass_on_saved_inputs():
    """tests/golden/net/: a small net trained by tools/train_net.py (JAX), inputs, and JAX's outputs on them
    (tests/golden/make_net_golden.py). CI runs without JAX: the kernels must give its numbers."""
    net = load_net(GOLDEN / "net.npz")
    card = json.loads((GOLDEN / "net.json").read_text(encoding="utf-8"))
    assert card["weights_sha256"] == net.digest
    with np.load(GOLDEN / "outputs.npz", allow_pickle=False) as saved:
        for head in HEAD_OUTPUTS:
            x, expected = saved[f"{head}/x"], saved[f"{head}/y"]
            assert len(x) >= 8 and expected.shape == (len(x), HEAD_OUTPUTS[head])
            np.testing.assert_allclose(kernel_forward(net[head], x), expected, rtol=1e-5, atol=2e-6)
