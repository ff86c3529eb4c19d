"""The ``smear-sim`` application: the Typer app, the options every command shares, and the entry point.

The commands live in the modules beside this one, one per group; each registers itself on :data:`app`.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import inspect
import json
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..core.errors import BadValue, OutputError, SmearError, SmearWarning, exit_status, message, one_line
from ..core.players import policy_help
from ..engine.compiling import use_helper

if TYPE_CHECKING:
    from ..engine.checkpoint import Checkpoint
    from ..engine.runner import Executor

try:  # typer >= 0.20 vendors click and exposes its exception base here
    from typer import TyperException as _CliError
except ImportError:  # pragma: no cover - older typer on top of click
    from click import ClickException as _CliError

app = typer.Typer(
    name="smear-sim",
    help="Monte Carlo strategy analyzer for the card game Smear: what a hand is worth, what to bid, "
    "and when shooting the moon pays.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def plain_paragraphs(text: str) -> str:
    """Help text with each paragraph of prose on one line, so that rich wraps it cleanly at any width.

    The docstrings are wrapped at 120 columns for the source; rich keeps those line breaks and wraps again at the
    terminal's width, which broke sentences mid-line. Indented lines (the examples) and list items keep theirs.
    """
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines: list[str] = []
        for line in paragraph.split("\n"):
            if lines and not line.startswith((" ", "- ", "* ")) and not lines[-1].startswith(" "):
                lines[-1] += " " + line.strip()
            else:
                lines.append(line)
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def unwrap_help(typer_app: typer.Typer) -> None:
    """Give every command of ``typer_app`` its docstring as :func:`plain_paragraphs` (once all are registered)."""
    for info in typer_app.registered_commands:
        text = info.help or inspect.getdoc(info.callback) or ""
        info.help = plain_paragraphs(text)


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"smear-sim {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    pass


# -- options shared by every command that simulates or scores ------------------------------------------

RulesFile = Annotated[
    str | None,
    typer.Option("--rules", metavar="NAME|FILE.toml", help="A preset by name (smear-sim rules --list), or house "
                 "rules: a TOML file of rule options.", rich_help_panel="Rules"),
]
RuleOverrides = Annotated[
    list[str] | None,
    typer.Option("--rule", metavar="KEY=VALUE", help="Set one rule option (repeatable; overrides --rules), "
                 "e.g. --rule round_points=true. See 'smear-sim rules'.", rich_help_panel="Rules"),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]


def clean_errors(command):
    """Give every way a command can end other than success one line on stderr and its exit status.

    Bad input (:class:`SmearError`): status 2. A failed write (:class:`OutputError`, or standard output
    closed or full): status 1. Ctrl-C: "interrupted", 130; SIGTERM: "terminated", 143. They are caught here,
    inside the command, because typer versions differ in what they do with them.
    """

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (SmearError, OutputError) as exc:  # worded and given their status by core.errors, as on the page
            _fail(f"error: {message(exc)}", exit_status(exc))
        except OSError as exc:
            if not _is_stream_error(exc):
                raise
            _drop_stdout()
            _fail(f"error: cannot write to standard output: {exc.strerror}", 1)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        except _Terminated:
            _fail("terminated", 143)
        except Exception as exc:
            signalled = _signal_outcome(exc)
            if signalled is None:
                raise
            _fail(*signalled)

    return wrapper


def _signal_behind(exc: BaseException) -> tuple[str, int] | None:
    """("interrupted", 130) or ("terminated", 143) when ``exc`` is how a signal surfaced, else None.

    A signal that arrives while a Numba kernel runs has its Python handler run as the kernel's result is
    handed back; the handler's exception then comes out as "SystemError: CPUDispatcher(...) returned a result
    with an exception set", the handler's exception chained as its cause. Any kernel call can meet this, so it
    is mapped here, once, rather than around each call.
    """
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, KeyboardInterrupt):
            return "interrupted", 130
        if isinstance(exc, _Terminated):
            return "terminated", 143
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def _fail(line: str, code: int) -> None:
    typer.echo(one_line(line), err=True)
    raise typer.Exit(code=code) from None


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread like Ctrl-C, so that temporary files and folders are removed."""


_signalled: list[int] = []  # the signals that reached this process, in order
_REDELIVER_SECONDS = 0.05


def _interrupt(signum, frame) -> None:
    _signalled.append(signum)
    raise KeyboardInterrupt


def _terminate(signum, frame) -> None:
    _signalled.append(signum)
    raise _Terminated


def _redeliver(unraisable) -> None:
    """A signal's exception raised where Python can only print it and go on (a C library's call back into Python,
    as LLVM's while the kernels compile) would be lost, and the error it leaves behind reported as a bug: deliver
    the signal again, to be raised where the command stops cleanly."""
    if issubclass(unraisable.exc_type, (KeyboardInterrupt, _Terminated)):
        signum = signal.SIGTERM if issubclass(unraisable.exc_type, _Terminated) else signal.SIGINT
        # Sent from another thread, a moment later: the handler then runs once the callback has returned (where it
        # has not, this runs again), and a real signal also wakes a main thread that waits.
        again = threading.Timer(_REDELIVER_SECONDS, os.kill, (os.getpid(), signum))
        again.daemon = True
        again.start()
        return
    sys.__unraisablehook__(unraisable)


def _signal_outcome(exc: BaseException) -> tuple[str, int] | None:
    """("interrupted", 130) or ("terminated", 143) when ``exc`` is how a signal surfaced (:func:`_signal_behind`)
    or came after one: an error raised once a signal was caught is its consequence (a compile cut short), not a
    bug."""
    found = _signal_behind(exc)
    if found is None and _signalled:
        found = ("terminated", 143) if _signalled[0] == signal.SIGTERM else ("interrupted", 130)
    return found


# Errors writing a stream (they carry no file name): the reader went away, or the disk behind it is full.
_STREAM_ERRORS = {errno.EPIPE, errno.ENOSPC, errno.EBADF, errno.EIO, errno.EDQUOT, errno.EFBIG}


def _is_stream_error(exc: OSError) -> bool:
    return exc.filename is None and exc.errno in _STREAM_ERRORS


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that the flush at exit does not fail a second time."""
    with contextlib.suppress(OSError, AttributeError, ValueError):  # standard output may be gone entirely
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def given(ctx: typer.Context, names: Iterable[str]) -> list[str]:
    """The options among the parameter ``names`` that the command line sets, as typed (``--seed``)."""
    names = set(names)
    return [param.opts[0] for param in ctx.command.params if param.name in names
            and getattr(ctx.get_parameter_source(param.name), "name", "") == "COMMANDLINE"]


def reject(ctx: typer.Context, names: Iterable[str], why: str) -> None:
    """An option that cannot apply is an error, never silently dropped: one line naming it and ``why``."""
    found = given(ctx, names)
    if found:
        raise SmearError(f"{found[0]} cannot apply {why}")


def _output_path(text: str) -> Path:
    if not text:
        raise typer.BadParameter("the path is empty; give a file or folder name")
    return Path(text)


def output_option(*flags: str, metavar: str, help: str) -> typer.models.OptionInfo:
    """An option naming a file or folder to write; an empty path is refused while parsing."""
    return typer.Option(*flags, metavar=metavar, help=help, parser=_output_path)


def rules_from(rules_file: str | None, overrides: list[str] | None):
    from ..core.rules import load_rules

    return load_rules(rules_file, overrides or ())


def print_json(obj) -> None:
    typer.echo(json.dumps(obj, indent=2))


Hands = Annotated[int, typer.Option("--hands", "-n", min=1, help="Number of hands to simulate.")]
Seed = Annotated[int, typer.Option("--seed", min=0, help="Seed for every random choice: same seed, same numbers.")]
Threads = Annotated[
    int | None, typer.Option("--threads", min=1, help="Worker threads (default: all cores). Results do not "
                                "depend on it.")
]
PolicyOpt = Annotated[
    str, typer.Option("--policy", metavar="NAME[,NAME]", help="Player policy for both teams, or team 0,team 1: "
                      f"{policy_help()}; expert:K:no-inference and the like leave a part out (docs/players.md).")
]
ChunkSize = Annotated[
    int | None, typer.Option("--chunk-size", min=1, help="Hands (or games) per kernel call, or per task on a "
                             "cluster (default: 262,144 hands or 16,384 games; on a cluster, enough tasks to keep "
                             "every worker busy). Results do not depend on it.", rich_help_panel="Advanced")
]

# -- where the hands run: this machine, or a Dask cluster ---------------------------------------------------
# A command that simulates takes ``threads: Threads, cluster: ClusterOpt, scheduler: SchedulerOpt`` and runs
# its work inside ``with executor_for(threads, cluster, scheduler) as executor:``, passing ``executor`` on.

ClusterOpt = Annotated[
    str | None, typer.Option("--cluster", metavar="local[:N]", help="Run the hands as tasks on a Dask cluster "
                             "started on this machine with N worker processes (default: one per core). Same "
                             "results as without it.", rich_help_panel="Cluster")
]
SchedulerOpt = Annotated[
    str | None, typer.Option("--scheduler", metavar="ADDRESS", help="Run the hands as tasks on the Dask cluster "
                             "whose scheduler is at ADDRESS, e.g. tcp://10.0.0.5:8786 (see the README). Same "
                             "results as without it.", rich_help_panel="Cluster")
]


def note(line: str) -> None:
    """One line for people on standard error, beside the results."""
    typer.echo(line, err=True)


@contextlib.contextmanager
def executor_for(threads: int | None, cluster: str | None, scheduler: str | None) -> Iterator[Executor]:
    """Where a command's hands run: this machine's threads, or a Dask cluster (``--cluster``/``--scheduler``),
    which is started or connected here and closed when the block ends. Dask is imported only for a cluster."""
    from ..engine.runner import THREADS_ELSEWHERE, LocalExecutor

    if cluster is None and scheduler is None:
        yield LocalExecutor(threads)
        return
    if threads is not None:
        raise BadValue("threads", THREADS_ELSEWHERE)
    if cluster is not None and scheduler is not None:
        raise SmearError("give --cluster (a new cluster on this machine) or --scheduler (an existing one), not both")
    from ..engine.cluster import dask_executor, parse_cluster, parse_scheduler

    workers = parse_cluster(cluster) if cluster is not None else None
    address = parse_scheduler(scheduler) if scheduler is not None else None
    with dask_executor(address, workers=workers, on_ready=lambda warmup: note(f"cluster: {warmup.describe()}")) \
            as executor:
        yield executor


# -- checkpoints: long runs that can be resumed -----------------------------------------------------------
# A command that writes files takes ``resume: ResumeFlag`` and wraps its runs and writing in
# ``with checkpoint_beside(out, {"--hands": hands, ...}, resume) as checkpoint:``, passing ``checkpoint`` on.
# Where the output file is optional (``--out``), a run without one keeps no checkpoint (``checkpoint`` is None).

ResumeFlag = Annotated[
    bool, typer.Option("--resume", help="Finish a run that was interrupted, from the checkpoint it saved beside "
                       "its output (runs of over a minute save one); give the same arguments.")
]


def checkpoint_beside(output: Path | None, arguments: Mapping[str, Any],
                      resume: bool) -> Checkpoint | contextlib.nullcontext[None]:
    """The checkpoint of a command writing ``output``; ``arguments`` are the options that decide its counts.

    Without an output (an optional ``--out`` not given) there is nowhere to keep one: the context gives None.
    """
    from ..engine.checkpoint import Checkpoint

    if output is None:
        if resume:
            raise SmearError("--resume needs --out: a run keeps its checkpoint beside its output, so give the --out "
                             "of the interrupted run")
        return contextlib.nullcontext()

    checkpoint = Checkpoint.beside(output, arguments, resume=resume, notify=note)
    if not resume and checkpoint.path.exists():
        note(f"{checkpoint.path} holds an interrupted run; starting over (add --resume to finish it instead)")
    return checkpoint


def ready_players(policy: str, rules) -> None:
    """When the equity bidder plays under rules whose tables are neither shipped nor cached, make them now, with a
    progress bar and the time left after each step, before the command's own work (analysis/bidder_tables.py); where
    the learned player plays, its net must load first."""
    from ..core.players import parse_policies, reads_net, reads_tables

    if reads_net(parse_policies(policy)):  # no net, or a file that is not one: one line, before any work
        from ..analysis.session_tables import loaded_net

        loaded_net()
    if not reads_tables(parse_policies(policy)):
        return  # the bidder's module imports the analyses (and their kernels): only where they are needed
    from ..analysis.bidder_tables import ready_tables

    ready_tables(policy, rules, progress=lambda total, description: progress_for(total, description, True),
                 notify=note)


def progress_for(total: int, description: str, enabled: bool):
    from ..output.terminal import progress_bar

    return progress_bar(total, description, enabled and sys.stderr.isatty())



def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    if issubclass(category, SmearWarning):
        typer.echo(f"warning: {message}", err=True)
    else:
        _default_show_warning(message, category, filename, lineno, file, line)


_default_show_warning = warnings.showwarning


def main() -> None:
    """Console entry point: usage errors become one line and exit status 2 as well; SIGTERM cleans up like
    Ctrl-C; a failed write to standard output is one line and exit status 1; our warnings are one line."""
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _terminate)
    sys.unraisablehook = _redeliver
    warnings.showwarning = _show_warning
    use_helper()  # a first run compiles on two cores
    if sys.stdout is None:  # Python found descriptor 1 closed: every result would be lost
        typer.echo("error: cannot write to standard output: it is closed", err=True)
        sys.exit(1)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and (stream.encoding or "").lower().replace("-", "") != "utf8":
            stream.reconfigure(errors="replace")  # a terminal that cannot show ♥ gets ?, not a crash
    try:
        code = app(standalone_mode=False)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk or a closed pipe shows here, not in a warning at exit
    except _Terminated:
        typer.echo("terminated", err=True)
        sys.exit(143)
    except OSError as exc:
        if not _is_stream_error(exc):
            _internal_error(exc)
        _drop_stdout()
        typer.echo(f"error: cannot write to standard output: {exc.strerror}", err=True)
        sys.exit(1)
    except typer.Abort:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except _CliError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare command: its help was shown
            sys.exit(0)
        typer.echo(one_line(f"error: {exc.format_message().strip()} (see 'smear-sim --help')"), err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        signalled = _signal_outcome(exc)
        if signalled is not None:
            typer.echo(signalled[0], err=True)
            sys.exit(signalled[1])
        _internal_error(exc)
    sys.exit(code if isinstance(code, int) else 0)


def _internal_error(exc: BaseException) -> None:
    """A bug: say so in one line; SMEAR_SIM_DEBUG=1 shows the traceback."""
    if os.environ.get("SMEAR_SIM_DEBUG"):
        raise exc
    typer.echo(one_line(f"internal error: {type(exc).__name__}: {exc} (a bug in smear-sim; rerun with "
                        "SMEAR_SIM_DEBUG=1 for the traceback and report it)"), err=True)
    sys.exit(1)
