"""The seat's view as a tensor: the layout both of its forms and the nets read (docs/learned.md).

One seat's knowledge at any of its decisions (a call, trump, a keep, a card) is written as a flat ``float32``
vector of :data:`VT_SIZE` entries. The readable form is :func:`smear_sim.reference.view_tensor.view_tensor` (over the
reference engine's :class:`~smear_sim.reference.view.SeatView`) and the compiled twin
:func:`smear_sim.kernels.net.tensor.write_view_tensor` (over the kernels' hand state); the tests hold them equal byte
for byte. Both read the offsets below, and nothing else says where a field lies.

Seats are relative to the viewer: relative seat ``r`` is ``(seat - viewer) % 4``, so 0 is the viewer, 1 its left-hand
opponent, 2 its partner, 3 its right-hand opponent. Teams are relative too: 0 is the viewer's team ("us"), 1 the
other ("them"). A card block has one entry per card code (:data:`~smear_sim.core.cards.DECK_SIZE`, in code order).
Every entry is 0 or 1 unless its line says it is a scaled number. A field the seat cannot know yet (the contract
during the auction, the trick before play) is all zeros.

The layout is the same under every rule set, so that one net can read positions of several: the calls have a slot
for every kernel call code (pass, 1..7, moon: :data:`~smear_sim.core.layout.N_BID_CODES`, the call slots of the
largest rule set, ``Rules(round_points=True).n_call_slots``), and the rules themselves are a field.
"""

from __future__ import annotations

from .cards import DECK_SIZE, N_SUITS
from .layout import N_BID_CODES, N_POINTS

__all__ = [
    "CARD_POINTS_SCALE",
    "DECISION_CALL",
    "DECISION_CARD",
    "DECISION_KEEP",
    "DECISION_TRUMP",
    "N_DECISIONS",
    "N_SEATS",
    "N_TEAMS",
    "TARGET_SCALE",
    "VIEW_FIELDS",
    "VR_FORCED_BID",
    "VR_HIGH_HIGHEST",
    "VR_LOW_LOWEST",
    "VR_LOW_TO_TAKER",
    "VR_MIN_BID",
    "VR_MISDEAL",
    "VR_MOON",
    "VR_MOON_IN_PLAY",
    "VR_POINTS_AT_STAKE",
    "VR_ROUND_POINTS",
    "VR_SIZE",
    "VR_TARGET",
    "VR_TRUMP_ANYTIME",
    "VT_CALLS",
    "VT_CARD_POINTS",
    "VT_CONTRACT",
    "VT_DEALER",
    "VT_DECISION",
    "VT_DECLARER",
    "VT_DISCARDS",
    "VT_HAND",
    "VT_KITTY",
    "VT_LEADER",
    "VT_LED_SUIT",
    "VT_PLAYED",
    "VT_POINTS",
    "VT_RULES",
    "VT_SCORES",
    "VT_SIZE",
    "VT_TAKEN",
    "VT_TRICK",
    "VT_TRUMP",
    "VT_VOIDS",
]

# The decision the seat faces (field VT_DECISION).
DECISION_CALL, DECISION_TRUMP, DECISION_KEEP, DECISION_CARD = range(4)
N_DECISIONS = 4

# Scales of the number fields: all card points of the deck (A 4, K 3, Q 2, J 1, 10 10 in four suits) are 80; the
# target of the default rules is 21; a score is read as a fraction of the game's target.
CARD_POINTS_SCALE = 80.0
TARGET_SCALE = 21.0
N_SEATS = 4
N_TEAMS = 2

# The rules block (VT_RULES), entry by entry: 1 where the option is set as named, numbers scaled to about 1.
VR_ROUND_POINTS = 0
VR_HIGH_HIGHEST = 1  # high = highest
VR_LOW_LOWEST = 2  # low = lowest
VR_LOW_TO_TAKER = 3  # low_to = taker
VR_FORCED_BID = 4  # 3 entries, one-hot: opener, dealer, none (ForcedBid's order)
VR_MOON = 7
VR_MOON_IN_PLAY = 8  # moon_requires = in_play
VR_TRUMP_ANYTIME = 9
VR_MISDEAL = 10
VR_TARGET = 11  # target / TARGET_SCALE
VR_MIN_BID = 12  # min_bid / 7
VR_POINTS_AT_STAKE = 13  # points at stake / 7
VR_SIZE = 14

# (name, size, what it holds and why the net needs it), in tensor order. The VT_* offsets are made from it.
VIEW_FIELDS = (
    ("decision", N_DECISIONS, "one-hot: call, trump, keep, card; the kind of action being valued"),
    ("hand", DECK_SIZE, "the cards the seat holds now: its 9 in the auction, 13 (with the kitty) or 9 for trump "
                        "and the keep, the kept cards not yet played in play"),
    ("kitty", DECK_SIZE, "the kitty's 4 cards, only when the seat won the auction and took it (no one else sees "
                         "it)"),
    ("discards", DECK_SIZE, "the seat's own discards, once play has begun: out of play, so no other seat holds them"),
    ("dealer", N_SEATS, "one-hot relative seat of the dealer: with the calls, the order of the auction"),
    ("calls", N_SEATS * N_BID_CODES, "relative seat x call code (pass, 1..7, moon): every call made so far and "
                                     "who made it; a seat yet to call has none set"),
    ("declarer", N_SEATS, "one-hot relative seat of the bidder, once the auction is over"),
    ("contract", N_BID_CODES, "one-hot call code of the contract (pass: hand analysis, where no bid was made)"),
    ("trump", N_SUITS, "one-hot trump suit (S H D C), once named"),
    ("leader", N_SEATS, "one-hot relative seat that led (or leads) the trick in progress, during play"),
    ("led_suit", N_SUITS, "one-hot effective suit led to the trick in progress (a joker or the jick leads trump)"),
    ("played", N_SEATS * DECK_SIZE, "relative seat x card: every card played so far and who played it, the trick "
                                    "in progress included"),
    ("trick", N_SEATS * DECK_SIZE, "relative seat x card: the cards on the table in the trick in progress"),
    ("taken", N_TEAMS * DECK_SIZE, "relative team x card: the cards in the tricks each team has taken"),
    ("voids", N_SEATS * N_SUITS, "relative seat x effective suit: the seat showed it holds none, by failing to "
                                 "follow (under trump_anytime a trump on a plain lead shows nothing): the inference "
                                 "of the world sampler, kernels/state.py"),
    ("points", N_TEAMS * N_POINTS, "relative team x point (high, low, jack, game, jick, high joker, low joker): "
                                   "the team that would win each point at stake if the completed tricks were all "
                                   "the hand (reference.hand.award_points over them)"),
    ("card_points", N_TEAMS, "each relative team's card points (for Game) in the tricks it has taken, / 80"),
    ("scores", N_TEAMS, "each relative team's score before the hand, / the target (negative scores stay negative)"),
    ("rules", VR_SIZE, "the rule options (VR_* entries): those that change what points are worth or at stake"),
)


def _offsets() -> dict[str, int]:
    offsets = {}
    at = 0
    for name, size, _ in VIEW_FIELDS:
        offsets[name] = at
        at += size
    offsets["size"] = at
    return offsets


_AT = _offsets()
VT_DECISION = _AT["decision"]
VT_HAND = _AT["hand"]
VT_KITTY = _AT["kitty"]
VT_DISCARDS = _AT["discards"]
VT_DEALER = _AT["dealer"]
VT_CALLS = _AT["calls"]  # + relative seat * N_BID_CODES + call code
VT_DECLARER = _AT["declarer"]
VT_CONTRACT = _AT["contract"]
VT_TRUMP = _AT["trump"]
VT_LEADER = _AT["leader"]
VT_LED_SUIT = _AT["led_suit"]
VT_PLAYED = _AT["played"]  # + relative seat * DECK_SIZE + card
VT_TRICK = _AT["trick"]  # + relative seat * DECK_SIZE + card
VT_TAKEN = _AT["taken"]  # + relative team * DECK_SIZE + card
VT_VOIDS = _AT["voids"]  # + relative seat * N_SUITS + suit
VT_POINTS = _AT["points"]  # + relative team * N_POINTS + point
VT_CARD_POINTS = _AT["card_points"]  # + relative team
VT_SCORES = _AT["scores"]  # + relative team
VT_RULES = _AT["rules"]  # + VR_*
VT_SIZE = _AT["size"]
