"""Smear as an OpenSpiel Python game: ``pyspiel.load_game("smear_sim")`` (one hand) and ``"smear_sim_game"``.

Importing this module registers both games with ``pyspiel.register_game``; it needs the ``[openspiel]`` extra
(``pip install 'smear-sim[openspiel]'``), and nothing else in the package imports it.

The state transitions are the reference engine's (:mod:`smear_sim.reference.hand`, the rules of docs/rules.md):

- **The deal** is 40 chance nodes, one card each, uniform over the cards left: 9 to each seat from the seat left
  of the dealer around, then the kitty's 4 (the other 14 are undealt). A uniform deal card by card is the rules'
  uniform deal.
- **The misdeal** (rule ``misdeal``): as in the simulations, a seat whose 9 cards are all ranks 3-9 always calls
  it, so a deal where one can is dealt again by the same dealer (40 more chance nodes). Every seat sees that a
  misdeal was called, and by which seat; misdeals are not written in the hand record (docs/formats.md).
- **The auction** is four player nodes, the calls ``pass``, a number and ``moon``; then the bidder, who has taken
  the kitty into hand, names trump (a player node).
- **The discards** are player nodes of one card each: the bidder discards 7 of its 13, then each other seat
  clockwise discards 3 of its 9. A card may be discarded when some legal six (docs/rules.md, "Discard") can still
  be kept without it, so every sequence ends in a legal keep. Nobody sees another seat's discards, only how many
  it has made.
- **Play** is 24 player nodes, one card each.

Actions: 0-53 are cards (dealt, discarded or played), 54-57 trump suits S H D C, 58 pass, 58 + n a bid of n
(1-7), 66 moon (the kernels' call codes shifted by 58, :func:`smear_sim.core.calls.parse_call`).

Returns: in ``smear_sim`` (one hand, from ``scores_before`` 0-0 unless the parameters say otherwise) each seat
gets its team's hand score minus the other team's, as the project's duplicate margins count it; a moon hand is
worth +target to the team that wins the game by it and -target to the other, as ``smear-sim solve`` values it.
In ``smear_sim_game`` (a whole game to the target, seat 3 dealing first) the winning team gets +1 and the other
-1.

Every rule option of docs/rules.md is a game parameter under its own name (``round_points=True``, ``target=11``,
``forced_bid="dealer"``); enums are given as their words.

``information_state_tensor`` and ``observation_tensor`` are the learned player's view tensor
(:func:`smear_sim.reference.view_tensor.view_tensor`, layout :mod:`smear_sim.core.view_layout`), followed by one
block of 54 entries: the cards this seat has discarded so far while it is still discarding (the view tensor knows a
keep only once it is whole). ``information_state_string`` is readable: everything the seat has seen, in order,
over every hand of the game; ``observation_string`` is the current hand only.

:meth:`SmearState.resample_from_infostate` draws the hidden cards with the project's sampler of worlds
(:mod:`smear_sim.kernels.worlds`): :func:`~smear_sim.kernels.worlds.deal_world` before play and
:func:`~smear_sim.kernels.worlds.play_world` during it, the other seats' calls modelled by ``heuristic`` (rejection
sampling; see that module), then replays the same actions over the world drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..core.calls import call_name, parse_call
from ..core.cards import SUIT_NAMES, card_name
from ..core.layout import MOON as MOON_CODE
from ..core.rules import OPTION_NAMES, Rules
from ..core.view_layout import VT_SIZE
from ..reference import hand as ref
from ..reference.game import FIRST_DEALER
from ..reference.hand import MOON, Trick
from ..reference.record import HandRecord
from ..reference.view import SeatView
from ..reference.view_tensor import view_tensor
from .phases import AUCTION, DEAL, DISCARD, DONE, PLAY, TRUMP, discardable

__all__ = [
    "ACTION_CALL",
    "ACTION_TRUMP",
    "GAME_NAME",
    "GAME_SHORT_NAME",
    "HAND_SHORT_NAME",
    "NUM_ACTIONS",
    "TENSOR_SIZE",
    "SmearGame",
    "SmearState",
    "action_of",
    "action_to_record",
    "load",
    "rules_of",
]

HAND_SHORT_NAME = "smear_sim"
GAME_SHORT_NAME = "smear_sim_game"
GAME_NAME = HAND_SHORT_NAME  # the name most users load
ACTION_TRUMP = 54  # + suit index (SUIT_NAMES)
ACTION_CALL = 58  # + the kernels' call code: PASS 0, n for a bid of n, MOON
NUM_ACTIONS = ACTION_CALL + MOON_CODE + 1
TENSOR_SIZE = VT_SIZE + 54
MAX_HANDS = 200  # a bound for max_game_length in the game form; random play ends a game in tens of hands

_N_DEALT = 40
_RULE_DEFAULTS = Rules().as_dict()


def rules_of(params: dict[str, Any]) -> Rules:
    """The rules a game's parameters name (every option of docs/rules.md, words for enums)."""
    return Rules.from_mapping({k: params[k] for k in OPTION_NAMES if k in params}, source="game parameters")


def action_of(decision: str, value: Any) -> int:
    """The action of a call (``"pass"``, a number, ``"moon"``), a trump (a suit letter) or a card (a name or
    code)."""
    if decision == "call":
        return ACTION_CALL + parse_call(value)
    if decision == "trump":
        return ACTION_TRUMP + SUIT_NAMES.index(value)
    from ..core.cards import parse_card

    return value if isinstance(value, int) else parse_card(value)


def action_to_record(action: int) -> Any:
    """An action as a record writes it: a card name, a suit letter or a call."""
    if action < ACTION_TRUMP:
        return card_name(action)
    if action < ACTION_CALL:
        return SUIT_NAMES[action - ACTION_TRUMP]
    return call_name(action - ACTION_CALL)


def _game_type(short_name: str, long_name: str, whole_game: bool) -> pyspiel.GameType:
    params = dict(_RULE_DEFAULTS)
    if not whole_game:
        params.update(score0=0, score1=0, dealer=FIRST_DEALER)
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_HAND_TYPE = _game_type(HAND_SHORT_NAME, "Smear (Minnesota), one hand, smear-sim rules", False)
_GAME_TYPE = _game_type(GAME_SHORT_NAME, "Smear (Minnesota), a whole game to the target, smear-sim rules", True)


def _hand_length() -> int:
    # Deals (a misdeal adds one deal; we bound by a handful), 4 calls, trump, 16 discards, 24 plays.
    return 4 + 1 + 16 + 24


class SmearGame(pyspiel.Game):
    """Smear in OpenSpiel (module docstring): one hand, or with ``whole_game`` a game to the target."""

    def __init__(self, params: dict[str, Any] | None = None, whole_game: bool = False):
        game_type = _GAME_TYPE if whole_game else _HAND_TYPE
        params = dict(params or {})
        self.rules = rules_of({**_RULE_DEFAULTS, **params})
        self.whole_game = whole_game
        if whole_game:
            self.start_scores, self.start_dealer = (0, 0), FIRST_DEALER
        else:
            self.start_scores = (int(params.get("score0", 0)), int(params.get("score1", 0)))
            self.start_dealer = int(params.get("dealer", FIRST_DEALER))
        target = self.rules.target
        hands = MAX_HANDS if whole_game else 1
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=54,
            num_players=4,
            min_utility=-1.0 if whole_game else -float(target + self.rules.max_points),
            max_utility=1.0 if whole_game else float(target + self.rules.max_points),
            utility_sum=0.0,
            # A misdeal adds a deal, so the bound allows a few per hand (random deals misdeal about 1 in 60).
            max_game_length=hands * (_hand_length() + 8 * _N_DEALT),
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> SmearState:
        return SmearState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SmearObserver(iig_obs_type)


class SmearGameWhole(SmearGame):
    def __init__(self, params: dict[str, Any] | None = None):
        super().__init__(params, whole_game=True)


class SmearState(pyspiel.State):
    """A hand (or a game) in progress. Fields are plain lists; :meth:`record` writes the hand as a hand record."""

    def __init__(self, game: SmearGame):
        super().__init__(game)
        self.rules: Rules = game.rules
        self.whole_game = game.whole_game
        self.scores = tuple(game.start_scores)
        self.dealer = game.start_dealer
        self.winner: int | None = None
        self.records: list[HandRecord] = []  # the hands finished, for the game form
        self.results: list[ref.HandResult] = []
        self.past_views = ["", "", "", ""]  # each seat's information string of the hands finished
        self.n_actions = 0
        self._new_hand()

    # -- the hand's fields ---------------------------------------------------------------------------------

    def _new_hand(self) -> None:
        self.phase = DEAL
        self.deck = list(range(54))  # the cards not yet dealt
        self.dealt: list[int] = []
        self.misdeals: list[tuple[int, tuple[tuple[int, ...], ...]]] = []  # (seat that called, the four hands)
        self.hands: list[list[int]] = [[], [], [], []]  # dealt 9, sorted once the deal is whole
        self.kitty: list[int] = []
        self.bids: list[Any] = []
        self.bidder: int | None = None
        self.bid: Any = None
        self.trump: int | None = None
        self.held: list[list[int]] = [[], [], [], []]  # the cards in hand now
        self.discards: list[list[int]] = [[], [], [], []]
        self.discarder = -1
        self.plays: list[int] = []
        self.trick: list[int] = []
        self.tricks: list[Trick] = []
        self.leader = -1
        self.result: ref.HandResult | None = None
        self._legal: list[int] | None = None
        self.deal_start = self.n_actions  # where in the history the present deal begins

    def current_player(self) -> int:
        if self.phase == DONE:
            return pyspiel.PlayerId.TERMINAL
        if self.phase == DEAL:
            return pyspiel.PlayerId.CHANCE
        if self.phase == AUCTION:
            return (self.dealer + 1 + len(self.bids)) % 4
        if self.phase == TRUMP:
            return self.bidder
        if self.phase == DISCARD:
            return self.discarder
        return (self.leader + len(self.trick)) % 4

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def chance_outcomes(self):
        p = 1.0 / len(self.deck)
        return [(c, p) for c in self.deck]

    def _legal_actions(self, player: int) -> list[int]:
        if self._legal is not None:
            return self._legal
        if self.phase == AUCTION:
            legal = [ACTION_CALL + parse_call(b) for b in ref.legal_bids(self.rules, self.bids)]
            legal.sort()
        elif self.phase == TRUMP:
            legal = [ACTION_TRUMP + s for s in range(4)]
        elif self.phase == DISCARD:
            legal = discardable(self.held[player], self.trump)
        elif self.phase == PLAY:
            legal = ref.legal_plays(self.rules, self.held[player], self.trick, self.trump)
        else:
            legal = []
        self._legal = legal
        return legal

    def _apply_action(self, action: int) -> None:
        self._legal = None
        self.n_actions += 1
        phase = self.phase
        if phase == DEAL:
            self._deal(action)
        elif phase == AUCTION:
            self.bids.append(call_name(action - ACTION_CALL))
            if len(self.bids) == 4:
                won = ref.auction_winner(self.bids)
                if won is None:
                    self._end_hand(ref.thrown_in_result(self.rules, self.scores))
                else:
                    self.bidder = ref.seat_of_bid(self.dealer, won[0])
                    self.bid = won[1]
                    self.held[self.bidder] = sorted(self.held[self.bidder] + self.kitty)
                    self.phase = TRUMP
        elif phase == TRUMP:
            self.trump = action - ACTION_TRUMP
            self.phase = DISCARD
            self.discarder = self.bidder
        elif phase == DISCARD:
            seat = self.discarder
            self.held[seat].remove(action)
            self.discards[seat].append(action)
            if len(self.held[seat]) == 6:
                self.discarder = (seat + 1) % 4
                if self.discarder == self.bidder:
                    self.phase = PLAY
                    self.leader = self.bidder
        else:
            seat = (self.leader + len(self.trick)) % 4
            self.held[seat].remove(action)
            self.trick.append(action)
            self.plays.append(action)
            if len(self.trick) == 4:
                winner = (self.leader + ref.trick_winner(self.trick, self.trump)) % 4
                self.tricks.append(Trick(self.leader, tuple(self.trick), winner))
                self.leader = winner
                self.trick = []
                if len(self.tricks) == 6:
                    self._end_hand(ref.score_hand(self.rules, self.bidder, self.bid, self.trump, self.tricks,
                                                  self.scores))

    def _deal(self, card: int) -> None:
        self.deck.remove(card)
        self.dealt.append(card)
        n = len(self.dealt)
        if n <= 36:
            self.hands[(self.dealer + n) % 4].append(card)  # the first card to dealer+1
            return
        self.kitty.append(card)
        if n < _N_DEALT:
            return
        for h in self.hands:
            h.sort()
        self.kitty.sort()
        if self.rules.misdeal:
            for k in range(4):
                seat = (self.dealer + 1 + k) % 4
                if ref.is_misdeal_hand(self.hands[seat]):
                    self.misdeals.append((seat, tuple(tuple(h) for h in self.hands)))
                    self.deck = list(range(54))
                    self.dealt = []
                    self.hands = [[], [], [], []]
                    self.kitty = []
                    self.deal_start = self.n_actions
                    return
        self.held = [list(h) for h in self.hands]
        self.phase = AUCTION

    def _end_hand(self, result: ref.HandResult) -> None:
        self.result = result
        self.records.append(self.record())
        self.results.append(result)
        if not self.whole_game:
            self.phase = DONE
            return
        for seat in range(4):
            self.past_views[seat] += self._view_string(seat) + "\n"
        self.scores = tuple(result.scores_after)
        self.winner = result.winner
        if self.winner is not None or len(self.results) >= MAX_HANDS:
            self.phase = DONE
            return
        self.dealer = (self.dealer + 1) % 4
        self._new_hand()

    def returns(self) -> list[float]:
        if self.phase != DONE:
            return [0.0] * 4
        if self.whole_game:
            if self.winner is None:
                return [0.0] * 4
            return [1.0 if seat % 2 == self.winner else -1.0 for seat in range(4)]
        result = self.result
        assert result is not None
        if result.bid == MOON:
            team = ref.team_of(result.bidder)
            value = float(self.rules.target) if result.made else -float(self.rules.target)
            margin = [value, -value] if team == 0 else [-value, value]
        else:
            d = result.score_delta
            margin = [float(d[0] - d[1]), float(d[1] - d[0])]
        return [margin[seat % 2] for seat in range(4)]

    # -- records -------------------------------------------------------------------------------------------

    def record(self) -> HandRecord:
        """The hand in progress (or finished) as a hand record (docs/formats.md); partial before its end."""
        trump = self.trump
        discards = None
        plays = None
        if trump is not None:
            discards = tuple(tuple(sorted(d)) for d in self.discards)
            plays = tuple(self.plays)
        return HandRecord(self.rules, self.dealer, tuple(self.scores), tuple(tuple(h) for h in self.hands),
                          tuple(self.kitty), tuple(self.bids), trump, discards, plays)

    def game_record(self) -> dict[str, Any]:
        """The game so far as a game record's JSON (docs/formats.md): the hands finished."""
        game = self.get_game()
        return {"rules": self.rules.changed(), "start": {"scores": list(game.start_scores),
                                                         "dealer": game.start_dealer},
                "deals": [r.to_json() for r in self.records]}

    def seat_view(self, seat: int) -> SeatView:
        """``seat``'s view of the hand now (:class:`~smear_sim.reference.view.SeatView`), at any point of it."""
        over = len(self.bids) == 4
        own_discards = None
        if self.phase in (PLAY, DONE) and self.trump is not None:
            own_discards = tuple(sorted(self.discards[seat]))
        return SeatView(self.rules, self.dealer, tuple(self.scores), seat, tuple(self.hands[seat]),
                        tuple(self.kitty) if over and seat == self.bidder else None, tuple(self.bids), self.trump,
                        own_discards, tuple(self.plays) if own_discards is not None else ())

    # -- what a seat sees ----------------------------------------------------------------------------------

    def _view_string(self, seat: int) -> str:
        lines = [f"seat {seat} dealer {self.dealer} scores {self.scores[0]},{self.scores[1]}"]
        for caller, hands in self.misdeals:
            lines.append(f"dealt {_cards(hands[seat])}; misdeal by seat {caller}")
        if self.phase == DEAL:
            lines.append(f"dealing {_cards(self.hands[seat])}")
            return "\n".join(lines)
        lines.append(f"hand {_cards(self.hands[seat])}")
        if self.bids:
            lines.append("calls " + " ".join(str(b) for b in self.bids))
        if self.bidder == seat:
            lines.append(f"kitty {_cards(self.kitty)}")
        if self.trump is not None:
            lines.append(f"trump {SUIT_NAMES[self.trump]}")
            lines.append("discarded " + _cards(self.discards[seat]) + " counts "
                         + ",".join(str(len(d)) for d in self.discards))
        if self.plays:
            lines.append("plays " + _cards(self.plays))
        if self.result is not None:
            lines.append(f"scores after {self.result.scores_after[0]},{self.result.scores_after[1]}")
        return "\n".join(lines)

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        if self.phase == DONE and self.whole_game:
            return self.past_views[player] + f"over: winner {self.winner}"
        return self.past_views[player] + self._view_string(player)

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        if self.phase == DONE and self.whole_game:
            return f"over: winner {self.winner}"
        return self._view_string(player)

    def tensor(self, player: int) -> np.ndarray:
        """The view tensor of ``player`` now, and the block of its discards so far (module docstring)."""
        out = np.zeros(TENSOR_SIZE, dtype=np.float32)
        if self.phase == DEAL or (self.phase == DONE and self.whole_game):
            return out
        out[:VT_SIZE] = view_tensor(self.seat_view(player))
        if self.phase == DISCARD:
            for c in self.discards[player]:
                out[VT_SIZE + c] = 1
        return out

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self.tensor(self.current_player() if player is None else player).tolist()

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.information_state_tensor(player)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_name(action)}"
        return str(action_to_record(action))

    def __str__(self) -> str:
        lines = []
        if self.whole_game:
            lines.append(f"hands played {len(self.results)} scores {self.scores[0]},{self.scores[1]}")
        lines.append(f"dealer {self.dealer} phase {('deal', 'auction', 'trump', 'discard', 'play', 'done')[self.phase]}")
        for seat in range(4):
            lines.append(f"seat {seat}: {_cards(self.held[seat] if self.phase != DEAL else self.hands[seat])}")
        lines.append(f"kitty {_cards(self.kitty)} calls {' '.join(str(b) for b in self.bids)}")
        if self.trump is not None:
            lines.append(f"trump {SUIT_NAMES[self.trump]} plays {_cards(self.plays)}")
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> SmearState:
        """A state with ``player_id``'s information state, the hidden cards drawn by the project's sampler of
        worlds (module docstring). The random stream comes from ``probability_sampler`` (a pyspiel sampler or a
        callable giving a float in [0, 1)) when given."""
        from .resample import resample

        return resample(self, player_id, probability_sampler)

    def replay_with(self, observer: int, hands: list[list[int]], kitty: list[int],
                    discards: list[list[int]]) -> SmearState:
        """This state's history with the present deal's cards replaced: ``hands`` (the four dealt 9s) and ``kitty``,
        and the discards so far of every seat but ``observer`` taken from ``discards`` (each seat's, in order). The earlier hands and
        misdeals are replayed as they were."""
        history = self.history()
        state = self.get_game().new_initial_state()
        for action in history[: self.deal_start]:
            state.apply_action(action)
        for n in range(1, 37):
            state.apply_action(hands[(self.dealer + n) % 4][(n - 1) // 4])
        for card in kitty:
            state.apply_action(card)
        if state.phase != AUCTION:
            raise ValueError("a resampled deal must not allow a misdeal")
        for action in history[self.deal_start + _N_DEALT:]:
            if state.phase == DISCARD and state.discarder != observer:
                seat = state.discarder
                action = discards[seat][len(state.discards[seat])]
            state.apply_action(action)
        return state


def _cards(cards) -> str:
    return " ".join(card_name(c) for c in cards) or "-"


class SmearObserver:
    """The observer pyspiel's Python helpers ask for: the view tensor (module docstring) and the strings."""

    def __init__(self, iig_obs_type=None):
        self.perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(TENSOR_SIZE, dtype=np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: SmearState, player: int) -> None:
        self.tensor[:] = state.tensor(player)

    def string_from(self, state: SmearState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


def load(whole_game: bool = False, **rules: Any) -> SmearGame:
    """The game with ``rules`` (rule options as keywords): ``pyspiel.load_game`` by name, for convenience."""
    name = GAME_SHORT_NAME if whole_game else HAND_SHORT_NAME
    params = {k: (v.value if hasattr(v, "value") else v) for k, v in rules.items()}
    return pyspiel.load_game(name, params)


pyspiel.register_game(_HAND_TYPE, SmearGame)
pyspiel.register_game(_GAME_TYPE, SmearGameWhole)
