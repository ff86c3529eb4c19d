"""The console plumbing of the terminal renderers (smear_sim/output/terminal/console.py)."""

from __future__ import annotations

import pytest

from smear_sim.output.terminal import console, progress_bar
from smear_sim.output.terminal.console import estimate_pair, team_name


def test_progress_bar_disabled_yields_none():
    with progress_bar(10, "x", enabled=False) as progress:
        assert progress is None


def test_a_closed_pipe_is_an_error_for_the_command_line():
    with pytest.raises(BrokenPipeError):
        console().on_broken_pipe()


def test_small_helpers():
    from smear_sim.core.stats import Estimate

    assert team_name(None) == "nobody" and team_name(1) == "team 1"
    assert estimate_pair(Estimate(0.25, 0.01)) == (0.25, 0.01)
