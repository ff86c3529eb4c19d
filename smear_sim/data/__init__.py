"""Data shipped with the package: the equity bidder's tables for the default rules (smear_sim.core.bidder)."""
