"""The learned net's values of a seat's view, for the page: ``"evaluator": "net"`` (or ``"both"``) on ``POST
/api/hint`` and ``POST /api/table/ID/hint``.

The net's hint (:mod:`smear_sim.analysis.net_hint`) reads its heads on the seat's view tensor: a few milliseconds,
no worlds played out. So it runs in the request's own worker thread, outside the simulator's turns (as a bot's move
does), and a hint asked while a review runs does not wait for the review's slices. The page asks it first and shows
its values at once, then asks the search's.

The weights are the ``net`` player's (:func:`smear_sim.analysis.session_tables.loaded_net`: ``SMEAR_SIM_NET`` or the
shipped ones), read once; :func:`warm_net` loads them and the net's kernels as the server starts, so the first hint
is as quick as the next. A call is valued by the equity tables, as the net player calls: where they settled no call
for hands like this one, or are not made for the rules, that is a one-line error (400).
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..analysis.net_hint import EVALUATORS, NetHint, compare, net_hint
from ..analysis.review import mark_of
from ..core.errors import SmearError
from ..core.rules import Rules
from ..reference.view import CALL, SeatView, decision_of

__all__ = ["DEFAULT_EVALUATOR", "EVALUATORS", "check_evaluator", "net_costs", "net_taken", "net_values",
           "search_with_net", "warm_net"]

DEFAULT_EVALUATOR = "search"  # as smear-sim hint: the page's hints were the search's before the net came


def check_evaluator(evaluator: str | None, samples: int | None = None, playout: str | None = None) -> str:
    """The evaluator asked (``search`` where none is), or a one-line SmearError: not one of :data:`EVALUATORS`, or a
    search's option given to the net alone (the command line's message)."""
    if evaluator is None:
        return DEFAULT_EVALUATOR
    if evaluator not in EVALUATORS:
        raise SmearError(f"evaluator must be search, net or both, got {evaluator!r}")
    if evaluator == "net":
        for name, given in (("samples", samples), ("playout", playout)):
            if given is not None:
                raise SmearError(f"{name} is for the search; evaluator net plays nothing out (use both)")
    return evaluator


def _net():
    from ..analysis.session_tables import loaded_net

    return loaded_net()


def _check_call_tables(view: SeatView) -> None:
    """A call is valued by the equity tables: refused in one line where they are not at hand for the view's rules
    (they are made in minutes, which is not for a request)."""
    from ..analysis.session_tables import tables_ready

    if decision_of(view) == CALL and not tables_ready(view.rules):
        raise SmearError(f"the net values a call by the equity player's tables, and those for {view.rules.summary()} "
                         "are not made yet: make them once with 'smear-sim simulate --hands 1000 --policy equity' "
                         "and these rules; ask for the search's hint meanwhile")


def net_values(view: SeatView) -> NetHint:
    """Every legal action of ``view``'s decision valued by the net (a call by the equity tables), best first; a
    one-line SmearError where there is no net, or no value for a call."""
    net = _net()  # no weights: one line, before any work
    _check_call_tables(view)
    return net_hint(view, net=net)


def net_costs(result: NetHint) -> list[dict[str, Any]]:
    """For each action of ``result`` in its order: ``win``, the best's P(win) minus its own (never negative), with
    ``points`` null (the net gives P(win) only) and the ``mark`` a review gives that cost; all null where the action
    has no value."""
    best = result.actions[0].win
    costs = []
    for action in result.actions:
        if action.win is None or best is None:
            costs.append({"points": None, "win": None, "mark": None})
            continue
        win = max(best - action.win, 0.0)
        costs.append({"points": None, "win": round(win, 5), "mark": mark_of(win)})
    return costs


def net_taken(view: SeatView, result: NetHint, action: Any) -> dict[str, Any]:
    """``action``'s cost by the net against its best, and its mark (what the tutor warns by): ``taken``."""
    from ..analysis.net_hint import _key, net_value

    decision = result.decision
    if decision == "trump":
        rows = [a for a in result.actions if a.action == action]
        win = rows[0].win if rows else None
    else:
        by_key = {_key(a.action, decision): a.win for a in result.actions}
        key = _key(action, decision)
        win = by_key[key] if key in by_key else net_value(view, _net(), action)
    best = result.actions[0].win
    cost = None if win is None or best is None else max(best - win, 0.0)
    return {"action": action, "points": None, "win": None if cost is None else round(cost, 5),
            "mark": None if cost is None else mark_of(cost)}


def search_with_net(view: SeatView, search, result: NetHint | None = None) -> dict[str, Any]:
    """The search's hint with the net's value of each action beside it (``evaluator`` ``both``: the command line's
    ``--evaluator both`` object)."""
    if result is None:
        result = net_values(view)
    return compare(view, search, _net(), result).to_json()


def warm_net(rules: Rules | None = None) -> bool:
    """Load the net and its kernels (from Numba's cache, or compiled) on a keep and a card of a sample hand, so that
    the first hint a person asks is as quick as the next; False, doing nothing, where no net loads."""
    from ..reference.hand import seat_of_bid
    from ..reference.record import replay_position
    from ..reference.view import view_of
    from .warmup import sample_hand

    try:
        _net()
    except SmearError:  # no net here: the net's hints answer that in one line
        return False
    record = sample_hand(rules)
    bidder = replay_position(record).bidder
    seat = next(s for s in range(4) if s != bidder)
    net_values(view_of(record, seat, discards=False))  # a keep: the keep head, the state after a keep
    net_values(view_of(record, bidder, plays=0))  # a card: the card head on the view tensor
    with contextlib.suppress(SmearError):  # a call: the equity tables' kernels (where they settled a call)
        net_values(view_of(record, seat_of_bid(record.dealer, 0), bids=0))
    return True
