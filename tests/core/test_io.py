"""Atomic writes (smear_sim/core/io.py): a file is written whole or not at all."""

from __future__ import annotations

import os
import stat

import pytest

from smear_sim.core.io import atomic_write


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
