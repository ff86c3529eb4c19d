"""Analyses taking turns on the simulator (smear_sim/engine/turns.py): same numbers, fair turns, stopping."""

from __future__ import annotations

import threading
from itertools import pairwise

import pytest

from smear_sim import evaluate_hand, hand_query
from smear_sim.engine import turns
from smear_sim.engine.turns import AnalysisCancelled, ServerBusy, Simulator, TurnExecutor, Turns

EXAMPLE = "AH KH 2H JD 10C 5S 9S 4D 3C"


@pytest.mark.parametrize("slice_size", [1000, 4096])
def test_slices_change_no_number(slice_size):
    plain = evaluate_hand(EXAMPLE, samples=12_345, seed=8)
    sliced = evaluate_hand(EXAMPLE, samples=12_345, seed=8, executor=TurnExecutor(Turns(), slice_size=slice_size))
    assert sliced.counts.tobytes() == plain.counts.tobytes()
    precise = evaluate_hand(EXAMPLE, precision=0.01, seed=8, executor=TurnExecutor(Turns(), slice_size=slice_size))
    assert precise.to_json() == evaluate_hand(EXAMPLE, precision=0.01, seed=8).to_json()


def test_slices_shrink_to_the_time_a_slice_should_take(monkeypatch):
    """A slice of dear work is cut down to about SLICE_SECONDS (here none: one deal a slice), changing no number."""
    monkeypatch.setattr(turns, "SLICE_SECONDS", 1e-9)
    slices: list[int] = []
    sliced = evaluate_hand(EXAMPLE, samples=3000, seed=8,
                           executor=TurnExecutor(Turns(), slice_size=1000, progress=slices.append))
    assert slices[:3] == [1000, 1, 1] and sum(slices) == 3000
    assert sliced.counts.tobytes() == evaluate_hand(EXAMPLE, samples=3000, seed=8).counts.tobytes()


def test_two_analyses_take_turns_slice_by_slice():
    """Once the short analysis has started, the two alternate slice by slice, so it ends long before the
    long one, which started first."""
    simulator = Simulator(slice_size=500)
    order: list[str] = []
    # (no game view: its match-equity table would take turns too, in slices of its own)
    long_one = simulator.submit(lambda ex: hand_query(EXAMPLE, samples=100_000, seed=1, score=None).run(executor=ex),
                                progress=lambda n: order.append("long"))
    short = simulator.submit(lambda ex: hand_query(EXAMPLE, samples=5000, seed=2, score=None).run(executor=ex),
                             progress=lambda n: order.append("short"))
    assert short.result(timeout=120).samples == 5000 and long_one.result(timeout=120).samples == 100_000
    assert order.count("short") >= 10 and order[-1] == "long"  # more slices if 500 deals took over SLICE_SECONDS
    both = order[order.index("short") - 1: len(order) - order[::-1].index("short")]
    assert all(x != y for x, y in pairwise(both)), " ".join(order)
    assert simulator.wait_idle(timeout=10) and simulator.pending == 0
    simulator.close()


def test_a_cancelled_analysis_stops_at_its_next_slice():
    simulator = Simulator(slice_size=1000)
    cancelled = threading.Event()
    slices = []

    def progress(n):
        slices.append(n)
        cancelled.set()  # the client goes away after the first slice

    future = simulator.submit(lambda ex: hand_query(EXAMPLE, samples=1_000_000).run(executor=ex), progress=progress,
                              cancelled=cancelled)
    with pytest.raises(AnalysisCancelled):
        future.result(timeout=120)
    assert slices == [1000]
    assert simulator.wait_idle(timeout=10)
    simulator.close()


def test_a_full_server_says_it_is_busy():
    simulator = Simulator(max_waiting=1)
    release = threading.Event()
    running = simulator.submit(lambda executor: release.wait(60))
    with pytest.raises(ServerBusy, match="busy with 1 analyses"):
        simulator.submit(lambda executor: None)
    release.set()
    assert running.result(timeout=60) is True
    simulator.close()


def test_turns_go_to_the_longest_waiter():
    turns = Turns()
    turns.acquire()
    got: list[str] = []
    threads = []
    for name in "xyz":
        thread = threading.Thread(target=lambda name=name: (turns.acquire(), got.append(name), turns.release()))
        thread.start()
        threads.append(thread)
        while turns.waiting() < len(threads):  # queued in this order
            threading.Event().wait(0.001)
    turns.release()
    for thread in threads:
        thread.join(timeout=10)
    assert got == ["x", "y", "z"]


def test_an_urgent_waiter_goes_first_and_an_urgent_holder_keeps_the_turn_from_the_others():
    turns = Turns()
    turns.acquire()
    got: list[str] = []
    threads = []
    for name, urgent in (("x", False), ("u", True), ("y", False), ("v", True)):
        thread = threading.Thread(target=lambda name=name, urgent=urgent: (turns.acquire(urgent), got.append(name),
                                                                           turns.release()))
        thread.start()
        threads.append(thread)
        while turns.waiting() < len(threads):
            threading.Event().wait(0.001)
    turns.release()
    for thread in threads:
        thread.join(timeout=10)
    assert got == ["u", "v", "x", "y"]
    # an urgent holder passes the turn to nobody who is not urgent
    turns.acquire(urgent=True)
    waiter = threading.Thread(target=lambda: (turns.acquire(), got.append("late"), turns.release()))
    waiter.start()
    while turns.waiting() < 1:
        threading.Event().wait(0.001)
    turns.pass_turn(urgent=True)
    assert got[-1] == "y"  # the turn was kept: the waiter has not had it
    turns.release()
    waiter.join(timeout=10)
    assert got[-1] == "late"


def test_an_urgent_analysis_runs_all_its_slices_at_the_long_ones_next_slice():
    """A hint at a practice table goes before a review: once it starts, the review waits until it ends."""
    simulator = Simulator(slice_size=500)
    order: list[str] = []
    started = threading.Event()

    def long_progress(n):
        order.append("long")
        started.set()

    long_one = simulator.submit(lambda ex: hand_query(EXAMPLE, samples=50_000, seed=1, score=None).run(executor=ex),
                                progress=long_progress)
    assert started.wait(120)
    urgent = simulator.submit(lambda ex: hand_query(EXAMPLE, samples=5000, seed=2, score=None).run(executor=ex),
                              progress=lambda n: order.append("urgent"), urgent=True)
    assert urgent.result(timeout=120).samples == 5000 and long_one.result(timeout=120).samples == 50_000
    first, last = order.index("urgent"), len(order) - order[::-1].index("urgent")
    assert order[first:last] == ["urgent"] * 10 and order[-1] == "long", " ".join(order)
    simulator.close()


def test_the_match_equity_table_takes_turns_and_stops_too():
    """The game view's table (its hands in slices, its solves with a pause between each) held the simulator for
    everyone, and went on after its client left."""
    simulator = Simulator(slice_size=1000)
    cancelled = threading.Event()
    stages: list[str] = []
    slices = []

    def progress(n):
        slices.append(n)
        if stages == ["equity"] and len(slices) > 3:
            cancelled.set()  # the client goes away while the table is made

    future = simulator.submit(lambda ex: hand_query(EXAMPLE, samples=1000, seed=321).run(executor=ex,
                                                                                         stage=stages.append),
                              progress=progress, cancelled=cancelled)
    with pytest.raises(AnalysisCancelled):
        future.result(timeout=120)
    assert stages == ["equity"] and len(slices) == 4  # the hand's one slice, then three of the table's
    assert simulator.wait_idle(timeout=10)
    simulator.close()


def test_a_table_two_analyses_need_is_made_once_the_second_waiting_off_the_turn(monkeypatch):
    """Two analyses that need the same new match-equity table at once: one makes it, the other waits for it
    without holding the turn (else the maker could not go on), and both read the same table."""
    from smear_sim.analysis import hand

    made = []
    real = hand.match_equity

    def counted(*args, **kwargs):
        made.append(kwargs["seed"])
        return real(*args, **kwargs)

    monkeypatch.setattr(hand, "match_equity", counted)
    simulator = Simulator(slice_size=500)
    stages: list[list[str]] = [[], []]
    futures = [simulator.submit(lambda ex, i=i: hand_query(EXAMPLE, samples=1000, seed=4321, equity_hands=3000)
                                .run(executor=ex, stage=stages[i].append)) for i in range(2)]
    first, second = (future.result(timeout=120) for future in futures)
    assert made == [4321]
    assert first.equity is second.equity and stages == [["equity"], ["equity"]]
    assert simulator.wait_idle(timeout=10)
    simulator.close()


def test_a_waiting_analysis_stops_when_asked():
    turns = Turns()
    cancelled = threading.Event()
    executor = TurnExecutor(turns, stop=cancelled.is_set)
    never = threading.Event()
    with turns:
        threading.Timer(0.2, cancelled.set).start()
        with pytest.raises(AnalysisCancelled):
            executor.wait_for(never)
        assert turns.waiting() == 0  # the turn is held again, as the analysis's own 'with turns' expects
