"""What fewer worlds would cost the search players (run from the repo root).

    python benchmarks/worlds_needed.py [--k 16] [--holdout 48] [--cards 1500] [--deals 300] [--seed 1]

A faster search that samples fewer worlds, or stops once one choice leads clearly, changes what the players choose.
This measures what it would lose on decisions of real hands. Each decision is solved on K + H worlds; a rule
chooses from the first K or fewer, and its choice is valued by its mean over the H holdout worlds, which no rule
saw. Every row compares with the full search on the same decisions.

- cards: the card decisions of `pimc:K` (as `benchmarks/pimc.py` collects them: real hands, every decision with
  two or more legal cards). For choosing from K/2 and 3K/4 worlds, and for stopping once the leading card is ahead
  of every other by `z` standard errors of the paired differences (from K/2 worlds on), it reports:
  - the loss in points against the full search, from the seat's side: the solver's hand value, `pimc`'s objective;
  - how often the choice differs from the full search;
  - the share of the full search's solve time the rule needs.
  Ties go to the lowest card code here, where `pimc` asks the heuristic.
- keeps: the trump-and-keep decisions of `expert:K` on real deals and auctions: the bidder's, and its partner's
  and the defenders' keeps for the heuristic's trump. Each candidate is valued as `expert` values it. From K/4 to
  K worlds, it reports the gain over the heuristic's keep, in P(win) (percentage points) and in points, by role.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from expert import bid_deals, expert_tables
from pimc import decisions

from smear_sim.core.layout import ST_BIDDER, ST_SIZE
from smear_sim.core.rules import Rules
from smear_sim.kernels import solver
from smear_sim.kernels import state as ks
from smear_sim.kernels.bits import ZERO
from smear_sim.kernels.players import expert
from smear_sim.kernels.players.pimc import TT_BITS
from smear_sim.kernels.rng import stream_key


def _mean_se(x: np.ndarray, scale: float = 1.0, digits: int = 4) -> dict[str, float]:
    x = np.asarray(x, dtype=np.float64) * scale
    return {"mean": round(float(x.mean()), digits), "se": round(float(x.std(ddof=1) / np.sqrt(len(x))), digits)}


def card_values(count: int, seed: int, worlds: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each card decision, the value of each legal card on each world from the seat's side, and each world's
    solve time."""
    rules = Rules().to_array()
    rng = np.array([seed], dtype=np.uint64)
    world = np.zeros(ST_SIZE, dtype=np.int64)
    values = np.zeros(54, dtype=np.int64)
    states, _ = decisions(count, seed)
    solver.solve(solver.new_solver(TT_BITS), states[0].copy(), rules, values)  # compile before the clock
    out = []
    for hs in states:
        seat = ks.to_play(hs)
        sign = 1 if (seat & 1) == (hs[ST_BIDDER] & 1) else -1
        legal = [c for c in range(54) if (int(ks.legal_cards(hs, rules)) >> c) & 1]
        sv = solver.new_solver(TT_BITS)
        values[:] = 0
        table = np.zeros((len(legal), worlds), dtype=np.int64)
        seconds = np.zeros(worlds)
        for w in range(worlds):
            ks.sample_world(hs, seat, rng, world)
            started = time.perf_counter()
            solver.solve(sv, world, rules, values)
            seconds[w] = time.perf_counter() - started
            table[:, w] = [sign * values[c] for c in legal]
        out.append((table, seconds))
    return out


def _stop_when_clear(x: np.ndarray, k: int, z: float) -> int:
    """The worlds a rule that stops once the leading card is ``z`` SEs ahead of every other (from k/2 on) uses."""
    for w in range(k // 2, k):
        lead = x[:, :w].sum(axis=1).argmax()
        d = x[lead, :w] - np.delete(x[:, :w], lead, axis=0)
        mean = d.mean(axis=1)
        se = d.std(axis=1, ddof=1) / np.sqrt(w)
        if np.all((mean > z * se) | np.all(d == 0, axis=1)):
            return w
    return k


def cards_report(table: list[tuple[np.ndarray, np.ndarray]], k: int) -> dict:
    rules = {f"{k // 2} worlds": lambda x: k // 2, f"{3 * k // 4} worlds": lambda x: 3 * k // 4,
             "stop when clear, z=3": lambda x: _stop_when_clear(x, k, 3.0)}
    report = {"decisions": len(table)}
    for name, worlds_of in rules.items():
        loss, differs, used, full = [], 0, 0.0, 0.0
        for x, seconds in table:
            holdout = x[:, k:].mean(axis=1)
            w = worlds_of(x)
            best, chosen = x[:, :k].sum(axis=1).argmax(), x[:, :w].sum(axis=1).argmax()
            loss.append(holdout[best] - holdout[chosen])
            differs += best != chosen
            used += seconds[:w].sum()
            full += seconds[:k].sum()
        report[name] = {"loss_points": _mean_se(loss, digits=5), "differs": round(differs / len(table), 3),
                        "solve_time_share": round(used / full, 3)}
    return report


def keep_values(deals: int, seed: int, k: int, worlds: int) -> list[dict]:
    """Each searched trump-and-keep decision's candidates valued on ``worlds`` worlds, as ``expert:k`` values them."""
    array, codes, bidder_arrays, _, keep = expert_tables(k)
    out = []
    for i, state, hands, _, _, bidder, bid, calls in bid_deals(k, deals, seed):
        trumps = np.zeros(expert.MAX_CANDIDATES, dtype=np.int64)
        keeps = np.zeros(expert.MAX_CANDIDATES, dtype=np.uint64)
        n = expert.bidder_candidates(hands[bidder] | hands[4], -1, array, keep, trumps, keeps)
        choices = [(bidder, hands[bidder], hands[4], trumps[:n].copy(), keeps[:n].copy())]
        t = int(trumps[0])  # the heuristic's trump
        for seat in range(4):
            if seat != bidder:
                keeps = np.zeros(expert.MAX_CANDIDATES, dtype=np.uint64)
                n = expert.candidate_keeps(hands[seat], t, keep[t], keeps, 0)
                choices.append((seat, hands[seat], ZERO, np.full(n, t, dtype=np.int64), keeps[:n].copy()))
        for seat, own9, kitty, trumps, keeps in choices:
            n = len(trumps)
            if n < 2:
                continue
            wins = np.zeros((n, worlds), dtype=np.int64)
            points = np.zeros((n, worlds), dtype=np.int64)
            state[0] = stream_key(np.uint64(seed), 1_000_000 + 4 * i + seat)
            expert.keep_values(state, seat, own9, kitty, bidder, trumps, keeps, n, 3, calls, 4, 0, 0, bid, array,
                               keep, codes, bidder_arrays, worlds, wins, points)
            role = "bidder" if seat == bidder else ("partner" if (seat ^ bidder) == 2 else "defender")
            out.append({"role": role, "wins": wins, "points": points})
    return out


def keeps_report(table: list[dict], k: int) -> dict:
    report = {}
    for role in ("bidder", "partner", "defender", "all"):
        rows = [r for r in table if role in ("all", r["role"])]
        report[role] = {"decisions": len(rows)}
        for w in (k // 4, k // 2, 3 * k // 4, k):
            gain_win, gain_points = [], []
            for r in rows:
                wins, points = r["wins"], r["points"]
                # expert's order: the higher total P(win), then points; the first candidate among equals
                chosen = (wins[:, :w].sum(axis=1) * 65536 + points[:, :w].sum(axis=1)).argmax()
                gain_win.append(wins[chosen, k:].mean() - wins[0, k:].mean())
                gain_points.append(points[chosen, k:].mean() - points[0, k:].mean())
            report[role][f"{w} worlds"] = {"gain_pp": _mean_se(gain_win, 100 / expert.WIN_SCALE),
                                           "gain_points": _mean_se(gain_points)}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=16)
    parser.add_argument("--holdout", type=int, default=48)
    parser.add_argument("--cards", type=int, default=1500)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="cards,keeps")
    args = parser.parse_args()
    worlds = args.k + args.holdout
    out: dict = {"k": args.k, "holdout": args.holdout, "seed": args.seed}
    if "cards" in args.only:
        out["cards"] = cards_report(card_values(args.cards, args.seed, worlds), args.k)
    if "keeps" in args.only:
        out["keeps"] = keeps_report(keep_values(args.deals, args.seed, args.k, worlds), args.k)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
