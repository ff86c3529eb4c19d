"""How soon work stops or is refused: the times the tests no longer assert (they check that it stops, or is refused
before any work, and wait on events; the clock is measured here). Run from the repo root.

    python benchmarks/stopping.py [--runs 3]

Prints the median over the runs, in seconds, of:
- refused: a page's hand request that no cap bounds (target 1000), from the request to its 400;
- dropped: a page's 10,000,000-deal hand whose client goes away in the hand's deals, from the close to the
  simulator idle (target: within a slice or two, well under 3 s);
- slow headers: a connection that never finishes its headers, from its first bytes to its close, with a 1 s
  header timeout (target: under 4 s);
- sigterm: `smear-sim serve` stopped by SIGTERM two seconds into a hand, from the signal to the exit (target: the
  grace, 2 s, plus 1.5 s);
- ctrl-c: `smear-sim simulate` stopped by Ctrl-C three seconds in, from the signal to the exit (target: between
  two chunks, well under 20 s).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from web_helpers import running  # noqa: E402

from smear_sim.analysis.hand import EXAMPLE_HAND  # noqa: E402
from smear_sim.engine.turns import Simulator  # noqa: E402
from smear_sim.web import server  # noqa: E402
from smear_sim.web.serving import server as bounded_server  # noqa: E402


def refused() -> float:
    from fastapi.testclient import TestClient

    client = TestClient(server.create_app(results=None, warm_up=False), base_url="http://127.0.0.1")
    started = time.perf_counter()
    assert client.post("/api/hand", json={"cards": EXAMPLE_HAND, "rules": {"target": 1000}}).status_code == 400
    return time.perf_counter() - started


def dropped() -> float:
    heard = threading.Event()
    run = server.HandRequest.run

    def watched(self, executor, stage=lambda _: None):
        def note(name):
            if name == "hand":
                heard.set()
            stage(name)

        return run(self, executor, stage=note)

    server.HandRequest.run = watched
    try:
        simulator = Simulator()
        app = server.create_app(results=None, max_samples=10_000_000, simulator=simulator, warm_up=False)
        with running(app) as url:
            port = int(url.rsplit(":", 1)[1].strip("/"))
            body = json.dumps({"cards": EXAMPLE_HAND, "samples": 10_000_000, "seed": 11}).encode()
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(b"POST /api/hand HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                               b"Content-Length: %d\r\n\r\n" % (port, len(body)) + body)
            assert heard.wait(300)
            time.sleep(0.3)  # well into the deals
            connection.close()
            closed = time.perf_counter()
            assert simulator.wait_idle(timeout=300)
            return time.perf_counter() - closed
    finally:
        server.HandRequest.run = run


def slow_headers() -> float:
    app = server.create_app(results=None, warm_up=False)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    serving = bounded_server(app, header_timeout=1.0)
    thread = threading.Thread(target=serving.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        port = listener.getsockname()[1]
        connection = socket.create_connection(("127.0.0.1", port))
        started = time.perf_counter()
        connection.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port)
        connection.settimeout(120)
        try:
            while connection.recv(4096):
                pass
        except ConnectionResetError:
            pass
        return time.perf_counter() - started
    finally:
        serving.should_exit = True
        thread.join(timeout=30)
        listener.close()


def sigterm() -> float:
    proc = subprocess.Popen([sys.executable, "-m", "smear_sim", "serve", "--port", "0", "--results",
                             tempfile.mkdtemp(), "--max-samples", "10000000"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split(" at ")[1].split()[0]
        while not json.loads(urllib.request.urlopen(url + "api/rules", timeout=10).read())["ready"]:
            time.sleep(0.2)
        body = json.dumps({"cards": EXAMPLE_HAND, "samples": 10_000_000, "seed": 5}).encode()
        request = urllib.request.Request(url + "api/hand", data=body, headers={"Content-Type": "application/json"})
        asking = threading.Thread(target=lambda: _quietly(request), daemon=True)
        asking.start()
        time.sleep(2)
        sent = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=120)
        return time.perf_counter() - sent
    finally:
        proc.kill()


def _quietly(request) -> None:
    with contextlib.suppress(Exception):  # the 503 of a server shutting down
        urllib.request.urlopen(request, timeout=120).read()


def ctrl_c() -> float:
    proc = subprocess.Popen([sys.executable, "-m", "smear_sim", "simulate", "-n", str(10**11), "--chunk-size",
                             "50000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    return time.perf_counter() - sent


MEASURES = {"refused": refused, "dropped": dropped, "slow headers": slow_headers, "sigterm": sigterm,
            "ctrl-c": ctrl_c}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=sorted(MEASURES), action="append")
    args = parser.parse_args()
    for name in args.only or MEASURES:
        times = [MEASURES[name]() for _ in range(args.runs)]
        print(f"{name:>13}: median {statistics.median(times):.2f} s  ({', '.join(f'{t:.2f}' for t in times)})")


if __name__ == "__main__":
    main()
