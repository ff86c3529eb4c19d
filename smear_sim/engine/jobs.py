"""The jobs: one keyword-only builder per driver of :mod:`smear_sim.kernels.drivers`, which checks its inputs and
builds its :class:`~smear_sim.engine.job.Job`.

A driver takes its fixed arguments by position; a builder takes them by name, checks each one's type, dtype, shape
and range (a :class:`~smear_sim.core.errors.BadValue` naming it, in one line, before any work), and puts them in the
driver's order, the scalars that travel together as one tuple (a hint's seat and table, how its worlds go): a driver
unpacks them once a call, so they cost nothing in its loops. It also states the policy codes at the table, from which
the runner makes the driver's ``seated`` argument. A job is made only here, as QuantEcon's public functions wrap a
private kernel.

Why one module, in engine, and not a builder beside each driver: a builder makes a ``Job``, which lives in engine,
and the kernels' floor is below it (kernels never import engine). The builders share their checks (the players,
a score, a seat, an array of a dtype and shape), which one module writes once, and each driver family is one to
three builders: a module per family would spread a dozen short functions over six files. The sections below follow
the driver modules. Importing this module imports no Numba: a job is built before any kernel is loaded.

``players`` is what every driver that plays takes first, as :attr:`smear_sim.analysis.plan.RunPlan.players` gives
it: ``(rules array, policy codes, equity bidder's arrays)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.cards import DECK_SIZE
from ..core.errors import BadValue, SmearError
from ..core.layout import BM_LOADED, N_BID_CODES, N_CLASSES
from ..core.players import PARAM_SCALE, POLICIES
from ..core.rules import ARRAY_NAMES, Rules
from .job import Job

__all__ = [
    "Players",
    "analyze_hands_job",
    "auction_hands_job",
    "card_hint_job",
    "deal_hint_job",
    "deal_only_job",
    "deal_outcomes_job",
    "duplicate_games_job",
    "duplicate_hands_job",
    "hand_outcomes_job",
    "net_data_job",
    "position_outcomes_job",
    "simulate_games_job",
    "simulate_hands_job",
]

Players = tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]  # (rules array, policy codes, bidder's arrays)

_INT64 = (-(2**63), 2**63 - 1)
_MASK_LIMIT = 1 << DECK_SIZE  # a set of cards: one bit per card code


# -- the checks ---------------------------------------------------------------------------------------------------

def _rules_array(value: Any, name: str = "rules") -> np.ndarray:
    """``value``, a rules array (:meth:`smear_sim.core.rules.Rules.to_array`), checked."""
    _array(name, value, np.int64, (len(ARRAY_NAMES),))
    try:
        Rules.from_array(value)
    except SmearError as exc:
        raise BadValue(name, f"is not a rules array ({exc})") from None
    return value


def _players(value: Any, seats: int = 2) -> Players:
    """``value``, a ``(rules array, policy codes, bidder's arrays)`` triple with ``seats`` policy codes, checked."""
    if not isinstance(value, tuple) or len(value) != 3:
        raise BadValue("players", "must be a (rules array, policy codes, bidder's arrays) triple such as "
                       f"RunPlan.players gives, got {type(value).__name__}")
    rules, codes, bidder_arrays = value
    _rules_array(rules, "players' rules")
    _array("players' policy codes", codes, np.int64, (seats,))
    unknown = [int(c) for c in codes if c < 0 or c % PARAM_SCALE >= len(POLICIES)]
    if unknown:
        raise BadValue("players' policy codes", f"must be codes of registered players (core.players.policy_code), "
                       f"got {unknown}")
    if not isinstance(bidder_arrays, tuple) or not all(isinstance(a, np.ndarray) for a in bidder_arrays):
        raise BadValue("players' bidder arrays", "must be a tuple of arrays (core.bidder.no_bidder_arrays for none)")
    return value


def _whole(name: str, value: Any, low: int = _INT64[0], high: int = _INT64[1]) -> np.int64:
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer) or not low <= value <= high:
        raise BadValue(name, f"must be a whole number from {low:,} to {high:,}, got {value!r}")
    return np.int64(value)


def _seat(name: str, value: Any) -> np.int64:
    return _whole(name, value, 0, 3)


def _flag(name: str, value: Any) -> np.bool_:
    if not isinstance(value, bool | np.bool_):
        raise BadValue(name, f"must be True or False, got {value!r}")
    return np.bool_(value)


def _cards(name: str, value: Any) -> np.uint64:
    """A set of cards as a mask: one bit per card code."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer) or not 0 <= value < _MASK_LIMIT:
        raise BadValue(name, f"must be a mask of card codes below {DECK_SIZE} (core.cards.mask_of), got {value!r}")
    return np.uint64(value)


def _scores(name: str, value: Any) -> tuple[np.int64, np.int64]:
    if not isinstance(value, tuple | list | np.ndarray) or len(value) != 2:
        raise BadValue(name, f"must be two scores (team 0's, team 1's), got {value!r}")
    return _whole(name, value[0]), _whole(name, value[1])


def _array(name: str, value: Any, dtype: type, shape: tuple[int | None, ...]) -> np.ndarray:
    """``value``, an array of ``dtype`` and ``shape`` (None: any length, at least one) checked, not converted: a
    job's fingerprint is made of its arrays' bytes."""
    words = "×".join("n" if n is None else str(n) for n in shape)
    if (not isinstance(value, np.ndarray) or value.dtype != dtype or value.ndim != len(shape)
            or any(n is None and m < 1 or n is not None and m != n for n, m in zip(shape, value.shape, strict=True))):
        got = (f"{value.dtype} of shape {value.shape}" if isinstance(value, np.ndarray) else type(value).__name__)
        raise BadValue(name, f"must be an array of {np.dtype(dtype)} of shape ({words}), got {got}")
    return value


def _values(win_value: Any, ev_value: Any) -> tuple[np.ndarray, np.ndarray]:
    """Each outcome code's game value (fixed point) and points, for the analysed team."""
    _array("win_value", win_value, np.int64, (None,))
    _array("ev_value", ev_value, np.int64, (len(win_value),))
    return win_value, ev_value


def _playing(driver: str, players: Players, seed: int, total: int, label: str, rest: tuple = ()) -> Job:
    """The job of a driver that seats players: ``players`` first, then ``rest``, the table's codes stated."""
    return Job(driver, seed, total, (*players, *rest), label, policy_codes=tuple(int(c) for c in players[1]))


# -- hands (smear_sim.kernels.drivers.hands) ----------------------------------------------------------------------

def simulate_hands_job(*, players: Players, seed: int, hands: int) -> Job:
    """``hands`` independent hands, the dealer rotating with the hand index, from 0-0."""
    return _playing("simulate_hands", _players(players), seed, hands, "hands")


def deal_only_job(*, rules: np.ndarray, seed: int, hands: int) -> Job:
    """``hands`` deals and nothing else: the dealing ceiling. It seats no one."""
    return Job("deal_only", seed, hands, (_rules_array(rules),), "hands")


# -- games (smear_sim.kernels.drivers.games) ----------------------------------------------------------------------

def simulate_games_job(*, players: Players, seed: int, games: int, scores: tuple[int, int], dealer: int) -> Job:
    """``games`` complete games from ``scores`` (team 0's, team 1's), seat ``dealer`` dealing first."""
    score0, score1 = _scores("scores", scores)
    return _playing("simulate_games", _players(players), seed, games, "games", (score0, score1, _seat("dealer", dealer)))


# -- duplicate (smear_sim.kernels.drivers.duplicate) --------------------------------------------------------------

def duplicate_hands_job(*, players: Players, seed: int, deals: int) -> Job:
    """``deals`` deals, each played twice with the teams swapped."""
    return _playing("duplicate_hands", _players(players), seed, deals, "deals")


def duplicate_games_job(*, players: Players, seed: int, games: int) -> Job:
    """``games`` pairs of games, each pair on the same deals with the teams swapped."""
    return _playing("duplicate_games", _players(players), seed, games, "games")


# -- outcomes (smear_sim.kernels.drivers.outcomes) ----------------------------------------------------------------

def hand_outcomes_job(*, players: Players, seed: int, hands: int, scores: tuple[int, int]) -> Job:
    """The outcomes of ``hands`` hands, the dealing team at ``scores[0]`` and the other at ``scores[1]``."""
    dealer_score, other_score = _scores("scores", scores)
    return _playing("hand_outcomes", _players(players), seed, hands, "hands", (dealer_score, other_score))


def analyze_hands_job(*, players: Players, seed: int, hands: int, fixed_hand: int = 0, trump: int = -1,
                      classify: bool, label: str = "hands") -> Job:
    """``hands`` hands to a bidder at seat 0 holding ``fixed_hand`` (0: a random hand), with ``trump`` (-1: the
    bidder's choice); ``classify`` counts them by hand class (the class table) rather than as one hand's analysis.
    ``label`` names the count in errors (``samples`` for a hand's analysis)."""
    rest = (_cards("fixed_hand", fixed_hand), _whole("trump", trump, -1, 3), _flag("classify", classify))
    return _playing("analyze_hands", _players(players), seed, hands, label, rest)


def deal_outcomes_job(*, players: Players, seed: int, playouts: int, deal: np.ndarray, dealer: int,
                      scores: tuple[int, int]) -> Job:
    """``playouts`` playouts of one given ``deal`` (four hands and the kitty, as card masks) from ``scores``."""
    _array("deal", deal, np.uint64, (5,))
    score0, score1 = _scores("scores", scores)
    return _playing("deal_outcomes", _players(players), seed, playouts, "playouts",
                    (deal, _seat("dealer", dealer), score0, score1))


# -- auction (smear_sim.kernels.drivers.auction) ------------------------------------------------------------------

def auction_hands_job(*, players: Players, seed: int, max_deals: int, fixed_hand: int, position: int,
                      prior: np.ndarray, scores: tuple[int, int], win_value: np.ndarray, ev_value: np.ndarray) -> Job:
    """Every legal call of seat ``position`` (0 the opener) holding ``fixed_hand``, played out on up to ``max_deals``
    deals on which the earlier seats call ``prior`` (four call codes, the unused ones 0); ``win_value`` and
    ``ev_value`` value each outcome for that seat's team at ``scores``."""
    _array("prior", prior, np.int64, (4,))
    score0, score1 = _scores("scores", scores)
    rest = (_cards("fixed_hand", fixed_hand), _seat("position", position), prior, score0, score1,
            *_values(win_value, ev_value))
    return _playing("auction_hands", _players(players), seed, max_deals, "max_deals", rest)


def position_outcomes_job(*, players: Players, seed: int, hands: int, bucket_of_class: np.ndarray, n_buckets: int,
                          starts: np.ndarray) -> Job:
    """The value of every call at every turn over ``hands`` deals; deal ``i`` starts from ``starts[i % len]``
    (team 0's score, team 1's score, dealer or -1), and a hand class counts in ``bucket_of_class``'s bucket."""
    _array("bucket_of_class", bucket_of_class, np.int64, (N_CLASSES,))
    _array("starts", starts, np.int64, (None, 3))
    n = _whole("n_buckets", n_buckets, 1, N_CLASSES)
    if bucket_of_class.min() < 0 or bucket_of_class.max() >= n:
        raise BadValue("bucket_of_class", f"must hold buckets from 0 to n_buckets-1 ({n - 1})")
    if starts[:, 2].min() < -1 or starts[:, 2].max() > 3:
        raise BadValue("starts", "must give a dealer seat 0-3, or -1 (seat i % 4), in each row's third column")
    return _playing("position_outcomes", _players(players), seed, hands, "hands", (bucket_of_class, n, starts))


# -- decisions (smear_sim.kernels.drivers.decisions) --------------------------------------------------------------

def _calls(calls: Any) -> np.ndarray:
    """The calls made so far, in auction order (opener first): at most four call codes."""
    if not isinstance(calls, np.ndarray) or calls.dtype != np.int64 or calls.ndim != 1 or len(calls) > 4:
        got = f"{calls.dtype} of shape {calls.shape}" if isinstance(calls, np.ndarray) else type(calls).__name__
        raise BadValue("calls", f"must be an array of int64 holding at most four call codes, got {got}")
    return calls


def _how(inference: bool, playout: int, first: int) -> tuple[np.bool_, np.int64, np.int64]:
    """How a hint's worlds go: fitted to the calls or not, played out by the modelled players (0) or the playout's
    (1), and the index of the first."""
    return _flag("inference", inference), _whole("playout", playout, 0, 1), _whole("first", first, 0)


def _seat_at(observer: int, own9: int, dealer: int, scores: tuple[int, int]) -> tuple:
    """The seat a hint is for and its table: ``(observer, own9, dealer, score0, score1)``, its nine cards as a mask."""
    score0, score1 = _scores("scores", scores)
    return _seat("observer", observer), _cards("own9", own9), _seat("dealer", dealer), score0, score1


def card_hint_job(*, players: Players, seed: int, worlds: int, state: np.ndarray, observer: int, own9: int,
                  dealer: int, calls: np.ndarray, scores: tuple[int, int], inference: bool, playout: int, first: int,
                  actions: np.ndarray, win_value: np.ndarray, ev_value: np.ndarray) -> Job:
    """The card decision of seat ``observer`` at the hand ``state``: each card of ``actions`` played on worlds
    ``first .. first+worlds-1``. ``players`` has four policy codes: the teams' as modelled, then the playout's.
    ``inference`` fits the worlds to the calls, ``playout`` 1 plays them out with the playout's codes."""
    _array("state", state, np.int64, (None,))
    _array("actions", actions, np.int64, (None,))
    rest = (state, _seat_at(observer, own9, dealer, scores), _calls(calls), _how(inference, playout, first), actions,
            *_values(win_value, ev_value))
    return _playing("card_hint", _players(players, 4), seed, worlds, "samples", rest)


def deal_hint_job(*, players: Players, seed: int, worlds: int, observer: int, own9: int, kitty: int, dealer: int,
                  calls: np.ndarray, scores: tuple[int, int], bidder: int, bid: int, inference: bool, playout: int,
                  first: int, trumps: np.ndarray, keeps: np.ndarray, win_value: np.ndarray,
                  ev_value: np.ndarray) -> Job:
    """The bidder's trump or keep decision: each ``(trumps[i], keeps[i])`` (a suit and a mask of six cards) played on
    worlds ``first .. first+worlds-1``; the rest as :func:`card_hint_job`."""
    _array("trumps", trumps, np.int64, (None,))
    _array("keeps", keeps, np.uint64, (len(trumps),))
    contract = (_seat("bidder", bidder), _whole("bid", bid, 0, N_BID_CODES - 1))
    rest = (_seat_at(observer, own9, dealer, scores), _cards("kitty", kitty), _calls(calls), contract,
            _how(inference, playout, first), trumps, keeps, *_values(win_value, ev_value))
    return _playing("deal_hint", _players(players, 4), seed, worlds, "samples", rest)


# -- the learned player's training data (smear_sim.kernels.drivers.net_data) --------------------------------------

def net_data_job(*, players: Players, seed: int, hands: int, k: int, random_scores: bool) -> Job:
    """``hands`` hands played by ``players``, each decision after the auction recorded with the search's values over
    the worlds of ``k`` (an ``expert`` parameter: K and the parts left out); ``random_scores`` starts each hand from
    scores drawn below the target instead of 0-0. ``players``' bidder arrays must hold the equity tables (the values
    are in P(win the game)). The driver returns rows, not counts: :mod:`smear_sim.analysis.net_data` runs it."""
    players = _players(players)
    if len(players[2]) == 0 or players[2][0][BM_LOADED] != 1:
        raise BadValue("players' bidder arrays", "must hold the equity tables: the values are P(win the game)")
    rest = (_whole("k", k, 1), _flag("random_scores", random_scores))
    return _playing("net_data", players, seed, hands, "hands", rest)
