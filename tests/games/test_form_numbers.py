"""Web forms never answer 500 to a number they cannot use: a made-up `based_on` on a game
without a result, and numbers that are not ASCII digits or are too long for the database."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Result
from tests.games.test_views import entry, game_of, table_url
from tests.web import field_errors, text
from tournaments.models import Player

pytestmark = pytest.mark.django_db

RACKS = ({"tiles": ""}, {"tiles": "R4"}, {"tiles": "J"}, {"tiles": "K3"})


def test_a_stale_based_on_on_a_game_without_a_result_is_a_conflict_not_a_500(as_user, club):
    game = game_of(club)
    response = as_user("bob").post(table_url(club), entry(game, based_on=1, racks=RACKS))
    assert response.status_code == 200
    assert "has no result yet" in response.content.decode()
    assert Result.objects.count() == 0
    # The input is rebased on 0: sending it again enters the first result.
    assert 'name="g1-based_on" value="0"' in response.content.decode()


@pytest.mark.parametrize("typed", ["\u0663", "\u00b2", "1e3", "--1", "9" * 40])
def test_rack_numbers_that_are_not_plain_digits_are_a_form_error(as_user, club, typed):
    game = game_of(club)
    racks = ({"tiles": ""}, {"points": typed}, {"tiles": "J"}, {"tiles": "K3"})
    response = as_user("bob").post(table_url(club), entry(game, racks=racks))
    assert response.status_code == 200
    assert "Enter a whole number." in response.content.decode()
    assert Result.objects.count() == 0


@pytest.mark.parametrize("typed", ["\u0663", "9" * 40])
def test_a_based_on_that_is_not_plain_digits_is_a_form_error(as_user, club, typed):
    game = game_of(club)
    data = entry(game, racks=RACKS)
    data["g1-based_on"] = typed
    response = as_user("bob").post(table_url(club), data)
    assert response.status_code == 200
    assert Result.objects.count() == 0


@pytest.mark.parametrize("typed", ["\u0661\u0666\u0660\u0660", "9" * 40])
def test_a_rating_that_is_not_plain_digits_is_a_form_error(as_user, club, typed):
    before = Player.objects.count()
    response = as_user("alice").post(
        reverse("tournament-players", kwargs={"slug": club.slug}), {"name": "Ada", "rating": typed}
    )
    assert response.status_code == 200
    assert field_errors(text(response), "id_rating") == ["Enter a whole number."]
    assert Player.objects.count() == before


def test_sanction_points_in_other_digits_are_a_form_error(as_user, club):
    game = Game.objects.get(table__round__tournament=club, table__number=1, number=1)
    player = game.table.seats.first().player_id
    data = {
        "game": 1,
        "action": "penalty",
        "p1-player": player,
        "p1-kind": "sanction",
        "p1-points": "\u0665",
    }
    response = as_user("bob").post(table_url(club), data)
    assert response.status_code == 200
    assert game.penalties.count() == 0
