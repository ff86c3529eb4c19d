"""Throughput benchmark: the dealing ceiling, full hands and complete games per second, and the search players'
hands per second, measured in one run.

Every figure is the median of ``repeats`` timed runs after a warm-up call (which also compiles the
kernels or loads them from the cache), so one noisy run on a shared machine does not decide the result.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import layout as L
from ..core.bidder import no_bidder_arrays, with_net
from ..core.errors import SmearError
from ..core.players import FAST_POLICIES, policy_array
from ..core.rules import Rules
from .bidder_store import load_tables
from .net_weights import kernel_arrays, load_net
from .runner import Pace, available_threads, check_count, kernels, paced_calls, seed_value, thread_count

__all__ = ["run_bench"]


# The search players, each against heuristic (the figures pimc_hand_per_s and expert_hand_per_s).
SEARCH_POLICIES = ("pimc:16", "expert:16")
MAX_SEARCH_HANDS = 100_000
SEARCH_WARM_UP = 4  # hands: enough to compile (or load) the kernel
NET_SHARE = 50  # the learned player's runs are hands // NET_SHARE hands (it plays tens of times slower than heuristic)


def _median_rate(run, hands: int, repeats: int, warm_up: int = 1000,
                 say: Callable[[str], None] = lambda text: None) -> float:
    """Hands a second, the median of ``repeats`` timed runs of ``hands``; ``say`` hears of each run."""
    say("warming up")
    run(min(hands, warm_up))  # warm-up: compile or load from cache
    rates = []
    for i in range(repeats):
        say(f"run {i + 1} of {repeats}")
        started = time.perf_counter()
        run(hands)
        rates.append(hands / (time.perf_counter() - started))
    return statistics.median(rates)


def run_bench(
    *,
    hands: int = 1_000_000,
    deal_hands: int = 4_000_000,
    repeats: int = 5,
    seed: int = 1,
    rules: Rules | None = None,
    threads: int | None = None,
    search_hands: int = 100,
    stage: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The bench figures of docs/formats.md, the same for every fast policy under ``rules`` (the equity bidder
    where its tables are at hand), complete games, and the search players: ``pimc:16`` and ``expert:16`` against
    ``heuristic`` over ``search_hands`` hands a run (0: not measured; they play thousands of times slower, and
    ``expert`` only where the equity bidder's tables are at hand, since it calls by them); and the learned player
    ``net`` against ``heuristic`` over ``hands // NET_SHARE`` hands a run (None where no net or no tables are at hand).

    Games are played from 0-0 with the default policy, ``hands // 10`` of them per timed run (about as many
    hands as a run of hands). ``game_hand_ratio`` is games/s times the mean hands per game over full hands/s:
    1 when a hand played inside a game costs what a lone hand does. ``stage`` hears what is measured next.
    """
    stage = stage or (lambda text: None)

    def saying(what: str) -> Callable[[str], None]:
        return lambda text: stage(f"bench: {what}, {text}")
    check_count("hands", hands, minimum=1000)
    check_count("search_hands", search_hands, minimum=0, maximum=MAX_SEARCH_HANDS)
    drivers = kernels()
    rules = rules or Rules()
    rules_array = rules.to_array()
    key = seed_value(seed)
    threads = thread_count(threads)

    # Each timed run calls the kernel in pieces sized by time, as every command does (engine/runner.py), so that
    # Ctrl-C and SIGTERM are handled within a second, not after the whole run. Each figure learns its own pace.
    deal_pace = Pace()

    def deal(n: int) -> None:
        paced_calls(lambda first, size: drivers.deal_only(key, first, size, 1, rules_array), 0, n, threads, deal_pace)

    none = no_bidder_arrays()
    tables = load_tables(rules)  # the equity bidder is timed where its tables are at hand (shipped or cached)
    arrays = {policy: none for policy in FAST_POLICIES if policy != "equity"}
    if tables is not None:
        arrays["equity"] = tables.arrays()

    def full(policy: str, n_threads: int, bidder_arrays, against: str | None = None):
        codes = policy_array((policy, against or policy))

        seated = drivers.seated_arg(codes)
        pace = Pace()

        def run(n: int) -> None:
            paced_calls(lambda first, size: drivers.simulate_hands(key, first, size, 1, rules_array, codes, bidder_arrays,
                                                                   seated),
                        0, n, n_threads, pace)

        return run

    deal_rate = _median_rate(deal, deal_hands, repeats, say=saying("dealing only"))
    per_policy: dict[str, dict[str, float]] = {}
    for policy, bidder_arrays in arrays.items():
        all_threads = _median_rate(full(policy, threads, bidder_arrays), hands, repeats,
                                   say=saying(f"full hands, {policy}"))
        single = _median_rate(full(policy, 1, bidder_arrays), max(hands // threads, 1000), repeats,
                              say=saying(f"full hands, {policy}, one thread"))
        per_policy[policy] = {
            "full_hand_per_s": round(all_threads),
            "full_hand_per_s_single": round(single),
            "ratio_to_deal_only": round(all_threads / deal_rate, 4),
            "thread_speedup": round(all_threads / single, 2),
        }
    default = per_policy["heuristic"]
    heuristic = policy_array(("heuristic", "heuristic"))
    games = max(hands // 10, 100)
    seated = drivers.seated_arg(heuristic)
    games_pace = Pace()

    def play_games(n: int) -> np.ndarray:
        return sum(paced_calls(lambda first, size: drivers.simulate_games(key, first, size, 1, rules_array, heuristic,
                                                                          none, 0, 0, 3, seated).sum(axis=0),
                               0, n, threads, games_pace))

    # The learned player against heuristic, where it can play: its net and the equity tables (it calls by them) at hand.
    net_rate = None
    try:
        net = load_net() if tables is not None else None
    except SmearError:
        net = None
    if net is not None:
        net_hands = max(hands // NET_SHARE, 1000)
        run = full("net", threads, with_net(arrays["equity"], kernel_arrays(net)), "heuristic")
        net_rate = round(_median_rate(run, net_hands, repeats, say=saying("net against heuristic")), 1)

    search: dict[str, float] = {}
    if search_hands:
        for policy in SEARCH_POLICIES:
            name = policy.split(":")[0]
            if name == "expert" and tables is None:
                continue  # it calls by the tables, and these rules have none at hand
            run = full(policy, threads, arrays["equity"] if name == "expert" else none, "heuristic")
            search[f"{name}_hand_per_s"] = round(_median_rate(run, search_hands, repeats, warm_up=SEARCH_WARM_UP,
                                                              say=saying(f"{policy} against heuristic")), 1)
    stage("bench: complete games, warming up")
    counts = play_games(games)
    hands_per_game = counts[L.GAME_DEALS] / counts[L.GAMES]
    game_rate = _median_rate(play_games, games, repeats, say=saying("complete games"))
    return {
        "threads": threads,
        "deal_only_per_s": round(deal_rate),
        "full_hand_per_s": default["full_hand_per_s"],
        "full_hand_per_s_single": default["full_hand_per_s_single"],
        "ratio_to_deal_only": default["ratio_to_deal_only"],
        "full_game_per_s": round(game_rate),
        "hands_per_game": round(float(hands_per_game), 3),
        "game_hand_ratio": round(game_rate * float(hands_per_game) / default["full_hand_per_s"], 3),
        "policy": "heuristic",
        "policies": per_policy,
        **search,
        "net_hand_per_s": net_rate,
        "search_hands_per_run": search_hands,
        "rules": rules.as_dict(),
        "hands_per_run": hands,
        "repeats": repeats,
        "cpu_threads_available": available_threads(),
    }
