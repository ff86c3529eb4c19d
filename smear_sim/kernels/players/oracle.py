"""``oracle``: sees every hand and plays each card by the exact double-dummy solve (:func:`smear_sim.kernels.players.
pimc.oracle`), an upper bound on card play rather than a fair seat; it calls, names trump and keeps as ``heuristic``.
It plays in the hand that keeps the calls (its decision is a searched one), so that the fast players' card loop never
holds its branch.
"""

from __future__ import annotations

from .pimc import oracle

__all__ = ["DECISIONS"]

# The decisions this player makes (core.players.PLAYERS), as the dispatch calls them (kernels.players.bids.dispatcher):
# each the function and the dispatch's arguments it takes, in order.
DECISIONS = {"search_play": (oracle, ("hs", "legal", "rules", "give"))}
