"""Writing results: a file or a folder is written whole or not at all, and only files are ever replaced.

:func:`atomic_write` writes a regular file beside its target and renames it into place, so an interrupted run
leaves the old file, or none, never half of one. A target that is not a regular file (``/dev/null``, a FIFO,
a terminal, ``/dev/stdout``) is written through instead: replacing it would put a plain file where a device
was. A symlink is followed, so the file it points to is replaced and the link stays.

:func:`replace_folder` does the same for a folder of results (``smear-sim report``): everything is written
into a temporary sibling folder, which is swapped in at the end.

:func:`check_output_file` and :func:`check_output_folder` find, before any work starts, the paths that could
not be written later. Errors while writing (a full disk, a closed pipe) become :class:`OutputError`.

:func:`read_input` reads an input file (a rules file, a record, a hand analysis) up to a size limit, so that
``/dev/zero`` or a wrong huge file is refused instead of filling the memory.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from .errors import OutputError, SmearError

__all__ = [
    "INPUT_LIMIT",
    "MANIFEST",
    "atomic_write",
    "check_output_file",
    "check_output_folder",
    "read_input",
    "replace_folder",
    "report_folders",
    "signals_deferred",
    "writes_through",
]

# The list of files a report folder's last run wrote, one relative path a line, kept in the folder itself.
MANIFEST = ".smear-sim-files"

INPUT_LIMIT = 16 * 2**20  # bytes: far more than any rules file, hand record or hand analysis


def read_input(path: str | Path, limit: int = INPUT_LIMIT) -> str:
    """The UTF-8 text of ``path`` (``-``: standard input), read up to ``limit`` bytes.

    Raises what reading raises (``OSError``, ``UnicodeDecodeError``), and ``ValueError`` past the limit.
    """
    if str(path) == "-":
        if sys.stdin is None:
            raise OSError(errno.EBADF, "standard input is closed")
        data = getattr(sys.stdin, "buffer", sys.stdin).read(limit + 1)  # a text stream in tests and notebooks
    else:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"it is larger than {limit:,} bytes, too large for this kind of file")
    return data if isinstance(data, str) else data.decode("utf-8")


def _open_descriptor(path: str | Path) -> int | None:
    """The file descriptor that ``path`` names (``/dev/stdout``, ``/dev/fd/3``, ``/proc/self/fd/1``), if any.

    Such a path stands for a file this process already has open; it is written through that descriptor, at
    its offset, as the process's own output would be, and never replaced or truncated.
    """
    current = os.path.abspath(path)
    own = re.compile(rf"/proc/(?:self|{os.getpid()})/fd/(\d+)")
    for _ in range(40):  # the kernel's own limit on links followed
        current = os.path.join(os.path.realpath(os.path.dirname(current)), os.path.basename(current))
        match = own.fullmatch(current)
        if match:
            return int(match.group(1))
        try:
            link = os.readlink(current)
        except OSError:  # not a link (or nothing there): an ordinary path
            return None
        current = os.path.join(os.path.dirname(current), link)
    return None


def _is_regular_or_new(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return True


def writes_through(path: str | Path) -> bool:
    """Whether :func:`atomic_write` writes through ``path`` (a device, FIFO or open descriptor) rather than
    replacing a regular file."""
    return _open_descriptor(path) is not None or not _is_regular_or_new(Path(path))


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "w") -> Iterator:
    """Open ``path`` for writing so that it is never left half-written.

    A regular file (or a new one) is written to a temporary file beside it and renamed into place only when
    the block ends without an error; a symlink's target is the file replaced. Anything else is written
    through: an open descriptor (``/dev/stdout``) at its offset, a device or FIFO by opening it. An
    ``OSError`` while writing becomes :class:`OutputError` naming the path.
    """
    path = Path(path)
    text = {} if "b" in mode else {"encoding": "utf-8"}
    try:
        descriptor = _open_descriptor(path)
        if descriptor is not None:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()  # what the process printed so far comes first
            with os.fdopen(os.dup(descriptor), mode, **text) as handle:  # shares its offset; no truncation
                yield handle
        elif not _is_regular_or_new(path):
            with open(path, mode, **text) as handle:
                yield handle
        else:
            with _replacing(Path(os.path.realpath(path)), mode, text) as handle:
                yield handle
    except OSError as exc:
        raise OutputError(path, exc) from exc


@contextlib.contextmanager
def _replacing(real: Path, mode: str, text: dict) -> Iterator:
    real.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the mode open() would
        with os.fdopen(fd, mode, **text) as handle:
            yield handle
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


# -- checking output paths before the work --------------------------------------------------------------


def _existing_ancestor(real: Path) -> Path:
    ancestor = real.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    return ancestor


def _check_creatable(path: Path, real: Path, option: str) -> None:
    """``real`` does not exist yet: its nearest existing ancestor must be a folder we may write in."""
    ancestor = _existing_ancestor(real)
    if not ancestor.is_dir():
        raise SmearError(f"{option} {path}: {ancestor} is a file, not a folder; give a path in a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise SmearError(f"{option} {path}: cannot create it, the folder {ancestor} is not writable; "
                         "give a path in a writable folder")
    # Permission bits do not tell everything (root may write anywhere by them, yet /proc and /sys take no new
    # files): so make, and remove at once, a folder there, before any work.
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".smear-sim-check-", dir=ancestor))
    except OSError as exc:
        raise SmearError(f"{option} {path}: cannot create it in {ancestor}: {exc.strerror or exc}; give a path in "
                         "a writable folder") from None


def _checked(option: str, path: Path, check) -> None:
    try:
        check()
    except SmearError:
        raise
    except OSError as exc:  # a name too long, a loop of links, a folder we may not enter
        raise SmearError(f"{option} {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # an embedded NUL byte
        raise SmearError(f"{option} {path!r}: {exc}") from None


def check_output_file(path: str | Path, option: str) -> None:
    """Raise :class:`SmearError` now if ``path`` (given as ``option``) cannot be written as a file later."""
    path = Path(path)

    def check() -> None:
        descriptor = _open_descriptor(path)
        if descriptor is not None:
            try:
                access = _access_mode(descriptor)
            except OSError:
                raise SmearError(f"{option} {path}: file descriptor {descriptor} is not open") from None
            if access not in (os.O_WRONLY, os.O_RDWR):
                raise SmearError(f"{option} {path}: file descriptor {descriptor} is not open for writing")
            return
        real = Path(os.path.realpath(path))
        try:
            mode = os.stat(real).st_mode
        except (FileNotFoundError, NotADirectoryError):
            _check_creatable(path, real, option)
            return
        if stat.S_ISDIR(mode):
            raise SmearError(f"{option} {path} is a folder; give a file name, e.g. {os.path.join(path, 'NAME')}")
        if not stat.S_ISREG(mode):  # a device or FIFO is written through
            if not os.access(real, os.W_OK):
                raise SmearError(f"{option} {path}: not writable")
            return
        if not os.access(real.parent, os.W_OK | os.X_OK):
            raise SmearError(f"{option} {path}: cannot replace it, the folder {real.parent} is not writable")

    _checked(option, path, check)


def _access_mode(descriptor: int) -> int:
    import fcntl

    return fcntl.fcntl(descriptor, fcntl.F_GETFL) & os.O_ACCMODE


def check_output_folder(path: str | Path, option: str) -> None:
    """Raise :class:`SmearError` now if :func:`replace_folder` could not replace ``path`` later."""
    path = Path(path)

    def check() -> None:
        real = Path(os.path.realpath(path))
        if not real.exists():
            _check_creatable(path, real, option)
            return
        if not real.is_dir():
            raise SmearError(f"{option} {path} is a file; give a folder for the results")
        here = Path.cwd().resolve()
        if here == real or real in here.parents or real == real.parent or os.path.ismount(real):
            raise SmearError(f"{option} {path}: the results replace their folder as a whole, so it cannot be "
                             f"the current folder, one above it or a mount point; give a subfolder such as "
                             f"{os.path.join(path, 'results')}")
        if not os.access(real.parent, os.W_OK | os.X_OK):
            raise SmearError(f"{option} {path}: cannot replace it, the folder {real.parent} is not writable")
        if not os.access(real, os.R_OK | os.X_OK):
            raise SmearError(f"{option} {path}: the folder is not readable")

    _checked(option, path, check)


# -- replacing a folder whole ----------------------------------------------------------------------------


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM until the block ends, so that it is never cut in half.

    Their Python handlers are swapped for ones that only note the signal (blocking it would not do: the
    kernel may hand it to any of Numba's threads); after the block the old handlers get what was noted.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread sets handlers, and only it runs them
        return
    noted: list[int] = []
    before = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(signum)
        if handler not in (signal.SIG_IGN, None):
            before[signum] = handler
            signal.signal(signum, lambda number, frame: noted.append(number))
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        for signum in noted:
            if callable(before[signum]):
                before[signum](signum, None)  # KeyboardInterrupt, or the command line's SIGTERM exit
            else:
                os.kill(os.getpid(), signum)  # the default action: end the process, now


def report_folders(folder: str | Path) -> list[str]:
    """The names of the subfolders of ``folder`` that hold a report (a :data:`MANIFEST` of their own), sorted.

    Hidden folders are skipped: among them are a report's temporary folder while it is written and the old
    folder while it is swapped out (:func:`replace_folder`).
    """
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    return sorted(e.name for e in entries if not e.name.startswith(".") and e.is_dir()
                  and os.path.isfile(os.path.join(e.path, MANIFEST)))


def _listed(folder: Path) -> set[str]:
    """The files a previous run listed in ``folder``'s manifest (none when it has none)."""
    try:
        return set((folder / MANIFEST).read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return set()


def _carry_over(old: Path, new: Path, skip: set[str]) -> None:
    """Hard-link (or copy) into ``new`` every file of ``old`` not named in ``skip``, keeping folders and links.

    The files stay in ``old`` too, so they exist at every moment, whatever interrupts the run.
    """
    for top, folders, files in os.walk(old):
        here = Path(top)
        rel = here.relative_to(old)
        if not folders and not files and rel != Path("."):  # an empty folder the user made
            (new / rel).mkdir(parents=True, exist_ok=True)
        for name in files + [f for f in folders if (here / f).is_symlink()]:
            source = here / name
            relative = (rel / name).as_posix()
            if relative in skip:
                continue
            target = new / rel / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                os.symlink(os.readlink(source), target)
            elif source.is_file():
                try:
                    os.link(source, target)
                except OSError:  # a file system without hard links, or a file we may not link
                    shutil.copy2(source, target)
            else:
                raise OSError(f"it holds {relative}, which is not a file, link or folder; move it elsewhere")


@contextlib.contextmanager
def replace_folder(path: str | Path) -> Iterator[Path]:
    """Yield an empty temporary folder beside ``path``; when the block ends, it becomes ``path`` whole.

    The folder at ``path`` is then always the complete output of one run: the old one until the swap, the
    new one after it (for an instant between the two renames there is none). Files in an existing folder
    that the run did not write are kept: every file except those listed in the folder's manifest
    (:data:`MANIFEST`, the files the previous run wrote) is hard-linked into the new folder before the swap,
    so it exists at every moment. A file the run writes replaces one of the same name. If the block
    raises, or a signal ends the run, the temporary folder is removed and ``path`` is untouched.
    """
    target = Path(os.path.realpath(path))  # a link to the folder stays a link
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
    except OSError as exc:
        raise OutputError(path, exc) from exc
    try:
        yield staging
        written = sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file())
        (staging / MANIFEST).write_text("".join(f"{name}\n" for name in written), encoding="utf-8")
        if target.exists():
            _carry_over(target, staging, _listed(target) | set(written) | {MANIFEST})
            _copy_owner_and_mode(target, staging)
        else:
            os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes 0700; give the folder the mode mkdir would
        _swap(staging, target)
    except OSError as exc:
        raise OutputError(path, exc) from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already when the swap happened


def _copy_owner_and_mode(old: Path, new: Path) -> None:
    info = os.stat(old)
    os.chmod(new, stat.S_IMODE(info.st_mode))
    with contextlib.suppress(OSError):  # only root may give a folder to someone else
        os.chown(new, info.st_uid, info.st_gid)


def _swap(staging: Path, target: Path) -> None:
    with signals_deferred():
        if not target.exists():
            os.rename(staging, target)
            return
        old = target.with_name(f".{target.name}.{secrets.token_hex(4)}.old")
        os.rename(target, old)
        try:
            os.rename(staging, target)
        except BaseException:
            os.rename(old, target)
            raise
        shutil.rmtree(old, ignore_errors=True)
