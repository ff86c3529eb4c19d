"""The players by name: the one list of policy names and the codes the kernels know them by.

A policy is a complete player (bidding, trump, discards, play). The kernels dispatch on a code
(:mod:`smear_sim.kernels.players`); people and files use the name. A policy may take one whole-number
parameter, written after a colon: ``pimc:16`` is the search player with 16 sampled deals a decision. The
kernel code packs both: ``code = number + PARAM_SCALE * parameter``, where ``number`` is the name's index in
:data:`POLICIES`; a policy without a parameter has parameter 0, so its code is its number. ``expert`` may also
leave out its parts (:data:`EXPERT_PARTS`), to measure what each is worth: ``expert:16:no-inference`` is
``expert:16`` with worlds that ignore the auction. The parts left out ride above K in the parameter
(:data:`EXPERT_WITHOUT_SCALE`). This module
imports no Numba, so the command line can check a ``--policy`` before any kernel loads. ``equity`` and
``expert`` bid from tables made for the rules in play (:func:`reads_tables`): :func:`smear_sim.analysis.bidder_tables.player_model` gives the kernels those tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import SmearError

__all__ = [
    "EXPERT_PARTS",
    "EXPERT_PART_BITS",
    "EXPERT_WITHOUT_SCALE",
    "FAST_POLICIES",
    "PARAM_SCALE",
    "POLICIES",
    "TABLE_POLICIES",
    "PolicySpec",
    "parse_playout",
    "parse_policies",
    "parse_policy",
    "policy_array",
    "policy_code",
    "reads_tables",
]

# index = the kernels' policy number; a new player goes at the end, so that no existing code changes
POLICIES = ("random", "heuristic", "heuristic-v1", "pimc", "equity", "count", "expert", "oracle")
FAST_POLICIES = ("random", "heuristic", "heuristic-v1", "equity", "count")  # the ones that play about a million hands a second
PARAM_SCALE = 256  # code = number + PARAM_SCALE * parameter

# Policies that take a parameter: (meaning, default, smallest, largest).
_PARAMETERS = {"pimc": ("sampled deals per card decision", 16, 1, 4096),
               "expert": ("sampled deals per decision", 16, 1, 4096)}
# expert's parts that a name may leave out (``expert:K:no-PART``), each a bit of the parameter above K, in this
# order, with what the player does instead; with all four out, expert plays card for card as pimc:K.
EXPERT_PARTS = {"calls": "calls as heuristic, not by the equity tables",
                "inference": "worlds that ignore the auction",
                "keep": "trump and keep as heuristic, not by search",
                "game": "cards valued by points, not by P(win the game)"}
EXPERT_WITHOUT_SCALE = 8192  # above the largest K: parameter = K + EXPERT_WITHOUT_SCALE * (bits of the parts left out)
EXPERT_PART_BITS = {part: 1 << i for i, part in enumerate(EXPERT_PARTS)}  # the bit of each part left out
# Policies whose kernels read the equity bidder's tables (the ``model``): they must be at hand before such a run.
TABLE_POLICIES = ("equity", "expert")
# Policies that cannot play out a hint's worlds: expert searches at every card (a search in every world of a
# search), and oracle would see the cards the hint must not.
_NO_PLAYOUT = ("expert", "oracle")


@dataclass(frozen=True)
class PolicySpec:
    """A policy name, its parameter (0 for policies without one) and, for ``expert``, the parts it leaves out (in
    :data:`EXPERT_PARTS` order)."""

    name: str
    param: int = 0
    without: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.name not in _PARAMETERS:
            return self.name
        return ":".join([f"{self.name}:{self.param}"] + [f"no-{part}" for part in self.without])

    @property
    def code_param(self) -> int:
        """The parameter as the kernels read it: K, with the parts left out above it."""
        bits = sum(EXPERT_PART_BITS[part] for part in self.without)
        return self.param + EXPERT_WITHOUT_SCALE * bits


def _choices() -> str:
    names = [f"{n}:K" if n in _PARAMETERS else n for n in POLICIES]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _without(name: str, parts: list[str]) -> tuple[str, ...]:
    """The parts ``no-PART`` ... that ``name`` leaves out, in :data:`EXPERT_PARTS` order."""
    choices = ", ".join(f"no-{part} ({meaning})" for part, meaning in EXPERT_PARTS.items())
    if name != "expert":
        raise SmearError(f"{name}:K takes nothing after K; only expert:K may leave out its parts ({choices})")
    left_out = set()
    for text in parts:
        part = text.strip().removeprefix("no-")
        if not text.strip().startswith("no-") or part not in EXPERT_PARTS:
            raise SmearError(f"expert:K:{text.strip()} is not a part expert can leave out: write {choices}")
        left_out.add(part)
    return tuple(part for part in EXPERT_PARTS if part in left_out)


def parse_policy(text: str) -> PolicySpec:
    """One policy name such as ``heuristic`` or ``pimc:16`` (``pimc`` alone takes the default K), or ``expert:16``
    with parts left out (``expert:16:no-inference``, :data:`EXPERT_PARTS`)."""
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
    if not colon:
        return PolicySpec(name, default)
    try:
        param = int(param_text.strip())
    except ValueError:
        param = None
    if param is None or not low <= param <= high:
        raise SmearError(f"{name}:K needs K, the {meaning}, a whole number from {low} to {high}; got "
                         f"{param_text.strip()!r}")
    return PolicySpec(name, param, _without(name, parts) if parts else ())


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
        raise SmearError(f"--playout {name} cannot play out a hint's worlds (it searches every card, or sees them "
                         "all): give a fast player or pimc:K")
    return name


def policy_code(name: str) -> int:
    """The kernels' code for one policy name."""
    spec = parse_policy(name)
    return POLICIES.index(spec.name) + PARAM_SCALE * spec.code_param


def policy_array(policies: tuple[str, str]) -> np.ndarray:
    """The kernels' policy codes for team 0 and team 1."""
    return np.array([policy_code(p) for p in policies], dtype=np.int64)


def reads_tables(policies: str | tuple[str, ...] | list[str]) -> bool:
    """Whether any of ``policies`` (one name, ``"a,b"``, or a sequence of names) reads the equity bidder's tables
    (:data:`TABLE_POLICIES`). A name that is not a policy reads none (the parse that rejects it comes later)."""
    names = policies.split(",") if isinstance(policies, str) else list(policies)
    for name in names:
        try:
            if parse_policy(str(name)).name in TABLE_POLICIES:
                return True
        except SmearError:
            continue
    return False
