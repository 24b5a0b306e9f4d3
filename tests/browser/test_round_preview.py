"""Opening a round in two steps in a real browser on a 412x900 phone: preview → draw again
(a new seed, and the page shows the new draw) → swap two players → open anyway over the
missing results it warned of → cancel the round → open it again."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Seat
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


def seating(round_: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("position").values_list("player_id", flat=True))
        for t in round_.tables.order_by("number")
    ]


def test_preview_redraw_open_anyway_cancel_and_open_again(new_page, alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=14, name="Saturday Open")
    round1 = open_round(tournament, alice)  # tables of 4, 4, 4 and 2
    for game in Game.objects.filter(table__round=round1, table__number=1):
        enter_rummikub(game, bob)

    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(f"/t/{tournament.slug}/")
    page.get_by_role("link", name="Open next round").click()
    page.get_by_label("Seating method").select_option("random")
    page.get_by_role("button", name="Preview round 2").click()

    expect(page.get_by_role("heading", name=re.compile("preview of round 2"))).to_be_visible()
    warning = page.locator("#missing-results")
    expect(warning).to_contain_text("Round 1: 10 games missing at tables 2, 3 and 4.")
    expect(page.locator("#table-sizes")).to_have_text(
        "2 tables of 4 and 2 tables of 3; tables of 3 play 3 games."
    )
    expect(page.locator("#draw-quality")).to_contain_text("share a table")
    assert Round.objects.filter(tournament=tournament).count() == 1

    # Draw again: another seed, and the tables shown are the new draw's.
    first_seed = page.locator("#draw-method .tiles").inner_text()
    first_tables = page.locator("#draw-tables").inner_text()
    page.get_by_role("button", name="Draw again (new seed)").click()
    expect(page.locator("#draw-method .tiles")).not_to_have_text(first_seed)
    assert page.locator("#draw-tables").inner_text() != first_tables

    # Swap the first players of tables 1 and 4 by hand.
    one = page.locator("#draw-table-1 tbody tr").first.locator("td").nth(1).inner_text()
    four = page.locator("#draw-table-4 tbody tr").first.locator("td").nth(1).inner_text()
    choose = page.get_by_label("Player", exact=True)
    choose.select_option(choose.locator("option", has_text="(table 1, seat 1)").inner_text())
    other = page.get_by_label("swaps seats with")
    other.select_option(other.locator("option", has_text="(table 4, seat 1)").inner_text())
    page.get_by_role("button", name="Swap in the preview").click()
    expect(page.locator("#draw-table-1 tbody tr").first).to_contain_text(four)
    expect(page.locator("#draw-table-4 tbody tr").first).to_contain_text(one)
    shown = page.locator("#draw-tables").inner_text()

    # Opening over missing results needs "open anyway".
    page.get_by_role("button", name="Open round 2").click()
    expect(page.locator("#id_open_anyway_errors")).to_contain_text("games missing")
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert page.locator("#draw-tables").inner_text() == shown
    page.get_by_label("Open anyway, although results are missing").check()
    page.get_by_role("button", name="Open round 2").click()
    expect(page.get_by_text("Round 2 is open.")).to_be_visible()
    round2 = Round.objects.get(tournament=tournament, number=2)
    first_seat = Seat.objects.get(round=round2, table__number=1, position=1).player
    assert first_seat.name in four
    assert [len(t) for t in seating(round2)] == [4, 4, 3, 3]

    # Cancel it from the round page, then open round 2 again.
    page.get_by_role("link", name="Cancel this round").click()
    page.get_by_role("button", name="Cancel round 2").click()
    expect(page.get_by_text("Round 2 is cancelled.")).to_be_visible()
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    page.get_by_role("link", name="Open next round").click()
    page.get_by_label("Seating method").select_option("random")
    page.get_by_role("button", name="Preview round 2").click()
    page.get_by_label("Open anyway, although results are missing").check()
    page.get_by_role("button", name="Open round 2").click()
    expect(page.get_by_text("Round 2 is open.")).to_be_visible()
    assert Round.objects.filter(tournament=tournament).count() == 2
