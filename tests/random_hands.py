"""Random legal hands made with the reference engine, for property tests.

Every choice (the deal, each call, trump, each discard, each play) is drawn uniformly from the legal
choices the reference engine lists, so the records cover the whole space of legal hands.
"""

from __future__ import annotations

import random

from smear_sim.core.cards import SUIT_NAMES, card_name
from smear_sim.core.rules import Rules
from smear_sim.reference import hand as ref


def random_record(rules: Rules, rng: random.Random, *, dealer: int | None = None,
                  scores_before: tuple[int, int] | None = None) -> dict:
    """One random legal hand record (JSON form), with each choice uniform among the legal ones."""
    deck = list(range(54))
    rng.shuffle(deck)
    hands = [sorted(deck[9 * s: 9 * s + 9]) for s in range(4)]
    kitty = sorted(deck[36:40])
    dealer = rng.randrange(4) if dealer is None else dealer
    scores = scores_before if scores_before is not None else (rng.randint(-15, 20), rng.randint(-15, 20))
    bids: list = []
    for _ in range(4):
        bids.append(rng.choice(ref.legal_bids(rules, bids)))
    record = {
        "rules": rules.changed(),
        "dealer": dealer,
        "scores_before": list(scores),
        "hands": [[card_name(c) for c in h] for h in hands],
        "kitty": [card_name(c) for c in kitty],
        "bids": bids,
    }
    won = ref.auction_winner(bids)
    if won is None:
        return record
    bidder = ref.seat_of_bid(dealer, won[0])
    trump = rng.randrange(4)
    held = [list(h) for h in hands]
    held[bidder] += kitty
    discards, kept = [], []
    for seat in range(4):
        keep = rng.choice(list(ref.legal_keeps(held[seat], trump)))
        kept.append(set(keep))
        discards.append(sorted(set(held[seat]) - set(keep)))
    plays = []
    leader = bidder
    for _ in range(6):
        trick = []
        for i in range(4):
            seat = (leader + i) % 4
            c = rng.choice(ref.legal_plays(rules, kept[seat], trick, trump))
            kept[seat].remove(c)
            trick.append(c)
        plays += trick
        leader = (leader + ref.trick_winner(trick, trump)) % 4
    record |= {
        "trump": SUIT_NAMES[trump],
        "discards": [[card_name(c) for c in d] for d in discards],
        "plays": [card_name(c) for c in plays],
    }
    return record
