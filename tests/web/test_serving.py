"""The server around the app (smear_sim/web/serving.py): slow clients are dropped, and a SIGTERM in the middle
of an analysis stops the server within the grace, with a JSON answer and no traceback."""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from smear_sim.web.server import create_app
from smear_sim.web.serving import MAX_CONNECTIONS, PENDING_PER_CLIENT, server

EXAMPLE = "AH KH 2H JD 10C 5S 9S 4D 3C"


@contextlib.contextmanager
def serving(app, **kwargs):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    running = server(app, **kwargs)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        running.should_exit = True
        thread.join(timeout=30)
        listener.close()


def _dropped(connections) -> bool:
    """Whether the server closes every one of ``connections`` (they stayed open for more than 75 s; how soon it
    closes them is measured by benchmarks/stopping.py)."""
    for connection in connections:
        connection.settimeout(60)  # a safety net for a server that never closes it
        try:
            while connection.recv(4096):
                pass
        except ConnectionResetError:
            pass
        except TimeoutError:
            return False
    return True


def test_six_connections_sending_partial_headers_are_dropped_in_time():
    """They stayed open for more than 75 s."""
    with serving(create_app(warm_up=False), header_timeout=1.0) as port:
        connections = [socket.create_connection(("127.0.0.1", port)) for _ in range(6)]
        for connection in connections:
            connection.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port)
        assert _dropped(connections)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rules", timeout=10) as response:
            assert response.status == 200  # the server is fine


def _still_open(connection) -> bool:
    """Whether the server keeps ``connection`` open, having sent nothing on it: a closed one reads as the end (its
    close reached this end of loopback long before the requests that came after it were answered)."""
    try:
        return connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except ConnectionResetError:
        return False
    except BlockingIOError:
        return True


def test_one_byte_on_every_slot_leaves_ordinary_requests_served():
    """64 connections sending one byte each made 13 of 15 ordinary requests answer 503 over 30 s: they held every
    slot of the server. Now a client's connections waiting for their headers are at most PENDING_PER_CLIENT, the
    oldest closed as new ones come, and a client on another address keeps its own."""
    with serving(create_app(warm_up=False)) as port:
        other = []
        for _ in range(PENDING_PER_CLIENT):  # another client (a source address of loopback's own)
            connection = socket.socket()
            connection.bind(("127.0.0.2", 0))
            connection.connect(("127.0.0.1", port))
            connection.sendall(b"G")
            other.append(connection)
        slow = []
        for _ in range(MAX_CONNECTIONS):
            connection = socket.create_connection(("127.0.0.1", port))
            connection.sendall(b"G")
            slow.append(connection)
        answers = []
        for _ in range(15):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rules", timeout=10) as response:
                    answers.append(response.status)
            except urllib.error.HTTPError as error:
                answers.append(error.code)
        assert answers == [200] * 15
        assert not any(_still_open(c) for c in slow[:-PENDING_PER_CLIENT])  # each closed as a newer one came
        assert all(_still_open(c) for c in other)  # the other client's are its own: none was closed
        for connection in slow + other:
            connection.close()


def test_a_body_that_never_arrives_is_dropped():
    with serving(create_app(warm_up=False), body_timeout=1.0) as port:
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(b"POST /api/calls HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 100\r\n\r\n{" % port)
        assert _dropped([connection])


def test_a_request_after_a_kept_alive_one_gets_the_header_timeout_too():
    with serving(create_app(warm_up=False), header_timeout=1.0) as port:
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        connection.settimeout(10)
        assert connection.recv(12).startswith(b"HTTP/1.1 200")
        connection.sendall(b"GET /api/rules HTTP/1.1\r\n")
        assert _dropped([connection])


def test_sigterm_in_the_middle_of_an_analysis_stops_within_the_grace_with_json(tmp_path):
    """It took 18 s, answered a plain-text 500 and printed a CancelledError traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "smear_sim", "serve", "--port", "0", "--results", str(tmp_path),
                             "--max-samples", "10000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split(" at ")[1].split()[0]
        answer = {}
        deadline = time.monotonic() + 120  # until the server has warmed up, it refuses analyses at once
        while not json.loads(urllib.request.urlopen(url + "api/rules", timeout=10).read())["ready"]:
            assert time.monotonic() < deadline, "the server did not warm up"
            time.sleep(0.2)

        def ask():
            body = json.dumps({"cards": EXAMPLE, "samples": 10_000_000, "seed": 5}).encode()  # some 20 s
            request = urllib.request.Request(url + "api/hand", data=body, headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    answer["status"], answer["body"] = response.status, response.read()
            except urllib.error.HTTPError as error:
                answer["status"], answer["body"] = error.code, error.read()
                answer["type"] = error.headers.get("content-type")

        asking = threading.Thread(target=ask)
        asking.start()
        time.sleep(2)  # well into the analysis
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)  # how soon it stops: benchmarks/stopping.py
        asking.join(timeout=30)
    finally:
        proc.kill()
    assert answer["status"] == 503 and answer["type"] == "application/json", answer
    assert "shutting down" in json.loads(answer["body"])["error"]
    assert "Traceback" not in err and "CancelledError" not in err, err
    assert proc.returncode == 143 and err.splitlines()[-1] == "terminated", (proc.returncode, err)
