"""Terminal output (smear_sim/output/terminal.py)."""

from __future__ import annotations

from smear_sim.output.terminal import progress_bar


def test_progress_bar_disabled_yields_none():
    with progress_bar(10, "x", enabled=False) as progress:
        assert progress is None
