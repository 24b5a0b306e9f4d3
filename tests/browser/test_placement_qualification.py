"""Placement points and qualification slots in a real browser, on a phone (412 wide): a
finished city championship ranked by placement points shows the columns with their full
names, the "Qualified" and "Already qualified" badges, and a qualified list to download
that names the players the badges mark."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services.standings import standings_recompute
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.services.players import player_update
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def championship(alice):
    tournament = make_tournament(
        alice,
        name="City Cup",
        players=8,
        ranking=["placement_points", "first_places", "score"],
    )
    open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament):
        enter_rummikub(game, alice)
    tournament_update(
        tournament=tournament, by=alice, qualify_slots=2, qualify_event="National final"
    )
    leader = standings_recompute(tournament_id=tournament.pk).rows[0]["player"]["id"]
    player_update(player=tournament.players.get(pk=leader), by=alice, already_qualified=True)
    tournament_update(tournament=tournament, by=alice, status="finished")
    standings_recompute(tournament_id=tournament.pk)
    return tournament


def test_a_phone_shows_placement_points_and_the_qualified(new_page, championship):
    page = new_page()
    page.goto(f"/t/{championship.slug}/")
    table = page.locator("#standings table")
    expect(page.get_by_text("The top 2 players qualify for National final")).to_be_visible()
    # On a phone every value carries its column's full name.
    expect(table.locator(".cell-label", has_text="Placement points").first).to_be_visible()
    expect(table.locator(".badge-already")).to_have_count(1)
    expect(table.locator(".badge-qualified")).to_have_count(2)
    marked = [
        row.locator(".who a").inner_text()
        for row in table.locator("tbody tr").all()
        if row.locator(".badge-qualified").count()
    ]
    link = page.get_by_role("link", name="Qualified list (CSV)")
    answer = page.request.get(link.get_attribute("href"))
    assert answer.status == 200
    listed = [line.split(",")[5] for line in answer.text().lstrip("\ufeff").splitlines()[1:]]
    assert listed == marked
