"""The folder of games played at the page's practice table (``smear-sim serve --games-dir``).

Each game is one file, a game record (docs/formats.md, "Game record") that ``smear-sim review`` and ``smear-sim
score`` read, rewritten atomically after every finished hand (:func:`smear_sim.core.io.atomic_write`), so a
server that stops loses no finished hand and never leaves a half-written file. Files are named
``game-YYYYMMDD-HHMMSS-<table id>.json``; the page lists the newest ``MAX_LISTED`` and opens one by its name, never
by a path.

The folder is the user's, and anything may be planted in it, so a file is read only if it is a regular file in
the folder itself (not a link, a FIFO or a device; opened without following links and without blocking), of at
most ``MAX_GAME_BYTES``, holding JSON nested at most ``MAX_GAME_DEPTH`` deep with finite numbers. Any other file
named like a game is listed with ``error`` and refused when asked for: one bad file costs one entry.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from ..core.errors import SmearError
from ..core.io import atomic_write

__all__ = ["MAX_LISTED", "GameFolder", "check_games_dir", "default_games_dir"]

MAX_LISTED = 200  # saved games the page lists, newest first
MAX_GAME_BYTES = 1024 * 1024  # a game record is some KB a hand: a file over this is not one, and is not read
MAX_GAME_DEPTH = 16  # levels of nesting in a game record: it has 5
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
        ``practice`` entry. A file that cannot be read (:meth:`read`'s rules) is listed with ``error``: one bad
        file costs its own entry, never the listing."""
        try:
            with os.scandir(self.folder) as found:
                named = [(entry.name, entry.stat(follow_symlinks=False).st_mtime) for entry in found
                         if GAME_NAME.fullmatch(entry.name)]
        except (FileNotFoundError, NotADirectoryError):
            return []
        listed = []
        for name, modified in sorted(named, key=lambda item: item[1], reverse=True)[:MAX_LISTED]:
            entry: dict[str, Any] = {"name": name, "modified": round(modified)}
            try:
                record = self._load(name)
                deals = record["deals"]
                entry["hands"] = len(deals)
                about = record.get("practice") or {}  # what the table adds: the seat, the bots, the scores now
                entry["scores"] = about.get("scores_after")
                entry["winner"] = about.get("winner")
                entry["seat"] = about.get("seat")
                entry["bots"] = about.get("bots")
            except (SmearError, KeyError, TypeError, AttributeError) as exc:
                why = str(exc) if isinstance(exc, _Unreadable) else f"not a game record ({type(exc).__name__})"
                entry = {"name": name, "modified": round(modified), "error": f"cannot read it: {why}"}
            listed.append(entry)
        return listed

    def read(self, name: str) -> dict[str, Any]:
        """The game record saved as ``name`` (a one-line SmearError for a name that is not a saved game, or a file
        that is not one: see the module docstring)."""
        if not GAME_NAME.fullmatch(name):
            raise SmearError(f"{name[:60]!r} is not a saved game's name: names look like "
                             "game-20260101-120000-abc.json (GET /api/games lists them)")
        try:
            return self._load(name)
        except FileNotFoundError:
            raise SmearError(f"no saved game {name}: GET /api/games lists them") from None
        except _Unreadable as exc:
            raise SmearError(f"saved game {name} cannot be read: {exc}") from None

    def _load(self, name: str) -> dict[str, Any]:
        """The game record in the folder's file ``name`` (a checked name), read by the folder's rules;
        FileNotFoundError or :class:`_Unreadable` (one line) otherwise."""
        try:
            folder = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except (FileNotFoundError, NotADirectoryError):
            raise FileNotFoundError(name) from None
        except OSError as exc:
            raise _Unreadable(exc.strerror or type(exc).__name__) from None
        try:
            # O_NOFOLLOW: a link (to anywhere) is not opened; O_NONBLOCK: a FIFO or device opens at once, and
            # fstat then refuses it, so no request waits on a file that never ends.
            handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise _Unreadable("it is a link; only files in the folder itself are read" if exc.errno == errno.ELOOP
                              else exc.strerror or type(exc).__name__) from None
        finally:
            os.close(folder)
        try:
            about = os.fstat(handle)
            if not stat.S_ISREG(about.st_mode):
                raise _Unreadable("it is not a regular file")
            if about.st_size > MAX_GAME_BYTES:
                raise _Unreadable(f"it is over {MAX_GAME_BYTES:,} bytes, more than any game record")
            with os.fdopen(handle, "rb", closefd=False) as file:
                raw = file.read(MAX_GAME_BYTES + 1)
        finally:
            os.close(handle)
        if len(raw) > MAX_GAME_BYTES:  # grown since fstat
            raise _Unreadable(f"it is over {MAX_GAME_BYTES:,} bytes, more than any game record")
        record = _parse(raw)
        if not isinstance(record, dict) or not isinstance(record.get("deals"), list):
            raise _Unreadable("it is not a game record (an object with its deals)")
        return record


class _Unreadable(SmearError):
    """A file of the games folder that is not read (one line, naming no path): not a regular file, too large,
    or not JSON within the bounds."""


def _parse(raw: bytes) -> Any:
    """``raw`` as JSON nested at most ``MAX_GAME_DEPTH`` deep with finite numbers, or :class:`_Unreadable`."""
    def refuse(constant: str):
        raise ValueError(f"it holds {constant}, which no game record does")

    try:
        value = json.loads(raw.decode("utf-8"), parse_constant=refuse)
    except RecursionError:
        raise _Unreadable(f"it is nested more than {MAX_GAME_DEPTH} deep, more than any game record") from None
    except UnicodeDecodeError:
        raise _Unreadable("it is not UTF-8 text") from None
    except ValueError as exc:
        raise _Unreadable(f"it is not JSON: {str(exc).splitlines()[0]}"[:200]) from None
    level = [value]
    for _ in range(MAX_GAME_DEPTH):
        level = [child for item in level if isinstance(item, dict | list)
                 for child in (item.values() if isinstance(item, dict) else item)]
        if not level:
            return value
    raise _Unreadable(f"it is nested more than {MAX_GAME_DEPTH} deep, more than any game record")
