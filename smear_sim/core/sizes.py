"""The sizes of a run that a user leaves out, written once: the analyses, the command line and the server read
them here."""

from __future__ import annotations

__all__ = ["AUCTION_MAX_DEALS", "HAND_MAX_SAMPLES", "HAND_SAMPLES"]

HAND_SAMPLES = 100_000  # deals a hand (or each call of an auction) is played on, without --samples or --precision
HAND_MAX_SAMPLES = 10_000_000  # the most deals --precision may take, without --samples
AUCTION_MAX_DEALS = 20_000_000  # deals an auction analysis may try, looking for those that fit the calls before
