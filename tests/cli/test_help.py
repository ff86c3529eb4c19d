"""--help of every command wraps cleanly at any width: a line of prose ends only where the next word would not
fit, never at a line break left in the docstring (cli/app.py, plain_paragraphs)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import pytest

from smear_sim.cli import app
from smear_sim.cli.app import plain_paragraphs

COMMANDS = sorted(info.name or info.callback.__name__.replace("_", "-") for info in app.registered_commands)


def description(output: str) -> list[str]:
    """The lines between the usage line and the first panel: the command's help text as rich printed it."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "Usage:" in line) + 1
    end = next((i for i, line in enumerate(lines) if line.lstrip().startswith("╭")), len(lines))
    return [line.rstrip() for line in lines[start:end]]


def hard_breaks(lines: list[str], width: int) -> list[str]:
    """Lines of prose (indented by one space, as rich prints them) followed by more prose whose first word would
    have fitted: the break came from the text, not from the width."""
    found = []
    for line, following in zip(lines, lines[1:], strict=False):
        prose = line.startswith(" ") and not line.startswith("  ")
        continued = following.startswith(" ") and not following.startswith("  ") and following.strip()
        if prose and continued and len(line) + 1 + len(following.split()[0]) < width - 1:
            found.append(f"{line!r} / {following!r}")
    return found


def test_every_command_is_checked():
    assert {"hand", "bid-table", "moon", "plot", "report", "simulate", "score", "equity"} <= set(COMMANDS)


RENDER = """
import json, sys
from typer.testing import CliRunner
from smear_sim.cli import app
print(json.dumps({c: CliRunner().invoke(app, [c, "--help"]).stdout for c in sys.argv[1:]}))
"""


@functools.cache
def rendered(width: int) -> dict[str, str]:
    """Every command's --help at ``width`` columns, from a fresh process (rich reads the width once)."""
    env = os.environ | {"COLUMNS": str(width)}
    env.pop("TERMINAL_WIDTH", None)
    proc = subprocess.run([sys.executable, "-c", RENDER, *COMMANDS], capture_output=True, text=True, env=env,
                          check=True)
    return json.loads(proc.stdout)


@pytest.mark.parametrize("width", [60, 80, 200])
@pytest.mark.parametrize("command", COMMANDS)
def test_help_wraps_cleanly(command, width):
    output = rendered(width)[command]
    lines = description(output)
    assert max(len(line) for line in output.splitlines()) <= width
    assert sum(bool(line.strip()) for line in lines) >= 1
    assert not hard_breaks(lines, width), "\n".join(hard_breaks(lines, width))


def test_plain_paragraphs_joins_prose_and_keeps_examples():
    text = "First line\nof the first.\n\nA paragraph\nwrapped here.\n\n[bold]Examples[/bold]\n\n  smear-sim a\n  smear-sim b"
    assert plain_paragraphs(text) == ("First line of the first.\n\nA paragraph wrapped here.\n\n[bold]Examples[/bold]"
                                      "\n\n  smear-sim a\n  smear-sim b")
    assert plain_paragraphs("Items:\n- one\n- two") == "Items:\n- one\n- two"


def test_the_policy_help_names_every_registered_player():
    """--policy's help is written from the player registry (core.players.PLAYERS): a new player appears in it."""
    import typing

    from smear_sim.cli.app import PolicyOpt
    from smear_sim.core.players import PLAYERS

    text = typing.get_args(PolicyOpt)[1].help
    for p in PLAYERS:
        assert (f"{p.name}:K" if p.parameter else p.name) in text and p.summary in text, p.name
