"""Check-in over the API: read a round's check-in, mark one player absent or present,
everyone present; who may; bad input (a withdrawn or unknown player, a round already
open, wrong types) answers 400/409 naming the field, and nothing is saved."""

from __future__ import annotations

import pytest

from tests.api import STAFF_ONLY, matrix, rows
from tests.factories import open_round
from tournaments.models import Absence, Player

pytestmark = pytest.mark.django_db

CHECKIN = "/api/v1/tournaments/club-open/rounds/{}/checkin/"
EVERYONE = CHECKIN + "everyone/"
ROUNDS = "/api/v1/tournaments/club-open/rounds/"


def players(tournament) -> list[Player]:
    return list(tournament.players.order_by("number"))


def test_read_the_check_in_of_a_round_not_yet_open(client_for, tournament):
    response = client_for("anon").get(CHECKIN.format(1))
    assert response.status_code == 200
    body = response.json()
    assert (body["round"], body["present"], body["absent"]) == (1, 8, 0)
    assert body["players"][0] == {
        "player": players(tournament)[0].pk,
        "number": 1,
        "name": "Player 1",
        "club": "Club 0",
        "present": True,
    }


def test_absent_player_is_not_seated_when_the_round_opens(client_for, tournament):
    ada = players(tournament)[0]
    response = client_for("bob").put(
        CHECKIN.format(1), {"player": ada.pk, "present": False}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["present"], response.json()["absent"]) == (7, 1)
    assert [row["present"] for row in response.json()["players"]][:2] == [False, True]
    opened = client_for("alice").post(ROUNDS, {"method": "random", "seed": 5}, format="json")
    assert opened.status_code == 201, opened.json()
    seated = {seat["player"] for table in opened.json()["tables"] for seat in table["seats"]}
    assert ada.pk not in seated and len(seated) == 7
    assert "same_club_pairs" in opened.json()["quality"]


def test_everyone_present(client_for, tournament):
    for player in players(tournament)[:2]:
        client_for("alice").put(
            CHECKIN.format(1), {"player": player.pk, "present": False}, format="json"
        )
    response = client_for("alice").post(EVERYONE.format(1), {}, format="json")
    assert response.status_code == 200
    assert response.json()["absent"] == 0
    assert not Absence.objects.exists()


@pytest.mark.parametrize(("who", "expected"), matrix(200, STAFF_ONLY))
def test_who_may_check_in(client_for, tournament, people, who, expected):
    ada = players(tournament)[0]
    response = client_for(who).put(
        CHECKIN.format(1), {"player": ada.pk, "present": False}, format="json"
    )
    assert response.status_code == expected
    assert Absence.objects.exists() == (expected == 200)


def bad_cases():
    return [
        ("withdrawn", {"present": False}, 2, 400, "player"),
        ("withdrawn", {"present": True}, 2, 400, "player"),
        (999_999, {"present": False}, 2, 400, "player"),
        ("first", {"present": "no"}, 2, 400, "present"),
        ("first", {"present": 0}, 2, 400, "present"),
        ("1", {"present": False}, 2, 400, "player"),
        ("first", {"present": False, "round": 3}, 2, 400, "round"),  # unknown key
        ("first", {"present": False}, 1, 409, "round"),  # round 1 is played
        ("first", {"present": False}, 0, 400, "round"),
    ]


@pytest.mark.parametrize(("player", "extra", "number", "status", "field"), bad_cases())
def test_bad_input_names_the_field_and_saves_nothing(
    client_for, tournament, alice, player, extra, number, status, field
):
    first, second = players(tournament)[:2]
    open_round(tournament, alice)
    Player.objects.filter(pk=second.pk).update(status="withdrawn")
    chosen = {"withdrawn": second.pk, "first": first.pk}.get(player, player)
    before = rows()
    response = client_for("alice").put(
        CHECKIN.format(number), {"player": chosen, **extra}, format="json"
    )
    assert response.status_code == status, response.json()
    assert field in response.json()
    assert "Traceback" not in response.content.decode()
    assert rows() == before
    assert not Absence.objects.exists()


def test_a_withdrawn_player_is_named(client_for, tournament):
    second = players(tournament)[1]
    Player.objects.filter(pk=second.pk).update(status="withdrawn")
    response = client_for("alice").put(
        CHECKIN.format(1), {"player": second.pk, "present": False}, format="json"
    )
    assert response.json() == {
        "player": ["#2 Player 2 has withdrawn and is not seated; reinstate them first."]
    }


def test_everyone_present_for_a_played_round_is_a_conflict(client_for, tournament, alice):
    open_round(tournament, alice)
    response = client_for("alice").post(EVERYONE.format(1), {}, format="json")
    assert response.status_code == 409
    assert "round 1 is already open" in response.json()["round"][0]


def test_players_api_sets_a_fixed_table(client_for, tournament):
    ada = players(tournament)[0]
    url = f"/api/v1/tournaments/club-open/players/{ada.pk}/"
    response = client_for("alice").patch(url, {"fixed_table": 2}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["fixed_table"] == 2
    bad = client_for("alice").patch(url, {"fixed_table": 0}, format="json")
    assert bad.status_code == 400 and "fixed_table" in bad.json()
    ada.refresh_from_db()
    assert ada.fixed_table == 2


def test_tournament_api_sets_club_avoidance(client_for, tournament):
    url = "/api/v1/tournaments/club-open/"
    response = client_for("alice").patch(url, {"club_avoidance": "first_round"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["club_avoidance"] == "first_round"
    bad = client_for("alice").patch(url, {"club_avoidance": "maybe"}, format="json")
    assert bad.status_code == 400 and "club_avoidance" in bad.json()
