"""The practice table and the review view in a real browser (headless Chromium through selenium): a whole hand played
by clicking with a hint asked, its review, a reload in the middle of a hand that finds the table again, a second hand
with the score carried, and the saved game opened in the review view. Small hint and review samples keep it quick.

Skipped, with the reason, where Chromium, chromedriver or selenium is missing.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

import pytest
from web_helpers import as_phone, body_data, broken_words, overflowing, post, running, wait_for

from smear_sim.web.server import create_app

DOCS = Path(__file__).parents[2] / "docs"


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    return tmp_path_factory.mktemp("games")


@pytest.fixture(scope="module")
def url(games):
    app = create_app(results=None, games_dir=games)
    with running(app) as address:
        assert app.state.ready.wait(600)  # the warm-up
        yield address


def table_state(url: str, table_id: str) -> dict:
    return json.loads(urllib.request.urlopen(f"{url}api/table/{table_id}").read())


def table_id(browser) -> str:
    return browser.execute_script("return new URL(location.href).searchParams.get('table')")


def open_play(browser, url, seat: int, seed: int, rules: str | None = None, bots: str | None = None) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(url)
    wait_for(browser, lambda b: body_data(b, "ready") == "true")
    browser.find_element(By.CSS_SELECTOR, '.tab[data-view="play-view"]').click()
    details = browser.find_element(By.ID, "play-setup-details")
    if not details.get_attribute("open"):
        details.find_element(By.TAG_NAME, "summary").click()
    Select(browser.find_element(By.ID, "play-seat")).select_by_value(str(seat))
    if rules is not None:
        Select(browser.find_element(By.ID, "play-rules")).select_by_value(rules)
    if bots is not None:
        Select(browser.find_element(By.ID, "play-bots")).select_by_value(bots)
    Select(browser.find_element(By.ID, "play-delay")).select_by_value("0")
    Select(browser.find_element(By.ID, "play-hint-samples")).select_by_value("100")
    Select(browser.find_element(By.ID, "play-review-samples")).select_by_value("4")
    browser.find_element(By.ID, "play-seed").send_keys(str(seed))
    before = browser.execute_script("return localStorage.getItem('smear-sim-table')")  # a table found again
    browser.find_element(By.ID, "play-new").click()
    wait_for(browser, lambda b: table_id(b) not in (None, before))  # the new table drawn, not the one before


def take_turn(browser, url: str) -> None:
    """Make the person's decision by clicking: the first call or suit offered, the keep the server lists first, the
    first card lit."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By

    state = table_state(url, table_id(browser))
    assert state["turn"]["yours"]
    decision = state["turn"]["decision"]
    if decision in ("call", "trump"):
        buttons = browser.find_elements(By.CSS_SELECTOR, "#play-actions button.action")
        assert [b.get_attribute("data-action") for b in buttons] == [str(a) for a in state["legal"]]
        buttons[0].click()
    elif decision == "keep":
        wanted = set(state["legal"][0])
        names = [b.get_attribute("data-card") for b in browser.find_elements(By.CSS_SELECTOR, "#play-hand .card")]
        for card in names:  # each click draws the hand again: find the card afresh
            button = browser.find_element(By.CSS_SELECTOR, f'#play-hand button[data-card="{card}"]')
            if (button.get_attribute("aria-pressed") == "true") != (card in wanted):
                button.click()
        browser.find_element(By.ID, "play-keep").click()
    else:
        lit = [b for b in browser.find_elements(By.CSS_SELECTOR, "#play-hand button.card") if b.is_enabled()]
        assert sorted(b.get_attribute("data-card") for b in lit) == sorted(state["legal"])
        lit[0].click()
    try:
        wait_for(browser, lambda b: body_data(b, "table-step") != str(state["step"]), 60)
    except TimeoutException:  # say what the page and the server showed (this wait timed out once, under load)
        error = browser.find_element(By.ID, "play-error").text
        now = table_state(url, table_id(browser))
        raise AssertionError(f"the {decision} did not move the table from step {state['step']} in 60 s: the page "
                             f"shows step {body_data(browser, 'table-step')}, play {body_data(browser, 'play')!r}, "
                             f"error {error!r}; the server is at step {now['step']}, turn {now['turn']}") from None


def play_until(browser, url: str, stop) -> None:
    """Click through the person's decisions (the bots move by themselves) until ``stop(state)`` or the hand ends."""
    while True:
        wait_for(browser, lambda b: body_data(b, "play") in ("yours", "over"), 60)
        if body_data(browser, "play") == "over" or stop(table_state(url, table_id(browser))):
            return
        take_turn(browser, url)


def test_play_a_game_by_clicking_with_hints_reviews_a_reload_and_the_saved_game(browser, url, games):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(1280, 1000)
    open_play(browser, url, seat=1, seed=12)
    wait_for(browser, lambda b: table_id(b) is not None)
    first_id = table_id(browser)

    # hand 1: a hint at the first card of the person's, then to the end
    play_until(browser, url, lambda s: s["turn"]["decision"] == "card")
    if body_data(browser, "play") == "yours":
        browser.find_element(By.ID, "play-hint").click()
        wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-hint-table tbody tr"), 60)
        state = table_state(url, first_id)
        rows = browser.find_elements(By.CSS_SELECTOR, "#play-hint-table tbody tr")
        assert sorted(json.loads(r.get_attribute("data-action")) for r in rows) == sorted(state["legal"])
        assert "best" in rows[0].text
    play_until(browser, url, lambda s: False)
    wait_for(browser, lambda b: body_data(b, "hand-review") == "done", 300)
    first = table_state(url, first_id)
    assert first["hand_over"] and first["saved"]
    assert "Saved as " + first["saved"] in browser.find_element(By.ID, "play-saved").text
    assert browser.find_elements(By.CSS_SELECTOR, "#play-review .review-tricks tbody tr")  # trick by trick
    assert browser.find_elements(By.CSS_SELECTOR, "#play-review #review-totals tbody tr")
    team = 1 % 2
    assert f"your team {first['scores'][team]}, theirs {first['scores'][1 - team]}" in \
        browser.find_element(By.ID, "play-result").text

    # hand 2: the score carried and the deal passed left; a reload in the middle finds the table again
    browser.find_element(By.ID, "play-next").click()
    wait_for(browser, lambda b: table_state(url, first_id)["hand_number"] == 2)
    second = table_state(url, first_id)
    assert second["scores_before"] == first["scores"] and second["dealer"] == 0
    assert f"your team {first['scores'][team]}, theirs {first['scores'][1 - team]}" in \
        browser.find_element(By.ID, "play-status").text
    play_until(browser, url, lambda s: len(s["bids"]) == 4 or s["turn"]["decision"] != "call")
    wait_for(browser, lambda b: body_data(b, "play") in ("yours", "over"), 60)
    before = table_state(url, first_id)
    browser.refresh()
    wait_for(browser, lambda b: body_data(b, "ready") == "true")
    wait_for(browser, lambda b: body_data(b, "table-step") is not None)
    assert table_id(browser) == first_id
    assert not browser.find_element(By.ID, "play-view").get_attribute("hidden")
    assert table_state(url, first_id)["step"] >= before["step"]
    play_until(browser, url, lambda s: False)
    wait_for(browser, lambda b: body_data(b, "hand-review") == "done", 300)
    saved = json.loads((games / first["saved"]).read_text())
    assert len(saved["deals"]) == 2

    # the saved game in the review view
    browser.find_element(By.CSS_SELECTOR, '.tab[data-view="review-view"]').click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, f'#review-games option[value="{first["saved"]}"]'))
    Select(browser.find_element(By.ID, "review-games")).select_by_value(first["saved"])
    Select(browser.find_element(By.ID, "review-samples")).select_by_value("4")
    Select(browser.find_element(By.ID, "review-kinds")).select_by_value("card")  # quicker: the cards only
    browser.find_element(By.ID, "review-open").click()
    wait_for(browser, lambda b: body_data(b, "review") == "done", 300)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#review-out .review-hand")) == 2
    assert browser.find_elements(By.CSS_SELECTOR, "#review-luck tbody tr")
    assert browser.get_log("browser") == []  # no script errors


def test_a_pasted_hand_record_is_reviewed_and_bad_input_says_why(browser, url, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from smear_sim.analysis.simulate import trace_records

    browser.get(url)
    wait_for(browser, lambda b: body_data(b, "ready") == "true")
    browser.find_element(By.CSS_SELECTOR, '.tab[data-view="review-view"]').click()
    box = browser.find_element(By.ID, "review-text")
    trace = tmp_path / "trace.jsonl"  # an uploaded file fills the box, to be reviewed as pasted text is
    trace.write_text("".join(json.dumps(r) + "\n" for r in trace_records(2, seed=8)))
    browser.find_element(By.ID, "review-file").send_keys(str(trace))
    wait_for(browser, lambda b: b.find_element(By.ID, "review-text").get_attribute("value") == trace.read_text())
    box.clear()
    box.send_keys('{"dealer": 9}')
    browser.find_element(By.ID, "review-go").click()
    wait_for(browser, lambda b: body_data(b, "review") == "error")
    assert "dealer must be a seat" in browser.find_element(By.ID, "review-error").text
    box.clear()
    browser.execute_script("arguments[0].value = arguments[1]", box, json.dumps(trace_records(1, seed=8)[0]))
    Select(browser.find_element(By.ID, "review-samples")).select_by_value("4")
    Select(browser.find_element(By.ID, "review-kinds")).select_by_value("card")
    browser.find_element(By.ID, "review-go").click()
    wait_for(browser, lambda b: body_data(b, "review") == "done", 300)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#review-out .review-tricks tbody tr")) == 6


def test_practice_table_screenshots_phone_and_desktop(browser, url, tmp_path):
    """The table at 390 x 844 (a phone) fits without sideways scrolling. With SMEAR_SIM_SCREENSHOTS=1 the two
    screenshots replace docs/practice.png and docs/practice-phone.png (the README shows them)."""
    from selenium.webdriver.common.by import By

    folder = DOCS if os.environ.get("SMEAR_SIM_SCREENSHOTS") == "1" else tmp_path
    browser.set_window_size(1280, 1000)
    open_play(browser, url, seat=0, seed=5)
    play_until(browser, url, lambda s: s["turn"]["decision"] == "card" and len(s["tricks"]) >= 1)
    browser.find_element(By.ID, "play-hint").click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-hint-table tbody tr"), 60)
    browser.save_screenshot(str(folder / "practice.png"))
    as_phone(browser)
    try:
        browser.refresh()
        wait_for(browser, lambda b: body_data(b, "play") == "yours", 60)
        assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        browser.execute_script("document.getElementById('play-table').scrollIntoView()")
        browser.save_screenshot(str(folder / "practice-phone.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


FAKE_BAD_HINT = """
const real = window.fetch;
window.fetch = (input, init) => {
  if (String(input).endsWith('/hint') && String(init?.body ?? '').includes('"action"')) {
    const action = JSON.parse(init.body).action;
    const body = {best: 'AS', actions: [], costs: [], taken: {action, mark: 'bad', win: 0.03, points: 1.2}};
    return Promise.resolve(new Response(JSON.stringify(body), {headers: {'Content-Type': 'application/json'}}));
  }
  return real(input, init);
};
"""


def test_tutor_warns_before_a_bad_action_and_lets_it_be_taken_back(browser, url):
    """Tutor mode asks the hint for the action first; marked bad (the hint's answer is stood in for here, as no deal
    is sure to offer a bad card), it warns: Take it back sends nothing, Play it anyway sends the action."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 1000)
    open_play(browser, url, seat=0, seed=5)
    play_until(browser, url, lambda s: s["turn"]["decision"] == "card")
    browser.execute_script("document.getElementById('play-tutor').checked = true;" + FAKE_BAD_HINT)
    before = table_state(url, table_id(browser))

    def lit():
        return [b for b in browser.find_elements(By.CSS_SELECTOR, "#play-hand button.card") if b.is_enabled()][0]

    lit().click()
    wait_for(browser, lambda b: body_data(b, "tutor") == "warned", 60)
    assert "is bad here" in browser.find_element(By.ID, "play-tutor-text").text
    browser.find_element(By.ID, "play-take-back").click()
    assert body_data(browser, "tutor") == "taken back"
    assert table_state(url, table_id(browser)) == before  # nothing was sent
    lit().click()
    wait_for(browser, lambda b: body_data(b, "tutor") == "warned", 60)
    browser.find_element(By.ID, "play-anyway").click()
    wait_for(browser, lambda b: table_state(url, table_id(b))["step"] > before["step"], 60)
    assert not browser.find_element(By.ID, "play-tutor-box").is_displayed()


def test_a_deal_played_again_and_from_another_seat_under_round_points(browser, url):
    """A table under round points (the Play view's Rules): once its hand is over, "Play this deal again" opens a new
    table with the same cards at the same seat, and "Same deal, seat" with the hand the chosen seat was dealt; both
    keep the first table's bots and rules."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from smear_sim.core.cards import card_name
    from smear_sim.web.practice import deal

    browser.set_window_size(1280, 1000)
    open_play(browser, url, seat=0, seed=31, rules="minnesota-round-points", bots="count")
    first_id = table_id(browser)
    first = table_state(url, first_id)
    assert first["rules"] == {"round_points": True} and first["bots"] == "count"
    assert "Round points." in browser.find_element(By.ID, "play-status").text
    play_until(browser, url, lambda s: False)
    wait_for(browser, lambda b: body_data(b, "hand-review") == "done", 300)  # the hand's review, as a person waits
    dealt, _ = deal(first["deal_seed"])

    def replayed(seat: int) -> dict:
        wait_for(browser, lambda b: table_id(b) not in (None, first_id))
        state = table_state(url, table_id(browser))
        assert (state["seat"], state["deal_seed"], state["bots"], state["rules"]) == \
            (seat, first["deal_seed"], "count", {"round_points": True})
        assert sorted(state["hand"]) == sorted(card_name(c) for c in dealt[seat])
        return state

    browser.find_element(By.ID, "play-again").click()
    assert replayed(0)["hand"] == first["hand"]
    browser.get(f"{url}?table={first_id}")  # back to the first table, its hand over
    wait_for(browser, lambda b: body_data(b, "play") == "over", 60)
    wait_for(browser, lambda b: body_data(b, "hand-review") == "done", 300)
    Select(browser.find_element(By.ID, "play-switch")).select_by_value("2")
    browser.find_element(By.ID, "play-other-seat").click()
    replayed(2)
    assert browser.get_log("browser") == []


def test_a_new_table_takes_its_first_click_while_the_last_tables_bots_wait(browser, url):
    """A table opened while the last one's bots wait out their delay takes the person's first click at once, and the
    last table's bots do not put it back in view. (Before, the old bots' loop kept the page busy and the click was
    dropped: a table opened after a reload, beside the table found again, could not be played.)"""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.set_window_size(1280, 1000)
    open_play(browser, url, seat=0, seed=31)
    play_until(browser, url, lambda s: True)  # the person's first decision
    details = browser.find_element(By.ID, "play-setup-details")
    if not details.get_attribute("open"):
        details.find_element(By.TAG_NAME, "summary").click()
    Select(browser.find_element(By.ID, "play-delay")).select_by_value("1500")
    take_turn(browser, url)  # now the bots wait 1.5 s before each of their turns
    first_id = table_id(browser)
    assert not table_state(url, first_id)["turn"]["yours"]

    seed = browser.find_element(By.ID, "play-seed")
    seed.clear()
    seed.send_keys("31")
    browser.find_element(By.ID, "play-new").click()
    wait_for(browser, lambda b: table_id(b) != first_id, 30)
    second_id = table_id(browser)
    assert table_state(url, second_id)["turn"]["yours"] and body_data(browser, "play") == "yours"
    browser.find_element(By.CSS_SELECTOR, "#play-actions button.action").click()
    wait_for(browser, lambda b: table_state(url, second_id)["step"] > 0, 10)
    time.sleep(2)  # the first table's bots wake meanwhile
    assert table_id(browser) == second_id
    assert body_data(browser, "table-step") == str(table_state(url, second_id)["step"])


# A seat's name as the table shows it ("Partner (seat 0)"), and trump with its suit.
NAMES = r"(You|Left|Partner|Right)[\s\u00a0]\(seat[\s\u00a0]\d\)|Trump[\s\u00a0]\S+"


def test_the_table_on_a_phone_breaks_no_name(browser, url):
    """At 390 x 844, with the last trick still on the felt (the person won it and leads): no seat's name, nor
    "Trump ♥", is split over two lines (once "Partner (seat / 0)", and "Trump ♥ · trick 4 to You (seat 2)" over four
    lines in the middle of the felt), and nothing of the table reaches past the screen's edge."""
    from selenium.webdriver.common.by import By

    status, state = post(url + "api/table", {"seat": 2, "seed": 1})
    assert status == 200, state
    while not (state["turn"]["yours"] and state["turn"]["decision"] == "card" and state["tricks"]
               and not state["trick"]["cards"]):
        assert not state["hand_over"]
        move = ("act", {"action": state["legal"][0]}) if state["turn"]["yours"] else ("bot", {})
        status, state = post(f"{url}api/table/{state['id']}/{move[0]}", {**move[1], "step": state["step"]})
        assert status == 200, state
    as_phone(browser)
    try:
        browser.get(f"{url}?table={state['id']}")
        wait_for(browser, lambda b: body_data(b, "play") == "yours", 60)
        badge = browser.find_element(By.ID, "play-trump").text
        assert badge.startswith("Trump") and f"trick {len(state['tricks'])} to You" in badge
        assert broken_words(browser, "#play-table", NAMES) == []
        assert len(browser.execute_script(
            f"return document.getElementById('play-table').innerText.match(/{NAMES}/g)")) >= 5
        assert overflowing(browser, "#play-table") == []
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_tutor_setting_is_kept_across_a_reload(browser, url):
    from selenium.webdriver.common.by import By

    def tutor():
        browser.get(url)
        wait_for(browser, lambda b: body_data(b, "ready") == "true")
        return browser.find_element(By.ID, "play-tutor")

    box = tutor()
    assert not box.is_selected()
    browser.execute_script("arguments[0].click()", box)  # as a click: checked, and its change heard
    try:
        assert tutor().is_selected()
    finally:
        box = tutor()
        if box.is_selected():
            browser.execute_script("arguments[0].click()", box)
    assert not tutor().is_selected()


RENDER_LUCK = """
const done = arguments[arguments.length - 1];
import('./review.js').then((m) => {
  const out = document.createElement('div');
  m.renderReview(out, {hands: []}, {decisions: [], seats: [], teams: [], samples: 4, seed: 1,
    luck: {teams: [{team: 0, points: -1.2, points_se: 0, win: -0.097, win_se: 0},
                   {team: 1, points: 1.2, points_se: 0.35, win: 0.097, win_se: 0.012}]}});
  done([...out.querySelectorAll('#review-luck tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)));
});
"""


def test_luck_without_a_standard_error_shows_none(browser, url):
    """A luck whose standard error is 0 shows its value alone (once "-9.7% ± 0.0%"); one with an error shows it."""
    browser.get(url)
    wait_for(browser, lambda b: body_data(b, "ready") == "true")
    assert browser.execute_async_script(RENDER_LUCK) == [["Team 0", "-1.20", "-9.7%"],
                                                        ["Team 1", "1.20 ± 0.35", "9.7% ± 1.2%"]]


HELD_SEARCH = """
const real = window.fetch;
window.releaseSearch = null;
const held = new Promise((resolve) => { window.releaseSearch = resolve; });
window.fetch = (input, init) => {
  const body = String(init?.body ?? '');
  if (String(input).endsWith('/hint') && !body.includes('"evaluator"')) return held.then(() => real(input, init));
  return real(input, init);
};
"""


def test_a_hint_shows_the_nets_values_first_then_the_searchs_beside_them(browser, url):
    """The net's table (Net P(win)) is drawn while the search's request is still out (held back here), then the
    search's table replaces it with the net's value of each action beside the search's; net is among the bots."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 1000)
    open_play(browser, url, seat=0, seed=5)
    offered = [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#play-bots option")]
    assert "net" in offered and offered.index("net") < offered.index("expert:8")
    play_until(browser, url, lambda s: s["turn"]["decision"] == "card")
    state = table_state(url, table_id(browser))
    browser.execute_script(HELD_SEARCH)
    browser.find_element(By.ID, "play-hint").click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-hint-net tbody tr"), 60)
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#play-hint-net th")]
    assert heads[:2] == ["Action", "Net P(win)"] and not browser.find_elements(By.ID, "play-hint-table")
    rows = browser.find_elements(By.CSS_SELECTOR, "#play-hint-net tbody tr")
    assert sorted(json.loads(r.get_attribute("data-action")) for r in rows) == sorted(state["legal"])
    assert int(body_data(browser, "net-hint-ms")) >= 0 and body_data(browser, "hint-ms") is None
    browser.execute_script("window.releaseSearch()")
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-hint-table tbody tr"), 60)
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#play-hint-table th")]
    assert heads == ["Action", "P(win)", "Points", "Cost", "Mark", "Net P(win)"]
    net = browser.execute_script("return [...document.querySelectorAll('#play-hint-table tbody tr')]"
                                 ".map((r) => r.querySelector('td.net')?.textContent)")
    assert net and all(text.endswith("%") for text in net), net
    browser.refresh()  # the fetch stood in for goes with the page
