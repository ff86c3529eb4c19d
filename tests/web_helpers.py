"""A real server on loopback and a headless Chromium, for the tests and the web benchmark.

Nothing here listens beyond 127.0.0.1, and the browser is started with its background networking off.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import tempfile
import threading
import urllib.request
from collections.abc import Iterator

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


def all_routes(app) -> list:
    """Every route of the app, those of the routers it includes too (FastAPI keeps an included router whole)."""
    found, stack = [], list(app.routes)
    while stack:
        route = stack.pop()
        if hasattr(route, "original_router"):
            stack.extend(route.original_router.routes)
        else:
            found.append(route)
    return found


@contextlib.contextmanager
def running(app) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread on 127.0.0.1 and a free port; yields the page's address."""
    import uvicorn

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)  # clients queue here until the server accepts: no need to wait for it to start
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listener.close()


def post(url: str, body: dict, timeout: float = 120) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def browser_paths() -> tuple[str, str] | str:
    """(chromium, chromedriver), or why they cannot be used."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    chromium = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        return "chromium/chromedriver not installed: apt-get install chromium chromium-driver"
    return chromium, driver


@contextlib.contextmanager
def chrome(chromium: str, driver: str, width: int = 1280, height: int = 1000):
    """A headless Chromium with a fresh profile, driven by selenium."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="smear-sim-chromium-") as profile:
        options = webdriver.ChromeOptions()
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={width},{height}")
        options.binary_location = chromium
        browser = webdriver.Chrome(options=options, service=Service(driver))
        try:
            yield browser
        finally:
            browser.quit()


def wait_for(browser, condition, timeout: float = 120, poll: float = 0.02):
    """``condition(browser)`` once it is true, asked every ``poll`` seconds (selenium's default, half a second,
    would add up to that to each of the hundreds of waits a played hand makes)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout, poll_frequency=poll).until(condition)


def body_data(browser, name: str) -> str | None:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")


def ask(browser, url: str, cards: str, samples: int | None = None, *, click: bool = True,
        seat: int | None = None, calls: tuple[str, ...] = (), score: tuple[int, int] | None = None) -> str:
    """Load the page, pick ``cards`` (by clicking them, or typing), set the seat, the ``calls`` before it and the
    score if given, ask, and wait for the advice; returns it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(url)
    wait_for(browser, lambda b: body_data(b, "ready") == "true")
    if click:
        for card in cards.split():
            browser.find_element(By.CSS_SELECTOR, f'button[data-card="{card}"]').click()
    else:
        browser.find_element(By.ID, "cards").send_keys(cards)
    if seat is not None:
        Select(browser.find_element(By.ID, "position")).select_by_value(str(seat))
        for i, call in enumerate(calls):  # each select offers the calls legal there once the page has asked
            wait_for(browser, lambda b: body_data(b, "calls") == "ready")
            Select(browser.find_element(By.CSS_SELECTOR, f'select[name="call-{i + 1}"]')).select_by_value(call)
        wait_for(browser, lambda b: body_data(b, "calls") == "ready")
    if score is not None:
        for box, value in zip(("score-us", "score-them"), score, strict=True):
            browser.find_element(By.ID, box).send_keys(str(value))
    if samples is not None:
        browser.find_element(By.CSS_SELECTOR, "#options summary").click()
        Select(browser.find_element(By.CSS_SELECTOR, 'select[name="samples"]')).select_by_value(str(samples))
    browser.find_element(By.ID, "advise").click()
    wait_for(browser, lambda b: body_data(b, "advice-ms") is not None or b.find_element(By.ID, "error").is_displayed())
    return browser.find_element(By.ID, "advice").text


def as_phone(browser, width: int = 390, height: int = 844) -> None:
    """Show pages as a phone of ``width`` x ``height`` CSS pixels would (touch, mobile viewport)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})


OVERFLOWING = """
const [selector, width] = arguments;
const root = document.querySelector(selector);
const out = [];
if (root.scrollWidth > root.clientWidth) out.push(`${selector}: scrollWidth ${root.scrollWidth} > ${root.clientWidth}`);
for (const el of [root, ...root.querySelectorAll('*')]) {
  const r = el.getBoundingClientRect();
  if ((r.width || r.height) && (r.left < -0.5 || r.right > width + 0.5)) {
    out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${Math.round(r.left)} to ${Math.round(r.right)}`);
  }
}
return out;
"""


def overflowing(browser, selector: str, width: int = 390) -> list[str]:
    """What under ``selector`` reaches outside ``width`` CSS pixels (a phone's screen), or scrolls sideways."""
    return browser.execute_script(OVERFLOWING, selector, width)


BROKEN = """
const [selector, pattern] = arguments;
const words = new RegExp(pattern, 'g');
const out = [];
const walker = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode;
  for (const m of node.data.matchAll(words)) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (tops.size > 1) out.push(m[0]);
  }
}
return out;
"""


def broken_words(browser, selector: str, pattern: str) -> list[str]:
    """The matches of the regular expression ``pattern`` in the text under ``selector`` that are laid out on more
    than one line."""
    return browser.execute_script(BROKEN, selector, pattern)
