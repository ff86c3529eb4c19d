"""Checkpoints (smear_sim/engine/checkpoint.py): an interrupted run resumes to the counts of an uninterrupted one."""

from __future__ import annotations

import numpy as np
import pytest

from smear_sim.core.bidder import no_bidder_arrays
from smear_sim.core.errors import SmearError
from smear_sim.core.players import policy_array
from smear_sim.core.rules import Rules
from smear_sim.engine.checkpoint import Checkpoint
from smear_sim.engine.jobs import simulate_hands_job
from smear_sim.engine.runner import Job, run

ARGUMENTS = {"--hands": 6_000, "--seed": 3, "--policy": "heuristic", "--rule": Rules().as_dict()}


def _job(seed: int = 3, rules: Rules | None = None) -> Job:
    players = (rules or Rules()).to_array(), policy_array(("heuristic", "random")), no_bidder_arrays()
    return simulate_hands_job(players=players, seed=seed, hands=6_000)


class Crash(Exception):
    pass


def _crash_after(chunks: int):
    seen = []

    def progress(count: int) -> None:
        seen.append(count)
        if len(seen) == chunks:
            raise Crash

    return progress


def _interrupted(path, job: Job = None, chunks: int = 3, chunk_size: int = 1_000) -> None:
    """Run ``job`` with a checkpoint at ``path`` and crash after ``chunks`` chunks, as a command would."""
    with pytest.raises(Crash), Checkpoint(path, ARGUMENTS, interval=3600) as checkpoint:
        run(job or _job(), chunk_size=chunk_size, progress=_crash_after(chunks), checkpoint=checkpoint)


def test_a_run_resumed_after_a_crash_gives_the_counts_of_an_uninterrupted_run(tmp_path):
    path = tmp_path / "table.checkpoint.npz"
    whole = run(_job(), chunk_size=1_000)
    _interrupted(path)
    assert path.exists()  # saved on the way out, although the interval had not passed
    notes = []
    with Checkpoint(path, ARGUMENTS, resume=True, notify=notes.append) as checkpoint:
        # Another chunk size on resume: the file keeps the finished hands as intervals, not chunk numbers.
        resumed = run(_job(), chunk_size=700, checkpoint=checkpoint)
    assert resumed.counts.tobytes() == whole.counts.tobytes()
    assert resumed.resumed == 2_000 and resumed.done == 6_000  # the third chunk crashed before it was recorded
    assert notes == [f"resuming from {path}: 2,000 of 6,000 hands already done"]
    assert not path.exists()  # the command completed: the checkpoint is gone


def test_the_interval_decides_when_a_running_job_saves(tmp_path):
    path = tmp_path / "run.checkpoint.npz"
    with Checkpoint(path, ARGUMENTS, interval=3600) as checkpoint:
        run(_job(), chunk_size=1_000, checkpoint=checkpoint)
        assert not path.exists()  # a short run writes no file
    saved = []
    with Checkpoint(path, ARGUMENTS, interval=0, notify=saved.append) as checkpoint:
        run(_job(), chunk_size=1_000, checkpoint=checkpoint)
        assert path.exists()  # interval 0: saved after every chunk
    assert len(saved) == 1 and "--resume finishes it" in saved[0]
    assert not path.exists()


def test_resuming_with_other_arguments_is_refused_naming_the_argument(tmp_path):
    path = tmp_path / "table.checkpoint.npz"
    _interrupted(path)
    for changed, message in [
        ({"--seed": 4}, "saved by a run with --seed 3, not --seed 4"),
        ({"--hands": 7_000}, "with --hands 6000, not --hands 7000"),
        ({"--policy": "random"}, "with --policy heuristic, not --policy random"),
        ({"--rule": Rules(round_points=True).as_dict()}, "--rule round_points=false, not --rule round_points=true"),
    ]:
        with pytest.raises(SmearError, match=message):
            Checkpoint(path, ARGUMENTS | changed, resume=True)
    assert path.exists()  # a refusal leaves the checkpoint as it was


def test_a_checkpoint_of_other_settings_does_not_leak_into_a_run(tmp_path):
    # Same arguments as named, but a job of another seed: its counts must not be used.
    path = tmp_path / "table.checkpoint.npz"
    _interrupted(path, _job(seed=4))
    with Checkpoint(path, ARGUMENTS, resume=True) as checkpoint:
        result = run(_job(), chunk_size=1_000, checkpoint=checkpoint)
    assert result.resumed == 0
    assert result.counts.tobytes() == run(_job(), chunk_size=1_000).counts.tobytes()


def test_one_checkpoint_carries_every_job_of_a_command(tmp_path):
    # A command of two runs (two rule sets, say) interrupted in the second resumes the first as done.
    path = tmp_path / "equity.checkpoint.npz"
    first, second = _job(), _job(rules=Rules(round_points=True))
    with pytest.raises(Crash), Checkpoint(path, ARGUMENTS, interval=3600) as checkpoint:
        run(first, chunk_size=1_000, checkpoint=checkpoint)
        run(second, chunk_size=1_000, progress=_crash_after(4), checkpoint=checkpoint)
    notes = []
    with Checkpoint(path, ARGUMENTS, resume=True, notify=notes.append) as checkpoint:
        a = run(first, chunk_size=1_000, checkpoint=checkpoint)
        b = run(second, chunk_size=1_000, checkpoint=checkpoint)
    assert (a.resumed, b.resumed) == (6_000, 3_000)
    assert a.counts.tobytes() == run(first).counts.tobytes()
    assert b.counts.tobytes() == run(second).counts.tobytes()
    assert len(notes) == 2


def test_resume_without_a_checkpoint_starts_from_the_beginning(tmp_path):
    notes = []
    with Checkpoint(tmp_path / "none.checkpoint.npz", ARGUMENTS, resume=True, notify=notes.append) as checkpoint:
        result = run(_job(), checkpoint=checkpoint)
    assert result.resumed == 0 and result.done == 6_000
    assert notes == [f"no checkpoint at {tmp_path / 'none.checkpoint.npz'}: starting from the beginning"]


def test_a_file_that_is_not_a_checkpoint_is_refused(tmp_path):
    path = tmp_path / "x.checkpoint.npz"
    path.write_text("not a zip")
    with pytest.raises(SmearError, match="is not a smear-sim checkpoint"):
        Checkpoint(path, ARGUMENTS, resume=True)
    np.savez(path, counts=np.zeros(3))
    with pytest.raises(SmearError, match="is not a smear-sim checkpoint"):
        Checkpoint(path, ARGUMENTS, resume=True)


def test_the_interval_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SMEAR_SIM_CHECKPOINT_SECONDS", "2.5")
    assert Checkpoint(tmp_path / "a", ARGUMENTS).interval == 2.5
    monkeypatch.setenv("SMEAR_SIM_CHECKPOINT_SECONDS", "soon")
    with pytest.raises(SmearError, match="SMEAR_SIM_CHECKPOINT_SECONDS must be a number of seconds"):
        Checkpoint(tmp_path / "a", ARGUMENTS)


def test_a_run_that_may_stop_early_is_not_checkpointed(tmp_path):
    with pytest.raises(ValueError, match="cannot be checkpointed"):
        run(_job(), stop=lambda counts: True, checkpoint=Checkpoint(tmp_path / "a", ARGUMENTS))
