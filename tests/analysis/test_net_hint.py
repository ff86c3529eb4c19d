"""The net's hint (smear_sim/analysis/net_hint.py): its values are the heads' outputs on the seat's view tensor, it reads
nothing the seat cannot see, and beside a search it marks where the two disagree."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from smear_sim.analysis.bidder_tables import ready_tables
from smear_sim.analysis.decisions import ActionValue, Hint
from smear_sim.analysis.net_hint import NO_CALL_VALUE, _best_keeps, _keep_scores, compare, net_hint
from smear_sim.core.cards import SUIT_NAMES, card_name, mask_of, parse_card, parse_cards, parse_suit
from smear_sim.core.errors import SmearError
from smear_sim.core.layout import ST_SIZE
from smear_sim.core.rules import Rules
from smear_sim.core.stats import Estimate
from smear_sim.core.view_layout import DECISION_CARD, VT_DECISION, VT_HAND, VT_SIZE, VT_TRUMP
from smear_sim.engine.net_weights import load_net
from smear_sim.kernels.net import before_play_state, forward, new_work, write_view_tensor
from smear_sim.reference.record import parse_record
from smear_sim.reference.view import legal_actions, parse_view
from smear_sim.reference.view_tensor import view_tensor
from tests.random_hands import random_record
from tests.view_tensor_cases import reference_decisions

GOLDEN = Path(__file__).parents[1] / "golden"
NET = load_net(GOLDEN / "net" / "net.npz")
BASIC = json.loads((GOLDEN / "basic.json").read_text())


def head_output(head, x: np.ndarray) -> np.ndarray:
    acc, hidden = np.empty(head.hidden, np.float32), np.empty(head.hidden, np.float32)
    out = np.empty(head.n_out, np.float32)
    forward(tuple(head), x, acc, hidden, out)
    return out


def record(seed: int):
    rng = random.Random(seed)
    while True:
        found = parse_record(random_record(Rules(), rng))
        if found.trump is not None:
            return found


def basic_view(seat: int, plays: int, **changes) -> dict:
    obj = {k: v for k, v in BASIC.items() if k not in ("why", "expected")}
    return obj | {"seat": seat, "plays": BASIC["plays"][:plays],
                  "hands": [h if s == seat else None for s, h in enumerate(BASIC["hands"])]} | changes


def without_time(result) -> str:
    return json.dumps({k: v for k, v in result.to_json().items() if k != "milliseconds"})


def test_a_cards_value_is_the_card_heads_output_on_the_view_tensor():
    views = [view for label, view in reference_decisions(record(0)) if label in ("card 0", "card 5", "card 8",
                                                                                "card 13")]
    assert len(views) == 4
    for view in views:
        out = head_output(NET["card"], view_tensor(view))
        result = net_hint(view, net=NET)
        assert result.decision == "card"
        assert {a.action for a in result.actions} == set(legal_actions(view))
        for a in result.actions:
            assert a.win == float(out[parse_card(a.action)])
        assert [a.win for a in result.actions] == sorted((a.win for a in result.actions), reverse=True)
        assert result.best == result.actions[0].action


def test_a_keeps_value_is_the_keep_heads_output_after_that_keep():
    """The tensor after the keep is written as the training data writes it: before_play_state holding the kept
    cards, trump named, the first card to come."""
    view = parse_view(basic_view(1, 0, discards=None))
    result = net_hint(view, net=NET)
    assert result.decision == "keep"
    legal = {tuple(sorted(k)) for k in legal_actions(view)}
    assert {tuple(sorted(a.action)) for a in result.actions} == legal  # a 9-card hand: every legal keep
    state, tensor = np.zeros(ST_SIZE, np.int64), np.zeros(VT_SIZE, np.float32)
    calls = np.array([3, 0, 0, 0], dtype=np.int64)  # 3, pass, pass, pass
    for a in result.actions[:5]:
        keep = mask_of(parse_cards(a.action))
        before_play_state(state, 1, np.uint64(keep), view.dealer, calls, 4, 0, 0, view.bidder, 3, view.trump)
        write_view_tensor(tensor, state, 1, np.uint64(0), view.rules.to_array(), new_work())
        assert tensor[VT_DECISION + DECISION_CARD] == 1 and tensor[VT_TRUMP + view.trump] == 1
        assert {i for i in range(54) if tensor[VT_HAND + i]} == set(parse_cards(a.action))
        assert a.win == float(head_output(NET["keep"], tensor)[0])


def test_trump_is_each_suit_with_its_best_keep_by_the_net():
    view = parse_view(basic_view(0, 0, trump=None, discards=None))
    result = net_hint(view, net=NET)
    assert result.decision == "trump"
    assert sorted(a.action for a in result.actions) == sorted(SUIT_NAMES)
    scores = _keep_scores(view)
    for a in result.actions:
        t = parse_suit(a.action)
        candidates = _best_keeps(view, t, 8, scores)
        assert tuple(parse_cards(list(a.keep))) in candidates
        assert a.win == max(_keep_value(view, t, keep) for keep in candidates)


def _keep_value(view, t, keep) -> float:
    from smear_sim.analysis.net_hint import net_value

    return net_value(view, NET, SUIT_NAMES[t], [card_name(c) for c in keep])


def test_the_net_hint_depends_only_on_what_the_seat_sees():
    """Every decision of a few hands, with the other seats' hands, discards and the kitty given or null: the same
    bytes (a call is valued by the equity tables, read from the seat's own cards and the calls)."""
    ready_tables("equity", Rules())
    for seed in range(2):
        rec = record(seed)
        for label, view in reference_decisions(rec):
            obj = view.to_json()
            filled = dict(obj)
            filled["hands"] = [[card_name(c) for c in rec.hands[s]] for s in range(4)]
            filled["kitty"] = [card_name(c) for c in rec.kitty]
            if "discards" in obj:
                filled["discards"] = [obj["discards"][s] if s == view.seat else [card_name(c) for c in rec.discards[s]]
                                      for s in range(4)]
            try:
                bare = without_time(net_hint(view, net=NET))
            except SmearError as exc:
                assert str(exc) == NO_CALL_VALUE, label
                with pytest.raises(SmearError, match="the net does not value this call"):
                    net_hint(parse_view(filled), net=NET)
                continue
            assert without_time(net_hint(parse_view(filled), net=NET)) == bare, label


def test_a_call_is_valued_by_the_equity_tables():
    ready_tables("equity", Rules())
    result = net_hint(parse_view(basic_view(0, 0, bids=[], trump=None, discards=None, kitty=None)), net=NET)
    assert result.decision == "call" and result.valued_by == "equity tables"
    assert all(0 <= a.win <= 1 for a in result.actions)
    assert {json.dumps(a.action) for a in result.actions} == {json.dumps(a) for a in legal_actions(
        parse_view(basic_view(0, 0, bids=[], trump=None, discards=None, kitty=None)))}


def _search(actions: list[tuple[str, float, float]]) -> Hint:
    values = tuple(ActionValue(a, Estimate(0.0, 0.1), Estimate(win, se)) for a, win, se in actions)
    zero = (Estimate(0.0, 0.0), Estimate(0.0, 0.0))
    return Hint(1, "card", 64, 1, values, tuple(zero for _ in values))


def test_both_marks_where_the_net_and_the_search_disagree():
    view = parse_view(basic_view(1, 8))
    net = net_hint(view, net=NET)
    wins = {a.action: a.win for a in net.actions}
    order = [a.action for a in net.actions]  # the net's order: AS first
    agreeing = _search([(a, wins[a], 0.01) for a in order])
    both = compare(view, agreeing, NET, net)
    assert both.net_win == tuple(wins[a] for a in order)
    assert not both.disagree and not any(both.marked)
    obj = both.to_json()
    assert obj["net_best"] == net.best and obj["net_disagrees"] is False
    assert [row["net_win"] for row in obj["actions"]] == [round(wins[a], 4) for a in order]

    # One value outside twice the search's SE: that action is marked, and only it.
    off = _search([(a, wins[a] + (0.05 if a == order[2] else 0.0), 0.01) for a in order])
    assert compare(view, off, NET, net).marked == (False, False, True, False)

    # Another best: both bests are marked.
    swapped = [order[1], order[0], *order[2:]]
    other = _search([(a, wins[a], 0.5) for a in swapped])
    both = compare(view, other, NET, net)
    assert both.marked == (True, True, False, False) and both.to_json()["net_disagrees"] is True
