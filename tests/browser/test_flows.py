"""The main flows in a real browser: an organiser sets up a tournament and prints the
sheets; a scorekeeper enters a series while the public standings update in place; the
turn timer records a timeout. Inputs are found by their labels (so every field has one),
and the sign-in and the timer are driven by the keyboard alone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Penalty, Result
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS_CSV = b"name,club,rating\n" + b"".join(
    f"{name},{club},{1500 + n}\n".encode()
    for n, (name, club) in enumerate(
        [("Ada", "Haifa"), ("Bram", "Utrecht"), ("Chana", "Haifa"), ("Dov", "Utrecht"),
         ("Esther", "Haifa"), ("Farid", "Utrecht"), ("Gila", "Haifa"), ("Hugo", "Utrecht")]
    )
)  # fmt: skip


def tab_to(page, element_id: str, limit: int = 25) -> None:
    """Press Tab until the element with this id has the focus."""
    for _ in range(limit):
        if page.evaluate("document.activeElement && document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def test_organiser_creates_imports_opens_round_and_prints_sheets(new_page, alice):
    page = new_page()
    # Sign in by keyboard alone.
    page.goto("/accounts/login/")
    tab_to(page, "id_username")
    page.keyboard.type("alice")
    page.keyboard.press("Tab")
    page.keyboard.type("alice-pass-123")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Sign out (alice)")).to_be_visible()

    # Create: the resolved-rules panel follows the preset and the overrides.
    page.goto("/new/")
    page.get_by_label("Name").fill("Spring Cup")
    page.get_by_role("radio", name=re.compile("^Mind Sports Olympiad")).check()
    panel = page.locator("#rules-panel")
    expect(panel.locator('[data-option="joker_penalty"]')).to_have_text("50")
    page.get_by_text("Override single rule options").click()
    page.get_by_label("Joker penalty").fill("40")
    expect(panel.locator('[data-option="joker_penalty"]')).to_contain_text("40 (preset: 50)")
    page.get_by_label("Players per table").fill("4")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_text("Spring Cup is created")).to_be_visible()
    tournament = Tournament.objects.get(name="Spring Cup")
    assert tournament.rules["joker_penalty"] == 40

    # Import players: a bad file names its lines and imports nothing; then the good one.
    upload = page.get_by_label("CSV file")
    upload.set_input_files(
        {
            "name": "bad.csv",
            "mimeType": "text/csv",
            "buffer": b"name,club,rating\nAda,,x\n,,\n,H,1\n",
        }
    )
    page.get_by_role("button", name="Import players").click()
    errors = page.locator("#id_file_errors")
    expect(errors).to_contain_text("line 2: rating 'x' must be a whole number.")
    expect(errors).to_contain_text("line 4: name")
    assert tournament.players.count() == 0
    page.get_by_label("CSV file").set_input_files(
        {"name": "players.csv", "mimeType": "text/csv", "buffer": PLAYERS_CSV}
    )
    page.get_by_role("button", name="Import players").click()
    expect(page.get_by_text("8 players imported.", exact=False)).to_be_visible()

    # Open round 1: random seating when the seating module offers it, else by hand.
    page.get_by_role("link", name="Open next round").click()
    page.get_by_label("Seating method").select_option("random")
    page.get_by_role("button", name="Preview round 1").click()
    expect(page.locator("#table-sizes")).to_have_text("2 tables of 4, 4 games each.")
    page.get_by_role("button", name="Open round 1").click()
    expect(page.get_by_text("Round 1 is open.")).to_be_visible()
    assert Round.objects.get(tournament=tournament).tables.count() == 2

    # The printable sheets: one per table, each with a QR code, a page break in print.
    page.get_by_role("link", name="Printable table sheets").click()
    sheets = page.locator("section.sheet")
    expect(sheets).to_have_count(2)
    expect(sheets.first.locator(".qr svg")).to_be_visible()
    expect(sheets.first.locator("tbody th").nth(3)).to_contain_text("Game 4 starts: 4.")
    expect(sheets.first.locator("tfoot")).to_contain_text("Series total")
    page.emulate_media(media="print")
    assert sheets.first.evaluate("e => getComputedStyle(e).breakAfter") == "page"
    expect(page.locator("header.site")).to_be_hidden()


def test_scorekeeper_enters_a_series_and_the_standings_follow_live(new_page, alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=3, name="Evening Open")
    open_round(tournament, alice)

    viewer = new_page()
    viewer.goto(f"/t/{tournament.slug}/")
    expect(viewer.locator("#standings")).to_contain_text("(version")
    viewer.evaluate("window.notReloaded = true")

    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(f"/t/{tournament.slug}/rounds/1/tables/1/")
    game1 = page.locator("#game-1")
    game1.get_by_label("Rummikub (a rack emptied)").check()
    game1.get_by_label("Winner").select_option(label="Player 1 (seat 1)")
    game1.get_by_label("Player 2 — tiles").fill("R4 B10 K2")
    expect(page.locator("#g1-r2-value")).to_have_text("= 16 points (3 tiles)")
    game1.get_by_label("Player 3 — tiles").fill("J 7 X5")
    expect(page.locator("#g1-r3-value")).to_contain_text("unknown colour 'X' in tile 'X5'")
    game1.get_by_role("button", name="Save game 1").click()

    game1 = page.locator("#game-1")
    expect(game1.get_by_text("Nothing was saved")).to_be_visible()
    expect(page.locator("#id_g1-r3-tiles_errors")).to_contain_text("'X5'")
    assert Result.objects.count() == 0
    game1.get_by_label("Player 3 — tiles").fill("J 7")
    expect(page.locator("#g1-r3-value")).to_have_text("= 37 points (2 tiles, 1 joker)")
    game1.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1: version 1 saved and confirmed.")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Game 2 of 3"))).to_be_visible()

    # The public page shows the result without a reload.
    expect(viewer.locator("#standings")).to_contain_text("53", timeout=15_000)
    assert viewer.evaluate("window.notReloaded") is True

    # A penalty in game 1, then games 2 (pool exhausted, by tiles) and 3 (by totals).
    page.get_by_role("link", name="Edit game 1").click()
    game1 = page.locator("#game-1")
    game1.get_by_text("Record a penalty in game 1").click()
    game1.get_by_label("Player", exact=True).select_option(label="Player 3 (seat 3)")
    game1.get_by_label("Penalty", exact=True).select_option("failed_manipulation")
    game1.get_by_role("button", name="Record penalty").click()
    expect(page.get_by_text("failed manipulation for Player 3, draws 3 recorded")).to_be_visible()

    page.get_by_role("link", name="Enter game 2").click()
    game2 = page.locator("#game-2")
    game2.get_by_label("Pool exhausted").check()
    game2.get_by_label("Player 1 — tiles").fill("R12")
    game2.get_by_label("Player 2 — tiles").fill("B3")
    game2.get_by_label("Player 3 — tiles").fill("K13 O1")
    game2.get_by_role("button", name="Save game 2").click()
    expect(page.get_by_text("Game 2: version 1 saved")).to_be_visible()

    game3 = page.locator("#game-3")  # opened by the save: the next game without a result
    game3.get_by_label("Rummikub (a rack emptied)").check()
    game3.get_by_label("Winner").select_option(label="Player 3 (seat 3)")
    game3.get_by_text("By totals instead").first.click()
    game3.get_by_label("Player 1 — points").fill("20")
    game3.get_by_label("Player 2 — tiles").fill("O5")
    game3.get_by_role("button", name="Save game 3").click()
    expect(page.get_by_text("Game 3: version 1 saved")).to_be_visible()

    assert Result.objects.filter(status="confirmed").count() == 3
    assert Penalty.objects.get().kind == "failed_manipulation"
    expect(viewer.locator("#standings")).to_contain_text("3", timeout=15_000)
    tournament.refresh_from_db()
    expect(viewer.locator("#standings")).to_contain_text(
        f"(version {tournament.results_version})", timeout=15_000
    )
    assert viewer.evaluate("window.notReloaded") is True


def test_turn_timer_records_a_timeout_by_keyboard(new_page, alice, bob):
    tournament = make_tournament(
        alice, scorekeepers=[bob], players=3, name="Blitz", rules={"turn_seconds": 10}
    )
    open_round(tournament, alice)
    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.clock.install()
    page.goto(f"/t/{tournament.slug}/rounds/1/tables/1/timer/")
    expect(page.locator("#timer-clock")).to_have_text("0:10")
    tab_to(page, "timer-next")
    page.keyboard.press("Enter")
    expect(page.locator("#timer-turn")).to_have_text("Turn: Player 1 (seat 1)")
    # Always at hand (a referee may call time), marked as due only once the time is up.
    expect(page.locator("#timer-timeout-button")).not_to_have_class(re.compile("due"))
    page.clock.run_for(4000)
    expect(page.locator("#timer-clock")).to_have_text("0:06")
    page.keyboard.press("n")  # Player 1 played in time: the turn passes
    expect(page.locator("#timer-turn")).to_have_text("Turn: Player 2 (seat 2)")
    page.clock.run_for(11_000)
    expect(page.locator("#timer-clock")).to_have_text("Time!")
    button = page.get_by_role("button", name="Record timeout for Player 2")
    expect(button).to_have_class(re.compile("due"))
    expect(button).to_be_visible()
    tab_to(page, "timer-timeout-button")
    page.keyboard.press("Enter")
    expect(page.locator("#timer-status")).to_have_text("Recorded: timeout for Player 2, draws 1.")
    expect(page.locator("#timer-turn")).to_have_text(re.compile("Player 3"))
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.player.name, penalty.recorded_by.username) == (
        "timeout",
        "Player 2",
        "bob",
    )
