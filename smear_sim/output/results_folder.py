"""The results folder as the page shows it (``GET /api/tables``): the bid table and the moon table regrouped by the
features asked for, what to call by place in the auction, the match-equity table, and the reports under other rules
in its subfolders, each file read once (:class:`ResultsFolder`)."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ..analysis.classes import ClassTable, moon_table
from ..analysis.count import count_view, fitted_count
from ..core.errors import SmearError
from ..core.io import report_folders
from .format import FEATURES, rules_name
from .report import table_json

__all__ = ["BID_TABLE", "EQUITY_TABLE", "MAX_VARIANTS", "POSITION_TABLE", "TABLE_GROUPINGS", "ResultsFolder"]

BID_TABLE = "bid_table.npz"
POSITION_TABLE = "by_position.csv"
EQUITY_TABLE = "equity.csv"
TABLE_GROUPINGS = 8  # groupings of the bid table kept, each a few MB (per rule set)
MAX_VARIANTS = 16  # the reports under other rules offered from the results folder's subfolders


class ResultsFolder:
    """The results folder's tables, each read once: the class counts (and their groupings: the last
    ``TABLE_GROUPINGS`` asked for are kept), what to call by place in the auction, and the match-equity table.

    A grouping is keyed on its features in one order (``FEATURES``'), whatever order they are asked in, so the
    7 features give at most 127 groupings, and the answer is the same for any order.
    """

    def __init__(self, results: Path | None, name: str = "") -> None:
        self.results = results
        self.name = name  # "" for the results folder itself, else its subfolder's name
        self._lock = threading.Lock()
        self._table: ClassTable | None = None
        self._made: OrderedDict[tuple[str, ...], dict[str, Any]] = OrderedDict()
        self._fixed: dict[str, dict[str, Any] | None] = {}
        self._variants: dict[str, ResultsFolder] | None = None

    def variants(self) -> dict[str, ResultsFolder]:
        """The folder itself and the reports in its subfolders (at most ``MAX_VARIANTS``), found once."""
        with self._lock:
            if self._variants is None:
                found = [] if self.results is None else report_folders(self.results)[:MAX_VARIANTS]
                self._variants = {"": self, **{name: ResultsFolder(self.results / name, name) for name in found}}
            return self._variants

    def listing(self) -> list[dict[str, str]]:
        """``variants`` for the page: each rule set's name and its rules in words, from its bid table."""
        return [{"name": name, "label": tables.label()} for name, tables in self.variants().items()]

    def label(self) -> str:
        """The rules of the bid table in words (``round points``); else the folder's name."""
        path = self._path(BID_TABLE)
        with self._lock, contextlib.suppress(SmearError, OSError, ValueError):  # a broken table says so when asked
            if self._table is None and path is not None and path.exists():
                self._table = ClassTable.load(path)
            if self._table is not None:
                return rules_name(self._table.rules)
        return self.name or "this folder"

    def answer(self, by: tuple[str, ...], variant: str = "") -> dict[str, Any]:
        """``GET /api/tables``: the tables of ``variant`` ("" for the results folder itself), with ``variants``."""
        variants = self.variants()
        if variant not in variants:
            offered = ", ".join(repr(name) for name in variants if name) or "none"
            raise SmearError(f"unknown variant {variant!r}: the results folder's reports under other rules are "
                             f"{offered} (leave variant out for the folder itself)")
        return {**variants[variant].get(by), "variant": variant, "variants": self.listing()}

    def get(self, by: tuple[str, ...]) -> dict[str, Any]:
        with self._lock:
            for name, read in ((POSITION_TABLE, _position_json), (EQUITY_TABLE, _equity_json)):
                if name not in self._fixed:
                    path = self._path(name)
                    self._fixed[name] = read(path) if path is not None and path.exists() else None
            classes = self._classes(tuple(sorted(by, key=list(FEATURES).index)))
            answer = {**classes, "by_position": self._fixed[POSITION_TABLE], "equity": self._fixed[EQUITY_TABLE]}
            if not any(answer.values()):
                where = ("no results folder was given" if self.results is None else
                         f"the results folder has none of {BID_TABLE}, {POSITION_TABLE} and {EQUITY_TABLE}")
                raise SmearError(f"no tables to show: {where}; make them with 'smear-sim report', or start the server "
                                 "with --results DIR naming a folder that has them")
            return {**answer, "count": self._count()}

    def _count(self) -> dict[str, Any] | None:
        """The shipped count fitted under the bid table's rules, as the report shows it; None without a bid table
        or with none fitted under its rules. Called holding the lock, after :meth:`_classes`."""
        if self._table is None:
            return None
        if "count" not in self._fixed:
            rule = fitted_count(self._table.rules)
            self._fixed["count"] = None if rule is None else count_view(rule)
        return self._fixed["count"]

    def _path(self, name: str) -> Path | None:
        return None if self.results is None else self.results / name

    def _classes(self, by: tuple[str, ...]) -> dict[str, Any]:
        path = self._path(BID_TABLE)
        if path is None or not path.exists():
            return {"source": None, "features": [], "bid_table": None, "moon_table": None}
        if by in self._made:
            self._made.move_to_end(by)
            return self._made[by]
        if self._table is None:
            self._table = ClassTable.load(path)
        frame = self._table.frame(by)
        self._made[by] = {
            "source": path.name,
            "features": [_feature(name, _levels(frame[name])) for name in by],
            "bid_table": table_json(frame),
            "moon_table": table_json(moon_table(self._table, by)),
        }
        while len(self._made) > TABLE_GROUPINGS:
            self._made.popitem(last=False)
        return self._made[by]


def _position_json(path: Path) -> dict[str, Any]:
    """``by_position.csv`` (``smear-sim bid-table --by-position``) for the page: its rows, one grid of calls per
    place as the Markdown file draws it, and what its ``.npz`` and ``.md`` say of how it was made."""
    import pandas as pd

    from ..analysis.positions import PositionTable
    from .format import call_charts

    try:
        frame = pd.read_csv(path, dtype={"call": "string", "standing": "string"}, keep_default_na=True)
        rows = json.loads(frame.to_json(orient="records"))
        charts = call_charts(frame.astype(object).where(frame.notna(), None).to_dict("records"))
    except (OSError, ValueError, KeyError) as exc:
        raise SmearError(f"{path.name} is not a table from 'smear-sim bid-table --by-position': {exc}") from None
    meta: dict[str, Any] = {}
    counts = path.with_suffix(".npz")
    if counts.exists():
        meta = PositionTable.load(counts).metadata()
    markdown = path.with_suffix(".md")
    if markdown.exists():  # the score the calls are judged at is stated only there
        found = re.search(r"most likely to win the game at (-?\d+)\u2013(-?\d+)", markdown.read_text(encoding="utf-8"))
        if found:
            meta["score"] = [int(found[1]), int(found[2])]
    calls = [name[len("win_"):] for name in frame.columns if name.startswith("win_") and not name.startswith("win_se")
             and name != "win_margin"]
    return {**meta, "source": path.name, "calls": calls, "rows": rows,
            "charts": [{"place": c.place, "strengths": c.strengths, "standings": c.standings, "cells": c.cells}
                       for c in charts]}


EQUITY_LOW = -10  # the lowest score the page shows, as equity.md


def _equity_json(path: Path) -> dict[str, Any]:
    """``equity.csv`` (``smear-sim equity``) as grids of P(win) and its standard error, ``[dealer][us][them]`` over
    ``scores`` from -10 (as ``equity.md``), the dealer being the team that deals the next hand."""
    import pandas as pd

    try:
        frame = pd.read_csv(path)
        scores = sorted(s for s in frame["us"].unique().tolist() if s >= EQUITY_LOW)
        dealers = ["them", "us"]
        grids = {}
        for key in ("win", "win_se"):
            grids[key] = [frame[frame["dealer"] == dealer].pivot(index="us", columns="them", values=key)
                          .reindex(index=scores, columns=scores).round(6).values.tolist() for dealer in dealers]
    except (OSError, ValueError, KeyError) as exc:
        raise SmearError(f"{path.name} is not a match-equity table from 'smear-sim equity': {exc}") from None
    return {"source": path.name, "scores": scores, "dealers": dealers, **grids}


def _feature(name: str, values: list) -> dict[str, Any]:
    """A feature for the page: its help, its values in order and each value's label in a table cell (the
    labels of output/format.py, so the page shows a class as the terminal and the report do)."""
    label = FEATURES[name]
    return {"name": name, "help": label.help, "values": values, "labels": [label.cell(v) for v in values]}


def _levels(column) -> list:
    """A feature's values in the table's order (the top trump best first), as plain JSON values."""
    if hasattr(column, "cat"):  # categorical: keep the categories' order
        seen = set(column)
        return [str(value) for value in column.cat.categories if value in seen]
    return sorted(column.unique().tolist())
