"""Whole games in the reference engine: the deal passing clockwise, the scores carried, the end of the game.

A game is a sequence of hands (docs/rules.md, "Game"). Scores start at 0-0 with seat 3 dealing unless the game
starts elsewhere; each hand, thrown-in hands included, is dealt by the seat after the previous dealer
(misdeals are redealt by the same dealer and never count as a hand), from the scores the previous hand
left. :func:`smear_sim.reference.hand.score_hand` runs the checks that end a game after each hand, in the
rules' order: a moon result, then the bidding team going out first, then the other team.

:class:`GameState` follows a game in the three forms of the reference engine: :meth:`GameState.verify_deal`
raises :class:`IllegalAction` with the reason a hand cannot come next, :meth:`GameState.can_deal` answers
with a bool, and :meth:`GameState.after` returns the state the hand leaves.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.errors import IllegalAction
from ..core.rules import Rules
from .hand import HandResult

__all__ = ["FIRST_DEALER", "GameResult", "GameState", "next_dealer"]

FIRST_DEALER = 3  # so seat 0 bids first


def next_dealer(dealer: int) -> int:
    """The deal passes clockwise, to the seat after the dealer."""
    return (dealer + 1) % 4


@dataclass(frozen=True)
class GameState:
    """Where a game stands before its next hand: the scores, the seat to deal and, once over, the winner."""

    scores: tuple[int, int] = (0, 0)
    dealer: int = FIRST_DEALER
    winner: int | None = None
    hands_played: int = 0

    @classmethod
    def start(cls, rules: Rules, scores: tuple[int, int] = (0, 0), dealer: int = FIRST_DEALER) -> GameState:
        """A game about to start from ``scores`` with ``dealer`` dealing; both scores below the target."""
        if not 0 <= dealer <= 3:
            raise IllegalAction(f"the dealer is a seat 0-3, got {dealer}")
        if max(scores) >= rules.target:
            raise IllegalAction(f"scores {list(scores)}: a team that reached the target {rules.target} has already "
                                "won, so a game starts with both scores below it")
        return cls(tuple(scores), dealer)

    def verify_dealer(self, dealer: int) -> None:
        """Raise :class:`IllegalAction` unless ``dealer`` is the seat that deals next."""
        if dealer != self.dealer:
            why = "the deal passes clockwise" if self.hands_played else "the game starts with that dealer"
            raise IllegalAction(f"dealer is seat {dealer}, but seat {self.dealer} deals this hand ({why})")

    def verify_deal(self, dealer: int, scores_before: tuple[int, int]) -> None:
        """Raise :class:`IllegalAction` unless a hand dealt by ``dealer`` from ``scores_before`` comes next."""
        if self.winner is not None:
            raise IllegalAction(f"the game is over: team {self.winner} won on hand {self.hands_played}, so no "
                                "hand may follow")
        self.verify_dealer(dealer)
        if tuple(scores_before) != self.scores:
            why = "the scores the previous hand left" if self.hands_played else "the game's start scores"
            raise IllegalAction(f"scores_before is {list(scores_before)}, but {why} are {list(self.scores)}")

    def can_deal(self, dealer: int, scores_before: tuple[int, int]) -> bool:
        try:
            self.verify_deal(dealer, scores_before)
        except IllegalAction:
            return False
        return True

    def after(self, result: HandResult) -> GameState:
        """The state after a hand dealt by this state's dealer (thrown-in hands pass the deal too)."""
        return GameState(tuple(result.scores_after), next_dealer(self.dealer), result.winner, self.hands_played + 1)


@dataclass(frozen=True)
class GameResult:
    """The outcome of a game, or of a game in progress (``winner`` None), in the shape of ``smear-sim score``."""

    start: GameState
    deals: tuple[HandResult, ...]
    end: GameState = field(repr=False)

    @property
    def scores_after(self) -> tuple[int, int]:
        return self.end.scores

    @property
    def winner(self) -> int | None:
        return self.end.winner

    @property
    def hands_played(self) -> int:
        """Hands dealt and recorded, thrown-in hands included (misdeals are never recorded)."""
        return len(self.deals)

    def to_json(self) -> dict:
        return {
            "deals": [deal.to_json() for deal in self.deals],
            "scores_after": list(self.scores_after),
            "winner": self.winner,
            "hands_played": self.hands_played,
        }
