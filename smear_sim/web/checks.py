"""Checks of a value that several endpoints share, each a one-line SmearError worded as the command line words it."""

from __future__ import annotations

from ..core.errors import SmearError
from ..core.players import reads_net, reads_tables
from ..core.rules import Rules

__all__ = ["MAX_HINT_SAMPLES", "check_equity_tables", "check_hint_samples", "check_net"]

MAX_HINT_SAMPLES = 20_000  # worlds one hint may play out (each plays every legal action, double dummy)


def check_equity_tables(policy: str | None, rules: Rules) -> None:
    """Refuse a player that reads the equity tables (``equity``, ``expert``) where its tables for ``rules`` are not
    made: they are made on first use, in minutes, which is not for a request."""
    if policy is not None and reads_tables(policy):
        from ..analysis.session_tables import tables_ready

        if not tables_ready(rules):
            raise SmearError(f"the equity player's tables for {rules.summary()} are not made yet: make them once with "
                             "'smear-sim simulate --hands 1000 --policy equity' and these rules (a few minutes)")


def check_net(policy: str | None) -> None:
    """Refuse the learned player (``net``) where its net does not load (none shipped, or SMEAR_SIM_NET names a file
    that is not one): one line, before any work."""
    if policy is not None and reads_net(policy):
        from ..analysis.session_tables import loaded_net

        loaded_net()


def check_hint_samples(samples: int | None) -> None:
    """The worlds a hint may play out on this server: 1 to ``MAX_HINT_SAMPLES``."""
    if samples is not None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            # worded as the page's field, not as the command line's --samples
            raise SmearError(f"samples must be a whole number of worlds from 1 to {MAX_HINT_SAMPLES:,}, got {samples}")
        if samples > MAX_HINT_SAMPLES:
            raise SmearError(f"samples must be at most {MAX_HINT_SAMPLES:,} worlds on this server, got {samples:,}")
