"""``smear-sim hint --evaluator net`` after start-up: milliseconds per decision, by kind of decision.

    python benchmarks/net_hint.py [--net FILE] [--hidden 128] [--hands 20] [--seed 1]

The views are real: every decision (the calls, trump, the keeps, the cards) of the first hands of `smear-sim simulate`
(heuristic players), cut to the deciding seat's view. The net is FILE, or random weights of --hidden units (the time
does not depend on the values). Each view is hinted once after one warm-up hint (the kernels load from Numba's cache
on first use); a call whose equity-table cell settled no call (no value) is left out.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time

import numpy as np

from smear_sim.analysis.bidder_tables import ready_tables
from smear_sim.analysis.net_hint import net_hint
from smear_sim.analysis.simulate import trace_records
from smear_sim.core.errors import SmearError
from smear_sim.core.rules import Rules
from smear_sim.engine.net_weights import HEAD_OUTPUTS, NetHead, NetWeights, layer_shapes, load_net, weights_digest
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record
from smear_sim.reference.view import view_of


def decisions(hands: int, seed: int):
    """(kind, view) at every decision of the first ``hands`` simulated hands that reach play."""
    for text in trace_records(hands, seed=seed):
        record = parse_record(text)
        for p in range(4):
            yield "call", view_of(record, ref.seat_of_bid(record.dealer, p), bids=p)
        if record.plays is None:
            continue
        leader = ref.seat_of_bid(record.dealer, ref.auction_winner(record.bids)[0])
        yield "trump", view_of(record, leader, trump=False)
        for seat in range(4):
            yield "keep", view_of(record, seat, discards=False)
        trick: list[int] = []
        for k, c in enumerate(record.plays):
            yield "card", view_of(record, (leader + len(trick)) % 4, plays=k)
            trick.append(c)
            if len(trick) == 4:
                leader = (leader + ref.trick_winner(trick, record.trump)) % 4
                trick = []


def random_net(hidden: int, seed: int) -> NetWeights:
    rng = np.random.default_rng(seed)
    heads = {head: NetHead(*[(rng.standard_normal(shape) * 0.05).astype(np.float32)
                             for shape in layer_shapes(hidden, n_out).values()])
             for head, n_out in HEAD_OUTPUTS.items()}
    return NetWeights(heads, weights_digest(heads))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--net", default=None)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    net = load_net(args.net) if args.net else random_net(args.hidden, args.seed)
    ready_tables("equity", Rules())
    views = list(decisions(args.hands, args.seed))
    for kind in ("call", "trump", "keep", "card"):  # one warm-up of each kind: start-up, not the decision's time
        with contextlib.suppress(SmearError):
            net_hint(next(v for k, v in views if k == kind), net=net)
    times: dict[str, list[float]] = {}
    for kind, view in views:
        start = time.perf_counter()
        try:
            net_hint(view, net=net)
        except SmearError:
            continue
        times.setdefault(kind, []).append((time.perf_counter() - start) * 1000)
    print(json.dumps({"hidden": net["card"].hidden, "hands": args.hands,
                      **{kind: {"decisions": len(ms), "median_ms": round(float(np.median(ms)), 3),
                                "mean_ms": round(float(np.mean(ms)), 3), "max_ms": round(float(np.max(ms)), 3)}
                         for kind, ms in times.items()}}, indent=1))


if __name__ == "__main__":
    main()
