"""Pages for substitutes, withdrawal during a round and the options: the rack form's
substitute field, a table that plays on without a withdrawn seat, the withdraw page's
question, the standings' and player page's markers, the settings."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import RackEntry, Result
from games.services.withdrawals import player_withdraw
from tests.games.test_views import GOOD, entry, game_of, table_url
from tests.web import field_errors, text
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def withdraw_url(tournament, number: int) -> str:
    return reverse("player-withdraw", kwargs={"slug": tournament.slug, "player_number": number})


def test_a_substitute_is_entered_on_the_rack_form_and_shown(as_user, club):
    game = game_of(club)
    racks = [dict(rack) for rack in GOOD]
    racks[2]["substitute"] = "Sam Sub"
    response = as_user("bob").post(table_url(club), entry(game, racks=racks))
    assert response.status_code == 302
    rack = RackEntry.objects.get(result__game=game, substitute="Sam Sub")
    assert rack.player.number == 3
    page = text(as_user("anon").get(reverse("player-detail", args=[club.slug, 3])))
    assert "substitute: Sam Sub" in page and "(not counted)" in page
    assert "they count for nobody's standings but the opponents'" in page
    standings = text(as_user("anon").get(reverse("tournament-detail", args=[club.slug])))
    assert "1 game by a substitute — not counted for them" in standings


def test_a_table_that_plays_on_has_no_rack_form_for_the_withdrawn_seat(as_user, club, alice, bob):
    game1 = game_of(club)
    as_user("bob").post(table_url(club), entry(game1, racks=GOOD))
    leaver = game1.table.seats.get(position=4).player
    player_withdraw(player=leaver, by=alice, unplayed="plays_on")
    # One game per screen: game 1 (played with them) still has their rack; the page opens
    # on game 2, played without them, and says why.
    first = text(as_user("bob").get(table_url(club), {"game": 1}))
    assert first.count(f"<legend>Seat 4: {leaver.name}</legend>") == 1
    page = text(as_user("bob").get(table_url(club)))
    assert f"<legend>Seat 4: {leaver.name}</legend>" not in page
    assert page.count(f"Seat 4: {leaver.name} withdrew") == 1
    game2 = game_of(club, 2)
    response = as_user("bob").post(table_url(club), entry(game2, racks=GOOD[:3]))
    assert response.status_code == 302
    assert Result.objects.get(game=game2).racks.count() == 3


def test_the_withdraw_page_asks_and_shows_the_error_beside_the_choice(as_user, club):
    leaver = game_of(club).table.seats.get(position=2).player
    page = text(as_user("alice").get(withdraw_url(club, leaver.number)))
    assert "games 1, 2, 3, 4 are not played yet" in page
    assert "the absent seat scores -98" in page
    response = as_user("alice").post(withdraw_url(club, leaver.number), {"unplayed": "later"})
    assert response.status_code == 400
    assert field_errors(text(response), "id_unplayed")
    response = as_user("alice").post(withdraw_url(club, leaver.number), {})
    assert response.status_code == 400
    (message,) = field_errors(text(response), "id_unplayed")
    assert "say what happens to them" in message
    assert Player.objects.get(pk=leaver.pk).status == "active"
    response = as_user("alice").post(withdraw_url(club, leaver.number), {"unplayed": "forfeit"})
    assert response.status_code == 302
    assert Result.objects.filter(end="forfeit", game__table=game_of(club).table).count() == 4


def test_the_withdraw_page_is_for_organisers(as_user, club):
    assert as_user("bob").get(withdraw_url(club, 1)).status_code == 403


def test_the_settings_page_changes_the_options(as_user, club):
    url = reverse("tournament-edit", args=[club.slug])
    page = text(as_user("alice").get(url))
    assert "A late entry&#x27;s missed rounds count as" in page
    response = as_user("alice").post(
        url,
        {
            "name": club.name,
            "status": "running",
            "preset": "standard",
            "table_size": "4",
            "public": "on",
            "missed_rounds": "zero",
            "forfeit_rule": "absent_only",
            "credit_substitute_games": "on",
        },
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.missed_rounds, club.forfeit_rule, club.credit_substitute_games) == (
        "zero",
        "absent_only",
        True,
    )
