"""A hint by the learned net: every legal action of a seat's next decision, valued by the net alone (docs/learned.md).

Where :mod:`smear_sim.analysis.decisions` plays every action out over worlds, this reads the net's heads on the
seat's view tensor, in milliseconds:

- a **card** is the ``card`` head's output for that card, on the tensor of the view
  (:func:`smear_sim.reference.view_tensor.view_tensor`);
- a **keep** is the ``keep`` head's output on the tensor of the state after that keep, exactly as the training data
  writes it (:func:`smear_sim.kernels.net.tensor.before_play_state` with the kept cards held); every legal keep is
  valued, up to ``NET_KEEPS`` of the highest keep score where a 13-card hand has more;
- **trump** is each suit with its best keep by the net, among the keeps the search's hint weighs for that suit
  (:data:`~smear_sim.analysis.decisions.KEEP_CANDIDATES` of the highest keep score);
- a **call** has no head: the ``net`` player calls as ``equity`` does, so a call is valued as ``equity`` values it,
  by its tables' P(win the game) for the call in the seat's place, auction and hand-strength bucket at the view's
  score. Where the tables hold too few hands like this one, or settled no call for them (``equity`` then calls as
  ``heuristic``), there is no value: a one-line error.

The net gives P(win the game) only, so ``points`` is null; its values have no sampling error, so ``win_se`` is 0.
Everything is read from the seat's view (the other seats' hands and discards are never touched), so a view with
them given or null gives the same values.

:func:`compare` puts a search's hint and the net's side by side (``--evaluator both``): each search action gains
the net's value of that very action, and an action is marked where the net's value lies outside twice the search's
standard error of it, or where it is the best of one and not of the other.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import layout as L
from ..core.calls import call_name, parse_call
from ..core.cards import SUIT_NAMES, card_name, mask_of, parse_card, parse_cards, parse_suit
from ..core.errors import SmearError
from ..core.view_layout import VT_SIZE
from ..engine.net_weights import NetHead, NetWeights, load_net, net_path
from ..reference import hand as ref
from ..reference.view import CALL, CARD, KEEP, TRUMP, SeatView, decision_of, legal_actions, parse_view
from ..reference.view_tensor import view_tensor

if TYPE_CHECKING:
    from .decisions import Hint

__all__ = ["DISAGREE_SE", "EVALUATORS", "NET_KEEPS", "NO_CALL_VALUE", "Comparison", "NetAction", "NetHint", "active_net",
           "compare", "head_output", "net_hint", "net_value"]

EVALUATORS = ("search", "net", "both")
NET_KEEPS = 84  # keeps valued at a keep decision: every keep of a 9-card hand (C(9, 6)); a 13-card one, the best 84
DISAGREE_SE = 2.0  # the net disagrees with the search where its value is further than this many SEs from the search's
NO_CALL_VALUE = ("the net does not value this call: the equity tables settled no call for hands like it here (the "
                 "net player calls as heuristic); use --evaluator search")
_BY_NET = "net"
_BY_TABLES = "equity tables"


def active_net() -> NetWeights:
    """The net a hint reads (:func:`~smear_sim.engine.net_weights.net_path`): one line where there is none."""
    path = net_path()
    if not path.exists():
        raise SmearError(f"no net weights at {path}: train one (tools/train_net.py) or name one with SMEAR_SIM_NET; "
                         "use --evaluator search meanwhile")
    return load_net(path)


@dataclass(frozen=True)
class NetAction:
    """One legal action and the net's P(win the game) of it (``keep``: for a trump, the six cards kept with it)."""

    action: Any
    win: float | None  # None for the pass left after a moon, the only call, which the tables do not weigh
    keep: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {"action": self.action}
        if self.keep is not None:
            row["keep"] = list(self.keep)
        win = None if self.win is None else round(self.win, 4)
        row |= {"points": None, "points_se": None, "win": win, "win_se": None if win is None else 0}
        return row


@dataclass(frozen=True)
class NetHint:
    """Every legal action of ``seat``'s ``decision``, best first, valued by the net (or, for a call, by the equity
    tables: ``valued_by``)."""

    seat: int
    decision: str
    actions: tuple[NetAction, ...]
    valued_by: str
    net: str  # the weights' digest
    seconds: float = field(default=0.0, compare=False)

    @property
    def best(self) -> Any:
        return self.actions[0].action

    def to_json(self) -> dict[str, Any]:
        """The hint's JSON shape (docs/formats.md, "A seat's view"); ``milliseconds`` is the only timing field."""
        return {"seat": self.seat, "decision": self.decision, "evaluator": "net", "valued_by": self.valued_by,
                "net": self.net, "actions": [a.to_json() for a in self.actions], "best": self.best,
                "milliseconds": round(self.seconds * 1000, 2)}


# -- the heads -----------------------------------------------------------------------------------------


class _Evaluator:
    """The net's heads on one view, with the scratch arrays of the forward pass made once."""

    def __init__(self, net: NetWeights, view: SeatView) -> None:
        from ..kernels.net import new_work

        self.view = view
        self.card = tuple(net["card"])
        self.keep = tuple(net["keep"])
        hidden = max(net["card"].hidden, net["keep"].hidden)
        self.acc = np.empty(hidden, np.float32)
        self.hidden = np.empty(hidden, np.float32)
        self.tensor = np.empty(VT_SIZE, np.float32)
        self.state = np.zeros(L.ST_SIZE, np.int64)
        self.work = new_work()
        self.rules = view.rules.to_array()
        self.calls = np.array([parse_call(b) for b in view.bids], dtype=np.int64)
        mine = view.kitty is not None and view.bidder == view.seat
        self.kitty = np.uint64(mask_of(view.kitty) if mine else 0)

    def load_kernels(self) -> None:
        """Run each kernel once on scratch (they load from Numba's cache the first time, in tenths of a second)."""
        from ..kernels.net import before_play_state, forward, write_view_tensor

        h = self.card[1].shape[0]
        forward(self.card, np.zeros(VT_SIZE, np.float32), self.acc[:h], self.hidden[:h],
                np.empty(len(self.card[5]), np.float32))
        before_play_state(self.state, 0, np.uint64(0), 0, self.calls, 0, 0, 0, -1, 0, -1)
        write_view_tensor(self.tensor, self.state, 0, self.kitty, self.rules, self.work)

    def _run(self, head: tuple, n_out: int, x: np.ndarray) -> np.ndarray:
        from ..kernels.net import forward

        h = head[1].shape[0]
        out = np.empty(n_out, np.float32)
        forward(head, x, self.acc[:h], self.hidden[:h], out)
        return out

    def cards(self) -> np.ndarray:
        """The card head's 54 outputs on the view's tensor."""
        return self._run(self.card, len(self.card[5]), view_tensor(self.view))

    def keep_tensor(self, trump: int, keep: tuple[int, ...]) -> np.ndarray:
        """The view tensor after the seat keeps ``keep`` with ``trump``, as the training data writes it."""
        from ..kernels.net import before_play_state, write_view_tensor

        v = self.view
        assert v.bidder is not None and v.bid is not None
        before_play_state(self.state, v.seat, np.uint64(mask_of(keep)), v.dealer, self.calls, len(self.calls),
                          v.scores_before[0], v.scores_before[1], v.bidder, parse_call(v.bid), trump)
        write_view_tensor(self.tensor, self.state, v.seat, self.kitty, self.rules, self.work)
        return self.tensor

    def keep_value(self, trump: int, keep: tuple[int, ...]) -> float:
        """The keep head's P(win) of keeping ``keep`` with ``trump``."""
        return float(self._run(self.keep, 1, self.keep_tensor(trump, keep))[0])


def head_output(head: NetHead, x: np.ndarray) -> np.ndarray:
    """One head's outputs on the tensor ``x`` (the kernels' forward pass)."""
    from ..kernels.net import forward

    acc, hidden = np.empty(head.hidden, np.float32), np.empty(head.hidden, np.float32)
    out = np.empty(head.n_out, np.float32)
    forward(tuple(head), np.ascontiguousarray(x, dtype=np.float32), acc, hidden, out)
    return out


def _keep_scores(view: SeatView) -> np.ndarray:
    from ..kernels.players import policy_tables

    return policy_tables(view.rules.to_array())[1]


def _best_keeps(view: SeatView, t: int, limit: int, scores: np.ndarray) -> list[tuple[int, ...]]:
    """The legal keeps with ``t`` of highest keep score, ``limit`` at most (the search hint's order)."""
    keeps = list(ref.legal_keeps(view.held_before_play, t))
    if len(keeps) <= limit:
        return sorted(keeps)
    keeps.sort(key=lambda keep: (-sum(int(scores[t, c]) for c in keep), keep))
    return keeps[:limit]


# -- entry point ---------------------------------------------------------------------------------------


def net_hint(view: SeatView | Mapping[str, Any], *, net: NetWeights | None = None) -> NetHint:
    """Value every legal action of ``view``'s decision by the net (module docstring); ``net`` defaults to
    :func:`active_net`. A call needs the equity bidder's tables at hand (the command line makes them first)."""
    from .decisions import KEEP_CANDIDATES

    if isinstance(view, Mapping):
        view = parse_view(view)
    if not isinstance(view, SeatView):
        raise SmearError("net_hint() takes a seat's view: a SeatView, or its JSON object (docs/formats.md)")
    if net is None:
        net = active_net()
    decision = decision_of(view)
    evaluator = None
    if decision != CALL:
        evaluator = _Evaluator(net, view)
        evaluator.load_kernels()  # the kernels load from Numba's cache on first use: start-up, not the decision's
    start = time.perf_counter()
    valued_by = _BY_NET
    if evaluator is None:
        actions = _call_values(view)
        valued_by = _BY_TABLES
    else:
        if decision == CARD:
            out = evaluator.cards()
            actions = [NetAction(a, float(out[parse_card(a)])) for a in legal_actions(view)]
        elif decision == KEEP:
            assert view.trump is not None
            keeps = _best_keeps(view, view.trump, NET_KEEPS, _keep_scores(view))
            actions = [NetAction([card_name(c) for c in keep], evaluator.keep_value(view.trump, keep))
                       for keep in keeps]
        else:
            scores = _keep_scores(view)
            actions = []
            for t in range(4):
                valued = [(evaluator.keep_value(t, keep), keep)
                          for keep in _best_keeps(view, t, KEEP_CANDIDATES, scores)]
                win, keep = max(valued, key=lambda pair: pair[0])  # the first of equals
                actions.append(NetAction(SUIT_NAMES[t], win, tuple(card_name(c) for c in keep)))
    order = sorted(range(len(actions)), key=lambda a: (-(actions[a].win or 0.0), a))
    return NetHint(view.seat, decision, tuple(actions[a] for a in order), valued_by, net.digest,
                   time.perf_counter() - start)


def _call_values(view: SeatView) -> list[NetAction]:
    """Each legal call's P(win the game) by the equity bidder's tables, as that bidder weighs it
    (:func:`smear_sim.kernels.players.equity.bid`)."""
    from ..core.players import parse_policies
    from ..kernels.classes import hand_class
    from ..kernels.players.equity import call_win, situation, slot_of
    from .session_tables import player_bidder_arrays

    rules = view.rules
    arrays = player_bidder_arrays(parse_policies("equity"), rules)
    header, bucket_of_class, _, cell_n = arrays[:4]
    calls = np.array([parse_call(b) for b in view.bids], dtype=np.int64)
    if (calls == L.MOON).any():
        return [NetAction(call, None) for call in legal_actions(view)]  # only a pass is left: nothing to weigh
    n_calls = len(calls)
    max_points = rules.max_points
    decision = (n_calls * (2 * max_points + 1) + situation(calls, n_calls)) * header[L.BM_BUCKETS]
    decision += bucket_of_class[hand_class(np.uint64(mask_of(view.hand)))]
    settled = arrays[7]
    if header[L.BM_LOADED] != 1 or cell_n[decision] < header[L.BM_MIN_COUNT] or (
            header[L.BM_KEEP_Z] > 0 and settled[decision] < 0):  # where equity calls as heuristic
        raise SmearError(NO_CALL_VALUE)
    us, them = view.scores_before[view.team], view.scores_before[1 - view.team]
    next_dealer = 1 if n_calls & 1 else 0  # the opener deals the next hand: this seat's team when even
    n_slots = max_points + 2
    actions = []
    for call in legal_actions(view):
        slot = slot_of(parse_call(call), max_points)
        win = call_win(arrays, decision * n_slots + slot, us, them, next_dealer, rules.target)
        actions.append(NetAction(call, float(win)))
    return actions


def net_value(view: SeatView, net: NetWeights, action: Any, keep: Any = None) -> float:
    """The net's P(win) of one legal action of ``view``'s decision that is not a call: a card, a keep (its cards),
    or a trump suit with its ``keep``."""
    evaluator = _Evaluator(net, view)
    decision = decision_of(view)
    if decision == CARD:
        return float(evaluator.cards()[parse_card(action)])
    if decision == KEEP:
        assert view.trump is not None
        return evaluator.keep_value(view.trump, tuple(sorted(parse_cards(list(action)))))
    if decision == TRUMP:
        return evaluator.keep_value(parse_suit(str(action)), tuple(sorted(parse_cards(list(keep)))))
    raise SmearError("a call has no net value of its own: see net_hint()")


# -- side by side --------------------------------------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return sorted(a) == sorted(b)
    return a == b


@dataclass(frozen=True)
class Comparison:
    """A search's hint and the net's: ``net_win[i]`` is the net's value of the search's action ``i``; ``marked[i]``
    says the two disagree on it (module docstring)."""

    search: Hint
    net: NetHint
    net_win: tuple[float | None, ...]
    marked: tuple[bool, ...]

    @property
    def disagree(self) -> bool:
        return any(self.marked)

    def to_json(self) -> dict[str, Any]:
        obj = self.search.to_json()
        for row, win, mark in zip(obj["actions"], self.net_win, self.marked, strict=True):
            row["net_win"] = None if win is None else round(win, 4)
            row["net_disagrees"] = mark
        obj["evaluator"] = "both"
        obj["net_best"] = self.net.best
        if self.net.actions[0].keep is not None:
            obj["net_best_keep"] = list(self.net.actions[0].keep)
        obj["net_valued_by"] = self.net.valued_by
        obj["net"] = self.net.net
        obj["net_disagrees"] = self.disagree
        obj["net_milliseconds"] = round(self.net.seconds * 1000, 2)
        return obj


def compare(view: SeatView, search: Hint, net: NetWeights, net_result: NetHint | None = None) -> Comparison:
    """``search`` beside the net's values of the same actions (``--evaluator both``)."""
    if net_result is None:
        net_result = net_hint(view, net=net)
    by_net = {}
    if net_result.decision in (CALL, CARD, KEEP):
        by_net = {_key(a.action, net_result.decision): a.win for a in net_result.actions}
    wins = []
    for a in search.actions:
        if _key(a.action, net_result.decision) in by_net:
            wins.append(by_net[_key(a.action, net_result.decision)])
        else:
            wins.append(net_value(view, net, a.action, a.keep))
    net_best_trump = net_result.decision == TRUMP
    marked = []
    for i, a in enumerate(search.actions):
        outside = wins[i] is not None and abs(wins[i] - a.win.value) > DISAGREE_SE * a.win.se
        search_best = i == 0
        if net_best_trump:  # a trump is the net's best by its suit (its keep may differ)
            net_best = a.action == net_result.best
        else:
            net_best = _same(a.action, net_result.best)
        marked.append(bool(outside or search_best != net_best))
    return Comparison(search, net_result, tuple(wins), tuple(marked))


def _key(action: Any, decision: str) -> str:
    if decision == CALL:
        return call_name(parse_call(action))
    return repr(sorted(action)) if isinstance(action, list | tuple) else repr(action)
