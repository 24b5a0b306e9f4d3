"""A target-score match on a phone (412x900, Chromium): the scorekeeper enters the game
that takes Player 1 past the target mid-series; the table page then says the match is
decided and offers no form for the remaining games."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tests.games.test_matches import enter, games_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_match_decided_mid_series_closes_the_remaining_games(new_page, alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=4, name="To 100",
                                 games_per_table=4, target_score=100)  # fmt: skip
    open_round(tournament, alice)
    g1, g2, *_ = games_of(tournament)
    enter(g1, alice, 1, (20, 10, 10))  # Player 1: 40
    enter(g2, alice, 1, (30, 10, 10))  # Player 1: 90

    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(f"/t/{tournament.slug}/rounds/1/tables/1/")
    status = page.locator("#match-status")
    expect(status).to_contain_text("Match to 100")
    expect(status).to_contain_text("Player 1 90")
    game3 = page.locator("#game-3")
    expect(game3.get_by_role("heading", name=re.compile("Game 3"))).to_be_visible()
    game3.get_by_label("Rummikub (a rack emptied)").check()
    game3.get_by_label("Winner").select_option(label="Player 1 (seat 1)")
    game3.get_by_label("Player 2 — tiles").fill("R4 B10 K2")
    game3.get_by_label("Player 3 — tiles").fill("B3")
    game3.get_by_label("Player 4 — tiles").fill("K1")
    game3.get_by_role("button", name="Save game 3").click()

    expect(status).to_contain_text("match decided: Player 1, 110 of 100")
    expect(status).to_contain_text("No further game is played at this table.")
    expect(page.locator("form.entry")).to_have_count(0)
    expect(page.locator("#game-4")).to_have_count(0)
    expect(page.get_by_role("link", name="Enter game 4")).to_have_count(0)
    assert list(Game.objects.filter(table=g1.table).values_list("number", flat=True)) == [1, 2, 3]
    assert page.evaluate("document.documentElement.scrollWidth") <= 412
    if os.environ.get("SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["SCREENSHOTS"], "target-match.png"))
