"""Reading back what commands saved: class counts (``.npz``) and hand analyses (JSON), trusting nothing.

A saved file may be empty, cut short, from another version or edited by hand. What the loaders return has
been checked: types, shapes, signs and the identities that counts from a real run always satisfy. Anything
else is a one-line :class:`SmearError` that names the file and the first problem.
"""

from __future__ import annotations

import json
import math
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from ..core import layout as L
from ..core.errors import RulesError, SmearError
from ..core.players import POLICIES, parse_policy
from ..core.rules import Rules
from ..engine.runner import MAX_SEED

__all__ = ["CountsFileError", "check_hand_analysis", "load_class_counts"]


class CountsFileError(SmearError):
    """A class-count file that cannot be used, and how to make a good one: ``str()`` names the library's way
    (``smear_sim.class_table(...).save(path)``); a front end names its own with :meth:`worded` (the command line:
    ``smear-sim bid-table``), so that this layer never speaks of commands.

    ``template`` is the message with ``{maker}`` (what makes such files), ``{make}`` (how to make one) and
    ``{writer}`` (what wrote the file) where those words go.
    """

    LIBRARY = {"maker": "smear_sim.class_table", "make": "smear_sim.class_table(...).save(path)",
               "writer": "smear_sim.class_table(...).save"}

    def __init__(self, template: str) -> None:
        self.template = template
        super().__init__(template.format(**self.LIBRARY))

    def worded(self, maker: str, make: str, writer: str, **words: str) -> str:
        """The message with a front end's words for the maker, how to make a file and its writer."""
        return self.template.format(maker=maker, make=make, writer=writer)


_MAKE_TABLE = "make it again with {make}"


def _literal(text: str) -> str:
    """``text`` (a path, a reason) as it must appear in a :class:`CountsFileError` template."""
    return str(text).replace("{", "{{").replace("}", "}}")


def load_class_counts(path: str | Path) -> tuple[np.ndarray, dict[str, Any]]:
    """The counts and metadata (hands, seed, policy, rules as a :class:`Rules`) of a bid-table ``.npz``."""
    path = Path(path)
    try:
        data = np.load(path, allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise ValueError("it holds one array, not the named arrays 'counts' and 'meta'")
        with data:
            missing = {"counts", "meta"} - set(data.files)
            if missing:
                raise ValueError(f"it has no {' or '.join(sorted(missing))} array")
            counts, meta_text = data["counts"], data["meta"]
    except FileNotFoundError:
        raise CountsFileError(f"{_literal(path)} does not exist: make it with {{make}}") from None
    except IsADirectoryError:
        raise CountsFileError(f"{_literal(path)} is a folder; give the .npz file that {{writer}} wrote") from None
    except (OSError, EOFError, ValueError, TypeError, zipfile.BadZipFile, zlib.error) as exc:
        if isinstance(exc, EOFError):
            reason = "the file is empty"
        elif "pickle" in str(exc):  # numpy's advice to allow pickles is not for this file
            reason = "it is not an archive of number arrays"
        else:
            reason = str(exc).splitlines()[0]
        raise CountsFileError(f"{_literal(path)} is not a class-count file from {{maker}} ({_literal(reason)}); "
                              f"{_MAKE_TABLE}") from None
    meta = _metadata(path, meta_text)
    if counts.shape == (L.N_CLASSES, L.CLS_JOINT):  # saved before the joint points histogram (for games) was kept
        counts = np.pad(counts, ((0, 0), (0, L.CLS_SIZE - L.CLS_JOINT)))
    _check_counts(path, counts, meta)
    return counts.astype(np.int64), meta


def _metadata(path: Path, meta_text: np.ndarray) -> dict[str, Any]:
    def bad(problem: str) -> CountsFileError:
        return CountsFileError(f"{_literal(path)}: {_literal(problem)}; the file was damaged or edited: {_MAKE_TABLE}")

    if meta_text.shape != () or meta_text.dtype.kind != "U":
        raise bad("its 'meta' array is not one string")
    try:
        meta = json.loads(str(meta_text))
    except ValueError:
        raise bad("its 'meta' string is not JSON") from None
    if not isinstance(meta, dict):
        raise bad("its 'meta' is not a JSON object")
    for key in ("hands", "seed", "policy", "rules"):
        if key not in meta:
            raise bad(f"its 'meta' has no {key!r}")
    if not _whole(meta["hands"], 1, 10**12):
        raise bad(f"'hands' must be a whole number from 1 to 10**12, got {meta['hands']!r}")
    if not _whole(meta["seed"], 0, MAX_SEED):
        raise bad(f"'seed' must be a whole number from 0 to 2**64-1, got {meta['seed']!r}")
    try:
        parse_policy(meta["policy"] if isinstance(meta["policy"], str) else "")
    except SmearError:
        raise bad(f"'policy' must be one of {' or '.join(POLICIES)} (with its K where it takes one, as "
                  f"'pimc:16'), got {meta['policy']!r}") from None
    try:
        rules = Rules.from_mapping(meta["rules"], source=f"{path}'s rules")
    except RulesError as exc:
        raise bad(str(exc)) from None
    return {"hands": meta["hands"], "seed": meta["seed"], "policy": meta["policy"], "rules": rules}


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_counts(path: Path, counts: np.ndarray, meta: dict[str, Any]) -> None:
    expected = (L.N_CLASSES, L.CLS_SIZE)
    if counts.shape != expected or counts.dtype.kind not in "iu":
        raise CountsFileError(f"{_literal(path)} holds counts of shape {counts.shape} and type {counts.dtype}, not "
                              f"{expected} integers: it was written by another version of smear-sim; {_MAKE_TABLE}")
    if counts.min(initial=0) < 0:
        raise CountsFileError(f"{_literal(path)} holds negative counts: it was damaged or edited; {_MAKE_TABLE}")
    counts = counts.astype(np.int64)
    m = meta["rules"].max_points
    n = counts[:, L.CLS_COUNT]
    hist = counts[:, L.CLS_HIST: L.CLS_HIST + L.MAX_K]
    other = counts[:, L.CLS_OTHER_BY_K: L.CLS_OTHER_BY_K + L.MAX_K]
    awards = counts[:, L.CLS_AWARDS: L.CLS_AWARDS + L.N_POINTS]
    k = np.arange(L.MAX_K)
    identities = [
        (n.sum() == meta["hands"], f"its classes hold {n.sum():,} hands, but it says {meta['hands']:,}"),
        ((hist.sum(axis=1) == n).all(), "a class's points histogram does not add up to its hands"),
        ((hist[:, m + 1:] == 0).all(), f"a class has hands winning more than the {m} points at stake"),
        ((counts[:, L.CLS_TRUMP: L.CLS_TRUMP + 4].sum(axis=1) == n).all(),
         "a class's trump choices do not add up to its hands"),
        ((counts[:, L.CLS_MOON] <= n).all() and (awards <= n[:, None]).all() and (awards[:, m:] == 0).all(),
         "a class has more moons or points won than hands"),
        ((other <= hist * np.maximum(m - k, 0)).all(),
         "a class's other team won more points than were left"),
        ((counts[:, L.CLS_OTHER_SQ] <= n * m * m).all(), "a class's squared points are out of range"),
    ]
    joint = counts[:, L.CLS_JOINT:].reshape(-1, L.MAX_K, L.MAX_K)
    if joint.any():  # files saved before games have none
        identities += [
            ((joint.sum(axis=2) == hist).all(), "a class's joint points histogram does not match its points"),
            ((joint @ k == other).all(), "a class's joint points histogram does not match the other team's points"),
        ]
    for holds, problem in identities:
        if not holds:
            raise CountsFileError(f"{_literal(path)} is inconsistent ({problem}): it was damaged or edited; {_MAKE_TABLE}")


# -- hand analyses ------------------------------------------------------------------------------------------


def check_hand_analysis(data: Any, source: str | Path) -> dict[str, Any]:
    """``data`` if it is a hand analysis as ``smear-sim hand --json`` prints it (the fields charts read)."""

    def bad(problem: str) -> SmearError:
        return SmearError(f"{source} is not a hand analysis from 'smear-sim hand CARDS --json' ({problem})")

    def number(value: Any, where: str, low: float = -math.inf, high: float = math.inf, null: bool = False) -> None:
        if value is None and null:
            return
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise bad(f"{where} must be a number from {low} to {high}, got {value!r}")

    if not isinstance(data, dict):
        raise bad("not a JSON object")
    for key, kind in (("hand", list), ("points", dict), ("bids", list), ("trump", dict)):
        if not isinstance(data.get(key), kind):
            raise bad(f"{key!r} is missing or not a JSON {'array' if kind is list else 'object'}")
    if not all(isinstance(card, str) for card in data["hand"]):
        raise bad("'hand' must list card names")
    if not _whole(data.get("samples"), 1, 10**12) or not _whole(data.get("seed"), 0, MAX_SEED):
        raise bad("'samples' and 'seed' must be whole numbers")
    if not isinstance(data.get("policy"), str) or not isinstance(data.get("rules", {}), dict):
        raise bad("'policy' must be a name and 'rules' an object")
    points = data["points"]
    number(points.get("mean"), "points.mean", 0, L.N_POINTS)
    number(points.get("se"), "points.se", 0, null=True)
    dist, dist_se = points.get("distribution"), points.get("distribution_se") or []
    if not isinstance(dist, list) or not 1 <= len(dist) <= L.MAX_K or not isinstance(dist_se, list) \
            or len(dist_se) not in (0, len(dist)):
        raise bad("points.distribution must list 1 to 8 probabilities, with as many standard errors")
    for i, p in enumerate(dist):
        number(p, f"points.distribution[{i}]", 0, 1)
    for i, se in enumerate(dist_se):
        number(se, f"points.distribution_se[{i}]", 0, null=True)
    for i, row in enumerate(data["bids"]):
        if not isinstance(row, dict) or "bid" not in row:
            raise bad(f"bids[{i}] must be an object with 'bid' and 'make'")
        number(row.get("make"), f"bids[{i}].make", 0, 1)
    chosen = data["trump"].get("chosen")
    if not isinstance(chosen, dict) or not chosen or not isinstance(data["trump"].get("fixed"), str | None):
        raise bad("'trump' must have 'fixed' (a suit or null) and 'chosen' (shares by suit)")
    for suit, share in chosen.items():
        number(share, f"trump.chosen.{suit}", 0, 1)
    return data
