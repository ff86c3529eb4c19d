"""The kernel record layouts (smear_sim/layout.py): offsets that tile their arrays and match the rules."""

from __future__ import annotations

import math

from smear_sim.core import layout as L
from smear_sim.core.rules import ARRAY_NAMES, Rules
from smear_sim.core.tables import POINT_NAMES, TRUMP_RANK_NAMES


def _fields(prefix: str) -> list[tuple[int, str]]:
    return sorted((getattr(L, name), name) for name in dir(L) if name.startswith(prefix) and name != f"{prefix}SIZE")


def test_rule_offsets_follow_rules_to_array():
    array = Rules(round_points=True, target=9, min_bid=3).to_array()
    assert [getattr(L, f"R_{name.upper()}") for name in ARRAY_NAMES] == list(range(len(ARRAY_NAMES)))
    assert array[L.R_ROUND_POINTS] == 1 and array[L.R_TARGET] == 9 and array[L.R_MIN_BID] == 3
    assert array[L.R_POINTS_AT_STAKE] == 7


def test_record_offsets_are_distinct_and_in_range():
    for prefix in ("REC_", "AGG_", "CLS_"):
        offsets = [offset for offset, _ in _fields(prefix)]
        assert len(set(offsets)) == len(offsets), prefix
        assert offsets[0] == 0 and offsets[-1] < getattr(L, f"{prefix}SIZE")


def test_record_field_widths():
    assert L.REC_KITTY - L.REC_HANDS == 36
    assert L.REC_BIDS - L.REC_KITTY == 4
    assert L.REC_PLAYS - L.REC_DISCARDS == 28
    assert L.REC_TRICK_WINNERS - L.REC_PLAYS == 24
    assert L.REC_SIZE - L.REC_TRICK_WINNERS == 6
    assert L.N_POINTS == len(POINT_NAMES) == 7
    assert L.MAX_K >= 7 + 1  # the bidding team wins 0..7 points


def test_bid_codes():
    assert L.PASS == 0 and L.MOON == 8 and L.N_BID_CODES == 9


def test_class_dimensions():
    sizes = dict(L.CLASS_DIMS)
    assert list(sizes) == ["trumps", "top", "two", "jack", "jick", "jokers", "aces"]
    assert math.prod(sizes.values()) == L.N_CLASSES
    assert tuple(sizes.values()) == (L.N_TRUMPS, L.N_TOP, L.N_TWO, L.N_JACK, L.N_JICK, L.N_JOKERS, L.N_ACES)
    assert sizes["top"] == len(TRUMP_RANK_NAMES)  # the class suit always holds a trump (at least 3)


def test_game_counts_follow_the_hand_counts():
    offsets = sorted([L.GAMES, L.GAME_UNFINISHED, L.GAME_DEALS, L.GAME_DEALS_SQ, L.GAME_WINS, L.GAME_WINS + 1])
    assert offsets == list(range(L.AGG_SIZE, L.GAME_SIZE))  # AGG_* first, so hand counts add into a game row
    assert L.MAX_DEALS >= 1000


def test_record_and_class_fields_for_games():
    assert L.REC_SCORES_BEFORE + 2 <= L.REC_SIZE
    assert L.CLS_SIZE - L.CLS_JOINT == L.MAX_K * L.MAX_K
