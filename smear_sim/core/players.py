"""The players by name: the registry of players (:data:`PLAYERS`) and the codes the kernels know them by.

A policy is a complete player (bidding, trump, discards, play). Each is one :class:`Player` record, as python-chess
keeps its variants: its name, its parameter, the parts it may leave out, the decisions it makes itself, whether it
reads tables, searches, is fast, may play out a hint's worlds. Every list of players (:data:`POLICIES`,
:data:`FAST_POLICIES`, :data:`TABLE_POLICIES`, the page's bots, the ``--policy`` help) is read off it, and the
kernels' dispatch is written from it (:mod:`smear_sim.kernels.players`). A new player is one entry here and one
module under ``smear_sim/kernels/players/`` that exports its decisions (docs/players.md).

The kernels dispatch on a code; people and files use the name. A policy may take one whole-number parameter,
written after a colon: ``pimc:16`` is the search player with 16 sampled deals a decision. The kernel code packs both:
``code = number + PARAM_SCALE * parameter``, where ``number`` is the name's index in :data:`POLICIES`; a policy
without a parameter has parameter 0, so its code is its number. ``expert`` may also leave out its parts
(:data:`EXPERT_PARTS`), to measure what each is worth: ``expert:16:no-inference`` is ``expert:16`` with worlds that
ignore the auction. The parts left out ride above K in the parameter (:data:`EXPERT_WITHOUT_SCALE`). This module
imports no Numba, so the command line can check a ``--policy`` before any kernel loads. ``equity`` and ``expert``
bid from tables made for the rules in play (:func:`reads_tables`): :func:`smear_sim.analysis.bidder_tables.
player_bidder_arrays` gives the kernels those tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import SmearError

__all__ = [
    "DECISIONS",
    "EXPERT_PARTS",
    "EXPERT_PART_BITS",
    "EXPERT_WITHOUT_SCALE",
    "FAST_POLICIES",
    "GUIDED_TOP",
    "NET_POLICIES",
    "PARAM_SCALE",
    "PLAYERS",
    "POLICIES",
    "SEARCHED_DECISIONS",
    "TABLE_POLICIES",
    "TOP_SCALE",
    "Parameter",
    "Part",
    "Player",
    "PolicySpec",
    "parse_playout",
    "parse_policies",
    "parse_policy",
    "player",
    "policy_array",
    "policy_choices",
    "policy_code",
    "policy_help",
    "reads_net",
    "reads_tables",
]

# The decisions a player may make itself; for each it leaves out, it decides as ``heuristic`` (the searched ones: it
# does not search them, and the plain decision decides). The kernels' dispatch has one function per decision
# (:mod:`smear_sim.kernels.players`: ``choose_bid``, ``choose_trump``, ``choose_keep``, ``choose_play``, and
# ``search_*`` for the searched ones).
DECISIONS = {
    "bid": "its call in the auction",
    "trump": "the trump it names when it wins the auction",
    "keep": "the 6 cards it keeps, within the discard rule",
    "play": "its cards",
    "search_trump_keep": "its trump and keep as the bidder, searched together over the worlds its view allows",
    "search_keep": "its keep as a defender, searched over the worlds its view allows",
    "search_play": "its cards, at a table whose hand after the auction keeps the calls (it reads the auction)",
}
# The searched decisions are made only in the hand that keeps the calls (kernels.hand.search_contract): a table where
# a player making one of them sits plays that hand, the others the plain one.
SEARCHED_DECISIONS = ("search_trump_keep", "search_keep", "search_play")
PARAM_SCALE = 256  # code = number + PARAM_SCALE * parameter
EXPERT_WITHOUT_SCALE = 8192  # above the largest K: parameter = K + EXPERT_WITHOUT_SCALE * (bits of the parts left out)
# above the parts' bits (at most 4): a player's second number, ``top-N`` (Player.top), as TOP_SCALE * N
TOP_SCALE = EXPERT_WITHOUT_SCALE * 16
GUIDED_TOP = 2  # the keep candidates ``guided`` searches when its name says no ``top-N``


@dataclass(frozen=True)
class Parameter:
    """The whole number a player takes after a colon (``pimc:16``): what it means, its default (the player's name
    alone) and its bounds."""

    meaning: str
    default: int
    low: int
    high: int


@dataclass(frozen=True)
class Part:
    """A part a player may leave out (``expert:16:no-inference``), to measure what it is worth: what the player does
    instead, and the decisions it then leaves to ``heuristic`` (none where the part is inside a decision)."""

    name: str
    instead: str
    decisions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Player:
    """A player by name, as every command, the page and the kernels know it.

    ``decisions`` are those it makes itself (:data:`DECISIONS`); ``heuristic`` makes the others. Its kernel module
    (``smear_sim.kernels.players.<module>``) exports them (its ``DECISIONS``), except ``bid`` where ``calls_as``
    names the player whose calls it makes. ``group`` is the players compiled together in the kernels (their
    ``seated``; None: compiled into every kernel, as ``heuristic`` is). ``searches``: a search player, slow (seconds
    a hand), which the page offers with its cost; ``fast``: about a million hands a second; ``plays_out``: it may play
    out a hint's worlds; ``sees_all``: it sees every hand (an upper bound, never a fair seat); ``bot``: named first
    among the page's bots; ``twin``: the fast player whose calls it makes, which a hint at its table models it by;
    ``reads_net``: it decides by the learned net's weights (:func:`smear_sim.engine.net_weights.load_net`), which must
    be at hand before it plays; ``top``: a second whole number it takes, written ``top-N`` after its parameter
    (``guided:16:top-3``), packed above the parts in the kernels' parameter (:data:`TOP_SCALE`).
    """

    name: str
    summary: str
    decisions: tuple[str, ...]
    group: str | None
    parameter: Parameter | None = None
    parts: tuple[Part, ...] = ()
    top: Parameter | None = None
    calls_as: str | None = None
    reads_tables: bool = False
    reads_net: bool = False
    searches: bool = False
    fast: bool = False
    plays_out: bool = True
    sees_all: bool = False
    bot: bool = False
    module: str = ""

    @property
    def kernel_module(self) -> str:
        """The module under ``smear_sim.kernels.players`` that exports its decisions."""
        return self.module or self.name.replace("-", "_")

    @property
    def twin(self) -> str:
        """The fast player a hint models this one by: itself when fast, else the one whose calls it makes."""
        return self.name if self.fast else (self.calls_as or "heuristic")

    @property
    def searched(self) -> bool:
        """Whether it makes a searched decision, so that its table plays the hand that keeps the calls."""
        return any(d in SEARCHED_DECISIONS for d in self.decisions)


_K = "sampled deals per card decision"
# expert's parts, which the net-guided expert shares: each a bit of the parameter above K, in this order
_EXPERT_PARTS = (Part("calls", "calls as heuristic, not by the equity tables", ("bid",)),
                 Part("inference", "worlds that ignore the auction"),
                 Part("keep", "trump and keep as heuristic, not by search"),
                 Part("game", "cards valued by points, not by P(win the game)"))
# The players, in code order: index = the kernels' policy number, which saved files, results/ and the random streams
# depend on. A new player goes at the end, so that no existing code changes.
PLAYERS = (
    Player("random", "uniform over the legal actions at each decision", ("bid", "trump", "keep", "play"),
           group="light", fast=True),
    Player("heuristic", "hand-written rules for every decision (the others fall back on it)",
           ("bid", "trump", "keep", "play"), group=None, fast=True, bot=True),
    Player("heuristic-v1", "the first heuristic, kept for comparison", ("bid", "trump", "keep", "play"),
           group="heuristic-v1", fast=True),
    Player("pimc", "plays each card by K sampled deals solved double dummy; bids as heuristic", ("play",),
           group="pimc", parameter=Parameter(_K, 16, 1, 4096), searches=True),
    Player("equity", "calls to win the game by precomputed tables; plays as heuristic", ("bid",), group="light",
           reads_tables=True, fast=True, bot=True),
    Player("count", "calls by the count a person adds up; plays as heuristic", ("bid",), group="light", fast=True,
           bot=True),
    Player("expert", "calls as equity, searches its trump, keep and cards over worlds that read the auction",
           ("bid", "search_trump_keep", "search_keep", "search_play"), group="expert",
           parameter=Parameter("sampled deals per decision", 16, 1, 4096), parts=_EXPERT_PARTS,
           calls_as="equity", reads_tables=True, searches=True, plays_out=False),
    Player("oracle", "sees every hand and plays each card by the exact solve (an upper bound)", ("search_play",),
           group="oracle", searches=True, plays_out=False, sees_all=True),
    Player("net", "calls as equity; values its trump with its keep, each keep and each card by the learned net",
           ("bid", "search_trump_keep", "search_keep", "search_play"), group="net", calls_as="equity",
           reads_tables=True, reads_net=True, plays_out=False, bot=True),
    Player("guided", "expert, whose trump and keep search tries only the N candidates the learned net values highest",
           ("bid", "search_trump_keep", "search_keep", "search_play"), group="guided",
           parameter=Parameter("sampled deals per decision", 16, 1, 4096), parts=_EXPERT_PARTS,
           top=Parameter("trump-and-keep candidates searched, the net's best", GUIDED_TOP, 1, 12),
           calls_as="equity", reads_tables=True, reads_net=True, searches=True, plays_out=False),
)
_BY_NAME = {p.name: p for p in PLAYERS}
POLICIES = tuple(p.name for p in PLAYERS)
FAST_POLICIES = tuple(p.name for p in PLAYERS if p.fast)  # the ones that play about a million hands a second
# Policies whose kernels read the equity bidder's tables (``bidder_arrays``): they must be at hand before such a run.
TABLE_POLICIES = tuple(p.name for p in PLAYERS if p.reads_tables)
# Policies whose kernels read the learned net's weights (``bidder_arrays`` from core.bidder.NET_AT): a run where one
# plays needs a net file (engine.net_weights) before any work.
NET_POLICIES = tuple(p.name for p in PLAYERS if p.reads_net)
# Policies that take a parameter: (meaning, default, smallest, largest).
_PARAMETERS = {p.name: (p.parameter.meaning, p.parameter.default, p.parameter.low, p.parameter.high)
               for p in PLAYERS if p.parameter is not None}
# expert's parts that a name may leave out (``expert:K:no-PART``), each a bit of the parameter above K, in this
# order, with what the player does instead; with all four out, expert plays card for card as pimc:K.
EXPERT_PARTS = {part.name: part.instead for part in _BY_NAME["expert"].parts}
EXPERT_PART_BITS = {part: 1 << i for i, part in enumerate(EXPERT_PARTS)}  # the bit of each part left out
# Policies that cannot play out a hint's worlds: expert searches at every card (a search in every world of a
# search), oracle would see the cards the hint must not, and net plays its cards only in the hand that keeps the calls
# (a hint's worlds are played out by the plain card decision).
_NO_PLAYOUT = tuple(p.name for p in PLAYERS if not p.plays_out)


def _check_registry() -> None:
    """The registry's own consistency, at import: a mistake in an entry fails here, not in a kernel."""
    for p in PLAYERS:
        unknown = set(p.decisions) - set(DECISIONS)
        if unknown:
            raise AssertionError(f"player {p.name}: unknown decisions {sorted(unknown)}")
        if p.calls_as is not None and ("bid" not in p.decisions or p.calls_as not in _BY_NAME):
            raise AssertionError(f"player {p.name}: calls_as {p.calls_as!r} needs the bid decision and a player")
        if p.parts and p.parameter is None:
            raise AssertionError(f"player {p.name}: parts ride above a parameter")
        if p.parameter is not None and p.parameter.high >= EXPERT_WITHOUT_SCALE:
            raise AssertionError(f"player {p.name}: its parameter must stay below {EXPERT_WITHOUT_SCALE}")
        if len(p.parts) > 4 or (p.top is not None and p.parameter is None):
            raise AssertionError(f"player {p.name}: at most 4 parts, and top-N rides above a parameter")
    if len(_BY_NAME) != len(PLAYERS) or len(PLAYERS) >= PARAM_SCALE:
        raise AssertionError("player names must be distinct, and fewer than PARAM_SCALE")


_check_registry()


def player(name: str) -> Player:
    """The registered player ``name`` (a bare name such as ``pimc``; :func:`parse_policy` reads ``pimc:16``)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise SmearError(f"unknown policy {name!r}: choose {_choices()}") from None


def policy_choices(names: tuple[str, ...] | None = None) -> str:
    """The players ``names`` (all of them by default) as a person writes them: ``random, ..., pimc:K, ... or
    oracle``."""
    written = [f"{n}:K" if n in _PARAMETERS else n for n in (POLICIES if names is None else names)]
    return ", ".join(written[:-1]) + " or " + written[-1] if len(written) > 1 else written[0]


def policy_help() -> str:
    """Every player as a person writes it, with what it does: the ``--policy`` help."""
    return ", ".join(f"{policy_choices((p.name,))} ({p.summary})" for p in PLAYERS)


@dataclass(frozen=True)
class PolicySpec:
    """A policy name, its parameter (0 for policies without one), its ``top-N`` (0 for policies without one:
    :attr:`Player.top`) and, for ``expert`` and ``guided``, the parts it leaves out (in :data:`EXPERT_PARTS`
    order)."""

    name: str
    param: int = 0
    without: tuple[str, ...] = ()
    top: int = 0

    def __str__(self) -> str:
        if self.name not in _PARAMETERS:
            return self.name
        top = [f"top-{self.top}"] if _BY_NAME[self.name].top is not None else []
        return ":".join([f"{self.name}:{self.param}"] + top + [f"no-{part}" for part in self.without])

    @property
    def code_param(self) -> int:
        """The parameter as the kernels read it: K, with the parts left out above it, and top-N above those."""
        bits = sum(1 << i for i, part in enumerate(_BY_NAME[self.name].parts) if part.name in self.without)
        return self.param + EXPERT_WITHOUT_SCALE * bits + TOP_SCALE * self.top


def _choices() -> str:
    return policy_choices()


def _without(name: str, parts: list[str]) -> tuple[str, ...]:
    """The parts ``no-PART`` ... that ``name`` leaves out, in :data:`EXPERT_PARTS` order."""
    owners = [p for p in PLAYERS if p.parts]
    own = _BY_NAME[name].parts
    if not own:
        choices = "; ".join(f"{p.name}: " + ", ".join(f"no-{part.name} ({part.instead})" for part in p.parts)
                            for p in owners)
        raise SmearError(f"{name}:K takes nothing after K; only {policy_choices(tuple(p.name for p in owners))} may "
                         f"leave out its parts ({choices})")
    choices = ", ".join(f"no-{part.name} ({part.instead})" for part in own)
    if _BY_NAME[name].top is not None:
        choices += f", or top-N (N, the {_BY_NAME[name].top.meaning})"
    names = [part.name for part in own]
    left_out = set()
    for text in parts:
        part = text.strip().removeprefix("no-")
        if not text.strip().startswith("no-") or part not in names:
            raise SmearError(f"{name}:K:{text.strip()} is not a part {name} can leave out: write {choices}")
        left_out.add(part)
    return tuple(part for part in names if part in left_out)


def parse_policy(text: str) -> PolicySpec:
    """One policy name such as ``heuristic`` or ``pimc:16`` (``pimc`` alone takes the default K), or ``expert:16``
    with parts left out (``expert:16:no-inference``, :data:`EXPERT_PARTS`), or ``guided:16:top-3`` (its second
    number, :attr:`Player.top`; its default where the name leaves it out)."""
    name, colon, param_text = text.strip().lower().partition(":")
    name = name.strip()
    param_text, *parts = param_text.split(":")
    if name not in POLICIES:
        raise SmearError(f"unknown policy {text.strip()!r}: choose {_choices()}")
    if name not in _PARAMETERS:
        if colon:
            raise SmearError(f"policy {name!r} takes no parameter; write just {name!r}")
        return PolicySpec(name)
    meaning, default, low, high = _PARAMETERS[name]
    top = _BY_NAME[name].top
    top_n = top.default if top is not None else 0
    if not colon:
        return PolicySpec(name, default, top=top_n)
    try:
        param = int(param_text.strip())
    except ValueError:
        param = None
    if param is None or not low <= param <= high:
        raise SmearError(f"{name}:K needs K, the {meaning}, a whole number from {low} to {high}; got "
                         f"{param_text.strip()!r}")
    if top is not None:
        tops = [text for text in parts if text.strip().startswith("top-")]
        parts = [text for text in parts if not text.strip().startswith("top-")]
        for text in tops:
            try:
                top_n = int(text.strip().removeprefix("top-"))
            except ValueError:
                top_n = -1
            if not top.low <= top_n <= top.high:
                raise SmearError(f"{name}:K:top-N needs N, the {top.meaning}, a whole number from {top.low} to "
                                 f"{top.high}; got {text.strip()!r}")
    return PolicySpec(name, param, _without(name, parts) if parts else (), top_n)


def parse_policies(text: str | tuple[str, str] | list[str]) -> tuple[str, str]:
    """``"heuristic"`` for both teams, or ``"heuristic,pimc:8"`` for team 0 and team 1.

    Names come back in their canonical form (lower case, the parameter written out: ``pimc`` gives
    ``pimc:16``).
    """
    names = [n for n in (text.split(",") if isinstance(text, str) else text)]
    if len(names) == 1:
        names *= 2
    if len(names) != 2:
        raise SmearError(f"--policy {text!r}: give one policy, or two separated by a comma (team 0,team 1)")
    a, b = (str(parse_policy(n)) for n in names)
    return a, b


def parse_playout(text: str) -> str:
    """The player a hint or review plays its worlds out with (``--playout``), by its canonical name; a SmearError for
    one that cannot (``expert``, ``oracle``)."""
    name = parse_policies(text)[0]
    if name.split(":")[0] in _NO_PLAYOUT:
        raise SmearError(f"--playout {name} cannot play out a hint's worlds (it searches every card, sees them "
                         "all, or plays its cards only in a hand that keeps the calls): give a fast player or pimc:K")
    return name


def policy_code(name: str) -> int:
    """The kernels' code for one policy name."""
    spec = parse_policy(name)
    return POLICIES.index(spec.name) + PARAM_SCALE * spec.code_param


def policy_array(policies: tuple[str, str]) -> np.ndarray:
    """The kernels' policy codes for team 0 and team 1."""
    return np.array([policy_code(p) for p in policies], dtype=np.int64)


def _any_of(policies: str | tuple[str, ...] | list[str], among: tuple[str, ...]) -> bool:
    names = policies.split(",") if isinstance(policies, str) else list(policies)
    for name in names:
        try:
            if parse_policy(str(name)).name in among:
                return True
        except SmearError:
            continue
    return False


def reads_tables(policies: str | tuple[str, ...] | list[str]) -> bool:
    """Whether any of ``policies`` (one name, ``"a,b"``, or a sequence of names) reads the equity bidder's tables
    (:data:`TABLE_POLICIES`). A name that is not a policy reads none (the parse that rejects it comes later)."""
    return _any_of(policies, TABLE_POLICIES)


def reads_net(policies: str | tuple[str, ...] | list[str]) -> bool:
    """Whether any of ``policies`` (as for :func:`reads_tables`) reads the learned net's weights
    (:data:`NET_POLICIES`)."""
    return _any_of(policies, NET_POLICIES)
