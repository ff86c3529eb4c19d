"""The double-dummy solver (kernels/solver.py) is exact: it agrees with plain minimax everywhere.

Two references: a pure-Python minimax over the reference engine (legal plays, trick winners and scoring of
reference/hand.py, nothing from the kernels), on thousands of random positions with one to three tricks
left; and a plain Numba minimax over the kernel hand state (no pruning, no table, every legal card), on
more three-trick positions and on full hands whose game tree is small enough to walk. Both check the solver
valuing points and valuing a leaf table (``solver.use_leaf_values``: the expert's P(win the game)), with tables
that need not rise with the points.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit
from random_hands import random_record

from smear_sim.analysis.solve import hand_state, solve_position
from smear_sim.core.cards import mask_of
from smear_sim.core.layout import MOON, PASS, REC_MOON, REC_POINTS, REC_SIZE, ST_BID, ST_BIDDER, ST_SIZE
from smear_sim.core.rules import Rules
from smear_sim.kernels import solver
from smear_sim.kernels import state as ks
from smear_sim.kernels.bits import ONE, ZERO, lowest_card
from smear_sim.kernels.scoring import score_state
from smear_sim.reference import hand as ref
from smear_sim.reference.record import parse_record, replay_position

RULE_SETS = {
    "defaults": Rules(),
    "round_points_taker": Rules(round_points=True, low_to="taker"),
    "highest_lowest_taker": Rules(high="highest", low="lowest", low_to="taker"),
    "anytime_in_play": Rules(trump_anytime=True, moon_requires="in_play", target=11),
}


# -- reference 1: pure Python over the reference engine ----------------------------------------------------


def _objective(rules: Rules, bid, result: ref.HandResult) -> int:
    team = result.bidding_team
    if bid == ref.MOON:
        return rules.target if result.moon else -rules.target
    return result.score_delta[team] - result.score_delta[1 - team]


def _table_objective(table: np.ndarray, bid, result: ref.HandResult) -> int:
    """A finished hand's value under a leaf table (the layout of ``solver.use_leaf_values``)."""
    team = result.bidding_team
    if bid == ref.MOON:
        return int(table[solver.LEAF_MOON_MADE if result.moon else solver.LEAF_MOON_FAILED])
    return int(table[result.points[team] * solver.LEAF_POINTS + result.points[1 - team]])


def reference_minimax(position, table=None) -> tuple[int, dict[int, int]]:
    """The value of ``position`` and of each legal card, by walking every line with the reference engine; the
    points, or with ``table`` the leaf table's values."""
    record = position.record
    rules, trump, bidder, bid = record.rules, record.trump, position.bidder, position.bid
    team = bidder % 2

    def value(held, tricks, trick, leader) -> int:
        if len(tricks) == 6:
            result = ref.score_hand(rules, bidder, bid, trump, tricks, record.scores_before)
            return _objective(rules, bid, result) if table is None else _table_objective(table, bid, result)
        return best(children(held, tricks, trick, leader), (leader + len(trick)) % 4)

    def children(held, tricks, trick, leader):
        seat = (leader + len(trick)) % 4
        for c in ref.legal_plays(rules, held[seat], trick, trump):
            after = list(held)
            after[seat] = tuple(x for x in held[seat] if x != c)
            cards = (*trick, c)
            if len(cards) == 4:
                winner = (leader + ref.trick_winner(cards, trump)) % 4
                yield c, value(tuple(after), (*tricks, ref.Trick(leader, cards, winner)), (), winner)
            else:
                yield c, value(tuple(after), tricks, cards, leader)

    def best(pairs, seat) -> int:
        values = [v for _, v in pairs]
        return max(values) if seat % 2 == team else min(values)

    root = dict(children(position.held, position.tricks, position.trick, position.leader))
    return best(root.items(), position.to_play), root


def _positions(rules: Rules, r: random.Random, n: int, tricks_left: tuple[int, ...]):
    """Random reachable positions: random legal hands cut with 1..4 cards of the trick in progress played."""
    made = 0
    while made < n:
        record = random_record(rules, r)
        if "plays" not in record:
            continue
        left = r.choice(tricks_left)
        record["plays"] = record["plays"][: 24 - 4 * left + r.randrange(4)]
        made += 1
        yield replay_position(parse_record(record, partial=True))


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_solver_matches_reference_minimax_with_one_to_three_tricks_left(name):
    rules = RULE_SETS[name]
    r = random.Random(name)
    checked = 0
    for position in _positions(rules, r, 450, (1, 1, 2, 2, 2, 3)):
        value, cards = reference_minimax(position)
        solved = solve_position(position)
        assert solved.value == value, (position, solved, value)
        assert dict(solved.cards) == cards, (position, solved, cards)
        checked += 1
    assert checked == 450


def _random_table(r: random.Random) -> np.ndarray:
    """A leaf table of values in no order: the solver's bounds must not assume that more points are worth more."""
    return np.array([r.randrange(-1000, 1000) for _ in range(solver.LEAF_SIZE)], dtype=np.int64)


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_solver_valuing_a_leaf_table_matches_reference_minimax(name):
    rules = RULE_SETS[name]
    array = rules.to_array()
    r = random.Random(f"table {name}")
    sv = solver.new_solver(10)
    values = np.zeros(54, dtype=np.int64)
    checked = 0
    for position in _positions(rules, r, 150, (1, 2, 2, 3)):
        table = _random_table(r)
        value, cards = reference_minimax(position, table)
        solver.use_leaf_values(sv, table)
        assert solver.solve(sv, hand_state(position), array, values) == value, position
        assert {c: int(values[c]) for c in cards} == cards, position
        solver.use_points(sv)
        assert solver.solve(sv, hand_state(position), array, values) == reference_minimax(position)[0]
        checked += 1
    assert checked == 150


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_value_of_a_trick_boundary_with_two_tricks_left_matches_reference_minimax(name):
    """The search values such a position in plain loops (``_two_tricks``), not node by node: here it is the root,
    searched with every window MTD(f) tries, by points and by a leaf table."""
    rules = RULE_SETS[name]
    array = rules.to_array()
    r = random.Random(f"two tricks {name}")
    sv = solver.new_solver(10)
    checked = 0
    while checked < 150:
        record = random_record(rules, r)
        if "plays" not in record:
            continue
        record["plays"] = record["plays"][:16]
        position = replay_position(parse_record(record, partial=True))
        assert solver.solve_value(sv, hand_state(position), array, r.randrange(-8, 9)) == reference_minimax(
            position)[0], position
        table = _random_table(r)
        solver.use_leaf_values(sv, table)
        assert solver.solve_value(sv, hand_state(position), array) == reference_minimax(position, table)[0], position
        solver.use_points(sv)
        checked += 1


# -- reference 2: plain minimax over the kernel state -------------------------------------------------------


@njit(cache=True)
def _plain_leaf(stack, base, rules, rec, table):
    value = score_state(stack, rules, rec, base)
    if table.size == 0 or stack[base + ST_BID] == PASS:
        return value
    if stack[base + ST_BID] == MOON:
        return table[solver.LEAF_MOON_MADE if rec[REC_MOON] == 1 else solver.LEAF_MOON_FAILED]
    team = stack[base + ST_BIDDER] & 1
    return table[rec[REC_POINTS + team] * solver.LEAF_POINTS + rec[REC_POINTS + 1 - team]]


@njit(cache=True)
def plain_minimax(stack, depth, rules, rec, budget, alpha, beta, prune, table):
    """The value of the state at ``depth`` of ``stack`` (one state a depth, the next depths free for its
    children) over every line: plain minimax, or with ``prune`` plain alpha-beta (cut-offs only, every legal
    card in code order, no table), of the points or (``table`` not empty) of the leaf table.
    ``budget[0]`` counts leaves down (negative: gave up)."""
    base = depth * ST_SIZE
    if ks.is_over(stack, base):
        budget[0] -= 1
        return _plain_leaf(stack, base, rules, rec, table)
    maximize = (ks.to_play(stack, base) & 1) == (stack[base + ST_BIDDER] & 1)
    best = -(1 << 30) if maximize else 1 << 30
    m = ks.legal_cards(stack, rules, base)
    child = base + ST_SIZE
    while m != ZERO:
        c = lowest_card(m)
        m &= m - ONE
        stack[child:child + ST_SIZE] = stack[base:base + ST_SIZE]
        ks.apply_card(stack, c, rules, child)
        v = plain_minimax(stack, depth + 1, rules, rec, budget, alpha, beta, prune, table)
        if budget[0] < 0:
            return 0
        if maximize:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if prune and alpha >= beta:
            break
    return best


_POINTS = np.zeros(0, dtype=np.int64)


def plain_values(hs: np.ndarray, rules: np.ndarray, prune: bool, table: np.ndarray = _POINTS) -> dict[int, int]:
    """Each legal card's value by plain minimax (or plain alpha-beta with ``prune``), of the points or of ``table``."""
    rec = np.zeros(REC_SIZE, dtype=np.int64)
    budget = np.array([10**8], dtype=np.int64)
    stack = np.empty(25 * ST_SIZE, dtype=np.int64)  # the child of the root, then one state a card played
    values = {}
    legal = int(ks.legal_cards(hs, rules))
    for c in range(54):
        if legal >> c & 1:
            stack[:ST_SIZE] = hs
            ks.apply_card(stack, c, rules)
            values[c] = int(plain_minimax(stack, 0, rules, rec, budget, -(1 << 30), 1 << 30, prune, table))
    assert budget[0] >= 0
    return values


def _check_against_plain(hs: np.ndarray, rules: np.ndarray, sv, prune: bool, table: np.ndarray = _POINTS) -> None:
    expected = plain_values(hs, rules, prune, table)
    if table.size:
        solver.use_leaf_values(sv, table)
    else:
        solver.use_points(sv)
    values = np.zeros(54, dtype=np.int64)
    value = solver.solve(sv, hs, rules, values)
    maximize = ks.to_play(hs) % 2 == hs[ST_BIDDER] % 2
    assert value == (max if maximize else min)(expected.values()), (hs, expected, value)
    assert {c: int(values[c]) for c in expected} == expected, (hs, expected)
    assert solver.solve_value(sv, hs, rules) == value


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_solver_matches_plain_minimax_with_three_tricks_left(name):
    """Also checks that plain alpha-beta (the full-hand reference below) equals plain minimax."""
    rules = RULE_SETS[name]
    array = rules.to_array()
    sv = solver.new_solver(10)  # a small table, so that entries are overwritten too
    for position in _positions(rules, random.Random(f"plain {name}"), 500, (3,)):
        hs = hand_state(position)
        _check_against_plain(hs, array, sv, prune=False)
        assert plain_values(hs, array, prune=True) == plain_values(hs, array, prune=False)


def _full_hand(r: random.Random, rules: Rules) -> np.ndarray:
    """A random hand state at the first lead: 6 random cards a seat, any trump, bidder, bid and scores."""
    deck = list(range(54))
    r.shuffle(deck)
    hands = np.array([mask_of(deck[6 * s: 6 * s + 6]) for s in range(4)], dtype=np.uint64)
    bid = r.choice([*range(rules.min_bid, rules.max_points + 1), MOON])
    hs = np.zeros(ST_SIZE, dtype=np.int64)
    ks.start_play(hs, hands, hands, r.randrange(4), r.randrange(4), bid, r.randint(-10, 20), r.randint(-10, 20))
    return hs


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_solver_matches_plain_alpha_beta_on_full_hands(name):
    rules = RULE_SETS[name]
    array = rules.to_array()
    r = random.Random(f"full {name}")
    sv = solver.new_solver()
    for _ in range(40):
        _check_against_plain(_full_hand(r, rules), array, sv, prune=True)
    for _ in range(15):
        _check_against_plain(_full_hand(r, rules), array, sv, prune=True, table=_random_table(r))


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_value_or_bound_gives_the_value_when_it_is_better_else_a_bound_no_better(name):
    """``value_or_bound`` against the exact value, for each side, at bounds around the value, by points and by a
    leaf table: the exact value when it beats the bound for that side, else a bound between the value and the bound
    (what lets the expert drop a keep without solving it), and that bound passed back to ``solve_value`` gives the
    value. The same one card at a time (``start_cards``,
    ``card_value``, ``card_value_or_bound``) against ``solve``'s value of each card, equivalent cards with it."""
    rules = RULE_SETS[name]
    array = rules.to_array()
    r = random.Random(f"bound {name}")
    sv = solver.new_solver()
    answers = set()
    for i in range(30):
        hs = _full_hand(r, rules)
        if i % 3 == 2:
            solver.use_leaf_values(sv, _random_table(r))
        else:
            solver.use_points(sv)
        exact = solver.solve_value(sv, hs.copy(), array)
        for bound in (exact - 2, exact - 1, exact, exact + 1, exact + 2):
            for maximize in (True, False):
                better, v = solver.value_or_bound(sv, hs.copy(), array, bound, maximize)
                answers.add((better, maximize))
                if maximize:
                    assert better == (exact > bound) and (v == exact if better else exact <= v <= bound)
                else:
                    assert better == (exact < bound) and (v == exact if better else bound <= v <= exact)
                if not better:  # the bound it gave, passed back, still gives the exact value
                    lo, hi = (-solver.INF, v) if maximize else (v, solver.INF)
                    assert solver.solve_value(sv, hs.copy(), array, v, lo, hi) == exact
        values = np.zeros(54, dtype=np.int64)
        solver.solve(sv, hs.copy(), array, values)
        same_move = np.zeros(54, dtype=np.int64)
        for c in [c for c in range(54) if int(ks.legal_cards(hs, array)) >> c & 1]:
            solver.start_cards(sv, hs.copy(), array, same_move)
            assert solver.card_value(sv, hs.copy(), array, same_move[c], 0, -solver.INF, solver.INF) == values[c]
            assert solver.card_value(sv, hs.copy(), array, c, 5, -solver.INF, solver.INF) == values[c]
            for bound in (values[c] - 1, values[c], values[c] + 1):
                solver.start_cards(sv, hs.copy(), array, same_move)
                better, v = solver.card_value_or_bound(sv, hs.copy(), array, c, bound, True)
                assert better == (values[c] > bound) and (v == values[c] if better else values[c] <= v <= bound)
                if not better:
                    assert solver.card_value(sv, hs.copy(), array, c, v, -solver.INF, v) == values[c]
    assert len(answers) == 4


def test_solve_record_cli_shape_on_a_finished_hand():
    """With all 24 cards played the value is the scored value and no card is listed."""
    rules = Rules()
    record = random_record(rules, random.Random(5))
    while "plays" not in record:
        record = random_record(rules, random.Random(len(str(record))))
    position = replay_position(parse_record(record, partial=True))
    result = solve_position(position)
    scored = ref.score_hand(rules, position.bidder, position.bid, position.record.trump, position.tricks,
                            position.record.scores_before)
    assert result.to_play is None and result.cards == ()
    assert result.value == _objective(rules, position.bid, scored)


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_a_line_of_perfect_play_scores_the_solved_value(name):
    """``play_line`` from a solved position (and from a position reached by any legal card) ends in a hand whose
    score is the solver's value of that position."""
    rules = RULE_SETS[name]
    array = rules.to_array()
    r = random.Random(f"line {name}")
    sv = solver.new_solver()
    rec = np.zeros(REC_SIZE, dtype=np.int64)
    values = np.zeros(54, dtype=np.int64)
    for _ in range(20):
        hs = _full_hand(r, rules)
        solver.solve(sv, hs, array, values)
        legal = [c for c in range(54) if (int(ks.legal_cards(hs, array)) >> c) & 1]
        c = r.choice(legal)
        child = hs.copy()
        ks.apply_card(child, c, array)
        solver.play_line(sv, child, array, values[c])
        assert ks.is_over(child)
        assert score_state(child, array, rec) == values[c]
        v = solver.solve_value(sv, hs, array)
        line = hs.copy()
        solver.play_line(sv, line, array, v)
        assert score_state(line, array, rec) == v
