"""The page in a real browser: headless Chromium through selenium, against a live server on 127.0.0.1.

Skipped, with the reason, where Chromium, chromedriver or selenium is missing (.ci/run installs them with
apt-get where it can).
"""

from __future__ import annotations

import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from web_helpers import as_phone, ask, body_data, overflowing, post, running, wait_for

from smear_sim.core.count import KIND_LABELS, KINDS, load_counts
from smear_sim.web.server import create_app

EXAMPLE = "AH KH 2H JD 10C 5S 9S 4D 3C"
RESULTS = Path(__file__).parents[2] / "results"


@pytest.fixture(scope="module")
def url():
    """The page's address, once the server has warmed up: a question asked before is answered 503 and asked again,
    which the browser logs as an error."""
    app = create_app(results=RESULTS)
    with running(app) as address:
        urllib.request.urlopen(address + "api/rules").read()  # answered once the server has started its warm-up
        assert app.state.ready.wait(600)
        yield address


def advised_call(data: dict) -> str:
    """The call the page should advise for an analysis: the one most likely to win the game."""
    if "recommended_call" in data:
        return str(data["recommended_call"])
    return "moon" if data["game"]["moon_pays"] else str(data["game"]["best_bid"])


def test_pick_nine_cards_by_clicking_and_read_the_advice(browser, url, tmp_path):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 1000)
    headline = ask(browser, url, EXAMPLE, samples=20_000)
    status, expected = post(url + "api/hand", {"cards": EXAMPLE, "samples": 20_000, "seed": 1})
    assert status == 200
    advice = browser.find_element(By.ID, "advice")
    assert advice.get_attribute("data-call") == advised_call(expected)
    best = next(b for b in expected["bids"] if str(b["bid"]) == advised_call(expected))
    assert headline.startswith(f"Bid {best['bid']}: wins the game {round(100 * best['win'])}% of the time, EV +")
    assert "20,000 deals simulated" in browser.find_element(By.ID, "meta").text
    assert " ± " in browser.find_element(By.ID, "bids-table").text  # standard errors shown
    for chart in ("chart-win", "chart-make", "chart-points", "chart-moon"):
        assert browser.find_elements(By.CSS_SELECTOR, f"#{chart} rect"), chart
    assert browser.get_log("browser") == []  # no script errors
    browser.save_screenshot(str(tmp_path / "advice-desktop.png"))


def test_typed_cards_and_a_phone_sized_screen(browser, url, tmp_path):
    from selenium.webdriver.common.by import By

    as_phone(browser)
    try:
        ask(browser, url, "ah,kh 2♥ JD tc 5s 9♠ 4d 3c", click=False)
        assert browser.find_element(By.ID, "hand-status").text.startswith("Your hand: A♥ K♥ 2♥ J♦ 10♣")
        assert len(browser.find_elements(By.CSS_SELECTOR, '.card[aria-pressed="true"]')) == 9
        assert browser.find_element(By.ID, "advice").get_attribute("data-call") == advised_call(
            post(url + "api/hand", {"cards": EXAMPLE})[1])
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        browser.save_screenshot(str(tmp_path / "advice-phone.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_seat_calls_and_score_give_the_call_most_likely_to_win(browser, url, tmp_path):
    """Seat 3 after 2 and a pass, at 15-19: the page reads the recommended call from the server's analysis."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 1200)
    headline = ask(browser, url, EXAMPLE, samples=20_000, seat=3, calls=("2", "pass"), score=(15, 19))
    status, expected = post(url + "api/hand", {"cards": EXAMPLE, "samples": 20_000, "position": 3,
                                               "auction": [2, "pass"], "score": [15, 19]})
    assert status == 200
    call = advised_call(expected)
    assert browser.find_element(By.ID, "advice").get_attribute("data-call") == call
    best = next(c for c in expected["calls"] if str(c["call"]) == call)
    assert f"wins the game {round(100 * best['win'])}% of the time" in headline
    assert " ± " in browser.find_element(By.ID, "calls-table").text  # every call's P(win) with its error
    assert "fit the calls before you" in browser.find_element(By.ID, "meta").text
    assert "At 15–19, shooting the moon" in browser.find_element(By.ID, "moon-verdict").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart-win rect")) == len(expected["calls"])
    # the chance of making each bid, for the bids that are calls here: after a 2, no bid 2
    labels = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#chart-make text")]
    legal = [f"bid {c['call']}" if c["call"] != "moon" else "moon" for c in expected["calls"] if c["call"] != "pass"]
    assert [label for label in labels if label.startswith("bid ") or label == "moon"] == legal
    assert "bid 2" not in labels
    assert browser.get_log("browser") == []
    browser.save_screenshot(str(tmp_path / "advice-seat.png"))


def test_the_hand_form_fits_a_phone(browser, url, tmp_path):
    """At 390 x 844 nothing of the Your hand form reaches past the screen's edge: the Seat menu, whose longest choice
    once widened its box to 429 px, the calls before the seat, and the options."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    as_phone(browser)
    try:
        browser.get(url)
        wait_for(browser, lambda b: body_data(b, "ready") == "true")
        assert overflowing(browser, "#hand-form") == []
        for seat in ("1", "4", ""):  # the most calls before the seat, then the longest choice shown
            Select(browser.find_element(By.ID, "position")).select_by_value(seat)
            wait_for(browser, lambda b: body_data(b, "calls") == "ready")
            assert overflowing(browser, "#hand-form") == [], seat
        browser.find_element(By.CSS_SELECTOR, "#options summary").click()
        assert overflowing(browser, "#hand-form") == []
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        browser.execute_script("document.getElementById('game').scrollIntoView()")
        browser.save_screenshot(str(tmp_path / "hand-form-phone.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_preset_sets_the_rule_options_it_names_and_the_others_back_to_their_defaults(browser, url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(url)
    wait_for(browser, lambda b: body_data(b, "ready") == "true")
    browser.find_element(By.CSS_SELECTOR, "#options summary").click()
    rule = 'return document.querySelector(\'#options-body [data-rule="{}"]\').{}'
    preset = Select(browser.find_element(By.CSS_SELECTOR, '#options-body select[name="preset"]'))
    assert [o.get_attribute("value") for o in preset.options] == ["minnesota", "minnesota-round-points"]
    browser.execute_script(rule.format("target", "value = '15'"))
    preset.select_by_value("minnesota-round-points")
    assert browser.execute_script(rule.format("round_points", "checked")) is True
    assert browser.execute_script(rule.format("target", "value")) == "21"  # left by the preset: its default
    preset.select_by_value("minnesota")
    assert browser.execute_script(rule.format("round_points", "checked")) is False
    rules = Select(browser.find_element(By.ID, "play-rules"))  # the practice table offers the same presets
    assert [o.get_attribute("value") for o in rules.options] == ["minnesota", "minnesota-round-points"]


def test_bad_cards_show_the_server_message(browser, url):
    from selenium.webdriver.common.by import By

    ask(browser, url, "AH KH 2H JD 10C 5S 9S 4D ZZ", click=False)
    assert "Not a card: ZZ" in browser.find_element(By.ID, "hand-status").text
    error = browser.find_element(By.ID, "error")
    assert error.is_displayed() and error.text.startswith("unknown card 'ZZ'")


def test_the_bid_tables_view(browser, url):
    from selenium.webdriver.common.by import By

    browser.get(url)
    wait_for(browser, lambda b: body_data(b, "ready") == "true")
    browser.find_element(By.CSS_SELECTOR, '.tab[data-view="tables-view"]').click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#bid-table tbody tr"))
    assert "10,000,000 random deals" in browser.find_element(By.ID, "tables-source").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#heatmap rect")) > 50  # trumps x top cells
    assert browser.find_elements(By.CSS_SELECTOR, "#moon-table tbody tr")


@contextmanager
def tables_view(browser, results):
    """The page served from ``results``, ready, with its Tables view open (the browser's log emptied first)."""
    from selenium.webdriver.common.by import By

    browser.get_log("browser")  # what earlier tests left there
    with running(create_app(results=results, warm_up=False)) as address:
        browser.get(address)
        wait_for(browser, lambda b: body_data(b, "ready") == "true")
        browser.find_element(By.CSS_SELECTOR, '.tab[data-view="tables-view"]').click()
        yield


def test_the_tables_view_by_seat_and_the_match_equity(browser, small_results):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    with tables_view(browser, small_results):
        wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#positions-table tbody tr"))
        Select(browser.find_element(By.ID, "position-place")).select_by_visible_text("dealer")
        assert "at 3–5" in browser.find_element(By.ID, "positions-source").text
        assert browser.find_element(By.CSS_SELECTOR, "#positions-table thead").text.startswith("strength")
        assert len(browser.find_elements(By.CSS_SELECTOR, "#equity rect")) == 31 * 31  # scores -10 to 20
        assert not browser.find_element(By.ID, "bid-panel").is_displayed()  # no bid table in this folder
        assert not browser.find_element(By.ID, "count-panel").is_displayed()  # nor a count for its rules
        assert browser.get_log("browser") == []


def test_the_tables_view_offers_each_rule_set(browser, variant_results):
    """A results folder with a report under round points in round-points/: the Tables view offers both rule sets,
    and each shows its own bid table (bids up to 4, or up to 7)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    def source(b) -> str:
        return b.find_element(By.ID, "tables-source").text

    def headers(b) -> str:
        return b.find_element(By.CSS_SELECTOR, "#bid-table thead").text

    with tables_view(browser, variant_results):
        wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#bid-table tbody tr"))
        assert browser.find_element(By.ID, "variant-choice").is_displayed()
        rules = Select(browser.find_element(By.ID, "table-variant"))
        assert [o.text for o in rules.options] == ["default rules", "round points"]
        assert "rules: the defaults" in source(browser) and "P(make 4)" in headers(browser)
        assert "P(make 5)" not in headers(browser)
        counts = load_counts()

        def weights(b) -> list[str]:
            return [r.text for r in b.find_elements(By.CSS_SELECTOR, "#count-weights tbody tr")]

        def shown(rule) -> list[str]:
            return [f"{KIND_LABELS[k]} {w}" for k, w in zip(KINDS, rule.weights, strict=True) if w]

        assert browser.find_element(By.ID, "count-panel").is_displayed()
        assert weights(browser) == shown(counts["default"])
        start = counts["default"].meta["accuracy_0_0"]
        every = browser.find_elements(By.CSS_SELECTOR, "#count-accuracy tbody tr")[0].text
        assert every.startswith(f"every place {100 * counts['default'].meta['accuracy']['agree']:.1f}% "
                                f"{100 * start['agree']:.1f}%")
        assert browser.find_element(By.CSS_SELECTOR, "#count-needs tbody tr").text.startswith("opener none 3: ")
        rules.select_by_visible_text("round points")
        wait_for(browser, lambda b: "round_points=true" in source(b))
        assert weights(browser) == shown(counts["round_points"])
        assert "P(make 7)" in headers(browser) and "5,000 random deals" in source(browser)
        values = [o.text for o in Select(browser.find_element(By.ID, "table-value")).options]
        assert "P(make 7)" in values
        assert len(browser.find_elements(By.CSS_SELECTOR, "#heatmap rect")) > 10
        rules.select_by_visible_text("default rules")
        wait_for(browser, lambda b: "rules: the defaults" in source(b))
        assert "P(make 7)" not in [o.text for o in Select(browser.find_element(By.ID, "table-value")).options]
        assert browser.get_log("browser") == []
