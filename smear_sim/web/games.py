"""The folder of games played at the page's practice table (``smear-sim serve --games-dir``).

Each game is one file, a game record (docs/formats.md, "Game record") that ``smear-sim review`` and ``smear-sim
score`` read, rewritten atomically after every finished hand (:func:`smear_sim.core.io.atomic_write`), so a
server that stops loses no finished hand and never leaves a half-written file. Files are named
``game-YYYYMMDD-HHMMSS-<table id>.json``; the page lists the newest ``MAX_LISTED`` and opens one by its name, never
by a path.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ..core.errors import SmearError
from ..core.io import atomic_write, read_input

__all__ = ["MAX_LISTED", "GameFolder", "check_games_dir", "default_games_dir"]

MAX_LISTED = 200  # saved games the page lists, newest first
GAME_NAME = re.compile(r"game-[0-9]{8}-[0-9]{6}-[A-Za-z0-9_-]{1,32}\.json")


def default_games_dir() -> Path:
    """``$XDG_DATA_HOME/smear-sim/games``, ``~/.local/share/smear-sim/games`` where it is not set (the XDG base
    directory rule for a user's data)."""
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "smear-sim" / "games"


def check_games_dir(path: Path) -> None:
    """Raise a one-line SmearError now if games could not be saved in ``path`` later (``--games-dir``): it is a file,
    or it (or the folder it would be made in) is not writable."""
    real = Path(os.path.realpath(path))
    if real.exists():
        if not real.is_dir():
            raise SmearError(f"--games-dir {path} is a file; give a folder for the saved games")
        if not os.access(real, os.W_OK | os.X_OK):
            raise SmearError(f"--games-dir {path}: the folder is not writable")
        return
    ancestor = real.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir() or not os.access(ancestor, os.W_OK | os.X_OK):
        raise SmearError(f"--games-dir {path}: cannot make it, {ancestor} is not a writable folder")


class GameFolder:
    """The saved games: written one finished hand at a time, listed, and read back by name."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def save(self, name: str, record: dict[str, Any]) -> None:
        """Write the game record ``record`` as ``name``, replacing the previous version at once (never half)."""
        if not GAME_NAME.fullmatch(name):
            raise ValueError(f"not a saved game's name: {name!r}")
        self.folder.mkdir(parents=True, exist_ok=True)
        with atomic_write(self.folder / name) as handle:
            json.dump(record, handle, separators=(",", ":"))
            handle.write("\n")

    def listing(self) -> list[dict[str, Any]]:
        """The newest ``MAX_LISTED`` games: ``name``, ``hands`` (deals recorded), ``scores`` (after the last deal)
        and ``modified`` (seconds since the epoch), with ``winner``, ``seat`` and ``bots`` from the record's
        ``practice`` entry. A file that cannot be read is listed with ``error``."""
        if not self.folder.is_dir():
            return []
        files = sorted((p for p in self.folder.iterdir() if GAME_NAME.fullmatch(p.name) and p.is_file()),
                       key=lambda p: p.stat().st_mtime, reverse=True)[:MAX_LISTED]
        found = []
        for path in files:
            entry: dict[str, Any] = {"name": path.name, "modified": round(path.stat().st_mtime)}
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
                deals = record["deals"]
                entry["hands"] = len(deals)
                about = record.get("practice") or {}  # what the table adds: the seat, the bots, the scores now
                entry["scores"] = about.get("scores_after")
                entry["winner"] = about.get("winner")
                entry["seat"] = about.get("seat")
                entry["bots"] = about.get("bots")
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
                entry["error"] = f"cannot read it: {type(exc).__name__}"
            found.append(entry)
        return found

    def read(self, name: str) -> dict[str, Any]:
        """The game record saved as ``name`` (a one-line SmearError for a name that is not a saved game)."""
        if not GAME_NAME.fullmatch(name):
            raise SmearError(f"{name[:60]!r} is not a saved game's name: names look like "
                             "game-20260101-120000-abc.json (GET /api/games lists them)")
        path = self.folder / name
        try:
            return json.loads(read_input(path))
        except FileNotFoundError:
            raise SmearError(f"no saved game {name}: GET /api/games lists them") from None
        except (OSError, ValueError) as exc:
            raise SmearError(f"saved game {name} cannot be read: {str(exc).splitlines()[0]}") from None
