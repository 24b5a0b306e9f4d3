"""The table page on a 412x900 phone: a game entered by the tile keypad in few taps, the
winner and the blank rack implying each other, and a submission with several mistakes
answered by one summary at the top that names every player.

A tap is one Playwright click or one key press (typing a whole string would hide the
key presses, so text is pressed key by key when typed). Measured the same way, the page
before the keypad took 31 taps for the game of `test_a_game_by_keypad_in_few_taps`:
choose the end, choose the winner, then for each loser tap the tiles input and press
each character of "R4 R10 K2", "J B7 B1", "O13 O5 K3", and Save.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Result
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round

pytestmark = pytest.mark.django_db(transaction=True)

TAP_TARGET = 20
MIN_BUTTON_PX = 44


class Taps:
    """Clicks and key presses, counted."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def click(self, locator) -> None:
        locator.click()
        self.count += 1

    def button(self, name: str) -> None:
        self.click(self.page.get_by_role("button", name=name, exact=True))

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1


@pytest.fixture
def table(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=4, name="Keypad Cup")
    open_round(tournament, alice)
    return f"/t/{tournament.slug}/rounds/1/tables/1/"


def test_a_game_by_keypad_in_few_taps(new_page, table):
    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(table)
    expect(page.get_by_role("heading", name=re.compile("Game 1 of 4"))).to_contain_text(
        "starts: Player 1 (seat 1)"
    )
    game = page.locator("#game-1")
    keys = page.locator("[data-keypad] button")
    expect(keys.first).to_be_visible()
    for index in range(keys.count()):
        box = keys.nth(index).bounding_box()
        assert box["width"] >= MIN_BUTTON_PX and box["height"] >= MIN_BUTTON_PX, box

    taps = Taps(page)
    # Seat 1 went out: their rack stays blank. The end is a Rummikub unless changed.
    taps.click(page.get_by_role("button", name="Tiles of Player 2 (seat 2)"))
    for key in ("Red", "4", "10", "Black", "2"):
        taps.button(key)
    expect(game.get_by_label("Player 2 — tiles")).to_have_value("R4 R10 K2")
    rack2 = game.locator("[data-rack]").nth(1)
    expect(rack2.locator(".tile")).to_have_text(["R4", "R10", "K2"])
    expect(rack2.locator("[data-rack-sum]")).to_have_text("= 16 points (3 tiles)")
    taps.button("Next rack")
    for key in ("Joker", "Blue", "7", "1"):
        taps.button(key)
    taps.button("Next rack")
    for key in ("Orange", "13", "5", "Black", "3"):
        taps.button(key)
    rack4 = game.locator("[data-rack]").nth(3)
    expect(rack4.locator(".tile-orange")).to_have_text(["O13", "O5"])  # O, never 0
    expect(rack4.locator("[data-rack-sum]")).to_have_text("= 21 points (3 tiles)")
    expect(game.locator("[data-rack]").nth(2).locator("[data-rack-sum]")).to_have_text(
        "= 38 points (3 tiles)"
    )
    # The one blank rack names the winner.
    rack1 = game.locator("[data-rack]").first
    expect(rack1.locator("[data-rack-sum]")).to_have_text("blank: the winner's rack")
    expect(game.get_by_label("Winner")).to_have_value(rack1.get_attribute("data-player"))
    taps.button("Save game 1")

    expect(page.get_by_text("Game 1: version 1 saved and confirmed.")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Game 2 of 4"))).to_contain_text(
        "starts: Player 2 (seat 2)"
    )
    expect(page.locator("#game-1")).to_contain_text("Player 1 +75")
    result = Result.objects.get()
    assert dict(result.racks.values_list("player__number", "tiles")) == {
        1: "",
        2: "R4 R10 K2",
        3: "B1 B7 J",
        4: "O5 O13 K3",
    }
    print(f"\ntaps to enter a 4-player game by keypad: {taps.count} (before the keypad: 31)")
    assert taps.count <= TAP_TARGET


def test_typing_still_works_and_choosing_a_winner_blanks_their_rack(new_page, table):
    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(table)
    game = page.locator("#game-1")
    tiles = game.get_by_label("Player 3 — tiles")
    tiles.click()
    page.keyboard.type("o1 k9")
    rack3 = game.locator("[data-rack]").nth(2)
    expect(rack3.locator(".tile")).to_have_text(["O1", "K9"])
    expect(page.locator("#g1-r3-value")).to_have_text("= 10 points (2 tiles)")
    # The keypad follows the focus: it now adds to seat 3's rack.
    page.get_by_role("button", name="Joker", exact=True).click()
    expect(tiles).to_have_value("o1 k9 J")
    game.get_by_label("Winner").select_option(label="Player 3 (seat 3)")
    expect(tiles).to_have_value("")
    expect(rack3.locator(".tile")).to_have_count(0)


def test_three_mistakes_are_shown_at_once_at_the_top(new_page, table):
    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(table)
    game = page.locator("#game-1")
    game.get_by_label("Pool exhausted").check()  # yet seat 1's rack is left blank
    game.get_by_label("Player 2 — tiles").fill("R4 X10")  # no colour X
    game.get_by_label("Player 3 — tiles").fill("J 7")
    game.get_by_text("By totals instead").nth(3).click()
    game.get_by_label("Player 4 — points").fill("-3")  # negative
    game.get_by_role("button", name="Save game 1").click()

    summary = page.locator(".error-summary")
    expect(summary).to_be_visible()
    expect(summary.get_by_role("heading")).to_have_text("Nothing was saved: 3 problems to correct")
    expect(summary.locator("li")).to_have_count(3)
    expect(summary.locator("li").nth(0)).to_have_text(
        "Player 1 (seat 1)'s rack is empty: that is a Rummikub end, not pool exhausted"
    )
    expect(summary.locator("li").nth(1)).to_contain_text("Player 2 (seat 2): unknown colour 'X'")
    expect(summary.locator("li").nth(2)).to_have_text(
        "Player 4 (seat 4): points cannot be negative, got -3"
    )
    # Styled as an error, focused and scrolled into view, first thing in the game's form.
    border, danger = summary.evaluate(
        """e => {
          const probe = document.createElement("i");
          probe.style.color = "var(--danger)";  // the design system's error colour
          document.body.append(probe);
          const danger = getComputedStyle(probe).color;
          probe.remove();
          return [getComputedStyle(e).borderTopColor, danger];
        }"""
    )
    assert border == danger == "rgb(168, 20, 28)"
    assert page.evaluate("document.activeElement.classList.contains('error-summary')")
    box = summary.bounding_box()
    assert 0 <= box["y"] < 900 / 2, box
    assert Result.objects.count() == 0
    # A link goes to its field.
    summary.get_by_role("link", name=re.compile("Player 4 \\(seat 4\\)")).click()
    assert page.evaluate("location.hash") == "#id_g1-r4-points"
    expect(game.get_by_label("Player 4 — points")).to_be_in_viewport()
