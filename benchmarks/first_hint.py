"""The first keep hint and the first review a fresh install gives (issue 46): start ``smear-sim serve``, time its hint
engine's warm-up (``GET /api/warmup``), then one keep hint (512 worlds) and one review of a whole hand (200 samples).

    python benchmarks/first_hint.py .venv/bin/smear-sim .      # after emptying the Numba cache, for a fresh install
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

PORT = 8799
URL = f"http://127.0.0.1:{PORT}"


def call(path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    headers = {} if body is None else {"Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(URL + path, data=data, headers=headers), timeout=600) as r:
        return json.loads(r.read())


def timed(path: str, body: dict) -> tuple[dict, float]:
    started = time.monotonic()
    answer = call(path, body)
    return answer, time.monotonic() - started


def main(smear_sim: str, repo: Path) -> None:
    basic = json.loads((repo / "tests/golden/basic.json").read_text())
    record = {k: v for k, v in basic.items() if k not in ("why", "expected")}
    # seat 1 before its discards: its keep is the decision
    view = record | {"seat": 1, "plays": [], "discards": None,
                     "hands": [h if s == 1 else None for s, h in enumerate(basic["hands"])]}
    started = time.monotonic()
    server = subprocess.Popen([smear_sim, "serve", "--port", str(PORT)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if call("/api/warmup").get("ready"):
                    break
            except OSError:
                pass  # not listening yet
            time.sleep(0.5)
        print(f"hint engine ready {time.monotonic() - started:.1f} s after the server started", flush=True)
        hint, seconds = timed("/api/hint", {"view": view, "samples": 512, "seed": 1})
        print(f"first keep hint ({hint['decision']}): {seconds:.2f} s", flush=True)
        review, seconds = timed("/api/review", {"record": record, "samples": 200, "seed": 1})
        print(f"first review ({len(review['decisions'])} decisions): {seconds:.2f} s", flush=True)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
