"""Where `expert` and `heuristic` disagree, at each kind of decision, and what each disagreement is worth (repo root).

    python benchmarks/expert_disagreements.py [--hands 200] [--seed 1] [--samples 256] [--call-samples 2000]

The positions are real: the first `--hands` hands of `smear-sim simulate --seed SEED` (heuristic at all four seats,
from 0-0). At every decision with a choice, `heuristic`'s action (the one in the record) is set beside the one
`expert` takes in that position (`smear_sim.analysis.bots.bot_action`, the practice table's bots: the kernels' own
functions). The kinds:

- **call**: each of the four calls;
- **trump**: the bidder's suit with the six cards it keeps (expert searches them together);
- **keep**: a defender's six cards, when it has a choice;
- **card**: each card played with two or more legal cards.

Where the two differ, both actions are valued by the hint from the seat's view (`smear_sim.analysis.decisions.hint`,
the other seats modelled by `heuristic`, the card play double dummy) on the same worlds: `--samples` worlds for a
trump, keep or card, `--call-samples` deals for a call. A disagreement's worth is expert's action's value minus
heuristic's, in points (the seat's team's hand score minus the other's) and in P(win the game). Per kind it prints
the decisions, the disagreements and their share, and the mean worth of a disagreement with the standard error of
that mean over the disagreements (it holds the noise of each hint's worlds too), and the worth per hand.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from itertools import islice

from smear_sim import hint
from smear_sim.analysis.bots import bot_action
from smear_sim.analysis.plan import RunPlan
from smear_sim.analysis.simulate import trace_records
from smear_sim.core.cards import SUIT_NAMES, card_name
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record, replay_position
from smear_sim.reference.view import view_of

KINDS = ("call", "trump", "keep", "card")


def _kept(record, seat: int, bidder: int) -> list[str]:
    held = list(record.hands[seat]) + (list(record.kitty) if seat == bidder else [])
    return sorted(card_name(c) for c in held if c not in record.discards[seat])


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return a["suit"] == b["suit"] and sorted(a["keep"]) == sorted(b["keep"])
    if isinstance(a, list):
        return sorted(a) == sorted(b)
    return a == b


def decisions(record, index: int, seed: int):
    """``(kind, seat, view, heuristic's action, expert's action)`` for each decision of ``record`` with a choice."""
    empty = dataclasses.replace(record, trump=None, discards=None, plays=())
    for p in range(4):
        seat = ref.seat_of_bid(record.dealer, p)
        cut = dataclasses.replace(empty, bids=record.bids[:p])
        yield ("call", seat, view_of(record, seat, bids=p), record.bids[p],
               bot_action(cut, seat, "call", "expert", seed=seed, index=index))
    if record.trump is None:
        return
    bidder = ref.seat_of_bid(record.dealer, ref.auction_winner(record.bids)[0])
    suit = bot_action(empty, bidder, "trump", "expert", seed=seed, index=index)
    keep = bot_action(dataclasses.replace(empty, trump=SUIT_NAMES.index(suit)), bidder, "keep", "expert", seed=seed,
                      index=index)
    yield ("trump", bidder, view_of(record, bidder, trump=False),
           {"suit": SUIT_NAMES[record.trump], "keep": _kept(record, bidder, bidder)}, {"suit": suit, "keep": keep})
    with_trump = dataclasses.replace(empty, trump=record.trump)
    for seat in range(4):
        if seat == bidder or next(islice(ref.legal_keeps(list(record.hands[seat]), record.trump), 1, None), None) is None:
            continue  # one legal keep: no choice
        yield ("keep", seat, view_of(record, seat, discards=False), _kept(record, seat, bidder),
               bot_action(with_trump, seat, "keep", "expert", seed=seed, index=index))
    for k in range(len(record.plays)):
        cut = dataclasses.replace(record, plays=record.plays[:k])
        position = replay_position(cut)
        if len(position.legal()) < 2:
            continue
        seat = position.to_play
        yield ("card", seat, view_of(record, seat, plays=k), card_name(record.plays[k]),
               bot_action(cut, seat, "card", "expert", seed=seed, index=1000 * index + k))


def worth(view, heuristic_action, expert_action, kind: str, samples: int, call_samples: int, plan: RunPlan):
    """Expert's action's value minus heuristic's, ``(points, P(win))``, on the same worlds."""
    extra = [heuristic_action, expert_action] if kind in ("trump", "keep") else []
    h = hint(view, samples=call_samples if kind == "call" else samples, plan=plan, extra=extra)
    cost_h, cost_e = h.cost(heuristic_action), h.cost(expert_action)
    return cost_h[0].value - cost_e[0].value, cost_h[1].value - cost_e[1].value


def _mean_se(xs: list[float]) -> tuple[float | None, float | None]:
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=256)
    parser.add_argument("--call-samples", type=int, default=2000)
    args = parser.parse_args()
    plan = RunPlan.of("heuristic")
    started = time.perf_counter()
    counts = {kind: {"decisions": 0, "disagreements": 0, "points": [], "win": []} for kind in KINDS}
    hands = 0
    for index, obj in enumerate(trace_records(args.hands, seed=args.seed)):
        obj.pop("result", None)
        record = parse_record(obj)
        hands += 1
        for kind, _seat, view, h_action, e_action in decisions(record, index, args.seed):
            row = counts[kind]
            row["decisions"] += 1
            if _same(h_action, e_action):
                continue
            row["disagreements"] += 1
            points, win = worth(view, h_action, e_action, kind, args.samples, args.call_samples, plan)
            row["points"].append(points)
            row["win"].append(win)
    kinds = {}
    for kind, row in counts.items():
        p, p_se = _mean_se(row["points"])
        w, w_se = _mean_se(row["win"])
        kinds[kind] = {
            "decisions": row["decisions"], "disagreements": row["disagreements"],
            "share": round(row["disagreements"] / row["decisions"], 4) if row["decisions"] else None,
            "worth_points": None if p is None else round(p, 4), "worth_points_se": None if p_se is None else round(p_se, 4),
            "worth_win": None if w is None else round(w, 5), "worth_win_se": None if w_se is None else round(w_se, 5),
            "points_per_hand": round(sum(row["points"]) / hands, 4), "win_per_hand": round(sum(row["win"]) / hands, 5),
        }
    print(json.dumps({"hands": hands, "seed": args.seed, "samples": args.samples, "call_samples": args.call_samples,
                      "kinds": kinds, "seconds": round(time.perf_counter() - started, 1)}, indent=2))


if __name__ == "__main__":
    main()
