"""Running the command line in tests: through typer's CliRunner, or as a real process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from smear_sim.cli import app


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def ok(*args: str, input: str | None = None):
    result = invoke(*args, input=input)
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    return result


def ok_json(*args: str) -> dict:
    return json.loads(ok(*args, "--json").stdout)


def assert_clean_failure(result) -> str:
    """Exit status 2, one line on stderr, nothing on stdout, no traceback; returns the line. (An input that only a
    trial run can judge, as an auction too rare to sample, may come after the notice that the simulator compiles,
    which is progress, not part of the error: it is left out.)"""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    lines = [line for line in result.stderr.splitlines() if not line.startswith("compiling ")]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    assert result.stdout == ""
    return lines[0]


def run(*args: str, input: str | None = None, script: bool = False) -> subprocess.CompletedProcess:
    """The real command line: ``python -m smear_sim``, or the installed ``smear-sim`` console script."""
    if script:
        path = Path(sys.executable).parent / "smear-sim"
        found = str(path) if path.exists() else shutil.which("smear-sim")
        assert found, "the smear-sim console script is missing: install the project (pip install .)"
        command = [found]
    else:
        command = [sys.executable, "-m", "smear_sim"]
    env = os.environ | {"NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([*command, *args], input=input, capture_output=True, text=True, timeout=120, env=env,
                          check=False)


def assert_clean_process_failure(proc: subprocess.CompletedProcess) -> str:
    """Exit status 2, one line on stderr, no traceback; returns the line."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in proc.stderr + proc.stdout
    return lines[0]
