"""Running kernels from Python (smear_sim/runtime.py): inputs, threads, chunks and atomic output files."""

from __future__ import annotations

import os
import stat

import numba
import numpy as np
import pytest

from smear_sim.errors import SmearError
from smear_sim.runtime import (
    POLICIES,
    atomic_write,
    check_count,
    chunk_ranges,
    parse_policies,
    policy_array,
    progress_bar,
    resolve_threads,
    seed_value,
)


def test_parse_policies():
    assert parse_policies("heuristic") == ("heuristic", "heuristic")
    assert parse_policies(" Heuristic , RANDOM ") == ("heuristic", "random")
    assert parse_policies(["random", "heuristic"]) == ("random", "heuristic")
    with pytest.raises(SmearError, match="choose random or heuristic"):
        parse_policies("greedy")
    with pytest.raises(SmearError, match="two separated by a comma"):
        parse_policies("random,random,random")


def test_policy_array_matches_the_kernel_numbers():
    from smear_sim.kernels import policies

    assert POLICIES[policies.RANDOM] == "random" and POLICIES[policies.HEURISTIC] == "heuristic"
    codes = policy_array(("heuristic", "random"))
    assert codes.dtype == np.int64 and list(codes) == [policies.HEURISTIC, policies.RANDOM]


def test_seed_value():
    assert seed_value(0) == np.uint64(0)
    assert seed_value(2**64 - 1) == np.uint64(2**64 - 1)
    for bad in (-1, 2**64, 1.5, True, "1"):
        with pytest.raises(SmearError, match="--seed"):
            seed_value(bad)


def test_resolve_threads():
    limit = numba.config.NUMBA_NUM_THREADS
    try:
        assert resolve_threads(None) == limit
        assert resolve_threads(1) == 1 and numba.get_num_threads() == 1
        for bad in (0, limit + 1, 999, 1.0):
            with pytest.raises(SmearError, match=f"between 1 and {limit}"):
                resolve_threads(bad)
    finally:
        numba.set_num_threads(limit)


def test_chunk_ranges_cover_the_total_once():
    for total, size in [(0, 5), (1, 5), (10, 5), (11, 5), (7, 1 << 18)]:
        pieces = list(chunk_ranges(total, size))
        assert [i for s, c in pieces for i in range(s, s + c)] == list(range(total))
        assert all(0 < c <= size for _, c in pieces)
    with pytest.raises(SmearError, match="chunk size"):
        list(chunk_ranges(10, 0))


def test_check_count():
    assert check_count("--hands", 5) == 5
    assert check_count("--trace-hands", 0, minimum=0) == 0
    for bad in (0, -1, 10**13, 2.5, True):
        with pytest.raises(SmearError, match="--hands must be a whole number"):
            check_count("--hands", bad)


def test_progress_bar_disabled_yields_none():
    with progress_bar(10, "x", enabled=False) as progress:
        assert progress is None


# -- atomic writes --------------------------------------------------------------------------------------------


def test_atomic_write_writes_text_and_binary(tmp_path):
    with atomic_write(tmp_path / "sub" / "a.txt") as handle:
        handle.write("héllo\n")
    assert (tmp_path / "sub" / "a.txt").read_text(encoding="utf-8") == "héllo\n"
    with atomic_write(tmp_path / "b.bin", "wb") as handle:
        handle.write(b"\x00\x01")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.bin", "sub"]


def test_atomic_write_leaves_no_file_when_the_body_raises(tmp_path):
    target = tmp_path / "out.csv"
    with pytest.raises(RuntimeError), atomic_write(target) as handle:
        handle.write("half a file")
        raise RuntimeError("interrupted")
    assert list(tmp_path.iterdir()) == []  # neither the file nor a temporary file


def test_atomic_write_keeps_the_old_file_when_the_body_raises(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt), atomic_write(target) as handle:
        handle.write("new")
        raise KeyboardInterrupt
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_atomic_write_gives_files_the_usual_permissions(tmp_path):
    # Regression: mkstemp makes its file 0600 and os.replace keeps that mode, which left every result the tool
    # writes unreadable to other users; files must get the mode open() gives (0666 masked by the umask).
    umask = os.umask(0)
    os.umask(umask)
    with atomic_write(tmp_path / "table.csv") as handle:
        handle.write("x\n")
    with open(tmp_path / "plain.csv", "w") as handle:
        handle.write("x\n")
    mode = stat.S_IMODE((tmp_path / "table.csv").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "plain.csv").stat().st_mode) == 0o666 & ~umask
