"""The keypad keeps the rack it fills in view, on a 412x900 phone.

At every step of a 4-player game entered by the keypad, the active rack's chips and its
running points are on screen above the sticky keypad; a game entered by totals hides the
keypad; every key's word fits inside it; the Save button is what a tap at its centre
hits. It prints the taps of a 4-player game by tiles and by totals and the phone screens
of the table page (its height / 900) — the figures the issue's closing note asks for.

A tap is one Playwright click or one key press, counted as in tests/browser/test_entry.py.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Result
from tests.browser.conftest import sign_in
from tests.browser.test_entry import Taps
from tests.factories import make_tournament, open_round

pytestmark = pytest.mark.django_db(transaction=True)

SCREEN = 900


@pytest.fixture
def table(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=4, name="Keypad Cup")
    open_round(tournament, alice)
    return f"/t/{tournament.slug}/rounds/1/tables/1/"


def _active_rack_in_view(page) -> dict:
    """Where the active rack's chips/points button and the keypad are, in viewport px."""
    return page.evaluate(
        """() => {
          const box = s => document.querySelector('.rack.active ' + s).getBoundingClientRect();
          const pick = box('[data-rack-pick]');
          const sum = box('[data-rack-sum]');
          const keypad = document.querySelector('[data-keypad]').getBoundingClientRect();
          return {top: pick.top, bottom: pick.bottom, sumTop: sum.top, sumBottom: sum.bottom,
                  keypad: keypad.top, height: innerHeight};
        }"""
    )


def _assert_in_view(page, step: str) -> None:
    box = _active_rack_in_view(page)
    assert box["top"] >= 0, (step, box)
    assert box["bottom"] <= box["keypad"], (step, box)
    assert box["sumBottom"] <= box["keypad"] and box["sumTop"] >= 0, (step, box)


def _hit(page, locator) -> bool:
    """Whether a tap at the centre of `locator` lands on it (nothing on top of it)."""
    return locator.evaluate(
        """e => { const r = e.getBoundingClientRect();
                  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                  return hit === e || e.contains(hit); }"""
    )


def test_the_active_rack_stays_above_the_keypad_at_every_step(new_page, table):
    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(table)
    game = page.locator("#game-1")
    taps = Taps(page)
    keypad = page.locator("[data-keypad]")
    expect(keypad).to_be_visible()
    # Every colour's word fits inside its key at 412 px.
    overflowing = page.evaluate(
        """() => [...document.querySelectorAll('[data-keypad] button')]
                 .filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent.trim())"""
    )
    assert overflowing == []

    taps.click(page.get_by_role("button", name="Tiles of Player 2 (seat 2)"))
    _assert_in_view(page, "rack 2 picked")
    racks = (
        ("Red", "4", "10", "Black", "2", "Blue", "11", "12", "13"),
        ("Joker", "Blue", "7", "1", "Red", "3", "9"),
        ("Orange", "13", "5", "Black", "3", "1", "8", "Red", "6", "7"),
    )
    for number, keys in enumerate(racks):
        if number:
            taps.button("Next rack")
            _assert_in_view(page, f"next rack {number + 2}")
        for key in keys:
            taps.button(key)
            _assert_in_view(page, f"rack {number + 2} after {key}")
    expect(game.locator("[data-rack]").nth(3).locator("[data-rack-sum]")).to_have_text(
        "= 43 points (7 tiles)"
    )
    save = page.get_by_role("button", name="Save game 1")
    save.scroll_into_view_if_needed()
    assert _hit(page, save), "the keypad (or anything else) is on top of Save"
    taps.click(save)
    expect(page.get_by_text("Game 1: version 1 saved and confirmed.")).to_be_visible()
    tiles_taps = taps.count
    # The table page after one game, in phone screens.
    screens = page.evaluate("document.documentElement.scrollHeight") / SCREEN

    # Game 2 by totals: the keypad hides while the active rack is entered by totals.
    game2 = page.locator("#game-2")
    totals = Taps(page)
    for seat in (1, 3, 4):  # seat 2 went out
        totals.click(game2.get_by_text("By totals instead").nth(seat - 1))
        expect(keypad).to_be_hidden()
        field = game2.get_by_label(f"Player {seat} — points")
        totals.click(field)
        for key in str(10 + seat):
            totals.press(key)
    save2 = page.get_by_role("button", name="Save game 2")
    save2.scroll_into_view_if_needed()
    assert _hit(page, save2)
    # Seat 2's blank rack is the winner's: chosen by the page, no tap needed.
    totals.click(save2)
    expect(page.get_by_text(re.compile("Game 2: version 1 saved"))).to_be_visible()
    assert Result.objects.count() == 2
    print(
        f"\ntaps per 4-player game: by tiles {tiles_taps} (13 to 10 tiles a rack), "
        f"by totals {totals.count}; table page {screens:.1f} phone screens (height / {SCREEN})"
    )


def test_a_tile_input_brings_the_keypad_back_after_totals(new_page, table):
    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(table)
    game = page.locator("#game-1")
    keypad = page.locator("[data-keypad]")
    game.get_by_text("By totals instead").nth(2).click()
    expect(keypad).to_be_hidden()
    game.get_by_text("By totals instead").nth(2).click()  # folded again, nothing typed
    expect(keypad).to_be_visible()
    game.get_by_text("By totals instead").nth(3).click()
    game.get_by_label("Player 4 — points").fill("12")
    expect(keypad).to_be_hidden()
    game.get_by_label("Player 2 — tiles").click()
    expect(keypad).to_be_visible()
    expect(keypad.locator("[data-keypad-for]")).to_have_text("Tiles for Player 2 (seat 2)")
