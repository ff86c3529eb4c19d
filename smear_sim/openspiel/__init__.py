"""Smear in OpenSpiel: the game (:mod:`.game`, registered as ``smear_sim`` and ``smear_sim_game`` on import) and our
players as ``pyspiel.Bot``\\ s (:mod:`.bots`). Needs the ``[openspiel]`` extra; nothing else in the package imports
this group. docs/openspiel.md is the guide."""

from .game import GAME_SHORT_NAME, HAND_SHORT_NAME, SmearGame, SmearState, load

__all__ = ["GAME_SHORT_NAME", "HAND_SHORT_NAME", "SmearGame", "SmearState", "load"]
