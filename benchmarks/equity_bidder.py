"""The equity bidder against the heuristic in duplicate games, and the error of its score approximation.

For each rule set asked (default: the default rules, round_points=true, forced_bid=dealer) it prints, as JSON:

- ``match``: ``smear-sim match equity OPPONENT --games N`` for each opponent (default ``heuristic``, v2, and
  ``heuristic-v1``): the game-win rate of ``equity`` with its standard error (paired by deal sequence), the points
  and score margins per hand, and the seconds it took;
- ``iterations``: the self-consistency steps of the bidder's tables (decisions, and how many changed);
- ``equity_error``: the bidder's match-equity table is solved from hand outcomes measured at 0-0, where the
  bidder's own bidding depends on the score; at a few scores it is compared with the win rate of complete games
  played from there by ``equity`` at all four seats (``difference_se`` in standard errors of both);
- the machine's load average when it started and ended (the machine may be shared).

Tables missing for a rule set are made first (minutes, once; see smear_sim.analysis.bidder_tables) and cached.

    python benchmarks/equity_bidder.py
    python benchmarks/equity_bidder.py --games 20000 --rules default --opponents heuristic --check-games 0
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time

from smear_sim import duplicate_games, match_equity, simulate_games
from smear_sim.analysis.bidder_tables import bidder_tables
from smear_sim.core.rules import Rules

RULE_SETS = {"default": Rules(), "round_points": Rules(round_points=True), "forced_dealer": Rules(forced_bid="dealer")}
SCORES = ((0, 0), (10, 15), (15, 19), (18, 18), (19, 12))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="deal sequences (pairs of games) per rule set")
    parser.add_argument("--check-games", type=int, default=40_000, help="games per score for the equity check "
                        "(0: no check)")
    parser.add_argument("--opponents", nargs="*", default=["heuristic", "heuristic-v1"])
    parser.add_argument("--rules", nargs="*", default=list(RULE_SETS), choices=list(RULE_SETS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = {"load_before": os.getloadavg(), "results": {}}
    for name in args.rules:
        rules = RULE_SETS[name]
        tables = bidder_tables(rules, notify=lambda line: print(line, flush=True))
        result = {"match": {}, "iterations": tables.meta.get("iterations"), "converged": tables.meta.get("converged")}
        for opponent in args.opponents:
            started = time.perf_counter()
            match = duplicate_games("equity", opponent, games=args.games, seed=args.seed, rules=rules)
            result["match"][opponent] = match.to_json() | {"seconds": round(time.perf_counter() - started, 1)}
            print(json.dumps({name: {opponent: result["match"][opponent]["win_rate"]}}), flush=True)
        table = match_equity(seed=args.seed, rules=rules, policy="equity") if args.check_games else None
        error = []
        for us, them in SCORES if args.check_games else ():
            games = simulate_games(args.check_games, seed=args.seed + 1, rules=rules, policies="equity",
                                   start_scores=(us, them), dealer=3)
            played, solved = games.win_rate(0), table.win(us, them, "them")
            error.append({"score": [us, them], "games": round(played.value, 4), "games_se": round(played.se, 4),
                          "table": round(solved.value, 4), "table_se": round(solved.se, 4),
                          "difference_se": round((played.value - solved.value) / math.hypot(played.se, solved.se),
                                                 1)})
        result["equity_error"] = error
        out["results"][name] = result
    out["load_after"] = os.getloadavg()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
