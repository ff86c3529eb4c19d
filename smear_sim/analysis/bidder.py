"""The old home of the equity bidder's tables builder, kept so that ``smear_sim.analysis.bidder`` still imports;
new code imports :mod:`smear_sim.analysis.bidder_tables` (the builder) or :mod:`smear_sim.analysis.models` (the
lookup)."""

from .bidder_tables import (
    FIRST_USE,
    SHIPPED,
    bidder_tables,
    build_bidder_tables,
    decisions,
    player_model,
    ready_tables,
    tables_ready,
)

__all__ = [
    "FIRST_USE",
    "SHIPPED",
    "bidder_tables",
    "build_bidder_tables",
    "decisions",
    "player_model",
    "ready_tables",
    "tables_ready",
]
