"""The command line under hostile input (issue 20): every input that sizes work has a bound checked before any
work, messages stay one short line whatever they quote, ``report --out`` into /proc or /sys is refused before
the work, and a signal that lands inside a kernel call is "interrupted"/"terminated", not a bug."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import assert_clean_failure, invoke

from smear_sim.engine.compiling import COMPILING

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"


@pytest.fixture
def kernel_runs(monkeypatch) -> list[str]:
    """The drivers of the kernels run in this process while the test runs."""
    from smear_sim.engine.settings import RunSettings

    ran: list[str] = []
    run = RunSettings.run
    monkeypatch.setattr(RunSettings, "run", lambda self, job, **how: ran.append(job.driver) or run(self, job, **how))
    return ran


@pytest.mark.parametrize(("args", "words"), [
    # was "internal error: ValueError: Maximum allowed dimension exceeded"
    (["hand", HAND, "--samples", "2000", "--score=-" + "1" + "0" * 40 + ",0"], "give scores from -279 up"),
    (["hand", HAND, "--samples", "2000", "--score=-300,0"], "give scores from -279 up"),
    (["hand", HAND, "--rule", "target=1000"], "give a target up to 260"),  # 43 s, then MemoryError
    (["hand", HAND, "--position", "2", "--auction", "2", "--score=-500,3"], "give scores from -279 up"),
    (["equity", "--floor", "-1000"], "give a --floor from -279 up"),
])
def test_work_no_cap_bounded_is_refused_before_any_work(kernel_runs, args, words):
    line = assert_clean_failure(invoke(*args))
    assert words in line, line
    assert kernel_runs == []


@pytest.mark.parametrize("args", [
    ["hand", HAND.replace("3C", "3" + "C" * 120_000)],
    ["hand", HAND, "--rule", "target=" + "9" * 5000],
    ["hand", HAND, "--rule", "target=" + "9" * 1000],
    ["hand", HAND, "--score", "1" * 3000 + ",2"],
    ["hand", HAND, "--position", "2", "--auction", "x" * 50_000],
])
def test_a_message_quoting_a_huge_input_is_one_short_line(args):
    line = assert_clean_failure(invoke(*args))
    assert len(line) < 1100, len(line)


@pytest.mark.parametrize("out", ["/proc/x", "/sys/x"])
def test_report_into_a_pseudo_filesystem_is_refused_before_the_work(kernel_runs, out):
    if not Path(out).parent.is_dir():
        pytest.skip(f"no {Path(out).parent} here")
    line = assert_clean_failure(invoke("report", "--hands", str(10**9), "--out", out))
    assert line.startswith(f"error: --out {out}: cannot create it") and kernel_runs == []


def test_a_signal_inside_a_kernel_call_is_mapped_at_the_mechanism():
    """A handler's exception raised as a Numba kernel hands back its result surfaces as SystemError; the
    command line words it as the signal, for any kernel, wherever the command runs one."""
    from smear_sim.cli.app import _signal_behind, _Terminated

    def surfaced(exc: BaseException) -> SystemError:
        try:
            raise SystemError("CPUDispatcher(<function solve_chain>) returned a result with an exception set") \
                from exc
        except SystemError as error:
            return error

    assert _signal_behind(surfaced(KeyboardInterrupt())) == ("interrupted", 130)
    assert _signal_behind(surfaced(_Terminated())) == ("terminated", 143)
    assert _signal_behind(SystemError("something else")) is None


@pytest.mark.parametrize(("args", "after"), [
    (["hand", HAND, "--samples", "2000", "--score=-150,0"], (2.0, 3.5, 5.0)),  # during the equity solves
    (["report", "--hands", "20000", "--out", "out"], (2.5,)),
])
@pytest.mark.parametrize(("signum", "code", "word"), [(signal.SIGINT, 130, "interrupted"),
                                                      (signal.SIGTERM, 143, "terminated")])
def test_a_signal_during_the_equity_solve_is_interrupted_not_a_bug(tmp_path, args, after, signum, code, word):
    """Ctrl-C during the equity solve printed "internal error: SystemError: CPUDispatcher(<function solve_chain
    ...>) returned a result with an exception set" and exited 1. At least one of the delays stops the command (the
    longer ones are tried only where the command finished first)."""
    stopped = 0
    for delay in after:
        proc = subprocess.Popen([sys.executable, "-m", "smear_sim", *args], cwd=tmp_path,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=120)
        if proc.returncode == 0:
            continue  # it finished first
        # A cold cache (a fresh clone) first says that it compiles.
        assert (proc.returncode, err.removeprefix(COMPILING + "\n")) == (code, word + "\n"), (delay, err)
        stopped += 1
        break
    assert stopped
