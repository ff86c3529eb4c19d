"""Our players as ``pyspiel.Bot``\\ s, and OpenSpiel's IS-MCTS set up for Smear.

:class:`PlayerBot` seats any player of the registry (:data:`smear_sim.core.players.PLAYERS`: ``heuristic``,
``equity``, ``expert:16``, ``net``, ...) at an OpenSpiel game of Smear. It decides from the seat's information state
alone: the seat's view (:meth:`smear_sim.openspiel.game.SmearState.seat_view`) goes to
:func:`smear_sim.analysis.bots.view_action`, the very kernels' functions the simulator's hands and the page's bots
call, so it takes the action our table takes on the same view. The sequential discards of the game are the player's
keep: each discard step takes the lowest card of the ones its keep leaves out. The random stream is keyed by the
bot's seed and the hand's number in the game (``random`` and the search players draw from it).

:func:`ismcts_bot` is OpenSpiel's ``ISMCTSBot`` (random roll-outs) with its worlds drawn by the project's sampler
(:func:`smear_sim.openspiel.resample.resample`), seeded. :func:`make_bot` makes either by name: a player's name, or
``openspiel:ismcts`` / ``openspiel:ismcts:N`` (N simulations a decision, 100 unless given).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..analysis.bots import view_action
from ..core.cards import SUIT_NAMES, parse_card
from ..core.errors import SmearError
from ..core.players import parse_policy, player
from .game import ACTION_CALL, ACTION_TRUMP, SmearState, action_of
from .phases import DISCARD
from .resample import resample

__all__ = ["ISMCTS_DEFAULT_SIMULATIONS", "ISMCTS_PREFIX", "PlayerBot", "ismcts_bot", "make_bot", "parse_bot"]

ISMCTS_PREFIX = "openspiel:ismcts"
ISMCTS_DEFAULT_SIMULATIONS = 100
_UCT_C = 2.0


class PlayerBot(pyspiel.Bot):
    """A player of the registry as a bot (module docstring)."""

    def __init__(self, player: str, seed: int = 1):
        pyspiel.Bot.__init__(self)
        self.player = str(parse_policy(player))
        self.seed = seed

    def step(self, state: SmearState) -> int:
        seat = state.current_player()
        view = state.seat_view(seat)
        action = view_action(view, self.player, seed=self.seed, index=len(state.results))
        if state.phase == DISCARD:
            keep = {parse_card(c) for c in action}
            return min(c for c in state.held[seat] if c not in keep)
        if isinstance(action, str) and action in SUIT_NAMES:
            return ACTION_TRUMP + SUIT_NAMES.index(action)
        if state.phase < DISCARD and not isinstance(action, list) and action_is_call(action):
            return action_of("call", action)
        return parse_card(action)

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def action_is_call(action: Any) -> bool:
    return isinstance(action, int) or action in ("pass", "moon")


def ismcts_bot(game: pyspiel.Game, simulations: int = ISMCTS_DEFAULT_SIMULATIONS, seed: int = 1,
               uct_c: float = _UCT_C) -> ismcts.ISMCTSBot:
    """OpenSpiel's IS-MCTS with random roll-outs and ``simulations`` a decision, its worlds drawn by our sampler."""
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=uct_c, max_simulations=simulations,
                           random_state=random_state)
    worlds = np.random.default_rng(seed)
    bot.set_resampler(lambda state, player: resample(state, player, rng=worlds))
    return bot


def parse_bot(name: str) -> tuple[str, int | None]:
    """``(kind, simulations)``: ``("ismcts", N)`` for ``openspiel:ismcts[:N]``, or a player's canonical name and
    None; a one-line SmearError for anything else."""
    text = name.strip().lower()
    if text.startswith("openspiel:"):
        kind, _, n = text[len("openspiel:"):].partition(":")
        if kind != "ismcts":
            raise SmearError(f"unknown OpenSpiel bot {name!r}: the OpenSpiel bot is openspiel:ismcts[:N]")
        if not n:
            return "ismcts", ISMCTS_DEFAULT_SIMULATIONS
        if not (n.isascii() and n.isdigit()) or not 1 <= int(n) <= 100_000:
            raise SmearError(f"openspiel:ismcts:N needs N, the simulations a decision, from 1 to 100000; got {n!r}")
        return "ismcts", int(n)
    spec = parse_policy(text)
    if player(spec.name).sees_all:
        raise SmearError(f"{spec.name} sees every hand, and an OpenSpiel bot decides from its information state: "
                         "seat another player")
    return str(spec), None


def make_bot(game: pyspiel.Game, name: str, seed: int = 1) -> pyspiel.Bot:
    """A bot by name (module docstring)."""
    kind, simulations = parse_bot(name)
    if kind == "ismcts":
        assert simulations is not None
        return ismcts_bot(game, simulations, seed)
    return PlayerBot(kind, seed)


del ACTION_CALL  # the call actions are written through action_of
