"""--cluster, --scheduler and --resume from the outside: the same bytes as a local run, and clean failures.

Every long command runs once on this machine and once on the shared loopback cluster (``--scheduler``),
and the outputs must be identical but for timings.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import assert_clean_failure, invoke, ok

from smear_sim.analysis import report as analysis_report

HAND = "AH KH 2H JD 10C 5S 9S 4D 3C"
LONG_COMMANDS = ("simulate", "hand", "bid-table", "moon", "match", "tournament", "equity", "report")


def same_json(*args: str, scheduler: str, drop: tuple[str, ...] = ()) -> dict:
    """The command's JSON run locally and on the cluster, which must agree but for the keys ``drop``."""
    outputs = []
    for extra in ((), ("--scheduler", scheduler)):
        result = ok(*args, *extra, "--json")
        data = json.loads(result.stdout)
        outputs.append({k: v for k, v in data.items() if k not in drop})
    assert outputs[0] == outputs[1]
    return outputs[0]


def test_simulate_match_hand_and_moon_give_the_same_numbers_on_the_cluster(dask_scheduler):
    data = same_json("simulate", "--hands", "30000", "--seed", "4", "--policy", "heuristic,random",
                     scheduler=dask_scheduler, drop=("timing",))
    assert data["hands"] == 30_000
    same_json("match", "--deals", "8000", "--seed", "4", scheduler=dask_scheduler)
    same_json("hand", HAND, "--samples", "30000", "--trump", "H", scheduler=dask_scheduler)
    data = same_json("hand", HAND, "--precision", "0.02", scheduler=dask_scheduler)
    assert data["stopped_by"] == "precision"
    same_json("moon", HAND, "--hands", "20000", scheduler=dask_scheduler)
    same_json("moon", "--hands", "30000", "--by", "trumps,top", scheduler=dask_scheduler)
    data = same_json("tournament", "heuristic", "random", "pimc:2", "--deals", "3000", "--search-deals", "20",
                     "--games", "100", "--search-games", "2", scheduler=dask_scheduler)
    assert [p["deals"] for p in data["pairs"]] == [3000, 20, 20]


def test_auction_analysis_duplicate_games_and_position_tables_give_the_same_numbers_on_the_cluster(
        dask_scheduler, tmp_path, monkeypatch):
    monkeypatch.setattr(analysis_report, "POSITION_CLASS_HANDS", 100_000)  # bid-table --by-position's buckets: as in test_tables
    data = same_json("hand", HAND, "--position", "2", "--auction", "2", "--samples", "3000", "--equity-hands",
                     "20000", scheduler=dask_scheduler)
    assert data["auction"]["samples"] >= 3000
    same_json("match", "equity", "heuristic", "--games", "400", "--seed", "3", scheduler=dask_scheduler)
    for where, extra in (("local", ()), ("cluster", ("--scheduler", dask_scheduler))):
        monkeypatch.chdir(tmp_path.joinpath(where).mkdir() or tmp_path / where)
        ok("bid-table", "--by-position", "--hands", "3000", "--equity-hands", "20000", "--out", "calls/by_position",
           *extra)
    assert _files(tmp_path / "local" / "calls") == _files(tmp_path / "cluster" / "calls")


def _files(folder: Path) -> dict[str, bytes]:
    """Every file's bytes; a .npz by its arrays, since a zip stamps the time it was written."""
    out = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.suffix == ".npz":
            with np.load(path) as data:
                out[path.name] = b"".join(data[name].tobytes() for name in sorted(data.files))
        else:
            out[path.name] = path.read_bytes()
    return out


def test_bid_table_and_report_write_the_same_files_on_the_cluster(dask_scheduler, tmp_path, monkeypatch):
    for where, extra in (("local", ()), ("cluster", ("--scheduler", dask_scheduler))):
        monkeypatch.chdir(tmp_path.joinpath(where).mkdir() or tmp_path / where)  # the same --out: it is in README.md
        ok("bid-table", "--hands", "30000", "--out", "table/bid_table", "--show", "0", *extra)
        # a small report: the same bytes are the point, not the numbers (every table, chart and example is there)
        ok("report", "--hands", "30000", "--equity-hands", "2000", "--position-deals", "1000", "--out", "report",
           *extra)
    for kind in ("table", "report"):
        local, cluster = _files(tmp_path / "local" / kind), _files(tmp_path / "cluster" / kind)
        assert local == cluster
    assert {"bid_table.csv", "bid_table.md", "bid_table.npz", "README.md", "moon_table.csv"} <= set(local)


def test_cluster_local_starts_a_loopback_cluster_and_gives_the_same_numbers(monkeypatch, tmp_path):
    monkeypatch.setenv("SMEAR_SIM_WORKER_CACHE", str(tmp_path))
    args = ("simulate", "--hands", "20000", "--seed", "8", "--json")
    local = json.loads(ok(*args).stdout)
    result = ok(*args, "--cluster", "local:2")
    cluster = json.loads(result.stdout)
    assert local.pop("timing")["threads"] >= 1 and cluster.pop("timing")["threads"] == 2
    assert cluster == local
    assert "cluster: simulate_hands ready on 2 workers in" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0", "1"]  # each worker's own Numba cache


@pytest.mark.parametrize(("args", "words"), [
    (["--cluster", "local", "--scheduler", "tcp://127.0.0.1:8786"], "not both"),
    (["--cluster", "local:0"], "from 1 to 1,024"),
    (["--cluster", "everywhere"], "--cluster takes local or local:N"),
    (["--scheduler", "http://head:8786"], "--scheduler takes a Dask scheduler's address"),
    (["--scheduler", "head:port"], "--scheduler takes a Dask scheduler's address"),
    (["--cluster", "local:2", "--threads", "1"], "--threads is for runs on this machine"),
], ids=["both", "no_workers", "not_local", "scheme", "port", "threads"])
def test_bad_cluster_options_exit_2_with_one_line(args, words):
    assert words in assert_clean_failure(invoke("simulate", "--hands", "10", *args))


def test_an_unreachable_scheduler_fails_in_one_line_within_the_timeout(monkeypatch):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("SMEAR_SIM_SCHEDULER_TIMEOUT", "1")
    line = assert_clean_failure(invoke("bid-table", "--hands", "10", "--scheduler", f"127.0.0.1:{port}"))
    assert f"cannot reach a Dask scheduler at tcp://127.0.0.1:{port} within 1 s" in line


def test_every_long_command_takes_the_cluster_options():
    for command in LONG_COMMANDS:
        text = invoke(command, "--help").stdout
        assert "--cluster" in text and "--scheduler" in text, command


def test_without_cluster_options_dask_is_never_imported():
    code = (
        "import sys; from typer.testing import CliRunner; from smear_sim.cli import app\n"
        "for args in (['simulate', '-n', '100'], ['hand', 'AH KH 2H JD 10C 5S 9S 4D 3C', '--samples', '100'],\n"
        "             ['match', '--deals', '100'], ['simulate', '--hands', '10', '--cluster', 'local:0']):\n"
        "    CliRunner().invoke(app, args)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize(("args", "name", "written", "total"), [
    (["bid-table", "--hands", "200000", "--chunk-size", "5000", "--show", "0"], "bid_table", ".csv", 200_000),
    (["equity", "--hands", "300000", "--chunk-size", "10000"], "equity", ".csv", 300_000),
    # three players, three pairs; random and equity are compiled into one kernel with heuristic, as in the other
    # tests (heuristic-v1, a player of its own, would compile two more kernels on a cold cache)
    (["tournament", "heuristic", "random", "equity", "--deals", "100000", "--chunk-size", "4000"],
     "players.md", "", 300_000),
], ids=["bid-table", "equity", "tournament"])
def test_a_run_interrupted_by_ctrl_c_resumes_to_the_same_bytes(tmp_path, args, name, written, total):
    args = [*args, "--seed", "6"]
    ok(*args, "--out", str(tmp_path / "whole" / name))
    out = tmp_path / "resumed" / name
    checkpoint = Path(f"{out}.checkpoint.npz")
    env = os.environ | {"SMEAR_SIM_CHECKPOINT_SECONDS": "0", "NO_COLOR": "1"}  # save after every chunk
    proc = subprocess.Popen([sys.executable, "-m", "smear_sim", *args, "--out", str(out)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # not inherited as ignored
    first = proc.stderr.readline()  # written when the first chunk has been saved
    proc.send_signal(signal.SIGINT)  # Ctrl-C
    rest = proc.stderr.read()
    assert proc.wait(timeout=60) == 130, first + rest
    assert first.startswith(f"progress is saved to {checkpoint}")
    assert rest.splitlines()[-2:] == [f"the finished part is saved in {checkpoint}: the same command with --resume "
                                      "finishes it", "interrupted"]
    assert not Path(f"{out}{written}").exists()

    line = assert_clean_failure(invoke(*args, "--seed", "7", "--out", str(out), "--resume"))
    assert "was saved by a run with --seed 6, not --seed 7" in line

    resumed = ok(*args, "--out", str(out), "--resume")
    done = int(resumed.stderr.split(": ")[1].split(" of ")[0].replace(",", ""))
    assert 0 < done < total  # it did resume, from part of the way
    assert not checkpoint.exists()
    assert _files(tmp_path / "whole") == _files(tmp_path / "resumed")


def test_resume_without_an_output_is_refused():
    line = assert_clean_failure(invoke("tournament", "heuristic", "random", "--deals", "10", "--resume"))
    assert "--resume needs --out" in line
