"""Answers for requests that the current state blocks (docs/api/index.md: never a 500): deleting a
tournament with a seated round, a delete that protected rows block, a transaction the
database gave up because of a simultaneous one, a round opened twice."""

from __future__ import annotations

import psycopg
import pytest
from django.db import OperationalError

from games.models import Game, Seat
from games.services import rounds as round_services
from games.services.results import penalty_record
from tests.games.helpers import enter_rummikub
from tournaments.api import tournaments as tournament_api
from tournaments.models import Player, Round, Tournament

pytestmark = pytest.mark.django_db

TOURNAMENT = "/api/v1/tournaments/club-open/"
ROUNDS = TOURNAMENT + "rounds/"


def test_delete_a_tournament_with_a_seated_round_but_no_result(client_for, round1, game, bob):
    penalty_record(game=game, by=bob, player=game.table.seats.first().player_id, kind="timeout")
    response = client_for("alice").delete(TOURNAMENT)
    assert response.status_code == 204, response.content
    assert not Tournament.objects.filter(slug="club-open").exists()
    assert not Round.objects.exists()
    assert not Seat.objects.exists()
    assert not Game.objects.exists()
    assert not Player.objects.filter(tournament_id=round1.tournament_id).exists()


def test_delete_with_a_result_is_still_refused(client_for, game, bob):
    enter_rummikub(game, bob)
    response = client_for("alice").delete(TOURNAMENT)
    assert response.status_code == 400
    assert "entered results" in response.json()["non_field_errors"][0]
    assert Tournament.objects.filter(slug="club-open").exists()


def test_a_protected_delete_is_a_409_naming_what_blocks_it(client_for, round1, monkeypatch):
    def delete_a_seated_player(*, tournament, by):
        tournament.players.order_by("number").first().delete()

    monkeypatch.setattr(tournament_api.services, "tournament_delete", delete_a_seated_player)
    response = client_for("alice").delete(TOURNAMENT)
    assert response.status_code == 409
    assert response.json() == {
        "non_field_errors": ["cannot delete it while other records refer to it: 1 seat."]
    }
    assert Player.objects.count() == 8


def test_a_deadlock_is_a_409_try_again(client_for, tournament, monkeypatch):
    def deadlocked(**kwargs):
        try:
            raise psycopg.errors.DeadlockDetected("deadlock detected")
        except psycopg.Error as error:
            raise OperationalError("deadlock detected") from error

    monkeypatch.setattr(round_services, "round_open", deadlocked)
    response = client_for("alice").post(ROUNDS, {"method": "random"}, format="json")
    assert response.status_code == 409
    assert "try again" in response.json()["non_field_errors"][0]


def test_other_database_errors_are_not_dressed_up_as_conflicts(client_for, tournament, monkeypatch):
    def broken(**kwargs):
        raise OperationalError("connection lost")

    monkeypatch.setattr(round_services, "round_open", broken)
    client = client_for("alice")
    client.raise_request_exception = True
    with pytest.raises(OperationalError):
        client.post(ROUNDS, {"method": "random"}, format="json")


def test_a_repeated_open_round_request_opens_one_round(client_for, round1):
    client = client_for("alice")
    body = {"method": "random", "number": 2, "open_anyway": True}
    first = client.post(ROUNDS, body, format="json")
    assert first.status_code == 201, first.json()
    again = client.post(ROUNDS, body, format="json")
    assert again.status_code == 409
    assert again.json() == {
        "number": ["round 2 is already open; nothing new was opened."],
        "last_round": 2,
    }
    ahead = client.post(ROUNDS, {**body, "number": 5}, format="json")
    assert ahead.status_code == 409
    assert ahead.json()["last_round"] == 2
    assert "last one open is round 2" in ahead.json()["number"][0]
    assert list(Round.objects.values_list("number", flat=True).order_by("number")) == [1, 2]


def test_open_round_number_is_checked(client_for, round1):
    response = client_for("alice").post(ROUNDS, {"method": "random", "number": 0}, format="json")
    assert response.status_code == 400
    assert "number" in response.json()
    assert Round.objects.count() == 1


def test_open_round_number_is_documented(client_for):
    schema = client_for("anon").get("/api/v1/schema/?format=json").json()
    number = schema["components"]["schemas"]["RoundInRequest"]["properties"]["number"]
    assert "409" in number["description"]
