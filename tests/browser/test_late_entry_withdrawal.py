"""Late entries and a withdrawal during a round, in a real browser at 412x900: a player
registered while round 1 runs is seated in round 2 and marked in the standings with the
organiser's treatment of the missed round; a player withdrawn mid-round with the forfeit
choice leaves the rest of their table's games scored by the forfeit rule."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Result, Seat
from games.services.rounds import round_open
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_late_entry_joins_round_2_and_the_standings_say_how_round_1_counts(new_page, alice):
    tournament = make_tournament(alice, players=8)
    round1 = open_round(tournament, alice)
    enter_rummikub(round1.tables.get(number=1).games.get(number=1), alice)
    page = new_page()
    sign_in(page, "alice", "alice-pass-123")

    # Registered on the players page while round 1 runs.
    page.goto(f"/t/{tournament.slug}/players/")
    page.get_by_role("textbox", name="Name").fill("Late Larry")
    page.get_by_role("textbox", name="Club").fill("Haifa")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_text("late entry, from round 2")).to_be_visible()

    # The organiser says how the missed round counts.
    page.goto(f"/t/{tournament.slug}/edit/")
    page.get_by_label("A late entry's missed rounds count as").select_option("average")
    page.get_by_role("button", name="Save settings").click()
    page.wait_for_url(re.compile(r"^(?!.*/edit/).*$"))
    tournament.refresh_from_db()
    assert tournament.missed_rounds == "average"

    # Round 2's draw seats the late entry. (Opened by the service: how a round is opened
    # on its page is another story, and not this test's.)
    round_open(tournament=tournament, by=alice, method="random", open_anyway=True)
    page.goto(f"/t/{tournament.slug}/rounds/2/")
    expect(page.get_by_role("link", name="Late Larry")).to_be_visible()
    larry = Player.objects.get(name="Late Larry")
    assert Seat.objects.filter(round__number=2, player=larry).exists()

    page.goto(f"/t/{tournament.slug}/")
    expect(
        page.get_by_text("joined in round 2 — missed rounds counted as their average")
    ).to_be_visible()
    page.screenshot(path="/tmp/forfeit-standings.png", full_page=True)


def test_a_withdrawal_during_a_round_with_the_forfeit_choice(new_page, alice):
    tournament = make_tournament(alice, players=8)
    round1 = open_round(tournament, alice)
    table = round1.tables.get(number=1)
    enter_rummikub(table.games.get(number=1), alice)
    leaver = table.seats.get(position=2).player
    page = new_page()
    sign_in(page, "alice", "alice-pass-123")

    page.goto(f"/t/{tournament.slug}/players/")
    page.get_by_role("link", name=f"Withdraw {leaver.name}").click()
    expect(page.get_by_text("games 2, 3, 4 are not played yet")).to_be_visible()
    # Withdrawing without a choice says what is missing, beside the field.
    page.get_by_role("button", name=f"Withdraw #{leaver.number}").click()
    expect(page.get_by_text("with games 2, 3, 4 unplayed; say what happens")).to_be_visible()
    page.get_by_label("Their seat forfeits those games").check()
    page.screenshot(path="/tmp/forfeit-withdraw.png", full_page=True)
    page.get_by_role("button", name=f"Withdraw #{leaver.number}").click()
    expect(page.get_by_text(f"#{leaver.number} {leaver.name} is withdrawn.")).to_be_visible()

    # The remaining games of the table are scored by the forfeit rule (shared, 98).
    for game in table.games.filter(number__gte=2):
        result = game.results.get(status=Result.Status.CONFIRMED)
        assert result.end == "forfeit"
        scores = sorted(rack.score for rack in result.racks.all())
        assert scores == [-98, 32, 33, 33]
    # The first game stays as it was played.
    assert table.games.get(number=1).results.get(status="confirmed").end == "rummikub"

    page.goto(f"/t/{tournament.slug}/players/{leaver.number}/")
    expect(page.get_by_text("3 games forfeited after the withdrawal")).to_be_visible()
    expect(page.locator(".marker.forfeit")).to_have_count(3)
    page.screenshot(path="/tmp/forfeit-player.png", full_page=True)
    page.goto(f"/t/{tournament.slug}/")
    expect(page.get_by_text("3 forfeits")).to_be_visible()
    page.goto(f"/t/{tournament.slug}/rounds/1/")
    expect(page.get_by_text("withdrew before game 2: their seat forfeits")).to_be_visible()
