"""The ``smear-sim`` command line.

Each command validates its options, makes one library call and renders the result, as a rich table for
people or JSON with ``--json``. Heavy modules (NumPy, Numba, pandas, matplotlib) are imported inside the
commands, so ``smear-sim --help`` stays fast. Bad input ends with one line on standard error and exit
status 2, never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

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
    Optional[Path],
    typer.Option("--rules", metavar="FILE.toml", help="House rules: a TOML file of rule options.",
                 rich_help_panel="Rules"),
]
RuleOverrides = Annotated[
    Optional[list[str]],
    typer.Option("--rule", metavar="KEY=VALUE", help="Set one rule option (repeatable; overrides --rules), "
                 "e.g. --rule round_points=true. See 'smear-sim rules'.", rich_help_panel="Rules"),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]


class _UsageError(Exception):
    """A bad command-line value found after parsing; reported like any bad input."""


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)


def clean_errors(command):
    """Turn the library's bad-input exceptions into one line on stderr and exit status 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        from .errors import SmearError

        try:
            return command(*args, **kwargs)
        except (SmearError, _UsageError) as exc:
            raise _fail(str(exc)) from None

    return wrapper


def _rules(rules_file: Path | None, overrides: list[str] | None):
    from .rules import load_rules

    return load_rules(rules_file, overrides or ())


def _print_json(obj) -> None:
    typer.echo(json.dumps(obj, indent=2))


# -- commands -------------------------------------------------------------------------------------------


@app.command()
@clean_errors
def score(
    record: Annotated[str, typer.Argument(metavar="RECORD", help="Hand record JSON file, or - for standard input.")],
    json_output: JsonFlag = False,
) -> None:
    """Check a hand record against the rules and score it.

    The record's own "rules" apply (INTERFACES.md). An illegal record exits with status 2 and one line
    naming the first problem.

    [bold]Examples[/bold]

      smear-sim score tests/golden/basic.json --json

      cat hand.json | smear-sim score -
    """
    from .record import load_record, parse_record, replay

    parsed = parse_record(load_record(record))
    result = replay(parsed)
    if json_output:
        _print_json(result.to_json())
    else:
        from .render import print_score

        print_score(parsed, result)


@app.command()
@clean_errors
def rules(
    rules_file: RulesFile = None,
    rule: RuleOverrides = None,
    toml: Annotated[bool, typer.Option("--toml", help="Print TOML to start a house-rules file from.")] = False,
    json_output: JsonFlag = False,
) -> None:
    """Show the active rule options (after --rules and --rule).

    [bold]Examples[/bold]

      smear-sim rules

      smear-sim rules --rule round_points=true --toml > house.toml
    """
    active = _rules(rules_file, rule)
    if toml:
        typer.echo(active.to_toml(), nl=False)
    elif json_output:
        _print_json(active.as_dict())
    else:
        from .render import print_rules

        print_rules(active)


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
    sys.exit(code if isinstance(code, int) else 0)
