"""The ``smear-sim`` application: the Typer app, the options every command shares, and the entry point.

The commands live in the modules beside this one, one per group; each registers itself on :data:`app`.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import SmearError

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

# -- options shared by every command that simulates or scores ------------------------------------------

RulesFile = Annotated[
    Path | None,
    typer.Option("--rules", metavar="FILE.toml", help="House rules: a TOML file of rule options.",
                 rich_help_panel="Rules"),
]
RuleOverrides = Annotated[
    list[str] | None,
    typer.Option("--rule", metavar="KEY=VALUE", help="Set one rule option (repeatable; overrides --rules), "
                 "e.g. --rule round_points=true. See 'smear-sim rules'.", rich_help_panel="Rules"),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]


def clean_errors(command):
    """Turn bad input (:class:`SmearError`) into one line on stderr and exit status 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except SmearError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(code=2) from None

    return wrapper


def rules_from(rules_file: Path | None, overrides: list[str] | None):
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
                      "heuristic or random.")
]
ChunkSize = Annotated[
    int, typer.Option("--chunk-size", min=1, help="Hands per kernel call (progress granularity). Results do "
                      "not depend on it.", rich_help_panel="Advanced")
]


def progress_for(total: int, description: str, enabled: bool):
    from ..output.terminal import progress_bar

    return progress_bar(total, description, enabled and sys.stderr.isatty())



def main() -> None:
    """Console entry point: usage errors become one line and exit status 2 as well."""
    try:
        code = app(standalone_mode=False)
    except typer.Abort:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except _CliError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare command: its help was shown
            sys.exit(0)
        typer.echo(f"error: {exc.format_message().strip()} (see 'smear-sim --help')", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # a bug: say so in one line; SMEAR_SIM_DEBUG=1 shows the traceback
        import os

        if os.environ.get("SMEAR_SIM_DEBUG"):
            raise
        typer.echo(f"internal error: {type(exc).__name__}: {exc} (a bug in smear-sim; rerun with "
                   "SMEAR_SIM_DEBUG=1 for the traceback and report it)", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
