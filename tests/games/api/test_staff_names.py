"""Who entered, confirmed or recorded something is a username only the tournament's staff
read: everyone else gets `null` in the same place (the shape of docs/api/reference.md
stays), and the public pages never show a staff username."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.services.results import penalty_record
from tests.api import PERSONAS, seated
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db

SEES_NAMES = {"alice", "bob", "root"}  # organiser, scorekeeper, superuser


@pytest.fixture
def entered(game, bob):
    enter_rummikub(game, bob)
    penalty_record(game=game, by=bob, player=seated(game)[1], kind="timeout")
    return game


def _names(body: dict) -> list:
    result = body["result"]
    return [result["submitted_by"], result["confirmed_by"]] + [
        penalty["recorded_by"] for penalty in body["penalties"]
    ]


@pytest.mark.parametrize("who", PERSONAS)
def test_game_detail_names_staff_only_for_staff(client_for, entered, who):
    body = client_for(who).get(f"/api/v1/games/{entered.id}/").json()
    expected = "bob" if who in SEES_NAMES else None
    assert _names(body) == [expected] * 3


@pytest.mark.parametrize("who", PERSONAS)
def test_game_list_and_result_versions_name_staff_only_for_staff(
    client_for, entered, tournament, who
):
    client = client_for(who)
    expected = "bob" if who in SEES_NAMES else None
    games = client.get(f"/api/v1/tournaments/{tournament.slug}/games/?has_result=true").json()
    assert [_names(game) for game in games["results"]] == [[expected] * 3]
    versions = client.get(f"/api/v1/games/{entered.id}/results/").json()["results"]
    assert [(v["submitted_by"], v["confirmed_by"]) for v in versions] == [(expected, expected)]
    assert {"submitted_by", "confirmed_by", "submitted_at"} <= set(versions[0])


def test_the_writer_reads_their_own_name_back(client_for, game):
    response = client_for("bob").post(
        f"/api/v1/games/{game.id}/penalties/",
        {"player": seated(game)[0], "kind": "timeout"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["recorded_by"] == "bob"


def test_public_pages_show_no_staff_username(entered, tournament):
    anon = Client()
    slug = tournament.slug
    pages = [
        reverse("tournament-detail", kwargs={"slug": slug}),
        reverse("round-detail", kwargs={"slug": slug, "round_number": 1}),
        reverse("player-detail", kwargs={"slug": slug, "player_number": 1}),
    ]
    for page in pages:
        response = anon.get(page)
        assert response.status_code == 200
        body = response.content.decode()
        assert "Player 1" in body  # the page shows the game…
        assert "bob" not in body and "alice" not in body  # …but not who runs it
