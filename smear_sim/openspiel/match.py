"""Duplicate matches between bots at the OpenSpiel game: our players and OpenSpiel's IS-MCTS.

The kernels' duplicate table (``smear-sim match``) plays whole hands inside compiled code and cannot seat a Python
bot, so OpenSpiel's bots meet ours here, in the same duplicate format: each deal (or each game's deal sequence) is
played twice, A holding team 0's seats (0 and 2) and then team 1's, so the luck of the deal cancels. The deals come
from the seed: deal ``d`` draws its chance outcomes from a generator seeded by ``(seed, d)``, so both plays of a deal
see the same cards. ``smear-sim match`` runs it when an OpenSpiel bot is seated (``openspiel:ismcts[:N]``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pyspiel

from ..core.errors import SmearError
from ..engine.job import check_count
from .bots import make_bot
from .game import GAME_SHORT_NAME, HAND_SHORT_NAME

__all__ = ["MAX_COUNT", "MatchResult", "openspiel_match"]

MAX_COUNT = 1_000_000  # deals, or game pairs: a decision of a Python bot takes a tenth of a second, not microseconds


@dataclass
class MatchResult:
    a: str
    b: str
    deals: int = 0
    games: int = 0
    score_margin: list[float] = field(default_factory=list)  # per deal: A's hand score minus B's, both plays averaged
    points_margin: list[float] = field(default_factory=list)
    game_wins: list[float] = field(default_factory=list)  # per game pair: A's share of the two games won
    hands_in_games: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: {"a": 0.0, "b": 0.0})
    decisions: dict[str, int] = field(default_factory=lambda: {"a": 0, "b": 0})

    def to_json(self) -> dict:
        def est(xs: list[float]) -> dict | None:
            if not xs:
                return None
            n = len(xs)
            mean = float(np.mean(xs))
            se = float(np.std(xs, ddof=1) / math.sqrt(n)) if n > 1 else None
            return {"mean": mean, "mean_se": se}

        return {
            "a": self.a, "b": self.b, "deals": self.deals, "score_margin": est(self.score_margin),
            "points_margin": est(self.points_margin), "games": self.games, "win_rate": est(self.game_wins),
            "hands_in_games": self.hands_in_games,
            "seconds_per_decision": {side: (self.seconds[side] / self.decisions[side] if self.decisions[side] else None)
                                     for side in ("a", "b")},
            "decisions": dict(self.decisions),
        }


def _play(game, bots, sides, chance_rng, result: MatchResult):
    """One play of a deal (or a game): ``bots[side]``, ``sides[seat]`` the side ('a' or 'b') of each seat."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(chance_rng.integers(len(outcomes)))][0])
            continue
        seat = state.current_player()
        side = sides[seat]
        start = time.perf_counter()
        action = bots[side].step(state)
        result.seconds[side] += time.perf_counter() - start
        result.decisions[side] += 1
        state.apply_action(action)
    return state


def openspiel_match(a: str, b: str, *, deals: int = 0, games: int = 0, seed: int = 1, rules: dict | None = None,
                    progress=None) -> MatchResult:
    """Bot ``a`` against bot ``b`` (names for :func:`smear_sim.openspiel.bots.make_bot`) on ``deals`` duplicate deals
    and ``games`` duplicate game pairs (module docstring), each at most :data:`MAX_COUNT`."""
    check_count("deals", deals, minimum=0, maximum=MAX_COUNT)
    check_count("games", games, minimum=0, maximum=MAX_COUNT)
    if deals + games == 0:
        raise SmearError("nothing to play: give deals or game pairs")
    params = dict(rules or {})
    result = MatchResult(a, b)
    hand_game = pyspiel.load_game(HAND_SHORT_NAME, params)
    whole_game = pyspiel.load_game(GAME_SHORT_NAME, params)
    for form, count in ((hand_game, deals), (whole_game, games)):
        if not count:
            continue
        bots = {"a": make_bot(form, a, seed), "b": make_bot(form, b, seed + 1)}
        for d in range(count):
            values = []
            points = []
            for a_team in (0, 1):
                sides = ["a" if seat % 2 == a_team else "b" for seat in range(4)]
                rng = np.random.default_rng([seed, d, form is whole_game])
                state = _play(form, bots, sides, rng, result)
                values.append(state.returns()[a_team])
                if form is hand_game:
                    pts = state.results[-1].points
                    points.append(pts[a_team] - pts[1 - a_team])
                else:
                    result.hands_in_games += len(state.results)
            if form is hand_game:
                result.deals += 1
                result.score_margin.append(float(np.mean(values)))
                result.points_margin.append(float(np.mean(points)))
            else:
                result.games += 1
                result.game_wins.append(float(np.mean([(v + 1) / 2 for v in values])))
            if progress:
                progress(result)
    return result
