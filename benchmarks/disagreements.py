"""Where the search player disagrees with the heuristic: the decisions it changes most often (repo root).

    python benchmarks/disagreements.py [--hands 2000] [--k 16] [--seed 1] [--examples 1]

Plays `--hands` hands with `heuristic` at all four seats (the first hands of `smear-sim simulate`) and, at
every card decision with two or more legal cards, asks `heuristic` and `pimc:K` for their card. Each
disagreement is classed by the seat's place in the trick, its side (bidding team or defence) and what each
card does (leads trump or a plain card, boss or not; takes the trick or ducks; gives points to the
partner). Prints the most common classes with their share of all decisions, and for each an example
position: the hand record cut at the decision (feed it to `smear-sim solve`) and pimc's mean value of each
legal card over its sampled deals.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

import numpy as np

from smear_sim.analysis.simulate import trace_records
from smear_sim.analysis.solve import hand_state
from smear_sim.core.cards import card_name, format_hand
from smear_sim.core.layout import ST_SIZE
from smear_sim.core.players import policy_code
from smear_sim.core.rules import Rules
from smear_sim.kernels import players as kp
from smear_sim.kernels import solver
from smear_sim.kernels import state as ks
from smear_sim.kernels.players import pimc
from smear_sim.kernels.rng import stream_key
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record, replay_position

PLACES = ("leads", "2nd hand", "3rd hand", "last hand")


_TRUMP_WORDS = {12: "the ace of trump", 11: "the king of trump", 10: "the queen of trump", 9: "the jack of trump",
                8: "the ten of trump", 0: "the two of trump"}


def describe(c: int, trump: int) -> str:
    """A card in words that matter for play: which trump, or what kind of plain card."""
    if c >= 52:
        return "a joker"
    rank = c % 13
    if ref.is_trump(c, trump):
        if c // 13 != trump:
            return "the jick"
        return _TRUMP_WORDS.get(rank, "a low trump")
    return {12: "a plain ace", 8: "a plain ten"}.get(rank, "a plain court card" if rank >= 9 else "a low plain card")


def action(position, c: int) -> str:
    """What card ``c`` does in ``position``, in a few words."""
    trump = position.record.trump
    card = describe(c, trump)
    if not position.trick:
        return f"leads {card}"
    cards = [*position.trick, c]
    seat = position.to_play
    current = ref.trick_winner(list(position.trick), trump)
    if ref.trick_winner(cards, trump) == len(position.trick):
        return f"takes the lead with {card}"
    if (position.leader + current) % 2 == seat % 2:
        return f"plays {card} to the partner's trick"
    return f"ducks with {card}"


def example(position, v2: int, choice: int, means: dict[int, float]) -> dict:
    record = position.record.to_json()
    seat = position.to_play
    trump = position.record.trump
    text = (f"Trump {'SHDC'[trump]}, seat {position.bidder} bid {position.bid}; seat {seat} "
            f"({'bidding side' if seat % 2 == position.bidder % 2 else 'defence'}) holds "
            f"{format_hand(position.held[seat])}, trick so far: {format_hand(position.trick) or 'none (to lead)'}; "
            f"tricks done: {len(position.tricks)}. heuristic plays {card_name(v2)}, pimc plays {card_name(choice)}.")
    return {"text": text, "record": record,
            "pimc_mean_values": {card_name(c): round(v, 2) for c, v in sorted(means.items(), key=lambda cv: -cv[1])}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=3)
    args = parser.parse_args()
    rules = Rules()
    array = rules.to_array()
    give, _ = kp.policy_tables(array)
    code = policy_code(f"pimc:{args.k}")
    counts: Counter = Counter()
    examples: dict = {}
    decisions = 0
    sv = solver.new_solver(pimc.TT_BITS)
    world = np.zeros(ST_SIZE, dtype=np.int64)
    values = np.zeros(54, dtype=np.int64)
    for index, record in enumerate(trace_records(args.hands, seed=args.seed)):
        if "plays" not in record:
            continue
        record.pop("result")
        for k in range(24):
            position = replay_position(parse_record(record | {"plays": record["plays"][:k]}, partial=True))
            legal = position.legal()
            if len(legal) < 2:
                continue
            decisions += 1
            hs = hand_state(position)
            mask = ks.legal_cards(hs, array)
            v2 = int(kp.choose_play(kp.HEURISTIC, kp.seated_arg([kp.HEURISTIC]), np.zeros(1, dtype=np.uint64), hs, mask,
                                    array, give))
            rng = np.array([stream_key(np.uint64(args.seed), np.uint64(1_000_000 + 24 * index + k))], dtype=np.uint64)
            start = rng.copy()
            choice = int(kp.choose_play(code, kp.seated_arg([code]), rng, hs, mask, array, give))
            if choice == v2:
                continue
            side = "bidding side" if position.to_play % 2 == position.bidder % 2 else "defence"
            key = (PLACES[len(position.trick)], side, action(position, v2), action(position, choice))
            counts[key] += 1
            if key not in examples:
                totals = np.zeros(54, dtype=np.int64)
                pimc.card_totals(start, hs, mask, array, args.k, sv, world, values, totals)
                examples[key] = example(position, v2, choice, {c: totals[c] / args.k for c in legal})
    top = []
    for key, n in counts.most_common(args.top):
        place, side, a, b = key
        top.append({"decision": f"{place}, {side}: heuristic {a}; pimc {b}", "count": n,
                    "share_of_decisions": round(n / decisions, 4), "example": examples[key]})
    print(json.dumps({"hands": args.hands, "k": args.k, "decisions_with_a_choice": decisions,
                      "disagreements": sum(counts.values()), "top": top}, indent=2))


if __name__ == "__main__":
    main()
