"""The console plumbing shared by the renderers: a console that reports a closed pipe, tables fitted to the
terminal's width, the progress bar, and small helpers."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable, Iterator, Sequence

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from ...engine.runner import Progress
from ..format import Column


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """Raise the error for the command line to report, where rich would exit quietly with status 1."""
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def console() -> Console:
    return _Console(highlight=False)


def team_name(team: int | None) -> str:
    return "nobody" if team is None else f"team {team}"


def estimate_pair(estimate) -> tuple[float, float]:
    return estimate.value, estimate.se


def fitted_table(columns: Sequence[Column], rows: Sequence[dict], width: int, drop_order: Sequence[str], *,
                  title: str, caption: str, order: str) -> Table:
    """A table no wider than ``width``, whose numbers are never cut: the columns named in ``drop_order`` leave
    in that order until it fits (the caption names them and ``order`` says which go first), and if it still
    does not fit, cells wrap."""
    cells = [{c.key: c.text(row, concise=True) for c in columns} for row in rows]

    def build(kept: Sequence[Column], wrap: bool = False, note: str = "") -> Table:
        table = Table(box=box.SIMPLE, padding=(0, 0), title=title, caption=caption + note, caption_justify="left")
        for column in kept:
            table.add_column(column.short, justify="right", no_wrap=not wrap, overflow="fold")
        for row in cells:
            table.add_row(*(row[c.key] for c in kept))
        return table

    measure = Console(width=1 << 20)

    def fits(table: Table) -> bool:
        return Measurement.get(measure, measure.options, table).maximum <= width

    kept = list(columns)
    dropped = []
    for key in drop_order:
        if fits(build(kept)):
            break
        if any(c.key == key for c in kept):
            kept = [c for c in kept if c.key != key]
            dropped.append(next(c.short for c in columns if c.key == key))
    note = (f" Left out to fit the terminal: {', '.join(dropped)} ({order}); --json and the CSV have them all."
            if dropped else "")
    return build(kept, wrap=not fits(build(kept)), note=note)


@contextlib.contextmanager
def progress_bar(total: int, description: str, enabled: bool = True) -> Iterator[Progress | None]:
    """A rich progress bar on standard error, fed with the hands done; None when disabled."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Bar(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done: bar.advance(task, done)


@contextlib.contextmanager
def status_line(enabled: bool = True) -> Iterator[Callable[[str], None] | None]:
    """A line on standard error saying which step of the work runs now, cleared at the end: ``say(text)`` changes
    it; None when disabled."""
    if not enabled:
        yield None
        return
    with Console(stderr=True).status("") as status:
        yield lambda text: status.update(text)
