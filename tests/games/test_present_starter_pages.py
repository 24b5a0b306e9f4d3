"""A game whose starter withdrew (the table playing on) is started by the next present
seat: the table page, the timer, the sheets and the API all say so."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.services.withdrawals import player_withdraw
from tests.games.test_views import GOOD, entry, game_of, table_url
from tests.web import text

pytestmark = pytest.mark.django_db


def test_the_next_present_seat_starts_when_the_starter_withdrew(as_user, club, alice):
    game1 = game_of(club)
    as_user("bob").post(table_url(club), entry(game1, racks=GOOD))
    table = game1.table
    seats = {seat.position: seat.player for seat in table.seats.all()}
    # Game 2 is seat 2's by the rotation; seat 2 leaves and the table plays on.
    player_withdraw(player=seats[2], by=alice, unplayed="plays_on")

    page = text(as_user("bob").get(table_url(club), {"game": 2}))
    assert f"starts: {seats[3].name} (seat 3)" in page
    assert f"starts: {seats[2].name}" not in page

    kwargs = {"slug": club.slug, "round_number": 1, "table_number": 1}
    timer = text(as_user("bob").get(reverse("table-timer", kwargs=kwargs), {"game": 2}))
    assert f"Game 2: {seats[3].name} starts." in timer

    sheets = text(
        as_user("alice").get(reverse("round-sheets", kwargs={"slug": club.slug, "round_number": 1}))
    )
    assert f"starts: 3. {seats[3].name}" in sheets
    assert f"starts: 2. {seats[2].name}" not in sheets

    api = as_user("bob").get(f"/api/v1/games/{game_of(club, 2).pk}/")
    assert api.status_code == 200, api.content
    assert api.json()["starter"] == 3
    # Game 1 was played before they left: its starter stays seat 1.
    assert as_user("bob").get(f"/api/v1/games/{game1.pk}/").json()["starter"] == 1
