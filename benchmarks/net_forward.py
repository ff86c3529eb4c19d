"""The net's forward pass in the kernels (smear_sim/kernels/net/mlp.py): nanoseconds per head, dense against sparse.

    python benchmarks/net_forward.py [--hidden 128] [--hands 40] [--seed 1] [--repeats 7]

The inputs are real: the view tensors of every card decision of the first hands of `smear-sim simulate` (heuristic
players), from the readable form. The weights are random (the time does not depend on their values, only on how
many first-layer units ReLU keeps: random weights keep about half, as a trained net does). On one core, warm, the
median of --repeats passes over all the inputs, for the card head (54 outputs) and the keep head (1):

- ``sparse``: :func:`forward`, the first layer summed over the nonzero inputs;
- ``dense``: :func:`forward_dense`, every row of the first layer;
- ``first_layer`` / ``upper_layers``: the sparse accumulator alone, and the layers above it alone;
- ``update_ns_per_input``: one :func:`acc_add` (an NNUE-style update costs one per input that changed, plus the
  upper layers).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from numba import njit

from smear_sim.analysis.simulate import trace_records
from smear_sim.core.view_layout import VT_SIZE
from smear_sim.kernels.net.mlp import acc_add, acc_fill, forward, forward_dense, head_from_acc
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record
from smear_sim.reference.view import view_of
from smear_sim.reference.view_tensor import view_tensor


def card_tensors(hands: int, seed: int) -> np.ndarray:
    rows = []
    for text in trace_records(hands, seed=seed):
        record = parse_record(text)
        if record.plays is None:
            continue
        leader = ref.seat_of_bid(record.dealer, ref.auction_winner(record.bids)[0])
        trick: list[int] = []
        for k, c in enumerate(record.plays):
            rows.append(view_tensor(view_of(record, (leader + len(trick)) % 4, plays=k)))
            trick.append(c)
            if len(trick) == 4:
                leader = (leader + ref.trick_winner(trick, record.trump)) % 4
                trick = []
    return np.ascontiguousarray(np.array(rows, dtype=np.float32))


@njit(cache=True)
def _passes(head, x, acc, hidden, out, which, repeats):
    w0, b0, w1, b1, w2, b2 = head
    total = 0.0
    for _ in range(repeats):
        for r in range(x.shape[0]):
            if which == 0:
                forward(head, x[r], acc, hidden, out)
            elif which == 1:
                forward_dense(head, x[r], acc, hidden, out)
            elif which == 2:
                acc_fill(acc, w0, b0, x[r])
            elif which == 3:
                head_from_acc(x[r, :acc.shape[0]], w1, b1, w2, b2, hidden, out)
            else:
                acc_add(acc, w0, r, np.float32(1.0))
            total += out[0] + acc[0]
    return total


def measure(head, x, which: int, repeats: int, passes: int) -> float:
    hidden_size, n_out = head[1].shape[0], head[5].shape[0]
    acc, hidden, out = (np.zeros(n, np.float32) for n in (hidden_size, hidden_size, n_out))
    _passes(head, x, acc, hidden, out, which, 1)  # compiled before the clock
    times = []
    for _ in range(repeats):
        started = time.perf_counter_ns()
        _passes(head, x, acc, hidden, out, which, passes)
        times.append((time.perf_counter_ns() - started) / (passes * len(x)))
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    x = card_tensors(args.hands, args.seed)
    rng = np.random.default_rng(args.seed)
    h = args.hidden
    result = {"hidden": h, "inputs": len(x), "nonzero_inputs_mean": float((x != 0).sum(axis=1).mean())}
    for name, n_out in (("card", 54), ("keep", 1)):
        head = tuple(np.ascontiguousarray(a, dtype=np.float32) for a in (
            rng.standard_normal((VT_SIZE, h)) * (2 / 40) ** 0.5, rng.standard_normal(h) * 0.1,
            rng.standard_normal((h, h)) * (2 / h) ** 0.5, rng.standard_normal(h) * 0.1,
            rng.standard_normal((h, n_out)) * (2 / h) ** 0.5, rng.standard_normal(n_out) * 0.1))
        passes = max(1, 200_000 // len(x))
        upper_inputs = np.ascontiguousarray(rng.standard_normal((len(x), VT_SIZE)).astype(np.float32))
        result[name] = {
            "sparse_ns": round(measure(head, x, 0, args.repeats, passes)),
            "dense_ns": round(measure(head, x, 1, args.repeats, max(1, passes // 10))),
            "first_layer_ns": round(measure(head, x, 2, args.repeats, passes)),
            "upper_layers_ns": round(measure(head, upper_inputs, 3, args.repeats, passes)),
            "update_ns_per_input": round(measure(head, x[:min(len(x), VT_SIZE)], 4, args.repeats, passes), 1),
        }
        result[name]["dense_over_sparse"] = round(result[name]["dense_ns"] / result[name]["sparse_ns"], 1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
