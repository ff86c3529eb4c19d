"""Writing results (smear_sim/core/io.py): a file or folder is written whole or not at all, only regular files
are replaced, and output paths are checked before the work."""

from __future__ import annotations

import os
import signal
import stat
import threading
from pathlib import Path

import pytest

from smear_sim.core.errors import OutputError, SmearError
from smear_sim.core.io import (
    MANIFEST,
    atomic_write,
    check_output_file,
    check_output_folder,
    read_input,
    replace_folder,
    report_folders,
    signals_deferred,
)


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


# -- targets that are not regular files are written through, never replaced ---------------------------------


def null_device(folder):
    """A character device like /dev/null: a private one made in ``folder`` where we may (so that a broken
    atomic_write could not replace the real /dev/null), else /dev/null itself."""
    device = folder / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        with open(device, "w") as handle:
            handle.write("")
    except OSError:
        return Path("/dev/null")
    return device


def test_a_device_is_written_through_not_replaced(tmp_path):
    device = null_device(tmp_path)
    with atomic_write(device) as handle:
        handle.write("discarded\n")
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert not [p for p in device.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_symlink_stays_and_its_target_is_replaced(tmp_path):
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "trace.jsonl"
    real.write_text("old\n")
    link = tmp_path / "trace.jsonl"
    link.symlink_to(real)
    with atomic_write(link) as handle:
        handle.write("new\n")
    assert link.is_symlink() and real.read_text() == "new\n"
    to_device = tmp_path / "to-null"
    to_device.symlink_to(null_device(tmp_path))
    with atomic_write(to_device) as handle:
        handle.write("x")
    assert to_device.is_symlink() and stat.S_ISCHR(os.stat(to_device).st_mode)


def test_a_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    with atomic_write(fifo) as handle:
        handle.write("through the pipe\n")
    reader.join(timeout=10)
    assert received == ["through the pipe\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_an_open_descriptor_is_written_at_its_offset_not_truncated(tmp_path):
    # /dev/stdout redirected to a file is /proc/self/fd/1: the output goes after what the process wrote, in
    # the same file, which is neither truncated nor replaced.
    target = tmp_path / "out.txt"
    with open(target, "w") as own:
        own.write("printed first\n")
        own.flush()
        inode = os.stat(target).st_ino
        with atomic_write(f"/dev/fd/{own.fileno()}") as handle:
            handle.write("then the trace\n")
    assert target.read_text() == "printed first\nthen the trace\n" and os.stat(target).st_ino == inode


def test_a_failed_write_names_the_path_and_the_os_error(tmp_path):
    with pytest.raises(OutputError, match=r"cannot write /dev/full: No space left on device"), \
            atomic_write("/dev/full") as handle:
        handle.write("x" * 100_000)
    with pytest.raises(OutputError, match="cannot write"), atomic_write(tmp_path / "a-file" / "below") as handle:
        (tmp_path / "a-file").write_text("")  # the folder became a file meanwhile
        handle.write("x")


# -- output paths are checked before the work ---------------------------------------------------------------


def below_a_file(folder, name):
    (folder / "f").write_text("")
    return folder / "f" / name


def test_check_output_file_accepts_what_can_be_written(tmp_path):
    (tmp_path / "old.csv").write_text("x")
    for path in (tmp_path / "old.csv", tmp_path / "new.csv", tmp_path / "new" / "folders" / "f.csv",
                 null_device(tmp_path), Path("/dev/stdout")):
        check_output_file(path, "--out")


@pytest.mark.parametrize(
    "make, fragment",
    [
        (lambda tmp: tmp, "is a folder; give a file name"),
        (lambda tmp: below_a_file(tmp, "x.csv"), "is a file, not a folder"),
        (lambda tmp: below_a_file(tmp, "deeper/x.csv"), "is a file, not a folder"),
        (lambda tmp: tmp / ("x" * 300), "File name too long"),
        (lambda tmp: Path("/dev/fd/97"), "file descriptor 97 is not open"),
        (lambda tmp: Path("bad\0name"), "embedded null byte"),
    ],
)
def test_check_output_file_refuses_at_once(tmp_path, make, fragment):
    with pytest.raises(SmearError, match=fragment) as caught:
        check_output_file(make(tmp_path), "--trace")
    assert str(caught.value).startswith("--trace ") and "\n" not in str(caught.value)


def test_check_output_file_refuses_a_read_only_folder(tmp_path, monkeypatch):
    # os.access is what tells a read-only folder (or file system) apart; as root it says yes to everything,
    # so the folder's answer is made "no" here.
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro" / "old.csv").write_text("x")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: real_access(p, mode) and Path(p) != tmp_path / "ro")
    for path in (tmp_path / "ro" / "new.csv", tmp_path / "ro" / "old.csv", tmp_path / "ro" / "sub" / "x.csv"):
        with pytest.raises(SmearError, match="is not writable"):
            check_output_file(path, "--out")
    with pytest.raises(SmearError, match="is not writable"):
        check_output_folder(tmp_path / "ro" / "results", "--out")


def test_check_output_folder(tmp_path, monkeypatch):
    check_output_folder(tmp_path / "results", "--out")
    (tmp_path / "results").mkdir()
    check_output_folder(tmp_path / "results", "--out")
    (tmp_path / "file").write_text("")
    with pytest.raises(SmearError, match="is a file; give a folder"):
        check_output_folder(tmp_path / "file", "--out")
    monkeypatch.chdir(tmp_path / "results")
    for path in (".", "..", str(tmp_path)):  # replacing it would pull the folder out from under the shell
        with pytest.raises(SmearError, match="cannot be the current folder"):
            check_output_folder(path, "--out")


def test_read_input_stops_at_its_limit(tmp_path):
    # Regression: --rules /dev/zero or score /dev/zero read until the memory ran out.
    with pytest.raises(ValueError, match="larger than 1,000 bytes"):
        read_input("/dev/zero", limit=1000)
    (tmp_path / "a.toml").write_text("target = 15\n")
    assert read_input(tmp_path / "a.toml", limit=12) == "target = 15\n"


# -- a folder replaced whole ------------------------------------------------------------------------------------


def write_tree(folder, files):
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def tree(folder):
    return {p.relative_to(folder).as_posix(): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_replace_folder_makes_a_new_folder_with_its_manifest(tmp_path):
    with replace_folder(tmp_path / "results") as staging:
        assert staging.parent == tmp_path and not (tmp_path / "results").exists()
        write_tree(staging, {"a.csv": "1", "charts/b.png": "2"})
    assert tree(tmp_path / "results") == {MANIFEST: "a.csv\ncharts/b.png\n", "a.csv": "1", "charts/b.png": "2"}
    assert [p.name for p in tmp_path.iterdir()] == ["results"]
    assert stat.S_IMODE((tmp_path / "results").stat().st_mode) == 0o777 & ~umask()


def test_replace_folder_keeps_what_the_user_put_there_and_drops_stale_results(tmp_path):
    results = tmp_path / "results"
    with replace_folder(results) as staging:
        write_tree(staging, {"a.csv": "run 1", "charts/make3.png": "run 1"})
    write_tree(results, {"notes.txt": "mine", "charts/mine.png": "mine", "a.csv.bak": "mine"})
    (results / "empty").mkdir()
    (results / "link").symlink_to("notes.txt")
    os.chmod(results, 0o750)
    inode = (results / "notes.txt").stat().st_ino
    with replace_folder(results) as staging:
        write_tree(staging, {"a.csv": "run 2", "charts/make4.png": "run 2"})
        assert (results / "charts" / "make3.png").exists()  # the old run stays whole until the swap
    assert tree(results) == {MANIFEST: "a.csv\ncharts/make4.png\n", "a.csv": "run 2", "a.csv.bak": "mine",
                             "charts/make4.png": "run 2", "charts/mine.png": "mine", "link": "mine",
                             "notes.txt": "mine"}
    assert (results / "link").is_symlink() and (results / "empty").is_dir()
    assert (results / "notes.txt").stat().st_ino == inode  # the same file, not a copy
    assert stat.S_IMODE(results.stat().st_mode) == 0o750
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]


def test_replace_folder_leaves_the_old_folder_when_the_run_fails(tmp_path):
    results = tmp_path / "results"
    write_tree(results, {"a.csv": "old"})
    for failure in (RuntimeError("bug"), KeyboardInterrupt()):
        with pytest.raises(type(failure)), replace_folder(results) as staging:
            write_tree(staging, {"a.csv": "new"})
            raise failure
        assert tree(results) == {"a.csv": "old"} and [p.name for p in tmp_path.iterdir()] == ["results"]


def test_replace_folder_follows_a_link_to_the_folder(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "results").symlink_to("real")
    with replace_folder(tmp_path / "results") as staging:
        write_tree(staging, {"a.csv": "1"})
    assert (tmp_path / "results").is_symlink() and (tmp_path / "real" / "a.csv").read_text() == "1"


def test_signals_deferred_holds_ctrl_c_until_the_block_ends():
    # Ctrl-C as a terminal delivers it, even where the tests run with SIGINT ignored (a background job).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        done = []
        with pytest.raises(KeyboardInterrupt), signals_deferred():
            signal.raise_signal(signal.SIGINT)  # its handler runs before the next line: inside the block
            done.append("the block finished")
        assert done == ["the block finished"]
    finally:
        signal.signal(signal.SIGINT, previous)


def umask():
    value = os.umask(0)
    os.umask(value)
    return value


def test_a_nested_report_survives_its_parents_run_and_is_found(tmp_path):
    """results/round-points, a report folder of its own (its own manifest), is kept whole when results/ is made
    again, its manifest included; report_folders finds it, and not a folder without a manifest or a hidden one."""
    results = tmp_path / "results"
    with replace_folder(results) as staging:
        write_tree(staging, {"a.csv": "run 1"})
    with replace_folder(results / "round-points") as staging:
        assert staging.parent == results  # a nested report is written beside its folder: inside the parent
        write_tree(staging, {"a.csv": "round points", "charts/b.png": "rp"})
    write_tree(results, {"notes/a.csv": "mine", ".hidden/" + MANIFEST: ""})
    assert report_folders(results) == ["round-points"]
    with replace_folder(results) as staging:
        write_tree(staging, {"a.csv": "run 2"})
    assert {k: v for k, v in tree(results).items() if k.startswith("round-points/")} == {
        f"round-points/{MANIFEST}": "a.csv\ncharts/b.png\n", "round-points/a.csv": "round points",
        "round-points/charts/b.png": "rp"}
    assert (results / MANIFEST).read_text() == "a.csv\n"
    assert report_folders(results) == ["round-points"] and report_folders(tmp_path / "nowhere") == []
