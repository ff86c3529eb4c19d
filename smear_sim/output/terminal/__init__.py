"""Rich tables for people: the human face of each command's result, one module per domain.

:mod:`.console` holds the plumbing (the console, fitted tables, the progress bar); :mod:`.records`, :mod:`.runs`,
:mod:`.hands`, :mod:`.decisions`, :mod:`.tables` and :mod:`.review` the renderers. The names are gathered here, so
``smear_sim.output.terminal`` reads as one module.
"""

from .console import console, progress_bar, status_line
from .decisions import print_hint, print_hint_comparison, print_net_hint
from .hands import PLACE_WORDS, call_word, print_auction, print_count, print_hand, print_hand_moon
from .records import print_game_score, print_presets, print_rules, print_score, print_solve
from .review import print_review
from .runs import (
    print_bench,
    print_game_match,
    print_game_simulation,
    print_match,
    print_openspiel_match,
    print_simulation,
    print_tournament,
)
from .tables import print_bid_table, print_equity, print_moon_table, print_position_table

__all__ = [
    "PLACE_WORDS",
    "call_word",
    "console",
    "print_auction",
    "print_bench",
    "print_bid_table",
    "print_count",
    "print_equity",
    "print_game_match",
    "print_game_score",
    "print_game_simulation",
    "print_hand",
    "print_hand_moon",
    "print_hint",
    "print_hint_comparison",
    "print_match",
    "print_moon_table",
    "print_net_hint",
    "print_openspiel_match",
    "print_position_table",
    "print_presets",
    "print_review",
    "print_rules",
    "print_score",
    "print_simulation",
    "print_solve",
    "print_tournament",
    "progress_bar",
    "status_line",
]
