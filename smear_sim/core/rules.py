"""The rule options of docs/rules.md as one frozen object.

:class:`Rules` holds every option with its default. It is built from a TOML file, from
``KEY=VALUE`` strings, or from a hand record's ``rules`` mapping, and each path rejects unknown keys,
bad values and impossible combinations with a one-line :class:`RulesError`. :meth:`Rules.to_array` gives
the lossless numeric form that the Numba kernels take (:meth:`Rules.from_array` is its inverse).
"""

from __future__ import annotations

import dataclasses
import difflib
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np

from .errors import RulesError
from .io import read_input
from .tables import POINT_NAMES

__all__ = [
    "ARRAY_NAMES",
    "DERIVED_NAMES",
    "OPTION_HELP",
    "OPTION_RANGES",
    "PRESETS",
    "STAKE_PLAIN",
    "STAKE_ROUND_POINTS",
    "ForcedBid",
    "High",
    "Low",
    "LowTo",
    "MoonRequires",
    "Preset",
    "Rules",
    "RulesError",
    "describe_options",
    "format_value",
    "legal_slots",
    "load_rules",
    "preset_settings",
    "rule_settings",
]


class High(StrEnum):
    ACE = "ace"
    HIGHEST = "highest"


class Low(StrEnum):
    TWO = "two"
    LOWEST = "lowest"


class LowTo(StrEnum):
    PLAYER = "player"
    TAKER = "taker"


class ForcedBid(StrEnum):
    OPENER = "opener"
    DEALER = "dealer"
    NONE = "none"


class MoonRequires(StrEnum):
    ALL = "all"
    IN_PLAY = "in_play"


OPTION_HELP = {
    "round_points": "jick, high joker and low joker each score 1 to the team taking them (7 points at stake)",
    "high": "ace: High for playing the ace of trump; highest: for the highest trump played",
    "low": "two: Low for playing the 2 of trump; lowest: for the lowest trump played",
    "low_to": "player: Low to the team that played it; taker: to the team that took its trick",
    "forced_bid": "opener: seat after the dealer must bid; dealer: stick the dealer; none: all may pass",
    "moon": "players may bid to shoot the moon",
    "moon_requires": "all: every scoring point, played or not; in_play: only the points someone won",
    "trump_anytime": "a trump may be played even when able to follow the led suit",
    "misdeal": "a player dealt only ranks 3-9 calls a misdeal and the dealer deals again",
    "target": "score that wins the game, 1 to 1000",
    "min_bid": "lowest numeric bid, 1 up to the points at stake (4, or 7 with round points)",
}

# The range of each whole-number option. A moon moves the score by the target, and the kernels sum squared
# score changes in 64-bit integers: a target of at most 1000 keeps those sums exact for 10**12 hands. The
# lowest bid's upper end is the points at stake, 4 (7 with round points), checked in Rules.
OPTION_RANGES = {"target": (1, 1000), "min_bid": (1, 7)}
# The points at stake in a hand (M): High, Low, Jack and Game, and with round points the jick and both jokers too.
# Rules.max_points reads them, and the kernels the rules array's slot R_POINTS_AT_STAKE that Rules.to_array fills.
STAKE_PLAIN = 4
STAKE_ROUND_POINTS = 7


@dataclass(frozen=True)
class Rules:
    """Every rule option of docs/rules.md; the defaults are the project's rulings."""

    round_points: bool = False
    high: High = High.ACE
    low: Low = Low.TWO
    low_to: LowTo = LowTo.PLAYER
    forced_bid: ForcedBid = ForcedBid.OPENER
    moon: bool = True
    moon_requires: MoonRequires = MoonRequires.ALL
    trump_anytime: bool = False
    misdeal: bool = True
    target: int = 21
    min_bid: int = 2

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            object.__setattr__(self, field.name, _coerce(field.name, value, strict=True))
        low, high = OPTION_RANGES["target"]
        if not low <= self.target <= high:
            raise RulesError(f"target={self.target} is out of range: choose a target from {low} to {high}")
        if not OPTION_RANGES["min_bid"][0] <= self.min_bid <= self.max_points:
            fix = "" if self.round_points else ", or set round_points=true for 7"
            raise RulesError(
                f"min_bid={self.min_bid} is impossible: bids run from 1 to the {self.max_points} points "
                f"at stake; choose min_bid between 1 and {self.max_points}{fix}"
            )

    # -- what follows from the options ------------------------------------------------------------------
    # Each fact is worked out here only: the reference engine, analysis and output read these properties, and
    # the kernels read them from the rules array (derived_facts, written by to_array). A new option's
    # consequences land here, and in derived_facts when a kernel needs them.

    @property
    def max_points(self) -> int:
        """M, the points at stake in a hand: 4, or 7 with round points."""
        return STAKE_ROUND_POINTS if self.round_points else STAKE_PLAIN

    @property
    def points(self) -> tuple[str, ...]:
        """The names of the points at stake (:data:`smear_sim.core.tables.POINT_NAMES` order): High, Low, Jack and
        Game, and with round points the jick and both jokers."""
        return POINT_NAMES[: self.max_points]

    @property
    def n_situations(self) -> int:
        """The situations a seat can meet in the auction: no number standing, or a number 1..M standing, called by
        its partner or by an opponent (the ``situation`` of :func:`legal_slots`)."""
        return 2 * self.max_points + 1

    @property
    def n_call_slots(self) -> int:
        """The call slots of the auction tables: pass, each number 1..M, and the moon (:func:`legal_slots`)."""
        return self.max_points + 2

    def must_bid(self, place: int, anyone_bid: bool) -> bool:
        """Whether the seat at ``place`` in the auction (0 the opener .. 3 the dealer) may not pass, ``anyone_bid``
        saying whether an earlier seat called something other than pass (docs/rules.md, "Auction")."""
        if self.forced_bid is ForcedBid.OPENER:
            return place == 0
        if self.forced_bid is ForcedBid.DEALER:
            return place == 3 and not anyone_bid
        return False

    def bids(self, above: int = 0) -> range:
        """The numbers a seat may call when ``above`` is the highest number called before it (0 for none): from
        ``min_bid`` (or one more than ``above``) up to the points at stake."""
        return range(max(self.min_bid, above + 1), self.max_points + 1)

    def derived_facts(self) -> dict[str, int]:
        """What the kernels read from the rules besides the options, in :data:`DERIVED_NAMES` order: the rules
        array's slots after the options (``R_POINTS_AT_STAKE``)."""
        return {"points_at_stake": self.max_points}

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], *, source: str = "rules", strict: bool = True) -> Rules:
        """Build from option names and values; ``strict`` wants typed values (TOML, JSON)."""
        return cls(**_settings(mapping, source, strict))

    @classmethod
    def from_toml(cls, path: str | Path) -> Rules:
        return cls(**_toml_settings(Path(path)))

    def with_overrides(self, assignments: Iterable[str]) -> Rules:
        """Apply ``KEY=VALUE`` strings, as given to ``--rule``, in order."""
        return dataclasses.replace(self, **_override_settings(assignments))

    # -- numeric form for the kernels ---------------------------------------------------------------

    def to_array(self) -> np.ndarray:
        """The options as ``int64`` (bools as 0/1, enums as their member index, ints as themselves), then the
        facts that follow from them (:meth:`derived_facts`), at the indices of :data:`RULE_INDEX`."""
        options = [_to_int(getattr(self, name)) for name in OPTION_NAMES]
        return np.array([*options, *self.derived_facts().values()], dtype=np.int64)

    @classmethod
    def from_array(cls, array: np.ndarray) -> Rules:
        """Inverse of :meth:`to_array`; derived slots that do not follow from the options are refused."""
        if len(array) != len(ARRAY_NAMES):
            raise RulesError(f"a rules array has {len(ARRAY_NAMES)} entries, got {len(array)}")
        rules = cls._from_options(array[: len(OPTION_NAMES)])
        for (name, expected), number in zip(rules.derived_facts().items(), array[len(OPTION_NAMES):], strict=True):
            if int(number) != expected:
                raise RulesError(f"{name}={int(number)} in a rules array does not follow from its options, "
                                 f"which give {expected}")
        return rules

    @classmethod
    def _from_options(cls, array: np.ndarray) -> Rules:
        values = {}
        for name, number in zip(OPTION_NAMES, array, strict=True):
            kind = _FIELD_TYPES[name]
            number = int(number)
            if kind is bool:
                if number not in (0, 1):
                    raise RulesError(f"{name} must be 0 or 1 in a rules array, got {number}")
                values[name] = bool(number)
            elif kind is int:
                values[name] = number
            else:
                members = list(kind)
                if not 0 <= number < len(members):
                    raise RulesError(
                        f"{name} must be 0..{len(members) - 1} in a rules array "
                        f"({', '.join(m.value for m in members)}), got {number}"
                    )
                values[name] = members[number]
        return cls(**values)

    # -- presentation ---------------------------------------------------------------------------------

    def as_dict(self) -> dict[str, bool | int | str]:
        """Plain JSON/TOML values, in the order of docs/rules.md."""
        return {name: _plain(getattr(self, name)) for name in OPTION_NAMES}

    def changed(self) -> dict[str, bool | int | str]:
        """Only the options that differ from the defaults."""
        default = Rules().as_dict()
        return {k: v for k, v in self.as_dict().items() if default[k] != v}

    def summary(self, none: str = "default rules") -> str:
        """The options changed from the defaults as ``key=value`` text, or ``none``."""
        return ", ".join(f"{k}={format_value(v)}" for k, v in self.changed().items()) or none

    def to_toml(self) -> str:
        lines = ["# smear-sim rule options (docs/rules.md); edit and pass with --rules FILE.toml"]
        for name, value in self.as_dict().items():
            lines.append(f"\n# {OPTION_HELP[name]}")
            choices = _FIELD_TYPES[name]
            if isinstance(choices, type) and issubclass(choices, StrEnum):
                lines.append(f"# one of: {', '.join(m.value for m in choices)}")

            lines.append(f"{name} = {_toml_value(value)}")
        return "\n".join(lines) + "\n"


OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules))
_FIELD_TYPES = {
    "round_points": bool,
    "high": High,
    "low": Low,
    "low_to": LowTo,
    "forced_bid": ForcedBid,
    "moon": bool,
    "moon_requires": MoonRequires,
    "trump_anytime": bool,
    "misdeal": bool,
    "target": int,
    "min_bid": int,
}
assert tuple(_FIELD_TYPES) == OPTION_NAMES


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


# -- presets: the rule sets people play, by name ---------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    """A named rule set: the options it sets (those that differ from the defaults) and what it is, in a line."""

    name: str
    about: str
    settings: Mapping[str, Any]

    @property
    def rules(self) -> Rules:
        return Rules(**self.settings)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON: its name, what it is, and its ``rules`` as the options it sets (as a record's ``rules``)."""
        return {"name": self.name, "about": self.about, "rules": self.rules.changed()}


# The rule sets smear-sim plays by name, for --rules NAME. Each sets only options of Rules, so that a record made under
# a preset names its rules as any other record does and `smear-sim score` reads it without further options.
PRESETS = {preset.name: preset for preset in (
    Preset("minnesota", "the seed's Minnesota Smear, the default: 54 cards with both jokers, nine each and a "
           "four-card kitty; High, Low, Jack and Game at stake", {}),
    Preset("minnesota-round-points", "Minnesota Smear where the jick, high joker and low joker each score a "
           "point to the team that takes them: 7 points at stake", {"round_points": True}),
)}


def preset_settings(name: str) -> dict[str, Any]:
    """The options the preset ``name`` sets; a RulesError naming the presets where it is none of them."""
    try:
        return dict(PRESETS[name].settings)
    except KeyError:
        close = difflib.get_close_matches(name, list(PRESETS), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise RulesError(f"{name!r} is not a preset: {hint}the presets are {', '.join(PRESETS)} "
                         "(smear-sim rules --list)") from None


def _is_preset_name(value: str) -> bool:
    """Whether ``--rules VALUE`` names a preset rather than a file: a preset's name, or a word that could be
    one (no folder, no suffix), so that a typo is answered with the presets rather than "no such file"."""
    if value in PRESETS:
        return True
    return not any(mark in value for mark in "/\\.") and not Path(value).exists()


def _file_or_preset_settings(value: str | Path) -> dict[str, Any]:
    """The options of ``--rules VALUE``: a preset's where VALUE names one, else those of the TOML file at VALUE (a
    file named like a preset is given with its folder: ``./minnesota``)."""
    text = str(value)
    if not text.strip():
        raise RulesError(f"--rules needs a preset ({', '.join(PRESETS)}) or the path of a TOML file, got nothing")
    if _is_preset_name(text):
        return preset_settings(text)
    return _toml_settings(Path(text))


def rule_settings(rules_file: str | Path | None = None, overrides: Iterable[str] = ()) -> dict[str, Any]:
    """The options a command line sets explicitly (``--rules NAME`` or ``--rules FILE``, then each ``--rule
    KEY=VALUE``), typed and checked, including that they combine into possible rules."""
    settings = _file_or_preset_settings(rules_file) if rules_file is not None else {}
    settings |= _override_settings(overrides)
    Rules(**settings)
    return settings


def describe_options() -> list[dict[str, Any]]:
    """Every option for a form or a help page: its name, kind (``bool``, ``choice`` or ``int``), default,
    choices or range, and help text, in the order of docs/rules.md."""
    default = Rules()
    described = []
    for name in OPTION_NAMES:
        kind = _FIELD_TYPES[name]
        entry: dict[str, Any] = {"name": name, "default": _plain(getattr(default, name)), "help": OPTION_HELP[name]}
        if kind is bool:
            entry["kind"] = "bool"
        elif kind is int:
            entry["kind"] = "int"
            entry["min"], entry["max"] = OPTION_RANGES[name]  # min_bid: 7 with round points, 4 without
        else:
            entry["kind"] = "choice"
            entry["choices"] = [member.value for member in kind]
        described.append(entry)
    return described


def load_rules(rules_file: str | Path | None = None, overrides: Iterable[str] = ()) -> Rules:
    """The rules for a command: the defaults, then ``--rules NAME`` (a preset, :data:`PRESETS`) or ``--rules FILE``,
    then each ``--rule KEY=VALUE``."""
    return Rules(**rule_settings(rules_file, overrides))


def _settings(mapping: Mapping[str, Any], source: str, strict: bool) -> dict[str, Any]:
    if not isinstance(mapping, Mapping):
        raise RulesError(f"{source} must be a table of option = value, got {type(mapping).__name__}")
    values = {}
    for key, value in mapping.items():
        _check_key(key, source)
        values[key] = _coerce(key, value, strict=strict)
    return values


def _toml_settings(path: Path) -> dict[str, Any]:
    try:
        text = read_input(path, limit=2**20)
    except FileNotFoundError:
        raise RulesError(f"rules file {path} does not exist: give the path of a TOML file") from None
    except (OSError, ValueError) as exc:  # a folder, bytes that are not UTF-8, a file far too large
        raise RulesError(f"cannot read rules file {path}: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"rules file {path} is not valid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:  # a number too long to convert, or nesting too deep
        raise RulesError(f"rules file {path} cannot be read as TOML: {str(exc).splitlines()[0]}") from None
    return _settings(data, f"rules file {path}", strict=True)


def _override_settings(assignments: Iterable[str]) -> dict[str, Any]:
    values = {}
    for assignment in assignments:
        key, sep, value = assignment.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RulesError(f"--rule {assignment!r} must look like KEY=VALUE, e.g. --rule round_points=true")
        _check_key(key, "--rule")
        values[key] = _coerce(key, value.strip(), strict=False)
    return values


def _check_key(key: Any, source: str) -> None:
    if key in _FIELD_TYPES:
        return
    close = difflib.get_close_matches(str(key), OPTION_NAMES, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise RulesError(f"unknown rule option {key!r} in {source}: {hint}known options are {', '.join(OPTION_NAMES)}")


def _coerce(name: str, value: Any, *, strict: bool) -> Any:
    kind = _FIELD_TYPES[name]
    if kind is bool:
        if isinstance(value, bool):
            return value
        if not strict and isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise RulesError(f"{name} must be true or false, got {value!r}")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, np.integer):
            return int(value)
        if not strict and isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise RulesError(f"{name} must be a whole number, got {value!r}")
    if isinstance(value, str):
        try:
            return kind(value.lower())
        except ValueError:
            pass
    choices = ", ".join(m.value for m in kind)
    raise RulesError(f"{name} must be one of {choices}, got {value!r}")


def _to_int(value: Any) -> int:
    if isinstance(value, StrEnum):
        return list(type(value)).index(value)
    return int(value)


def _plain(value: Any) -> bool | int | str:
    return value.value if isinstance(value, StrEnum) else value


def format_value(value: bool | int | str) -> str:
    """An option value as typed on the command line: ``true``, ``21``, ``taker``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _toml_value(value: bool | int | str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return f'"{value}"'


def legal_slots(rules: Rules, place: int, situation: int) -> np.ndarray:
    """Which call slots (pass, 1..M, moon) are legal for the seat at ``place`` (0 the opener) in ``situation`` (no
    number standing, or ``2b - 1`` / ``2b`` for a number b called by the partner / an opponent: docs/rules.md,
    "Auction")."""
    legal = np.zeros(rules.n_call_slots, dtype=bool)
    standing = (situation + 1) // 2
    legal[0] = not rules.must_bid(place, situation != 0)
    numbers = rules.bids(standing)
    legal[numbers.start: numbers.stop] = True
    legal[-1] = rules.moon
    return legal


# The facts Rules.derived_facts works out for the kernels, stored after the options in Rules.to_array().
DERIVED_NAMES = tuple(Rules().derived_facts())
ARRAY_NAMES = OPTION_NAMES + DERIVED_NAMES
# Index of each option and derived fact in Rules.to_array(), for the kernels (smear_sim.core.layout's R_*).
RULE_INDEX = {name: i for i, name in enumerate(ARRAY_NAMES)}
