"""Duplicate matches at the OpenSpiel game: OpenSpiel's IS-MCTS against our players (smear_sim.openspiel.match).

`smear-sim match` plays inside the kernels and cannot seat a Python bot; this is its equivalent for OpenSpiel's bots.
A bot is a player's name (heuristic, equity, expert:16, net, ...) or openspiel:ismcts[:N] (N simulations a decision,
100 unless given). Needs the [openspiel] extra.

Examples:

  python tools/openspiel_match.py openspiel:ismcts:100 heuristic --deals 200 --games 10 --seed 1 --json
  python tools/openspiel_match.py openspiel:ismcts heuristic --deals 20 --rule round_points=true
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 2)[2],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", help="bot A: a player's name or openspiel:ismcts[:N]")
    parser.add_argument("b", help="bot B")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals (each played twice)")
    parser.add_argument("--games", type=int, default=0, help="duplicate game pairs from 0-0")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE", help="a rule option")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    try:
        from smear_sim.core.errors import SmearError
        from smear_sim.core.rules import Rules
    except ImportError as exc:  # pragma: no cover
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        rules = Rules().with_overrides(args.rule)
        if args.deals < 0 or args.games < 0 or args.deals + args.games == 0:
            raise SmearError("--deals and --games are counts, not negative, and at least one is above 0")
        from smear_sim.openspiel.bots import parse_bot

        parse_bot(args.a)
        parse_bot(args.b)
    except (SmearError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ImportError:
        print("error: the OpenSpiel game needs the [openspiel] extra: pip install 'smear-sim[openspiel]'",
              file=sys.stderr)
        return 2
    from smear_sim.openspiel.match import openspiel_match

    def progress(r):
        print(f"\r{r.deals} deals, {r.games} game pairs", end="", file=sys.stderr, flush=True)

    result = openspiel_match(args.a, args.b, deals=args.deals, games=args.games, seed=args.seed,
                             rules=rules.changed(), progress=progress)
    print(file=sys.stderr)
    out = result.to_json()
    out["seed"] = args.seed
    out["rules"] = rules.changed()
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for key, value in out.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
