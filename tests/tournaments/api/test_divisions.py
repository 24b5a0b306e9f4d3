"""Divisions over the API: list and read (public), add, change, delete (organisers);
players' `divisions` (a list of slugs) in and out; bad input a 400 naming the field."""

from __future__ import annotations

import pytest

from tests.api import ORGANISER_ONLY, matrix
from tests.factories import make_tournament
from tournaments.models import Division, Player
from tournaments.services.divisions import division_create, player_divisions_set
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/club-open/"
DIVISIONS = BASE + "divisions/"


@pytest.fixture
def juniors(tournament, alice):
    division = division_create(tournament=tournament, by=alice, name="Juniors", prizes=["Cup"])
    player_divisions_set(player=tournament.players.get(number=2), by=alice, divisions=["juniors"])
    return division


def test_anyone_reads_the_divisions(client_for, juniors, tournament):
    player = tournament.players.get(number=2)
    body = client_for("anon").get(DIVISIONS).json()
    assert body == [
        {
            "slug": "juniors",
            "name": "Juniors",
            "order": 0,
            "prizes": ["Cup"],
            "players": [player.id],
        }
    ]
    assert client_for("anon").get(DIVISIONS + "juniors/").json()["name"] == "Juniors"
    assert client_for("anon").get(DIVISIONS + "kids/").status_code == 404


@pytest.mark.parametrize(("who", "expected"), matrix(201, ORGANISER_ONLY))
def test_only_organisers_add_a_division(client_for, tournament, who, expected):
    answer = client_for(who).post(DIVISIONS, {"name": "Seniors 60+"}, format="json")
    assert answer.status_code == expected
    assert Division.objects.filter(name="Seniors 60+").exists() == (expected == 201)
    if expected == 201:
        assert answer.json()["slug"] == "seniors-60"


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"name": ""}, ["name"]),
        ({"name": 7}, ["name"]),
        ({"name": "Kids", "prizes": "Cup"}, ["prizes"]),
        ({"name": "Kids", "slug": "a b"}, ["slug"]),
        ({"name": "Juniors"}, ["name"]),
        ({"name": "Kids", "order": True}, ["order"]),
        ({"name": "Kids", "colour": "red"}, ["colour"]),
    ],
)
def test_bad_divisions_are_a_400_naming_the_field(client_for, juniors, body, fields):
    answer = client_for("alice").post(DIVISIONS, body, format="json")
    assert answer.status_code == 400
    assert sorted(answer.json()) == fields
    assert Division.objects.count() == 1


def test_change_and_delete(client_for, juniors):
    alice = client_for("alice")
    changed = alice.patch(DIVISIONS + "juniors/", {"name": "Under 14", "order": 4}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["name"], changed.json()["slug"], changed.json()["order"]) == (
        "Under 14",
        "juniors",
        4,
    )
    assert client_for("bob").delete(DIVISIONS + "juniors/").status_code == 403
    assert alice.delete(DIVISIONS + "juniors/").status_code == 204
    assert not Division.objects.exists()


def test_a_division_a_stage_is_limited_to_is_a_409(client_for, tournament, alice, juniors):
    stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(tournament=tournament, by=alice, name="Final", cut_top=2, division="juniors")
    answer = client_for("alice").delete(DIVISIONS + "juniors/")
    assert (answer.status_code, list(answer.json())) == (409, ["division"])


def test_players_carry_their_divisions(
    client_for, tournament, juniors, django_assert_max_num_queries
):
    alice = client_for("alice")
    with django_assert_max_num_queries(8):
        players = alice.get(BASE + "players/").json()["results"]
    by_number = {p["number"]: p["divisions"] for p in players}
    assert by_number[2] == ["juniors"] and by_number[1] == []
    added = alice.post(BASE + "players/", {"name": "Kid", "divisions": ["juniors"]}, format="json")
    assert (added.status_code, added.json()["divisions"]) == (201, ["juniors"])
    kid = Player.objects.get(name="Kid")
    moved = alice.patch(BASE + f"players/{kid.id}/", {"divisions": []}, format="json")
    assert (moved.status_code, moved.json()["divisions"]) == (200, [])


@pytest.mark.parametrize("divisions", [["kids"], "juniors", [1], None])
def test_a_player_in_an_unknown_division_is_a_400(client_for, tournament, juniors, divisions):
    other = make_tournament(tournament.staff.first().user, name="Other")
    division_create(tournament=other, by=tournament.staff.first().user, name="Kids")
    answer = client_for("alice").post(
        BASE + "players/", {"name": "Kid", "divisions": divisions}, format="json"
    )
    if divisions is None:
        assert answer.status_code == 201  # null: in no division
        return
    assert (answer.status_code, list(answer.json())) == (400, ["divisions"])
    assert not Player.objects.filter(name="Kid").exists()
