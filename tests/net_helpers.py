"""Nets and training data made up for the tests: random heads of the weights' format, and chunks of the training
data's format (issue 47's contract) whose targets a net can learn."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from smear_sim.core.cards import DECK_SIZE
from smear_sim.core.view_layout import VT_SIZE
from smear_sim.engine.net_weights import HEAD_OUTPUTS, NetHead, layer_shapes


def random_head(rng: np.random.Generator, hidden: int, n_out: int) -> NetHead:
    """A head of random float32 weights, scaled as an initialised net's are, biases included."""
    layers = []
    for layer, shape in layer_shapes(hidden, n_out).items():
        fan_in = VT_SIZE if layer in ("w0", "b0") else hidden
        scale = (2.0 / fan_in) ** 0.5 if layer.startswith("w") else 0.1
        layers.append((rng.standard_normal(shape) * scale).astype(np.float32))
    return NetHead(*layers)


def random_heads(seed: int, hidden: int = 16) -> dict[str, NetHead]:
    rng = np.random.default_rng(seed)
    return {head: random_head(rng, hidden, n_out) for head, n_out in HEAD_OUTPUTS.items()}


def sparse_inputs(rng: np.random.Generator, rows: int, ones: int = 40) -> np.ndarray:
    """View-tensor-like inputs: ``ones`` entries at 1 in each row, and a few scaled numbers."""
    x = np.zeros((rows, VT_SIZE), dtype=np.float32)
    for row in x:
        row[rng.choice(VT_SIZE, ones, replace=False)] = 1.0
        row[rng.choice(VT_SIZE, 4, replace=False)] = rng.uniform(-1, 1, 4).astype(np.float32)
    return x


def _target(rng_tensor: np.ndarray, direction: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(rng_tensor @ direction)))


def write_chunks(folder: Path, chunks: int = 4, decisions: int = 200, seed: int = 0) -> Path:
    """``chunks`` chunk files of the contract's arrays: card values and keep values a fixed function of the tensor
    (each card's P(win) a logistic of a linear map of the tensor plus the card's own term; a keep's of another
    linear map), legal cards at random."""
    folder.mkdir(parents=True, exist_ok=True)
    fixed = np.random.default_rng(12345)  # the function to learn: the same in every chunk
    card_map = fixed.standard_normal(VT_SIZE) * 0.3  # the position's worth, shared by its cards
    card_bias = fixed.standard_normal(DECK_SIZE)  # and each card's own
    keep_map = fixed.standard_normal(VT_SIZE) * 0.3
    for c in range(chunks):
        rng = np.random.default_rng([seed, c])
        card_tensor = sparse_inputs(rng, decisions)
        card_legal = rng.random((decisions, DECK_SIZE)) < 0.2
        card_legal[np.arange(decisions), rng.integers(0, DECK_SIZE, decisions)] = True  # one legal card at least
        card_win = np.where(card_legal, 1 / (1 + np.exp(-(card_tensor @ card_map)[:, None] - card_bias)), 0)
        card_win = card_win.astype(np.float32)
        candidates = rng.integers(1, 6, decisions)
        keep_decision = np.repeat(np.arange(decisions, dtype=np.int64), candidates)
        keep_tensor = sparse_inputs(rng, len(keep_decision))
        keep_win = _target(keep_tensor, keep_map).astype(np.float32)
        np.savez(folder / f"chunk_{c:05d}.npz", card_tensor=card_tensor, card_legal=card_legal, card_win=card_win,
                 card_points=(card_win * 4).astype(np.float32), keep_tensor=keep_tensor, keep_win=keep_win,
                 keep_points=(keep_win * 4).astype(np.float32), keep_decision=keep_decision,
                 meta=np.array(json.dumps({"seed": seed, "chunk": c, "hands": 50, "policies": "heuristic", "K": 8})))
    return folder
