"""The page's practice table: a person at one seat, bots at the other three, a whole game hand by hand.

A :class:`Table` holds one game in progress: its seed, the person's seat, the bots' player, the hands finished and
the hand being played, as a hand record in progress. The rules are the reference engine's
(:mod:`smear_sim.reference`): the page only ever offers the actions :meth:`Table.state` lists as legal, and
:meth:`Table.act` refuses anything else (out of turn, illegal) with a one-line :class:`SmearError`, leaving the
table as it was. The bots decide with the kernels' players (:func:`smear_sim.analysis.bots.bot_action`), one
decision per :meth:`Table.bot_step`, so the page shows their calls and cards one at a time, at its own pace.

Deals. Hand ``k`` (from 0) of a table with seed ``S`` is dealt from the deal seed ``S + k`` (:func:`deal`): the page
shows it, and a new table from that seed deals the same cards again (from 0-0, seat 3 dealing), at the same seat
or another. Every finished hand is saved at once as the game record so far (:class:`smear_sim.web.games.GameFolder`).

Limits (:class:`Tables`). At most ``max_tables`` games are in play; a table whose game is over holds no slot (the
last ``max_tables`` of them stay open, so that their page still shows the end), and a person may close a table
(:meth:`Tables.close`). A table untouched for ``idle_expiry`` seconds is closed at the next request. A request for
a closed table gets :class:`TableGone`: 410 for one closed (the last ``REMEMBERED`` are remembered), 404 for one
never opened here (or before the server restarted). Opening one more than the cap gets :class:`TooManyTables`
(503).
"""

from __future__ import annotations

import random
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..analysis.bots import bot_action
from ..analysis.review import mark_of
from ..core.calls import call_name, parse_call
from ..core.cards import SUIT_NAMES, card_name, parse_card
from ..core.errors import CardError, OutputError, SmearError
from ..core.players import FAST_POLICIES, NET_POLICIES, PLAYERS, parse_policy, player
from ..core.rules import Rules
from ..reference import hand as ref
from ..reference.game import FIRST_DEALER, next_dealer
from ..reference.record import GameRecord, HandRecord, replay, replay_position
from ..reference.view import SeatView, legal_actions, parse_view
from .checks import check_equity_tables, check_net
from .games import GameFolder

__all__ = ["BOT_PLAYERS", "DEFAULT_IDLE_EXPIRY", "DEFAULT_MAX_TABLES", "IDLE_EXPIRY_RANGE", "MAX_PIMC",
           "MAX_TABLES_RANGE", "SEARCH_BOTS", "Table", "TableGone", "Tables", "TooManyTables",
           "bot_cost", "deal", "hint_costs", "hint_policy"]

DEFAULT_MAX_TABLES = 16  # each a few KB, but each may run bots and hints on the shared simulator
MAX_TABLES_RANGE = (1, 1000)
DEFAULT_IDLE_EXPIRY = 3600  # seconds untouched before a table is closed
IDLE_EXPIRY_RANGE = (10, 7 * 24 * 3600)
REMEMBERED = 1024  # ids of expired tables kept, to answer 410 rather than 404
BOT_PLAYERS = tuple(p.name for p in PLAYERS if p.bot)  # offered first; any fast player, or pimc:K, is taken too
# search players, offered with their cost (a player that sees every hand is no fair seat)
SEARCH_BOTS = tuple(p.name for p in PLAYERS if p.searches and not p.sees_all)
MAX_PIMC = 64  # sampled deals a search bot plays out per card here: about K double-dummy solves a card
MAX_SEED = 2**53  # a seed the page's JavaScript holds exactly, and S + hands still fits
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class TableGone(SmearError):
    """A table that is not open: ``http_status`` 410 once it was closed, 404 when it was never opened here."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.http_status = status


class TooManyTables(SmearError):
    """The server has its cap of games in play."""

    http_status = 503


def deal(seed: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The four hands (sorted) and the kitty dealt from ``seed``: the 54 cards shuffled by Python's Mersenne Twister
    seeded with it, nine to each seat from seat 0, then four to the kitty."""
    deck = list(range(54))
    random.Random(seed).shuffle(deck)
    return tuple(tuple(sorted(deck[9 * s: 9 * s + 9])) for s in range(4)), tuple(sorted(deck[36:40]))


def _bots(value: Any, rules: Rules) -> str:
    if not isinstance(value, str):
        raise SmearError(f"bots must be a player's name such as {' or '.join(BOT_PLAYERS)} or pimc:8, "
                         f"got {str(value)[:60]}")
    spec = parse_policy(value)
    if spec.name in SEARCH_BOTS:
        if spec.param > MAX_PIMC:
            raise SmearError(f"bots {spec.name}:{spec.param} plays out too many deals a card for the page: at most "
                             f"{spec.name}:{MAX_PIMC}")
    elif spec.name not in FAST_POLICIES and spec.name not in NET_POLICIES:
        searchers = " or ".join(f"{name}:K" for name in SEARCH_BOTS)
        raise SmearError(f"bots {value!r} is not offered: choose {', '.join(BOT_PLAYERS)}, {searchers}")
    name = str(spec)
    check_equity_tables(name, rules)
    check_net(name)
    return name


def bot_cost(bots: str) -> str:
    """What a bot's turn costs, in words, for the page."""
    spec = parse_policy(bots)
    if player(spec.name).reads_net:
        return "the learned player: each decision reads the net (milliseconds); it calls by the equity tables"
    if player(spec.name).searches:
        k = spec.param
        return (f"a search player: each of its cards plays out {k} sampled deals double dummy (about {k} solves a "
                "card, up to a second or more); its first use compiles the solver (a minute or more)")
    return "a fast player: a kernel call of well under a millisecond a decision"


@dataclass
class _Hand:
    """The hand being played, as a record in progress."""

    seed: int
    dealer: int
    scores_before: tuple[int, int]
    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    bids: list = field(default_factory=list)
    trump: int | None = None
    discards: list = field(default_factory=lambda: [None] * 4)
    plays: list = field(default_factory=list)
    bot_moves: int = 0  # keys each bot decision's random stream

    def record(self, rules: Rules) -> HandRecord:
        """The hand so far as a record; discards only once every seat has kept its six."""
        discards = tuple(self.discards) if all(d is not None for d in self.discards) else None
        return HandRecord(rules, self.dealer, self.scores_before, self.hands, self.kitty, tuple(self.bids),
                          self.trump, discards, tuple(self.plays) if discards is not None else None)

    @property
    def bidder(self) -> int | None:
        won = ref.auction_winner(self.bids) if len(self.bids) == 4 else None
        return None if won is None else ref.seat_of_bid(self.dealer, won[0])


class Table:
    """One game at the practice table (module docstring). Every method is called holding :attr:`lock`."""

    def __init__(self, table_id: str, seat: int, bots: str, seed: int, rules: Rules) -> None:
        self.id = table_id
        self.seat = seat
        self.bots = bots
        self.seed = seed
        self.rules = rules
        self.lock = threading.Lock()
        self.created = datetime.now(UTC)
        self.touched = time.monotonic()
        self.finished: list[HandRecord] = []
        self.results: list[ref.HandResult] = []
        self.step = 0  # actions taken, by anyone: a hint answers for one step
        # The saved game's name ends with its own random token, not the table's id: the games folder is listed to
        # anyone who can reach the page, and the id is what lets one act at the table.
        self.file_token = secrets.token_urlsafe(9)
        self.saved: str | None = None  # the file name in the games folder, once the first hand is saved
        self.save_error: str | None = None
        self.bot_ms: float | None = None
        self._current_record: HandRecord | None = None  # the hand just finished, until the next is dealt
        self.hand = self._deal(FIRST_DEALER, (0, 0))

    # -- the game --------------------------------------------------------------------------------------

    def _deal(self, dealer: int, scores: tuple[int, int]) -> _Hand:
        seed = self.seed + len(self.finished)
        hands, kitty = deal(seed)
        return _Hand(seed, dealer, scores, hands, kitty)

    @property
    def scores(self) -> tuple[int, int]:
        return tuple(self.results[-1].scores_after) if self.results else (0, 0)

    @property
    def winner(self) -> int | None:
        return self.results[-1].winner if self.results else None

    @property
    def hand_over(self) -> bool:
        """Whether the hand dealt last is finished (and saved, where the folder allows)."""
        return self._current_record is not None

    def turn(self) -> tuple[int, str] | None:
        """``(seat, decision)`` due now, None once the hand is over."""
        h = self.hand
        if self.hand_over:
            return None
        if len(h.bids) < 4:
            return ref.seat_of_bid(h.dealer, len(h.bids)), "call"
        bidder = h.bidder
        if bidder is None:
            return None
        if h.trump is None:
            return bidder, "trump"
        if h.discards[self.seat] is None:
            return self.seat, "keep"  # the bots keep theirs as trump is named: every seat discards at once
        seat = replay_position(h.record(self.rules)).to_play
        return None if seat is None else (seat, "card")

    def view(self) -> SeatView:
        """The person's view at its turn (docs/formats.md, "A seat's view"): what a hint is asked about."""
        h = self.hand
        obj: dict[str, Any] = {
            "rules": self.rules.changed(), "dealer": h.dealer, "scores_before": list(h.scores_before),
            "seat": self.seat, "hands": [[card_name(c) for c in h.hands[s]] if s == self.seat else None
                                         for s in range(4)],
            "kitty": [card_name(c) for c in h.kitty] if h.bidder == self.seat else None, "bids": list(h.bids),
        }
        if h.trump is not None:
            obj["trump"] = SUIT_NAMES[h.trump]
            own = h.discards[self.seat]
            obj["discards"] = [[card_name(c) for c in own] if s == self.seat and own is not None else None
                               for s in range(4)]
            obj["plays"] = [card_name(c) for c in h.plays]
        return parse_view(obj)

    def act(self, action: Any) -> None:
        """The person's action at their turn; a one-line SmearError (the table unchanged) if it is not their turn
        or not legal."""
        due = self.turn()
        if due is None:
            raise SmearError("the hand is over: no action is due (ask for the next hand)" if self.winner is None
                             else f"the game is over: team {self.winner} won")
        seat, decision = due
        if seat != self.seat:
            raise SmearError(f"not your turn: seat {seat} is to {_DUE[decision]}; ask for the bots' moves")
        legal = legal_actions(self.view())
        chosen = _match(decision, action, legal)
        self._apply(seat, decision, chosen)

    def hint_question(self, action: Any = None) -> tuple[SeatView, Any]:
        """The person's view for a hint at their turn, and ``action`` (to value besides, as the tutor asks) as the
        legal action it names; a one-line SmearError when it is not their turn."""
        due = self.turn()
        if due is None or due[0] != self.seat:
            raise SmearError("no decision of yours is due: a hint is for your turn" if due is None else
                             f"not your turn: seat {due[0]} is to {_DUE[due[1]]}; a hint is for your turn")
        view = self.view()
        return view, None if action is None else _match(due[1], action, legal_actions(view))

    def bot_step(self) -> dict[str, Any]:
        """The next bot's decision, made and applied: ``{"seat", "decision", "action"}``. A one-line SmearError if
        it is the person's turn or the hand is over."""
        due = self.turn()
        if due is None:
            raise SmearError("the hand is over: no bot is to move (ask for the next hand)")
        seat, decision = due
        if seat == self.seat:
            raise SmearError(f"it is your turn, seat {seat}, to {_DUE[decision]}: no bot is to move")
        started = time.perf_counter()
        action = self._bot(seat, decision)
        self._apply(seat, decision, action)
        self.bot_ms = round(1000 * (time.perf_counter() - started), 2)
        return {"seat": seat, "decision": decision, "action": action}

    def _bot(self, seat: int, decision: str) -> Any:
        h = self.hand
        h.bot_moves += 1
        return bot_action(h.record(self.rules), seat, decision, self.bots, seed=h.seed, index=h.bot_moves)

    def _apply(self, seat: int, decision: str, action: Any) -> None:
        h = self.hand
        self.step += 1
        if decision == "call":
            h.bids.append(action)
            if len(h.bids) == 4 and h.bidder is None:
                self._finish()
        elif decision == "trump":
            h.trump = SUIT_NAMES.index(action)
            for other in range(4):  # the bots keep their six at once, as every seat does once trump is named
                if other != self.seat:
                    self._keep(other, self._bot(other, "keep"))
        elif decision == "keep":
            self._keep(seat, action)
        else:
            h.plays.append(parse_card(action))
            if len(h.plays) == 24:
                self._finish()

    def _keep(self, seat: int, keep: list[str]) -> None:
        h = self.hand
        held = list(h.hands[seat]) + (list(h.kitty) if seat == h.bidder else [])
        kept = {parse_card(c) for c in keep}
        h.discards[seat] = tuple(c for c in held if c not in kept)

    def _finish(self) -> None:
        record = self.hand.record(self.rules)
        self._current_record = record
        self.finished.append(record)
        self.results.append(replay(record))

    def next_hand(self) -> None:
        """Deal the next hand of the game: the score carried, the deal passed left."""
        if self._current_record is None:
            raise SmearError("the hand is still being played: finish it first")
        if self.winner is not None:
            raise SmearError(f"the game is over: team {self.winner} won {self.scores[0]}-{self.scores[1]}; start "
                             "a new table")
        self.step += 1
        self._current_record = None
        self.hand = self._deal(next_dealer(self.hand.dealer), self.scores)

    # -- what is saved and shown -----------------------------------------------------------------------

    def game_record(self) -> dict[str, Any]:
        """The finished hands as a game record (docs/formats.md), with the table's ``practice`` entry."""
        record = GameRecord(self.rules, (0, 0), FIRST_DEALER, tuple(self.finished)).to_json()
        record["practice"] = {"seat": self.seat, "bots": self.bots, "seed": self.seed,
                              "scores_after": list(self.scores), "winner": self.winner,
                              "started": self.created.isoformat(timespec="seconds")}
        return record

    def file_name(self) -> str:
        return f"game-{self.created:%Y%m%d-%H%M%S}-{self.file_token}.json"

    def state(self) -> dict[str, Any]:
        """The table as the person sees it: their own cards, the calls, trump, the tricks; the legal actions when
        it is their turn; the whole hand, its score and its record once it is over."""
        h = self.hand
        due = self.turn()
        over = self.hand_over
        shown: dict[str, Any] = {
            "id": self.id, "seat": self.seat, "bots": self.bots, "bot_cost": bot_cost(self.bots), "seed": self.seed,
            "deal_seed": h.seed, "rules": self.rules.changed(), "target": self.rules.target,
            "hand_number": len(self.finished) + (0 if over else 1), "step": self.step, "dealer": h.dealer,
            "scores_before": list(h.scores_before), "scores": list(self.scores), "winner": self.winner,
            "game_over": self.winner is not None, "hand_over": over,
            "turn": None if due is None else {"seat": due[0], "decision": due[1], "yours": due[0] == self.seat},
            "legal": None, "bids": list(h.bids), "bidder": h.bidder,
            "bid": None if h.bidder is None else ref.auction_winner(h.bids)[1],
            "trump": None if h.trump is None else SUIT_NAMES[h.trump],
            "hand": [card_name(c) for c in h.hands[self.seat]],
            "kitty": [card_name(c) for c in h.kitty] if h.bidder == self.seat or over else None,
            "held": None, "tricks": [], "trick": None, "saved": self.saved, "save_error": self.save_error,
            "bot_ms": self.bot_ms,
            "history": [{"hand": i + 1, "dealer": r.dealer, "scores_before": list(r.scores_before),
                         "scores_after": list(res.scores_after), "bidder": res.bidder, "bid": res.bid}
                        for i, (r, res) in enumerate(zip(self.finished, self.results, strict=True))],
        }
        if h.discards[self.seat] is not None and h.trump is not None and all(d is not None for d in h.discards):
            position = replay_position(h.record(self.rules))
            shown["held"] = [card_name(c) for c in position.held[self.seat]]
            shown["tricks"] = [t.to_json() for t in position.tricks]
            shown["trick"] = {"leader": position.leader, "cards": [card_name(c) for c in position.trick]}
        elif h.trump is not None and h.discards[self.seat] is None:
            shown["held"] = [card_name(c) for c in (list(h.hands[self.seat]) +
                                                    (list(h.kitty) if h.bidder == self.seat else []))]
        if due is not None and due[0] == self.seat:
            shown["legal"] = legal_actions(self.view())
        if over:
            shown["result"] = self.results[-1].to_json()
            shown["record"] = self._current_record.to_json()
            shown["held"] = []
        return shown


_DUE = {"call": "call", "trump": "name trump", "keep": "choose the cards to keep", "card": "play a card"}


def _match(decision: str, action: Any, legal: list) -> Any:
    """``action`` as the legal action it names (written as in a record), or a one-line SmearError."""
    def listed() -> str:
        names = [" ".join(a) if isinstance(a, list) else str(a) for a in legal]
        return ", ".join(names[:12]) + (f" (and {len(names) - 12} more)" if len(names) > 12 else "")

    if action is None:
        raise SmearError(f"action is missing: give your {decision}, one of {listed()}")
    try:
        if decision == "call":
            if isinstance(action, bool) or not isinstance(action, str | int):
                raise SmearError(f"a call is a number, \"pass\" or \"moon\", got {str(action)[:60]}")
            chosen: Any = call_name(parse_call(action))
        elif decision == "trump":
            if not isinstance(action, str) or action.strip().upper() not in SUIT_NAMES:
                raise SmearError(f"trump is a suit letter, one of {' '.join(SUIT_NAMES)}, got {str(action)[:60]}")
            chosen = action.strip().upper()
        elif decision == "keep":
            if not isinstance(action, list) or not all(isinstance(c, str) for c in action):
                raise SmearError("a keep is the list of the six cards you keep, e.g. [\"AH\", \"KH\", ...]")
            chosen = sorted((card_name(parse_card(c)) for c in action), key=parse_card)
        else:
            if not isinstance(action, str):
                raise SmearError(f"a card is a card's name such as \"AH\", got {str(action)[:60]}")
            chosen = card_name(parse_card(action))
    except CardError as exc:
        raise SmearError(f"{exc}") from None
    if decision == "keep":
        ok = any(sorted(a, key=parse_card) == chosen for a in legal)
    else:
        ok = chosen in legal
    if not ok:
        shown = " ".join(chosen) if isinstance(chosen, list) else chosen
        raise SmearError(f"{shown} is not a legal {decision} here; the legal ones are {listed()}")
    return chosen


def hint_costs(hint: Any) -> list[dict[str, Any]]:
    """Each action's cost against the best (points and P(win), best minus it) and its mark, as a review marks it."""
    costs = []
    for points, win in hint.costs:
        costs.append({"points": round(points.value, 4), "win": round(win.value, 5),
                      "mark": mark_of(max(win.value, 0.0))})
    return costs


class Tables:
    """The open tables, with their cap and idle expiry (module docstring); ``clock`` is for the tests."""

    def __init__(self, games: GameFolder | None, *, max_tables: int = DEFAULT_MAX_TABLES,
                 idle_expiry: float = DEFAULT_IDLE_EXPIRY, clock: Callable[[], float] = time.monotonic) -> None:
        self.games = games
        self.max_tables = max_tables
        self.idle_expiry = idle_expiry
        self.clock = clock
        self._open: OrderedDict[str, Table] = OrderedDict()
        self._closed: OrderedDict[str, str] = OrderedDict()  # the last REMEMBERED tables closed, and why
        self._lock = threading.Lock()

    def _close(self, table_id: str, why: str) -> None:
        del self._open[table_id]
        self._closed[table_id] = why
        while len(self._closed) > REMEMBERED:
            self._closed.popitem(last=False)

    def _sweep(self) -> None:
        now = self.clock()
        for table_id, table in list(self._open.items()):
            if now - table.touched > self.idle_expiry:
                self._close(table_id, f"after {_duration(self.idle_expiry)} idle")
        over = [table_id for table_id, table in self._open.items() if table.winner is not None]  # oldest first
        for table_id in over[:max(0, len(over) - self.max_tables)]:
            self._close(table_id, "once its game was over")

    def _playing(self) -> int:
        """The tables whose game is still being played: the ones that hold a slot."""
        return sum(1 for table in self._open.values() if table.winner is None)

    def open(self, seat: int | None = None, bots: str | None = None, seed: int | None = None,
             rules: dict[str, Any] | None = None) -> Table:
        """A new table (``POST /api/table``, its fields read by :class:`smear_sim.web.schemas.TableBody`): seat 0,
        the heuristic bots, a random seed and the default rules where not given."""
        seat = 0 if seat is None else seat
        if not 0 <= seat <= 3:
            raise SmearError(f"seat must be your seat, 0 to 3 (seat 3 deals the first hand), got {seat}")
        seed = secrets.randbelow(1_000_000_000) if seed is None else seed
        if not 0 <= seed <= MAX_SEED:
            raise SmearError(f"seed must be a whole number from 0 to {MAX_SEED:,}, got {seed}")
        settings = Rules.from_mapping(rules or {}, source="rules")
        bots = _bots("heuristic" if bots is None else bots, settings)
        with self._lock:
            self._sweep()
            playing = self._playing()
            if playing >= self.max_tables:
                raise TooManyTables(f"the server has {playing} open tables, its cap: finish or close one, or wait "
                                    f"until one is idle for {_duration(self.idle_expiry)} (smear-sim serve "
                                    "--max-tables N raises the cap)")
            table_id = secrets.token_urlsafe(9)
            table = Table(table_id, seat, bots, seed, settings)
            table.touched = self.clock()
            self._open[table_id] = table
        return table

    def get(self, table_id: str) -> Table:
        """The open table ``table_id``, touched; :class:`TableGone` if it is not open."""
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            raise TableGone(f"no table {str(table_id)[:40]!r} here: start a new one", 404)
        with self._lock:
            self._sweep()
            table = self._open.get(table_id)
            if table is None:
                why = self._closed.get(table_id)
                if why is not None:
                    raise TableGone(f"table {table_id} was closed {why}; its finished hands are saved: start a new "
                                    "table", 410)
                raise TableGone(f"no table {table_id} here (the server may have restarted; finished hands are saved): "
                                "start a new one", 404)
            table.touched = self.clock()
            self._open.move_to_end(table_id)
            return table

    def close(self, table_id: str) -> None:
        """Close the open table ``table_id`` (``DELETE /api/table/{id}``): its slot is free at once, its finished
        hands stay saved; :class:`TableGone` if it is not open."""
        self.get(table_id)
        with self._lock:
            if table_id in self._open:
                self._close(table_id, "by its player")

    def __len__(self) -> int:
        with self._lock:
            return len(self._open)

    def save(self, table: Table) -> None:
        """Save ``table``'s finished hands as its game record (called holding the table's lock, after a hand)."""
        if self.games is None:
            return
        name = table.file_name()
        try:
            self.games.save(name, table.game_record())
            table.saved, table.save_error = name, None
        except (OSError, OutputError, SmearError) as exc:  # the game goes on; the page says the hand was not saved
            cause = exc.error if isinstance(exc, OutputError) else exc
            why = getattr(cause, "strerror", None) or type(cause).__name__  # no path: the page may be elsewhere
            table.save_error = f"the game could not be saved in the games folder (--games-dir): {why}"


def _duration(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)} h"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


# The decisions a hint is asked about at a table: every policy the hints model is a fast one.
def hint_policy(bots: str) -> str:
    """The player a table's hints model the other seats by: the bots' own, or a search player's fast twin
    (:attr:`smear_sim.core.players.Player.twin`: pimc bids as ``heuristic`` does, expert as ``equity``)."""
    spec = parse_policy(bots)
    return bots if player(spec.name).fast else player(spec.name).twin

