"""``smear-sim serve``: its address, a port in use, the missing extra, other hosts, and Ctrl-C."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import urllib.request

from cli_helpers import assert_clean_failure, invoke

from smear_sim.core.errors import SmearError
from smear_sim.engine.compiling import COMPILING


def test_port_in_use_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        line = assert_clean_failure(invoke("serve", "--port", str(port)))
    assert line == f"error: port {port} on 127.0.0.1 is in use: stop what uses it, or choose another with --port"


def test_missing_web_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    line = assert_clean_failure(invoke("serve"))
    assert "pip install 'smear-sim[web]'" in line and "uvicorn" in line


def test_another_host_needs_saying_and_warns(monkeypatch):
    def stop(host, port):
        raise SmearError(f"not listening on {host} in this test")

    monkeypatch.setattr("smear_sim.cli.web._listen", stop)
    result = invoke("serve", "--host", "0.0.0.0")
    assert result.exit_code == 2
    warning, error = result.stderr.splitlines()
    assert warning.startswith("warning: serving on 0.0.0.0: anyone who can reach this machine")
    assert error == "error: not listening on 0.0.0.0 in this test"
    for loopback in ("localhost", "127.0.0.2", "::1"):
        assert "warning" not in invoke("serve", "--host", loopback).stderr


def test_serve_prints_its_address_answers_and_stops_cleanly_on_ctrl_c(tmp_path):
    server = subprocess.Popen([sys.executable, "-m", "smear_sim", "serve", "--port", "0", "--results", str(tmp_path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith("smear-sim: the page is at http://127.0.0.1:") and "(Ctrl-C stops it)" in line
        url = line.split(" at ")[1].split()[0]
        with urllib.request.urlopen(url + "api/rules", timeout=60) as response:
            assert json.loads(response.read())["hand"]["max_samples"] == 200_000
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=120)
    finally:
        server.kill()
    assert server.returncode == 0
    said = [line for line in err.splitlines() if line != COMPILING]  # the warm-up says so where the cache is cold
    assert said == [f"note: {tmp_path} has none of bid_table.npz, by_position.csv and equity.csv, so the tables "
                    "view will be empty; give --results DIR or make them with 'smear-sim report'", "smear-sim: stopped"]
