"""The parallel drivers, as a package: this step moves the one module here unchanged (drivers/auction.py, the
largest family); the next splits the others out of it."""

from .auction import (  # noqa: F401
    analyze_hands,
    auction_deals,
    auction_hands,
    deal_only,
    duplicate_games,
    duplicate_hands,
    hand_outcomes,
    outcome_code,
    position_outcomes,
    simulate_games,
    simulate_hands,
    trace_games,
    trace_hands,
)
