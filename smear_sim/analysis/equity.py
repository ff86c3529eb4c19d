"""The old home of the match-equity table, kept so that ``smear_sim.analysis.equity`` still imports.

"Equity" named three things; the modules now say what they hold: :mod:`.scores` (parsing and checking scores),
:mod:`.hand_outcomes` (one hand's outcome distribution), :mod:`.game_chain` (the game as a Markov chain) and
:mod:`.match_equity` (the table). New code imports from those.
"""

from .hand_outcomes import DEFAULT_HANDS, HandOutcomes, decode_outcomes, hand_outcomes, outcome_points
from .match_equity import DEFAULT_FLOOR, TRUNCATION_TOLERANCE, BidWins, EquityTable, equity_table, match_equity
from .scores import DEALERS, check_scores, parse_score

__all__ = [
    "DEALERS",
    "DEFAULT_FLOOR",
    "DEFAULT_HANDS",
    "TRUNCATION_TOLERANCE",
    "BidWins",
    "EquityTable",
    "HandOutcomes",
    "check_scores",
    "decode_outcomes",
    "equity_table",
    "hand_outcomes",
    "match_equity",
    "outcome_points",
    "parse_score",
]
