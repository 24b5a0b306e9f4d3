"""The table side on a 412x900 phone: a game entered while the Wi-Fi is down waits on the
phone and arrives once when it returns (also when the first answer was lost on the way);
the timer's timeout button stays in view, the timer survives a reload, signals at 10 s and
at 0 (muted on request), holds the screen on while running, and undoes a mistaken
timeout."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Penalty, Result
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORT_HEIGHT = 900
# offline.js retries every 5 s; a retry and the page it opens fit well within this.
RETRY_WAIT_MS = 15_000


def fill_game_1(page) -> None:
    game1 = page.locator("#game-1")
    game1.get_by_label("Rummikub (a rack emptied)").check()
    game1.get_by_label("Winner").select_option(label="Player 1 (seat 1)")
    game1.get_by_label("Player 2 — tiles").fill("R4 B10 K2")
    game1.get_by_label("Player 3 — tiles").fill("J 7")


@pytest.fixture
def table_page(new_page, alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=3, name="Wobbly Wifi")
    open_round(tournament, alice)
    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(f"/t/{tournament.slug}/rounds/1/tables/1/")
    return page


def test_a_game_entered_offline_waits_on_the_phone_and_arrives_once(table_page):
    page = table_page
    fill_game_1(page)
    page.context.set_offline(True)
    page.locator("#game-1").get_by_role("button", name="Save game 1").click()
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("waiting to send")
    expect(outbox).to_be_in_viewport()
    assert page.evaluate("JSON.parse(localStorage.getItem('rummitab-outbox')).length") == 1
    assert Result.objects.count() == 0

    page.context.set_offline(False)
    expect(page.get_by_text("Game 1: version 1 saved and confirmed.")).to_be_visible(
        timeout=RETRY_WAIT_MS
    )
    assert page.evaluate("localStorage.getItem('rummitab-outbox')") is None
    result = Result.objects.get()
    assert result.version == 1 and re.fullmatch(r"[0-9a-f-]{36}", result.idempotency_key)
    page.reload()  # nothing left to send, nothing sent again
    expect(page.locator("#outbox")).to_have_count(0)
    assert Result.objects.count() == 1


def test_a_lost_answer_is_sent_again_and_still_lands_once(table_page):
    """The server stores the game but its answer never reaches the phone: the phone keeps
    the game and sends it again; the idempotency key makes the second one the same."""
    page = table_page
    url = page.url

    def this_table(address: str) -> bool:  # the form posts to ?game=N
        return address.split("?")[0] == url

    def lose_the_answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        route.fetch()  # the server gets it and answers ...
        route.abort("connectionreset")  # ... and the answer is lost

    page.route(this_table, lose_the_answer)
    fill_game_1(page)
    page.locator("#game-1").get_by_role("button", name="Save game 1").click()
    expect(page.locator("#outbox")).to_contain_text("waiting to send")
    assert Result.objects.count() == 1  # it did land
    page.unroute(this_table)
    # The retry (every few seconds) is answered from the key: "saved already".
    expect(page.get_by_text("Game 1: version 1 was saved already")).to_be_visible(
        timeout=RETRY_WAIT_MS
    )
    assert Result.objects.count() == 1


# --- the timer ------------------------------------------------------------------------------

SIGNALS = """
window.__vibrations = [];
navigator.vibrate = function (pattern) { window.__vibrations.push(pattern); return true; };
window.__locks = { requested: 0, released: 0 };
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: function () {
    window.__locks.requested += 1;
    return Promise.resolve({
      release: function () { window.__locks.released += 1; return Promise.resolve(); },
      addEventListener: function () {}
    });
  }
}});
"""


@pytest.fixture
def timer(new_page, alice, bob):
    def make(turn_seconds: int):
        tournament = make_tournament(
            alice,
            scorekeepers=[bob],
            players=4,
            name=f"Clock {turn_seconds}",
            rules={"turn_seconds": turn_seconds},
        )
        open_round(tournament, alice)
        page = new_page()
        page.add_init_script(SIGNALS)
        sign_in(page, "bob", "bob-pass-123")
        return page, f"/t/{tournament.slug}/rounds/1/tables/1/timer/"

    return make


def wait_until(page, expression: str, timeout_s: float = 5.0) -> None:
    """Poll a JS expression (wait_for_function would eval() it, which the CSP forbids)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"never true: {expression}")
        page.wait_for_timeout(50)


def inside_viewport(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= VIEWPORT_HEIGHT


def test_the_timeout_button_stays_in_view(timer):
    page, url = timer(60)
    page.goto(url)
    assert inside_viewport(page, "#timer-timeout-button")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert inside_viewport(page, "#timer-timeout-button")
    # The bar covers nothing: the last line of the page ends above it.
    help_bottom = page.evaluate(
        "(() => { const r = document.querySelector('#timer .help').getBoundingClientRect();"
        " return r.bottom; })()"
    )
    bar_top = page.locator("#timer-bar").bounding_box()["y"]
    assert help_bottom <= bar_top
    page.evaluate("window.scrollTo(0, 0)")
    page.get_by_role("button", name="Start turn").click()
    assert inside_viewport(page, "#timer-timeout-button")
    assert inside_viewport(page, "#timer-next")


def test_the_timer_keeps_its_state_across_a_reload(timer):
    page, url = timer(60)
    page.goto(url)
    page.get_by_role("button", name="Start turn").click()
    page.get_by_role("button", name="Next turn").click()
    expect(page.locator("#timer-turn")).to_have_text("Turn: Player 2 (seat 2)")
    page.reload()
    expect(page.locator("#timer-turn")).to_have_text("Turn: Player 2 (seat 2)")
    expect(page.locator("#timer-clock")).to_have_text(re.compile(r"^0:5\d$"))
    expect(page.get_by_role("button", name="Record timeout for Player 2")).to_be_visible()
    expect(page.locator("#timer-next")).to_have_text("Next turn")
    wait_until(page, "window.__locks.requested >= 1")  # the screen stays on again
    page.get_by_role("button", name="Pause").click()
    wait_until(page, "window.__locks.released >= 1")  # ... and may sleep while paused
    # The pause has been handled (status and clock are set together) before the clock is
    # read: on a loaded machine the lock's count can be met before the click is processed.
    expect(page.locator("#timer-status")).to_have_text("Paused.")
    paused = page.locator("#timer-clock").text_content()
    page.reload()
    expect(page.locator("#timer-status")).to_have_text("Paused.")
    expect(page.locator("#timer-clock")).to_have_text(paused)
    expect(page.locator("#timer-pause")).to_have_text("Resume")


def test_a_mistaken_timeout_is_undone_from_the_timer(timer):
    page, url = timer(60)
    page.goto(url)
    page.get_by_role("button", name="Start turn").click()
    page.get_by_role("button", name="Record timeout for Player 1").click()
    expect(page.locator("#timer-status")).to_have_text("Recorded: timeout for Player 1, draws 1.")
    expect(page.locator("#timer-turn")).to_have_text("Turn: Player 2 (seat 2)")
    undo = page.get_by_role("button", name="Undo timeout of Player 1")
    expect(undo).to_be_visible()
    assert inside_viewport(page, "#timer-undo-button")
    page.reload()  # the undo survives a reload too
    page.get_by_role("button", name="Undo timeout of Player 1").click()
    expect(page.locator("#timer-status")).to_have_text("Undone: timeout for Player 1, draws 1.")
    expect(page.locator("#timer-undo")).to_be_hidden()
    penalty = Penalty.objects.get()
    assert penalty.voided and penalty.voided_by.username == "bob"


def test_signals_at_ten_seconds_and_at_zero_and_the_screen_stays_on(timer):
    page, url = timer(20)
    page.clock.install()
    page.goto(url)
    page.get_by_role("button", name="Start turn").click()
    wait_until(page, "window.__locks.requested === 1")
    page.clock.run_for(9_000)
    assert page.evaluate("window.__vibrations.length") == 0
    page.clock.run_for(2_000)  # 9 s left
    assert page.evaluate("window.__vibrations.length") == 1
    page.clock.run_for(10_000)
    expect(page.locator("#timer-clock")).to_have_text("Time!")
    assert page.evaluate("window.__vibrations.length") == 2
    wait_until(page, "window.__locks.released === 1")  # time is up: the lock goes
    # An extension gives the player another turn time and the clock runs again.
    page.get_by_role("button", name="+ Extension").click()
    expect(page.locator("#timer-status")).to_contain_text("Player 1 has used 1 of 10")
    expect(page.locator("[data-extensions-of]").first).to_have_text("1")
    expect(page.locator("#timer-clock")).to_have_text(re.compile(r"^0:(20|19)$"))
    # Muted: no more signals.
    page.get_by_role("button", name="Sound on").click()
    expect(page.locator("#timer-mute")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Next turn").click()
    page.clock.run_for(21_000)
    expect(page.locator("#timer-clock")).to_have_text("Time!")
    assert page.evaluate("window.__vibrations.length") == 2
