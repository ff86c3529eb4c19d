"""Array layouts shared by the Numba kernels and the Python that reads their output.

The kernels write plain ``int64`` arrays; the offsets below name their fields. Keeping them in one
NumPy-free module lets the orchestration code read kernel output without importing Numba.
"""

from __future__ import annotations

from .cards import HIGH_JOKER, LOW_JOKER
from .rules import RULE_INDEX

# Rule options in Rules.to_array() order.
R_ROUND_POINTS = RULE_INDEX["round_points"]
R_HIGH = RULE_INDEX["high"]
R_LOW = RULE_INDEX["low"]
R_LOW_TO = RULE_INDEX["low_to"]
R_FORCED_BID = RULE_INDEX["forced_bid"]
R_MOON = RULE_INDEX["moon"]
R_MOON_REQUIRES = RULE_INDEX["moon_requires"]
R_TRUMP_ANYTIME = RULE_INDEX["trump_anytime"]
R_MISDEAL = RULE_INDEX["misdeal"]
R_TARGET = RULE_INDEX["target"]
R_MIN_BID = RULE_INDEX["min_bid"]
# What follows from the options, in the slots after them (Rules.derived_facts).
R_POINTS_AT_STAKE = RULE_INDEX["points_at_stake"]

# Calls in the auction: numbers are themselves (1..7).
PASS = 0
MOON = 8
N_BID_CODES = 9

N_POINTS = 7  # high, low, jack, game, jick, high joker, low joker (tables.POINT_NAMES)


class _Fields:
    """Sequential offsets: ``size`` grows as fields are added."""

    def __init__(self) -> None:
        self.size = 0

    def add(self, length: int = 1) -> int:
        start = self.size
        self.size += length
        return start


# -- one simulated hand: outcome and full trace -------------------------------------------------------
_rec = _Fields()
REC_DEALER = _rec.add()
REC_MISDEALS = _rec.add()  # redeals before this deal
REC_BIDDER = _rec.add()  # -1 when thrown in
REC_BID = _rec.add()  # bid code of the winning call; PASS when thrown in
REC_TRUMP = _rec.add()  # -1 when thrown in
REC_MADE = _rec.add()  # -1 thrown in, else 0/1
REC_MOON = _rec.add()  # -1 no moon, else 0/1
REC_WINNER = _rec.add()  # -1 none, else the team that won the game
REC_SCORES_BEFORE = _rec.add(2)  # team 0's and team 1's scores before the hand
REC_AWARDS = _rec.add(N_POINTS)  # team per point, -1 nobody
REC_CARD_POINTS = _rec.add(2)
REC_POINTS = _rec.add(2)
REC_DELTA = _rec.add(2)
REC_HANDS = _rec.add(36)  # seat by seat, 9 cards each, ascending
REC_KITTY = _rec.add(4)
REC_BIDS = _rec.add(4)  # calls in auction order
REC_DISCARDS = _rec.add(28)  # 7 slots a seat, -1 padded
REC_PLAYS = _rec.add(24)
REC_TRICK_WINNERS = _rec.add(6)
REC_SIZE = _rec.size

# -- a hand in progress (kernels/state.py): one int64 array; card masks use bits 0..53, so they fit -------
_st = _Fields()
ST_HANDS = _st.add(4)  # cards each seat holds now
ST_KNOWN = _st.add(4)  # cards each seat saw before play: its 9 dealt, and the kitty for the bidder
ST_PLAYED = _st.add(4)  # cards each seat has played, this trick's included
ST_TAKEN = _st.add(2)  # cards in the tricks each team has taken
ST_TRICK = _st.add()  # cards in the trick in progress
ST_VOIDS = _st.add()  # bit 4 * seat + suit: the seat showed it holds no card of that (effective) suit
ST_LEADER = _st.add()  # the seat that led the trick in progress
ST_N_IN_TRICK = _st.add()  # cards played to it, 0..3
ST_TRICKS_DONE = _st.add()  # tricks completed, 0..6
ST_LED_SUIT = _st.add()  # effective suit led, -1 before the lead
ST_WIN_SEAT = _st.add()  # seat whose card leads the trick now, -1 before the lead
ST_WIN_CARD = _st.add()
ST_WIN_KEY = _st.add()  # trick.card_key of the winning card
ST_TRUMP = _st.add()
ST_BIDDER = _st.add()
ST_BID = _st.add()  # bid code; PASS in hand analysis, where no bid was made
ST_BEFORE = _st.add(2)  # both teams' scores before the hand
# The auction, public to every seat, for a player that reads it (expert's worlds, kernels/players/expert.py):
ST_DEALER = _st.add()
ST_CALLS = _st.add(4)  # the calls in auction order (opener first)
ST_N_CALLS = _st.add()  # how many of them were made: 4 after an auction, 0 in hand analysis (no auction)
# The search player's world counts this hand (kernels/players/expert.py): worlds drawn for its card decisions, and
# those that fell back to a world ignoring the calls (none fitting in MAX_TRIES draws).
ST_WORLDS = _st.add()
ST_FALLBACKS = _st.add()
# The kitty, written where the auction is (the hand that keeps the calls): the bidder's view holds it (the net player
# reads it for the bidder's seat only, kernels/players/net.py).
ST_KITTY = _st.add()
ST_SIZE = _st.size
# A searched trump and keep travels as one number: the kept cards' mask, with the trump in the bits from this one.
SEARCHED_TRUMP_SHIFT = 56

# -- simulate: streamed aggregate counts (all integers, so sums are order-free) -------------------------
_agg = _Fields()
AGG_HANDS = _agg.add()
AGG_MISDEALS = _agg.add()
AGG_THROWN_IN = _agg.add()
AGG_BIDS = _agg.add(N_BID_CODES)  # hands won with each bid code
AGG_MADE = _agg.add(N_BID_CODES)
AGG_BID_POINTS = _agg.add(N_BID_CODES)  # bidding team's points, summed per bid
AGG_BIDDER_TEAM = _agg.add(2)
AGG_TRUMP = _agg.add(4)
AGG_POINTS = _agg.add(2)  # points won per team
AGG_POINTS_SQ = _agg.add(2)
AGG_DELTA = _agg.add(2)  # score change per team
AGG_DELTA_SQ = _agg.add(2)
AGG_MARGIN_SQ = _agg.add()  # sum of (delta0 - delta1)^2
AGG_AWARD_BIDDER = _agg.add(N_POINTS)  # point won by the bidding team
AGG_AWARD_OTHER = _agg.add(N_POINTS)
AGG_AWARD_NONE = _agg.add(N_POINTS)
AGG_MOON_TRIES = _agg.add(2)  # per team
AGG_MOON_MADE = _agg.add(2)
AGG_GAME_WINS = _agg.add(2)
AGG_SIZE = _agg.size

# -- simulate --games: the per-hand counts above, then per-game counts ----------------------------------
# A game that reaches MAX_DEALS deals without a winner stops there and is counted unfinished: a policy
# that loses points on average (random play with moons off) can drift down for ever.
MAX_DEALS = 2000
_gam = _Fields()
_gam.size = AGG_SIZE
GAMES = _gam.add()
GAME_WINS = _gam.add(2)  # games won per team
GAME_UNFINISHED = _gam.add()
GAME_DEALS = _gam.add()  # deals per game (thrown-in hands included, misdeals not), summed
GAME_DEALS_SQ = _gam.add()
GAME_SIZE = _gam.size

# -- analysis: per-class accumulators for a bidder whose hand is fixed or classified -------------------
# With M the points at stake (at most 7): a histogram of the bidding team's points k, the other team's
# points summed per k (for the covariance behind the EV standard errors), the other team's squared points,
# moon successes, points won per award, trump chosen, and the joint histogram of both teams' points, which
# settles every bid (and the moon) at any score (game-level values).
MAX_K = 8
_cls = _Fields()
CLS_COUNT = _cls.add()
CLS_HIST = _cls.add(MAX_K)
CLS_OTHER_BY_K = _cls.add(MAX_K)
CLS_OTHER_SQ = _cls.add()
CLS_MOON = _cls.add()
CLS_AWARDS = _cls.add(N_POINTS)
CLS_TRUMP = _cls.add(4)
CLS_JOINT = _cls.add(MAX_K * MAX_K)  # hands by (bidding team's points, other team's points): k * MAX_K + other
CLS_SIZE = _cls.size

# -- match equity: the outcome of one hand, seen from the dealing team ----------------------------------
# A hand either is thrown in, or one side (0: the dealing team, 1: the other team) bids and
# - a number: the bidding team's score change (its points if made, minus the bid if set: -M..M) and the other
#   team's points (0..M);
# - the moon: success with the other team's points (0..M; the bidding team's change depends on its score), or
#   failure (the game is lost whatever the points).
# Codes index an integer histogram; M is at most 7.
OUT_MAX = 7
OUT_THROWN_IN = 0
OUT_NUMERIC = 1  # + (side * (2 * OUT_MAX + 1) + delta + OUT_MAX) * (OUT_MAX + 1) + other
OUT_MOON_MADE = OUT_NUMERIC + 2 * (2 * OUT_MAX + 1) * (OUT_MAX + 1)  # + side * (OUT_MAX + 1) + other
OUT_MOON_FAILED = OUT_MOON_MADE + 2 * (OUT_MAX + 1)  # + side
N_OUTCOMES = OUT_MOON_FAILED + 2

# -- the auction seen from one seat: what stands when it calls, and which call ----------------------------
# A seat's situation is the highest call made before it: none (index 0), or a number b (1..M) called by its
# partner (index 2b - 1) or by an opponent (index 2b). After a moon the seat must pass, so no situation is kept.
# Its call is indexed PASS -> 0, a number b -> b, MOON -> M + 1, with M the points at stake: 2M + 1 situations
# and M + 2 call slots.
N_POSITIONS = 4  # opener, second, third, dealer

# -- hand analysis at a place in the auction: counts per call (driver ``auction_hands``) -------------------
# Deals tried and accepted (the calls before the seat came out as given), then for each call (by its code: PASS,
# 1..7, MOON) the histogram of outcome codes (``OUT_*``, from the analysed team's side), the deals on which the seat
# won the auction with it and made it, and, for each pair of calls played on the same deal, the sums of the squared
# differences of their game values (fixed point, ``WIN_SCALE``) and of their points.
WIN_SCALE = 1 << 16  # game values are summed as round(value * WIN_SCALE): sums stay exact integers
# -- a hint: counts of drivers ``card_hint`` and ``deal_hint`` for n actions -----------------------------------
# The worlds, those that fell back (none fitting the calls found), the worlds drawn in all; from HINT_HIST each
# action's histogram of outcome codes (``OUT_*``, from the seat's team), then for each pair of actions the sums of
# the squared differences of their game values (fixed point, ``WIN_SCALE``; n * n) and of their points (n * n).
HINT_WORLDS, HINT_FALLBACK, HINT_TRIES, HINT_HIST = 0, 1, 2, 3
_auc = _Fields()
AUC_DEALS = _auc.add()
AUC_ACCEPTED = _auc.add()
AUC_HIST = _auc.add(N_BID_CODES * N_OUTCOMES)
AUC_DECLARED = _auc.add(N_BID_CODES)
AUC_MADE = _auc.add(N_BID_CODES)
AUC_PAIR_WIN = _auc.add(N_BID_CODES * N_BID_CODES)
AUC_PAIR_EV = _auc.add(N_BID_CODES * N_BID_CODES)
AUC_SIZE = _auc.size

# -- duplicate games (driver ``duplicate_games``): sums over game pairs of policy A's wins, B's wins and the
# games left unfinished (MAX_DEALS), the square of A's wins in the pair counted in halves (an unfinished game is
# half a win), A's points won minus B's, A's score change minus B's and the hands played (over the pair's two
# games), with the squares and cross products behind the standard errors of the ratios per hand.
_dup = _Fields()
DUP_PAIRS = _dup.add()
DUP_WINS = _dup.add()
DUP_LOSSES = _dup.add()
DUP_UNFINISHED = _dup.add()
DUP_HALVES_SQ = _dup.add()
DUP_MARGIN = _dup.add()
DUP_MARGIN_SQ = _dup.add()
DUP_HANDS = _dup.add()
DUP_HANDS_SQ = _dup.add()
DUP_MARGIN_HANDS = _dup.add()
DUP_SCORE = _dup.add()
DUP_SCORE_SQ = _dup.add()
DUP_SCORE_HANDS = _dup.add()
DUP_SIZE = _dup.size

# -- duplicate deals (driver ``duplicate_hands``): sums over deals, each played twice with the teams swapped, of
# the first policy's team's score change minus the other's and its points minus the other's (each totalled over
# the deal's two hands), their squares, and the deals won and lost on each (a deal is won when its total is
# positive).
_dh = _Fields()
DH_SCORE = _dh.add()
DH_SCORE_SQ = _dh.add()
DH_POINTS = _dh.add()
DH_POINTS_SQ = _dh.add()
DH_SCORE_WON = _dh.add()
DH_SCORE_LOST = _dh.add()
DH_POINTS_WON = _dh.add()
DH_POINTS_LOST = _dh.add()
DH_SIZE = _dh.size

# -- the equity bidder's tables as the kernels read them (core/bidder.py builds them) ----------------------
# ``header`` holds the fields below; the empty arrays (no equity bidder playing) has BM_LOADED 0.
_bm = _Fields()
BM_LOADED = _bm.add()
BM_BUCKETS = _bm.add()  # hand-strength buckets
BM_MIN_COUNT = _bm.add()  # fewer decisions than this in a cell: the bidder calls as the heuristic would
BM_SOLVE_FLOOR = _bm.add()  # the lowest score of the equity grid
BM_MARGIN = _bm.add()  # the bidder leaves the heuristic's call only for one this much likelier to win (1e-4 units)
BM_KEEP_Z = _bm.add()  # the bidder leaves a cell's settled call only for one likelier to win by more than this many
#                        standard errors (1e-2 units); 0: no settled calls (core/bidder.py, "Settled calls")
BM_HEADER = _bm.size

# Bid-table classes: features of a 9-card hand in its class suit, mixed into one index in this order, the last
# varying fastest. The class suit is the rule docs/rules.md states ("Hand classes") and kernels/classes.py
# applies: the suit with the most trumps, ties to the better trumps from the top down, then S H D C. It
# depends on the 9 cards only, never on a player's policy.
CLASS_DIMS = (
    ("trumps", 10),  # trumps held, counting the jick and the jokers: 3..9, since each card is a trump of its suit
    ("top", 16),  # trump rank of the top trump (0 = two .. 15 = ace)
    ("two", 2),  # holds the two of trump
    ("jack", 2),  # holds the jack of trump (the Jack point)
    ("jick", 2),  # holds the jick
    ("jokers", 3),
    ("aces", 4),  # aces outside the class suit
)
N_TRUMPS, N_TOP, N_TWO, N_JACK, N_JICK, N_JOKERS, N_ACES = (size for _, size in CLASS_DIMS)
N_CLASSES = N_TRUMPS * N_TOP * N_TWO * N_JACK * N_JICK * N_JOKERS * N_ACES

__all__ = [name for name in dir() if name.isupper() and not name.startswith("_")] + ["HIGH_JOKER", "LOW_JOKER"]
