import pytest
from playwright.sync_api import expect

from games.models import Result
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_before(new_page, alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=4, name="Before")
    open_round(tournament, alice)
    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(f"/t/{tournament.slug}/rounds/1/tables/1/")
    taps = 0
    game = page.locator("#game-1")
    game.get_by_label("Rummikub (a rack emptied)").check(); taps += 1
    game.get_by_label("Winner").select_option(label="Player 1"); taps += 1
    for seat, text in ((2, "R4 R10 K2"), (3, "J B7 B1"), (4, "O13 O5 K3")):
        game.get_by_label(f"Player {seat} — tiles").click(); taps += 1
        for key in text:
            page.keyboard.press("Space" if key == " " else key); taps += 1
    game.get_by_role("button", name="Save game 1").click(); taps += 1
    expect(page.get_by_text("Game 1: version 1 saved")).to_be_visible()
    assert Result.objects.count() == 1
    print(f"\nTAPS BEFORE: {taps}")
