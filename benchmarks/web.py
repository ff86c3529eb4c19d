"""The page's latency in a real browser, and two browsers asking at once (run from the repo root).

    python benchmarks/web.py [--runs 9] [--samples 20000] [--big 200000] [--screenshots docs]
    python benchmarks/web.py --soak [--minutes 3]
    python benchmarks/web.py --practice [--hands 1] [--review-samples 64]
    python benchmarks/web.py --hint [--decisions 60] [--review-samples 256]

--hint times a hint at the practice table in the browser: from the click on Hint to the net's values on screen
(body[data-net-hint-ms], taken by the page after the frame that draws them), and to the search's (data-hint-ms),
at each of the person's decisions (heuristic bots, no delay, 100 hint worlds) over --decisions decisions: first
alone, then with a second browser reviewing a simulated hand throughout (restarted as it ends). Median, p90 and
max; the calls the net has no value for (the equity tables settled none) are counted apart.

--practice plays two practice tables in two browsers at once (heuristic bots, no delay: the first card, call, suit
or keep offered, a hint asked at each table's first card) while a third browser reviews a simulated hand, and
prints each bot's turn on screen (from the request sent to the table drawn, measured by the page), the hints' times
and the review's. Each table reviews its hand as it ends (as the page does), so the hint asked after that in the
other table waits for the review's slices. Then one table alone, the other pages closed, for comparison.

--soak (no browser) starts the server the same way and, for the minutes given, sends it a bounded mix of good,
bad and abandoned requests from a few threads, all to 127.0.0.1: analyses small and large, streamed and not,
tables regrouped in any order; bodies over the cap, nested too deep, numbers and scores out of range, foreign
Host and Origin headers; streams and plain requests dropped half way, and connections that never finish their
headers. A prober asks a small request (the rules, the legal calls, a 1,000-deal hand at a score already
valued) every half second. It prints the server's peak memory (RSS) and its memory over time, the slowest
answer to a small request (after the first 45 s of warm-up, and within them), and every 500. Targets: no 500, memory flat after the warm-up (within 10%), a small
request answered within 2 s throughout.

It starts `smear-sim serve --port 0` on 127.0.0.1 and drives headless Chromium (Debian's chromium and
chromium-driver) with selenium. Times are from the click on "What should I bid?" to the advice drawn on the
page, measured by the page itself (performance.now()); medians over the runs: the hand alone, then at seat 3
after the calls 2 and pass at 15-19 (the hand, then every call on deals that fit the calls before). With
--screenshots it saves the page at desktop and phone size (390 x 844) there, as the README shows it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
from web_helpers import as_phone, ask, body_data, browser_paths, chrome, wait_for  # noqa: E402

EXAMPLE = "AH KH 2H JD 10C 5S 9S 4D 3C"
SEATED = {"seat": 3, "calls": ("2", "pass"), "score": (15, 19)}  # the auction analysis the page's advice reads


def click_to_advice(browser) -> int:
    """Ask again for the hand already picked; the milliseconds from the click to the advice."""
    from selenium.webdriver.common.by import By

    browser.execute_script("delete document.body.dataset.adviceMs")
    browser.find_element(By.ID, "advise").click()
    wait_for(browser, lambda b: body_data(b, "advice-ms") is not None)
    return int(body_data(browser, "advice-ms"))


def at_once(browsers, samples: int) -> list[int]:
    """Both browsers click at the same moment; each one's milliseconds to its advice."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    for browser in browsers:
        Select(browser.find_element(By.CSS_SELECTOR, 'select[name="samples"]')).select_by_value(str(samples))
    start = threading.Barrier(len(browsers))
    times = [0] * len(browsers)

    def one(i: int) -> None:
        start.wait()
        times[i] = click_to_advice(browsers[i])

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(browsers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def alone_and_together(first, second, samples: int, runs: int) -> dict[str, float]:
    """Median milliseconds to the advice for one browser asking alone, and for each of two asking at once."""
    alone, together = [], []
    for _ in range(runs):
        alone += at_once([first], samples)
        together += at_once([first, second], samples)
    return {"one_browser": statistics.median(alone), "two_browsers_each": statistics.median(together)}


WARM_UP = 45  # seconds: the server compiles or loads its kernels, reads the tables and makes 3 equity tables


def soak(minutes: float) -> dict:
    """The --soak run of the module docstring; returns its figures."""
    import http.client
    import itertools
    import random
    import socket
    import time

    server = subprocess.Popen([sys.executable, "-m", "smear_sim", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              text=True)
    try:
        port = int(server.stdout.readline().split(" at ")[1].split()[0].rstrip("/").rsplit(":", 1)[1])
        host = f"127.0.0.1:{port}"
        end = time.monotonic() + 60 * minutes
        statuses: dict[int, int] = {}
        errors: list[str] = []
        small: list[tuple[float, float, str]] = []  # (when, seconds, what)
        memory: list[tuple[float, int]] = []
        lock = threading.Lock()
        started = time.monotonic()

        def call(method, path, body=None, headers=None, raw=None, timeout=120):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
            try:
                data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
                connection.request(method, path, body=data, headers={"Content-Type": "application/json",
                                                                     **(headers or {})})
                response = connection.getresponse()
                text = response.read()
                with lock:
                    statuses[response.status] = statuses.get(response.status, 0) + 1
                    if response.status >= 500 and response.status != 503:
                        errors.append(f"{response.status} {method} {path} {text[:200]!r}")
                return response.status
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    errors.append(f"no answer: {method} {path}: {exc!r}")
                return None
            finally:
                connection.close()

        features = ["trumps", "top", "two", "jack", "jick", "jokers", "aces"]
        rng = random.Random(1)

        def good():
            seeds = itertools.cycle([1, 2, 3])  # a bounded set: their equity tables are made once, then kept
            while time.monotonic() < end:
                seed = next(seeds)
                choice = rng.random()
                if choice < 0.4:
                    call("POST", "/api/hand", {"cards": EXAMPLE, "samples": rng.choice([2000, 20_000, 100_000]),
                                               "seed": seed, "score": rng.choice([[0, 0], [15, 19], [-20, 5]])})
                elif choice < 0.6:
                    call("POST", "/api/hand/stream", {"cards": EXAMPLE, "samples": 20_000, "seed": seed,
                                                      "position": 2, "auction": "2"})
                elif choice < 0.8:
                    by = rng.sample(features, rng.randint(1, 4))
                    call("GET", "/api/tables?by=" + ",".join(by))
                else:
                    call("GET", "/api/rules")

        def bad():
            cases = itertools.cycle([
                dict(method="POST", path="/api/hand", raw=b'{"cards": "' + b"A" * 300_000 + b'"}'),
                dict(method="POST", path="/api/hand", raw=b"[" * 100_000 + b"]" * 100_000),
                dict(method="POST", path="/api/hand", body={"cards": EXAMPLE, "score": [-300, 0]}),
                dict(method="POST", path="/api/hand", body={"cards": EXAMPLE, "rules": {"target": 1000}}),
                dict(method="POST", path="/api/hand", raw=b'{"cards": "x", "precision": ' + b"9" * 40 + b"}"),
                dict(method="POST", path="/api/calls", raw=b'{"rules": ' + b'{"a":' * 2000 + b"1" + b"}" * 2001),
                dict(method="GET", path="/api/rules", headers={"Host": "evil.example"}),
                dict(method="POST", path="/api/hand", body={"cards": EXAMPLE}, headers={"Origin": "http://evil.example"}),
                dict(method="POST", path="/api/hand", body={"cards": EXAMPLE, "policy": ""}),
                dict(method="GET", path="/api/tables?by=" + "x" * 5000),
            ])
            while time.monotonic() < end:
                call(**next(cases))
                time.sleep(0.05)

        def abandoned():
            kinds = itertools.cycle(["stream", "plain", "headers"])
            while time.monotonic() < end:
                kind = next(kinds)
                connection = socket.create_connection(("127.0.0.1", port))
                if kind == "headers":
                    connection.sendall(f"GET /api/rules HTTP/1.1\r\nHost: {host}\r\n".encode())
                    time.sleep(0.5)
                else:
                    body = json.dumps({"cards": EXAMPLE, "samples": 200_000, "seed": rng.choice([1, 2, 3])}).encode()
                    path = "/api/hand/stream" if kind == "stream" else "/api/hand"
                    connection.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                                       f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
                    time.sleep(rng.uniform(0.2, 1.5))
                connection.close()

        def probe():
            smalls = itertools.cycle([("GET", "/api/rules", None), ("POST", "/api/calls", {"auction": [2]}),
                                      ("POST", "/api/hand", {"cards": EXAMPLE, "samples": 1000, "seed": 1})])
            while time.monotonic() < end:
                method, path, body = next(smalls)
                sent = time.monotonic()
                call(method, path, body)
                with lock:
                    small.append((sent - started, time.monotonic() - sent, path))
                time.sleep(0.5)

        def watch():
            while time.monotonic() < end:
                with open(f"/proc/{server.pid}/status") as status:
                    rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))
                memory.append((time.monotonic() - started, rss * 1024))
                time.sleep(1)

        threads = [threading.Thread(target=f) for f in (good, good, bad, abandoned, probe, watch)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        warm = [rss for t, rss in memory if t >= WARM_UP]
        slowest = max((s for s in small if s[0] >= WARM_UP), key=lambda s: s[1])
        first = max((s for s in small if s[0] < WARM_UP), key=lambda s: s[1])
        return {
            "minutes": minutes,
            "requests": sum(statuses.values()),
            "statuses": dict(sorted(statuses.items())),
            "errors_500_or_no_answer": errors[:20],
            "peak_rss_mb": round(max(r for _, r in memory) / 2**20, 1),
            "rss_after_warm_up_mb": {"first": round(warm[0] / 2**20, 1), "min": round(min(warm) / 2**20, 1),
                                     "max": round(max(warm) / 2**20, 1), "last": round(warm[-1] / 2**20, 1)}
            if warm else None,
            "rss_growth_after_warm_up": round(max(warm) / warm[0] - 1, 3) if warm else None,
            "rss_by_minute_mb": [round(r / 2**20, 1) for t, r in memory if int(t) % 60 == 0],
            "small_requests": len(small),
            "slowest_small_request_after_warm_up_s": {"seconds": round(slowest[1], 3), "at_s": round(slowest[0], 1),
                                                      "path": slowest[2]},
            # the first hand asked waits for the server's own warm-up and for seed 1's match-equity table
            "slowest_small_request_in_warm_up_s": {"seconds": round(first[1], 3), "at_s": round(first[0], 1),
                                                   "path": first[2]},
        }
    finally:
        server.terminate()
        server.wait(timeout=60)


def practice(hands: int, review_samples: int) -> dict:
    """The --practice run (module docstring)."""
    import tempfile
    import time

    from web.test_practice_page import open_play, play_until, take_turn

    from smear_sim.analysis.simulate import trace_records

    paths = browser_paths()
    if isinstance(paths, str):
        sys.exit(f"cannot run: {paths}")
    games = tempfile.mkdtemp(prefix="smear-sim-games-")
    server = subprocess.Popen([sys.executable, "-m", "smear_sim", "serve", "--port", "0", "--games-dir", games],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split(" at ")[1].split()[0]
        with chrome(*paths) as first, chrome(*paths) as second, chrome(*paths) as third:
            def table(browser, seed: int, out: dict) -> None:
                from selenium.webdriver.common.by import By

                started = time.perf_counter()
                open_play(browser, url, seat=seed % 4, seed=seed)
                hinted = False
                for number in range(hands):
                    def stop(state, hinted=hinted):
                        return not hinted and state["turn"]["decision"] == "card"
                    play_until(browser, url, stop)
                    if not hinted and body_data(browser, "play") == "yours":
                        browser.find_element(By.ID, "play-hint").click()
                        wait_for(browser, lambda b: body_data(b, "hint-ms") is not None)
                        out["hint_ms"] = int(body_data(browser, "hint-ms"))
                        out["hint_server_ms"] = browser.execute_script(  # the hint's own time, and the request's
                            "return performance.getEntriesByType('resource').filter(e => e.name.endsWith('/hint'))"
                            ".flatMap(e => e.serverTiming.map(t => [t.name, Math.round(t.duration)]))")
                        hinted = True
                        take_turn(browser, url)
                    play_until(browser, url, lambda s: False)
                    if number + 1 < hands:
                        browser.find_element(By.ID, "play-next").click()
                out["bot_turn_ms"] = browser.execute_script("return window.botTimes ?? []")
                out["seconds"] = round(time.perf_counter() - started, 1)

            def review(browser, out: dict) -> None:
                from selenium.webdriver.common.by import By
                from selenium.webdriver.support.ui import Select

                browser.get(url)
                wait_for(browser, lambda b: body_data(b, "ready") == "true")
                browser.find_element(By.CSS_SELECTOR, '.tab[data-view="review-view"]').click()
                box = browser.find_element(By.ID, "review-text")
                browser.execute_script("arguments[0].value = arguments[1]", box, json.dumps(trace_records(1, seed=8)[0]))
                Select(browser.find_element(By.ID, "review-samples")).select_by_value(str(review_samples))
                started = time.perf_counter()
                browser.find_element(By.ID, "review-go").click()
                wait_for(browser, lambda b: body_data(b, "review") == "done", 600)
                out["review_seconds"] = round(time.perf_counter() - started, 1)

            first.get(url)  # the server warms up (the simulator, the bots) before anything is timed
            wait_for(first, lambda b: b.execute_script("return fetch('api/rules').then(r => r.json())")["ready"], 600)
            results: list[dict] = [{}, {}, {}]
            threads = [threading.Thread(target=table, args=(first, 21, results[0])),
                       threading.Thread(target=table, args=(second, 22, results[1])),
                       threading.Thread(target=review, args=(third, results[2]))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for browser in (second, third):  # their hands' reviews stop with their pages: the table is alone
                browser.get("about:blank")
            time.sleep(15)  # a review stops at the end of its chunk of worlds: seconds for a trump or keep
            alone: dict = {}
            table(first, 23, alone)
        def summary(times):
            return {"median": round(statistics.median(times), 1), "max": round(max(times), 1), "turns": len(times)}
        return {
            "together": {"table_1": {**results[0], "bot_turn_ms": summary(results[0]["bot_turn_ms"])},
                         "table_2": {**results[1], "bot_turn_ms": summary(results[1]["bot_turn_ms"])},
                         "review": results[2], "review_samples": review_samples},
            "alone": {**alone, "bot_turn_ms": summary(alone["bot_turn_ms"])},
        }
    finally:
        server.terminate()
        server.wait(timeout=60)


def _spread(times: list[float]) -> dict:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] if ordered else None
    return {"median": statistics.median(ordered) if ordered else None, "p90": p90,
            "max": ordered[-1] if ordered else None, "n": len(ordered)}


def hint_latency(decisions: int, review_samples: int) -> dict:
    """The --hint run (module docstring)."""
    import tempfile
    import time

    from selenium.webdriver.common.by import By
    from web.test_practice_page import open_play, table_id, table_state, take_turn

    from smear_sim.analysis.simulate import trace_records

    paths = browser_paths()
    if isinstance(paths, str):
        sys.exit(f"cannot run: {paths}")
    games = tempfile.mkdtemp(prefix="smear-sim-games-")
    server = subprocess.Popen([sys.executable, "-m", "smear_sim", "serve", "--port", "0", "--games-dir", games],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split(" at ")[1].split()[0]
        with chrome(*paths) as player, chrome(*paths) as reviewer:
            player.get(url)
            wait_for(player, lambda b: b.execute_script("return fetch('api/warmup').then(r => r.json())")["ready"],
                     600)  # the server's warm-up and the hint engine's: nothing timed waits for a compile

            def run(seed: int) -> dict:
                net, search, no_value, decided = [], [], 0, 0
                open_play(player, url, seat=seed % 4, seed=seed)
                while decided < decisions:
                    wait_for(player, lambda b: body_data(b, "play") in ("yours", "over"), 120)
                    if body_data(player, "play") == "over":
                        state = table_state(url, table_id(player))
                        if state["game_over"]:
                            open_play(player, url, seat=seed % 4, seed=seed + 1000 + decided)
                        else:
                            player.find_element(By.ID, "play-next").click()
                            wait_for(player, lambda b: body_data(b, "play") != "over", 60)
                        continue
                    player.find_element(By.ID, "play-hint").click()
                    wait_for(player, lambda b: body_data(b, "hint-ms") is not None, 120)
                    shown = body_data(player, "net-hint-ms")
                    if shown == "none":
                        no_value += 1
                    else:
                        net.append(int(shown))
                    search.append(int(body_data(player, "hint-ms")))
                    decided += 1
                    take_turn(player, url)
                return {"click_to_net_values_ms": _spread(net), "click_to_search_values_ms": _spread(search),
                        "decisions": decided, "no_net_value": no_value}

            alone = run(31)
            stop = threading.Event()
            reviews = []

            def review() -> None:
                from selenium.webdriver.support.ui import Select

                record = json.dumps(trace_records(1, seed=8)[0])
                while not stop.is_set():
                    reviewer.get(url)
                    wait_for(reviewer, lambda b: body_data(b, "ready") == "true")
                    reviewer.find_element(By.CSS_SELECTOR, '.tab[data-view="review-view"]').click()
                    box = reviewer.find_element(By.ID, "review-text")
                    reviewer.execute_script("arguments[0].value = arguments[1]", box, record)
                    Select(reviewer.find_element(By.ID, "review-samples")).select_by_value(str(review_samples))
                    started = time.perf_counter()
                    reviewer.find_element(By.ID, "review-go").click()
                    wait_for(reviewer, lambda b: stop.is_set() or body_data(b, "review") == "done", 900)
                    reviews.append(round(time.perf_counter() - started, 1))

            thread = threading.Thread(target=review)
            thread.start()
            time.sleep(3)  # the review has its turn on the simulator before the first hint
            try:
                busy = run(32)
            finally:
                stop.set()
                thread.join()
        return {"alone": alone, "with_a_review_running": {**busy, "review_samples": review_samples,
                                                          "reviews_seconds": reviews}}
    finally:
        server.terminate()
        server.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soak", action="store_true", help="The soak run (no browser); see the docstring.")
    parser.add_argument("--minutes", type=float, default=3.0, help="How long the soak runs.")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--samples", type=int, default=20_000)
    parser.add_argument("--big", type=int, default=200_000, help="The larger request of two at once.")
    parser.add_argument("--screenshots", type=Path, default=None)
    parser.add_argument("--practice", action="store_true", help="Two practice tables and a review at once.")
    parser.add_argument("--hands", type=int, default=1, help="Hands each practice table plays.")
    parser.add_argument("--review-samples", type=int, default=64, choices=(4, 16, 64, 256))
    parser.add_argument("--hint", action="store_true", help="Click to the net's values on screen, alone and with a "
                        "review running.")
    parser.add_argument("--decisions", type=int, default=60, help="The person's decisions --hint times.")
    args = parser.parse_args()
    if args.hint:
        print(json.dumps(hint_latency(args.decisions, args.review_samples), indent=2))
        return
    if args.practice:
        print(json.dumps(practice(args.hands, args.review_samples), indent=2))
        return
    if args.soak:
        print(json.dumps(soak(args.minutes), indent=2))
        return
    paths = browser_paths()
    if isinstance(paths, str):
        sys.exit(f"cannot run: {paths}")
    server = subprocess.Popen([sys.executable, "-m", "smear_sim", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              text=True)
    try:
        url = server.stdout.readline().split(" at ")[1].split()[0]
        with chrome(*paths) as first, chrome(*paths) as second:
            ask(first, url, EXAMPLE, samples=args.samples)
            first_ms = int(body_data(first, "advice-ms"))
            times = [click_to_advice(first) for _ in range(args.runs)]
            ask(second, url, EXAMPLE, samples=args.samples)
            report = {
                "samples": args.samples,
                "first_ask_ms": first_ms,
                "click_to_advice_ms": {"median": statistics.median(times), "min": min(times), "max": max(times),
                                       "runs": times},
                # Medians over the runs, alternating one browser and two, so that load from elsewhere on the
                # machine falls on both alike.
                **{f"{what}_{n}_samples_ms": value for n in (args.samples, args.big)
                   for what, value in alone_and_together(first, second, n, args.runs).items()},
            }
            ask(first, url, EXAMPLE, samples=args.samples, **SEATED)
            ask(second, url, EXAMPLE, samples=args.samples, **SEATED)
            seated = [click_to_advice(first) for _ in range(args.runs)]
            report["seat_3_after_2_pass_at_15_19"] = {
                "click_to_advice_ms": {"median": statistics.median(seated), "min": min(seated), "max": max(seated),
                                       "runs": seated},
                **{f"{what}_{args.samples}_samples_ms": value
                   for what, value in alone_and_together(first, second, args.samples, args.runs).items()},
            }
            if args.screenshots:
                args.screenshots.mkdir(parents=True, exist_ok=True)
                ask(first, url, EXAMPLE, **SEATED)
                frame = first.execute_script("return window.outerHeight - window.innerHeight")
                first.set_window_size(1280, frame + first.execute_script("return document.documentElement.scrollHeight"))
                first.save_screenshot(str(args.screenshots / "page.png"))
                as_phone(second)
                ask(second, url, EXAMPLE, click=False, **SEATED)
                second.save_screenshot(str(args.screenshots / "page-phone.png"))
        print(json.dumps(report, indent=2))
    finally:
        server.terminate()
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
