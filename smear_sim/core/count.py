"""The count: a hand's strength in whole points a person adds up at the table, and the call each count makes.

Every card kind of a suit is worth a fixed number of points (:data:`KINDS`: the ace, king, jack, jick, jokers,
two of that suit as trump, each trump held, each ace of another suit). A hand's **count** is the count of its best
suit, the suit whose cards add up to the most (a tie goes to the first suit in the order S H D C). The call is
read in a table by place in the auction (opener, second, third, dealer), situation there (no number standing
yet, or a number b standing, called by the partner or by an opponent) and the band of each team's score (near
the target the right call changes most): each call has the count it needs, and a hand makes the highest legal
call whose count it reaches (none reached: the lowest legal call, a pass where
passing is allowed).

The weights and the counts each call needs are fitted by simulation (:mod:`smear_sim.analysis.count`,
``tools/count_fit.py``) and shipped in ``smear_sim/data/count.json``, one entry per set of rules they were fitted
under (``default``, ``round_points``). The ``count`` player (:mod:`smear_sim.kernels.players.count`) bids by them.

This module imports no Numba: it holds the data contract (what the file says, how a count is read) for people,
the command line and the kernels.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .cards import ACE, HIGH_JOKER, JACK, KING, LOW_JOKER, TWO, card, card_name, cards_of
from .errors import SmearError
from .io import atomic_write
from .rules import Rules, legal_slots
from .tables import TABLES, jick_of

__all__ = [
    "COUNT_FILE",
    "KINDS",
    "KIND_LABELS",
    "N_VARIANTS",
    "VARIANTS",
    "CountRule",
    "count_rule",
    "count_summary",
    "hand_count",
    "kind_masks",
    "load_counts",
    "save_counts",
    "situation_of",
    "variant_of",
]

# The card kinds of a suit, in the order of the weights. ``trump`` is every trump of the suit (its 13 cards less the
# jick's printed suit's jack, plus the jick and both jokers); ``off_ace`` is each ace of the three other suits.
KINDS = ("ace", "king", "jack", "jick", "joker", "two", "trump", "off_ace")
KIND_LABELS = {"ace": "ace of trump", "king": "king of trump", "jack": "jack of trump", "jick": "jick",
               "joker": "each joker", "two": "two of trump", "trump": "each trump (jick and jokers too)",
               "off_ace": "each ace of another suit"}
VARIANTS = ("default", "round_points")  # the rules a count is fitted under: the default rules, and round points
N_VARIANTS = len(VARIANTS)
NEVER = 1000  # the count a call needs where the table never makes it
COUNT_FILE = "count.json"


def variant_of(rules: Rules) -> str:
    """The variant of the count a game under ``rules`` reads: ``round_points`` when round points are on."""
    return "round_points" if rules.round_points else "default"


def kind_masks(trump: int) -> np.ndarray:
    """The cards of each kind of :data:`KINDS` with ``trump`` as the suit counted, as ``uint64`` masks."""
    def one(c: int) -> int:
        return 1 << c

    off_aces = sum(one(card(ACE, s)) for s in range(4) if s != trump)
    return np.array([one(card(ACE, trump)), one(card(KING, trump)), one(card(JACK, trump)), one(jick_of(trump)),
                     one(HIGH_JOKER) | one(LOW_JOKER), one(card(TWO, trump)), int(TABLES.trump_mask[trump]),
                     off_aces], dtype=np.uint64)


@dataclass(frozen=True)
class CountRule:
    """The weights of the card kinds and the count each call needs, for one set of rules (module docstring).

    ``needs[us band, them band, place, situation, call slot]`` is the count a call needs (call slots: pass, 1..M,
    moon; situations as in :mod:`smear_sim.analysis.positions`), :data:`NEVER` where the table never makes it, by
    the band of each team's score before the hand: band i holds the scores from ``bands[i - 1]`` (none for the
    first band) up to ``bands[i] - 1``."""

    variant: str
    rules: Rules
    weights: tuple[int, ...]
    needs: np.ndarray  # [us band, them band, place, situation, call slot] int64
    bands: tuple[int, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        situations, slots = self.rules.n_situations, self.rules.n_call_slots
        n = len(self.bands) + 1
        if len(self.weights) != len(KINDS):
            raise SmearError(f"a count needs {len(KINDS)} weights ({', '.join(KINDS)}); got {len(self.weights)}")
        if self.needs.shape != (n, n, 4, situations, slots):
            raise SmearError(f"the counts each call needs have shape {self.needs.shape}, not "
                             f"({n}, {n}, 4, {situations}, {slots})")
        if list(self.bands) != sorted(set(self.bands)):
            raise SmearError(f"score bands {self.bands} are not increasing")

    def band(self, score: int) -> int:
        """The band of a team's score."""
        return sum(score >= b for b in self.bands)

    @property
    def weight(self) -> dict[str, int]:
        return dict(zip(KINDS, self.weights, strict=True))

    def suit_count(self, hand: int, trump: int) -> tuple[int, dict[str, int]]:
        """The count of ``hand`` (a mask) in the suit ``trump``, and the points each kind held adds."""
        by_kind = {}
        for kind, mask, w in zip(KINDS, kind_masks(trump), self.weights, strict=True):
            n = int(hand & int(mask)).bit_count()
            if n and w:
                by_kind[kind] = n * w
        return sum(by_kind.values()), by_kind

    def count(self, hand: int) -> tuple[int, int]:
        """The count of ``hand`` (a mask) and its best suit (module docstring)."""
        best, best_suit = -NEVER, 0
        for t in range(4):
            points = self.suit_count(hand, t)[0]
            if points > best:
                best, best_suit = points, t
        return best, best_suit

    def call(self, points: int, place: int, situation: int, us: int = 0, them: int = 0) -> int:
        """The call slot a count of ``points`` makes at ``place`` in ``situation`` with the scores ``us`` (the
        caller's team) and ``them`` (module docstring)."""
        legal = np.flatnonzero(legal_slots(self.rules, place, situation))
        needs = self.needs[self.band(us), self.band(them), place, situation]
        chosen = -1
        for slot in legal:
            if needs[slot] <= points:
                chosen = int(slot)
        return int(legal[0]) if chosen < 0 else chosen


def hand_count(cards: list[int] | int, rule: CountRule) -> dict[str, Any]:
    """A hand's count as people and the JSON read it: ``points``, ``suit`` (S H D C) and ``by_card`` (each card
    that counts: the points it adds, each trump's length point included in its own entry)."""
    hand = cards if isinstance(cards, int) else sum(1 << c for c in cards)
    points, suit = rule.count(hand)
    masks = kind_masks(suit)
    worth = {c: sum(w for mask, w in zip(masks, rule.weights, strict=True) if int(mask) >> c & 1)
             for c in cards_of(hand)}
    ranked = sorted((c for c in worth if worth[c]), key=lambda c: (-worth[c], c))  # the most first
    return {"points": points, "suit": "SHDC"[suit], "by_card": {card_name(c): worth[c] for c in ranked}}


def save_counts(rules: dict[str, CountRule], path: str | Path) -> None:
    """Write the counts of each variant (``smear_sim/data/count.json``)."""
    data = {"format": 1, "kinds": list(KINDS), "variants": {
        name: {"rules": rule.rules.as_dict(), "weights": list(rule.weights), "bands": list(rule.bands),
               "needs": rule.needs.tolist(), "meta": rule.meta} for name, rule in rules.items()}}
    text = json.dumps(data, indent=1)
    text = re.sub(r"\[\s+([-\d,\s]+?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text)  # rows
    with atomic_write(path, "w") as handle:
        handle.write(text + "\n")


def load_counts(path: str | Path | None = None) -> dict[str, CountRule]:
    """The counts shipped in the package (or in ``path``), by variant."""
    try:
        if path is None:
            text = resources.files("smear_sim.data").joinpath(COUNT_FILE).read_text()
        else:
            text = Path(path).read_text()
        data = json.loads(text)
        if data["kinds"] != list(KINDS):
            raise ValueError(f"card kinds {data['kinds']} are not {list(KINDS)}")
        return {name: CountRule(name, Rules.from_mapping(v["rules"]), tuple(int(w) for w in v["weights"]),
                                np.array(v["needs"], dtype=np.int64), tuple(int(b) for b in v["bands"]),
                                v.get("meta", {}))
                for name, v in data["variants"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SmearError(f"{path or COUNT_FILE} is not a count file (one that save_counts writes): {exc}") from None


@cache
def _shipped() -> dict[str, CountRule]:
    try:
        return load_counts()
    except SmearError:
        return {}


def count_rule(rules: Rules) -> CountRule | None:
    """The shipped count a game under ``rules`` reads (:func:`variant_of`), or None where none is shipped."""
    return _shipped().get(variant_of(rules))


def situation_of(calls: tuple[int, ...] | list[int]) -> int:
    """The situation of the seat after ``calls`` (kernel codes: PASS, a number, MOON), as the kernels read it: 0 with
    no number standing, else ``2b - 1`` for a number b called by the partner and ``2b`` by an opponent."""
    from .layout import MOON, PASS

    highest, by = 0, -1
    for i, call in enumerate(calls):
        if call not in (PASS, MOON):
            highest, by = call, i
    if highest == 0:
        return 0
    return 2 * highest - 1 + ((len(calls) - by) & 1)


def count_summary(cards: list[int] | int, rules: Rules, calls: tuple[int, ...] | None = None,
                  score: tuple[int, int] = (0, 0)) -> dict[str, Any] | None:
    """The ``count`` of ``smear-sim hand --json`` (docs/formats.md): :func:`hand_count` and the ``variant`` read,
    and with ``calls`` (those before the seat) the count's ``call`` there at ``score`` (the seat's team first):
    ``pass``, a number or ``moon`` (None after a moon, when the seat must pass). None where no count is shipped for
    ``rules``."""
    from .layout import MOON

    rule = count_rule(rules)
    if rule is None:
        return None
    out = hand_count(cards, rule) | {"variant": rule.variant}
    if calls is not None:
        if MOON in calls:
            out["call"] = None
        else:
            slot = rule.call(out["points"], len(calls), situation_of(calls), *score)
            out["call"] = "pass" if slot == 0 else "moon" if slot == rules.max_points + 1 else slot
    return out
