"""The page's latency in a real browser, and two browsers asking at once (run from the repo root).

    python benchmarks/web.py [--runs 9] [--samples 20000] [--big 200000] [--screenshots docs]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--samples", type=int, default=20_000)
    parser.add_argument("--big", type=int, default=200_000, help="The larger request of two at once.")
    parser.add_argument("--screenshots", type=Path, default=None)
    args = parser.parse_args()
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
