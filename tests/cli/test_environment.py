"""The command line against bad files and a bad environment, through real processes.

Each case runs ``python -m smear_sim`` in a folder of its own and checks what a user sees: exit status 2 for
what the user can fix (checked before any work: the runs ask for 10**9 hands, so a check made after the
work would time out), 1 for the environment (a full disk, a closed pipe), 0 where a target is a device, a
FIFO or a link; exactly one line on standard error, no traceback and no "internal error"; no temporary files
left in the folder; devices, FIFOs and symlinks given as targets still what they were. Ctrl-C and SIGTERM
are sent to real runs in the middle of their work.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from smear_sim import class_table, evaluate_hand, simulate
from smear_sim.analysis.simulate import trace_records
from tests.core.test_io import null_device

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"
GOLDEN = Path(__file__).parent.parent / "golden"
HUGE = str(10**9)  # work that would not end within the timeout: a check made after it fails the test
ENV = os.environ | {"NO_COLOR": "1", "COLUMNS": "100"}  # the runs import the smear_sim under test (conftest)


@dataclass
class Case:
    args: list[str]
    code: int
    words: str = ""  # in the one line on stderr (nothing on stderr when code is 0)
    setup: Callable[[Path, Path], None] = lambda folder, saved: None  # (the case's folder, the saved files)
    check: Callable[[Path, str], None] = lambda folder, stdout: None
    stdout: str = "pipe"  # or "file", "full" (/dev/full), "closed", "broken pipe"
    env: dict = field(default_factory=dict)


def make(**files):
    """A setup that writes ``files`` (name -> text or bytes) into the folder."""
    def setup(folder: Path, saved: Path) -> None:
        for name, content in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
    return setup


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A real class-count file and hand analysis, edited copies of them, and warm kernels for the runs."""
    folder = tmp_path_factory.mktemp("saved")
    class_table(2000, seed=1).save(folder / "good.npz")
    simulate(10)
    trace_records(1)
    analysis = evaluate_hand(HAND, samples=1000).to_json()
    (folder / "hand.json").write_text(json.dumps(analysis))
    with np.load(folder / "good.npz") as data:
        counts, meta = data["counts"], json.loads(str(data["meta"]))
    negative = counts.copy()
    negative[0, 0] = -5
    np.savez(folder / "negative.npz", counts=negative, meta=np.array(json.dumps(meta)))
    np.savez(folder / "edited_meta.npz", counts=counts, meta=np.array(json.dumps(meta | {"hands": "many"})))
    good = (folder / "good.npz").read_bytes()
    (folder / "truncated.npz").write_bytes(good[: len(good) // 2])
    analysis["points"]["distribution"][0] = -0.25
    (folder / "edited_hand.json").write_text(json.dumps(analysis))
    return folder


def copy_saved(*names):
    def setup(folder: Path, saved: Path) -> None:
        for name in names:
            (folder / name).write_bytes((saved / name).read_bytes())
    return setup


def cases() -> dict[str, Case]:
    def device_setup(folder: Path, saved: Path) -> None:
        (folder / "device-link").symlink_to(null_device(folder))

    def device_check(folder: Path, stdout: str) -> None:
        assert (folder / "device-link").is_symlink() and stat.S_ISCHR(os.stat(folder / "device-link").st_mode)

    def stdout_check(folder: Path, stdout: str) -> None:
        lines = (folder / "stdout.txt").read_text().splitlines()
        assert [json.loads(line)["dealer"] for line in lines[:2]] == [0, 1]
        assert json.loads("\n".join(lines[2:]))["hands"] == 5

    return {
        # output paths, checked before any work
        "trace_is_a_folder": Case(["simulate", "-n", HUGE, "--trace", "sub"], 2, "--trace sub is a folder",
                                  make(**{"sub/keep": ""})),
        "trace_empty_path": Case(["simulate", "-n", HUGE, "--trace", ""], 2, "the path is empty"),
        "trace_closed_descriptor": Case(["simulate", "-n", HUGE, "--trace", "/dev/fd/9"], 2,
                                        "file descriptor 9 is not open"),
        "plot_below_a_file": Case(["hand", HAND, "--samples", HUGE, "--plot", "notes.txt/x.png"], 2,
                                  "is a file, not a folder", make(**{"notes.txt": "x"})),
        "report_into_the_current_folder": Case(["report", "-n", HUGE, "--out", "."], 2,
                                               "cannot be the current folder"),
        # saved tables and analyses, never trusted
        "empty_npz": Case(["moon", "--counts", "empty.npz"], 2, "(the file is empty)", make(**{"empty.npz": b""})),
        "truncated_npz": Case(["moon", "--counts", "truncated.npz"], 2, "not a class-count file",
                              copy_saved("truncated.npz")),
        "negative_counts": Case(["moon", "--counts", "negative.npz"], 2, "holds negative counts",
                                copy_saved("negative.npz")),
        "edited_metadata": Case(["moon", "--counts", "edited_meta.npz"], 2, "'hands' must be a whole number",
                                copy_saved("edited_meta.npz")),
        "table_of_other_rules": Case(["moon", "--counts", "good.npz", "--rule", "round_points=true"], 2,
                                     "was made under round_points=false", copy_saved("good.npz")),
        "edited_hand_analysis": Case(["plot", "hand", "edited_hand.json", "--out", "h.png"], 2,
                                     "points.distribution[0] must be a number", copy_saved("edited_hand.json")),
        # rule values out of range
        "huge_target": Case(["simulate", "-n", HUGE, "--rule", f"target={10**30}"], 2, "is out of range"),
        # input files that never end
        "rules_from_dev_zero": Case(["simulate", "-n", HUGE, "--rules", "/dev/zero"], 2, "too large"),
        "record_from_dev_zero": Case(["score", "/dev/zero"], 2, "too large"),
        # the environment: exit 1, one line naming what could not be written
        "stdout_disk_full": Case(["rules", "--json"], 1,
                                 "cannot write to standard output: No space left on device", stdout="full"),
        "stdout_closed": Case(["rules"], 1, "cannot write to standard output: it is closed", stdout="closed"),
        "stdout_reader_gone": Case(["rules"], 1, "cannot write to standard output: Broken pipe",
                                   stdout="broken pipe"),
        "trace_disk_full": Case(["simulate", "-n", "10", "--trace", "/dev/full"], 1,
                                "cannot write /dev/full: No space left on device"),
        "terminal_without_suits": Case(["score", str(GOLDEN / "basic.json")], 0, env={"PYTHONIOENCODING": "ascii"},
                                       check=lambda folder, stdout: "trump hearts ?" in stdout or pytest.fail()),
        # targets that are not regular files: written through, never replaced
        "trace_to_a_device_by_a_link": Case(["simulate", "-n", "3", "--trace", "device-link"], 0,
                                            setup=device_setup, check=device_check),
        "trace_to_stdout_in_a_file": Case(["simulate", "-n", "5", "--json", "--trace", "/dev/stdout",
                                           "--trace-hands", "2"], 0, check=stdout_check, stdout="file"),
    }


CASES = cases()


def execute(case: Case, folder: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "smear_sim", *case.args]
    stdout, to_close = subprocess.PIPE, None
    if case.stdout == "closed":
        command = ["sh", "-c", 'exec "$@" >&-', "sh", *command]
    elif case.stdout in ("full", "file"):
        stdout = to_close = open("/dev/full" if case.stdout == "full" else folder / "stdout.txt", "w")  # noqa: SIM115
    elif case.stdout == "broken pipe":
        read_end, stdout = os.pipe()
        os.close(read_end)
        to_close = stdout
    try:
        proc = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=folder,
                              env=ENV | case.env, timeout=120, check=False)
    finally:
        if isinstance(to_close, int):
            os.close(to_close)
        elif to_close is not None:
            to_close.close()
    return proc


@pytest.fixture(scope="module")
def results(saved, tmp_path_factory):
    """Every case, run four at a time (most of a run is starting Python)."""
    folders = {name: tmp_path_factory.mktemp(name) for name in CASES}
    for name, case in CASES.items():
        case.setup(folders[name], saved)
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(execute, case, folders[name]) for name, case in CASES.items()}
        return {name: (futures[name], folders[name]) for name in CASES}


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.rglob("*") if p.name.endswith((".tmp", ".old")) or ".tmp" in p.name]


@pytest.mark.parametrize("name", list(CASES))
def test_bad_file_or_environment(results, name):
    case = CASES[name]
    future, folder = results[name]
    proc = future.result()  # a run that timed out fails its own case only
    assert proc.returncode == case.code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    if case.code == 0:
        assert proc.stderr == ""
    else:
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and case.words in lines[0], proc.stderr
    case.check(folder, proc.stdout)
    assert leftovers(folder) == []


# -- signals in the middle of the work -----------------------------------------------------------------------


def interrupt(args: list[str], folder: Path, signum: int, after: float) -> subprocess.CompletedProcess:
    """Run ``args`` and send ``signum`` after ``after`` seconds (Ctrl-C is not inherited as ignored)."""
    proc = subprocess.Popen([sys.executable, "-m", "smear_sim", *args], cwd=folder, env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(after)
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=60)  # how soon it stops: benchmarks/stopping.py
    return subprocess.CompletedProcess(args, proc.returncode, stdout, stderr)


def test_ctrl_c_during_a_simulation_prints_interrupted_and_leaves_no_file(saved, tmp_path):
    proc = interrupt(["simulate", "-n", HUGE, "--chunk-size", "50000", "--trace", "trace.jsonl"], tmp_path,
                     signal.SIGINT, after=3)
    assert (proc.returncode, proc.stderr) == (130, "interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_sigterm_while_writing_a_trace_keeps_the_old_file_and_leaves_no_temporary_file(saved, tmp_path):
    # Regression: SIGTERM killed the process outright and left a stray .tmp file beside the target. The run
    # simulates for about a second and then writes a trace for minutes: the signal arrives while it writes.
    (tmp_path / "trace.jsonl").write_text("the old trace\n")
    proc = interrupt(["simulate", "-n", "500000", "--trace", "trace.jsonl", "--trace-hands", "500000"],
                     tmp_path, signal.SIGTERM, after=4)
    assert (proc.returncode, proc.stderr) == (143, "terminated\n")
    assert [p.name for p in tmp_path.iterdir()] == ["trace.jsonl"]
    assert (tmp_path / "trace.jsonl").read_text() == "the old trace\n"
