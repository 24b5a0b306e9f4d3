"""Tournaments and staff over the API: shapes, who may do what, and bad input."""

from __future__ import annotations

import pytest

from games.services.results import result_submit
from scoring.rules import OPTIONS
from tests.api import ORGANISER_ONLY, matrix, rows, seated
from tests.factories import make_tournament
from tournaments.models import StaffMember, Tournament

pytestmark = pytest.mark.django_db

RULE_KEYS = {"preset", *OPTIONS}
TOURNAMENT_KEYS = {
    "name",
    "club_avoidance",
    "slug",
    "starts_on",
    "preset",
    "rules",
    "ranking",
    "table_size",
    "games_per_table",
    "rounds_planned",
    "target_score",
    "target_games_cap",
    "results_need_confirmation",
    "public",
    "status",
    "results_version",
    "missed_rounds",
    "forfeit_rule",
    "credit_substitute_games",
    "qualify_slots",
    "qualify_event",
    "qualify_stage",
}
EXAMPLE = {
    "name": "Club Open",
    "slug": "club-open",
    "starts_on": "2026-12-05",
    "preset": "standard",
    "rules": {"turn_seconds": 120},
    "ranking": ["games_won", "score"],
    "table_size": 4,
    "games_per_table": None,
    "rounds_planned": 4,
    "target_score": None,
    "results_need_confirmation": False,
    "public": True,
}


def url(slug: str = "club-open") -> str:
    return f"/api/v1/tournaments/{slug}/"


# --- happy paths ---------------------------------------------------------------------------


def test_create_echoes_the_tournament_with_resolved_rules(client_for, bob):
    response = client_for("bob").post("/api/v1/tournaments/", EXAMPLE, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == TOURNAMENT_KEYS
    assert set(body["rules"]) == RULE_KEYS
    assert body["rules"] == {
        "preset": "standard",
        "initial_meld": 30,
        "turn_seconds": 120,
        "timeout_draw": 1,
        "failed_manipulation_draw": 3,
        "joker_penalty": 30,
        "exhausted_winner": "lowest_points",
        "exhausted_scoring": "difference",
        "no_meld_charge": None,
        "no_meld_declined_charge": None,
        "no_meld_pays_each": False,
        "loss_cap": None,
        "win_bonus": 0,
        "runner_up_bonus": 0,
        "placement_points": {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]},
    }
    assert {k: body[k] for k in EXAMPLE if k != "rules"} == {
        k: v for k, v in EXAMPLE.items() if k != "rules"
    }
    assert (body["status"], body["results_version"]) == ("upcoming", 0)
    # The creator organises it.
    assert StaffMember.objects.get(tournament__slug="club-open").user == bob


def test_create_with_only_a_name_derives_the_rest(client_for):
    response = client_for("mallory").post(
        "/api/v1/tournaments/", {"name": "Spring Cup", "preset": "mso"}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["slug"], body["table_size"], body["ranking"]) == ("spring-cup", 2, ["score"])
    assert body["rules"]["joker_penalty"] == 50


def test_list_shows_public_tournaments_and_filters_by_status(client_for, tournament, alice):
    make_tournament(alice, name="Secret Cup", public=False)
    finished = make_tournament(alice, name="Old Cup")
    Tournament.objects.filter(pk=finished.pk).update(status="finished")

    anon = client_for("anon").get("/api/v1/tournaments/").json()
    assert set(anon) == {"count", "next", "previous", "results"}
    # Other Open is dave's (tests/api.py), public too.
    assert sorted(t["slug"] for t in anon["results"]) == ["club-open", "old-cup", "other-open"]
    assert set(anon["results"][0]) == TOURNAMENT_KEYS

    # Staff see their private tournaments too.
    staff = client_for("alice").get("/api/v1/tournaments/").json()
    assert sorted(t["slug"] for t in staff["results"]) == [
        "club-open",
        "old-cup",
        "other-open",
        "secret-cup",
    ]

    only = client_for("anon").get("/api/v1/tournaments/", {"status": "finished"}).json()
    assert [t["slug"] for t in only["results"]] == ["old-cup"]
    bad = client_for("anon").get("/api/v1/tournaments/", {"status": "sleeping"})
    assert bad.status_code == 400
    assert "status" in bad.json()


def test_detail(client_for, tournament):
    response = client_for("anon").get(url())
    assert response.status_code == 200
    assert response.json()["name"] == "Club Open"
    assert set(response.json()) == TOURNAMENT_KEYS


def test_private_tournament_is_invisible_without_a_role(client_for, alice, bob):
    make_tournament(alice, name="Secret Cup", public=False, scorekeepers=[bob])
    for who, code in [("anon", 404), ("mallory", 404), ("dave", 404), ("bob", 200),
                      ("alice", 200), ("root", 200)]:  # fmt: skip
        assert client_for(who).get(url("secret-cup")).status_code == code, who
        players = client_for(who).get(url("secret-cup") + "players/")
        assert players.status_code == code, who
    # Writing to it is no different: it does not exist for a stranger.
    assert client_for("mallory").patch(url("secret-cup"), {"name": "x"}).status_code == 404


def test_patch_changes_settings_and_overrides_one_option(client_for, tournament):
    response = client_for("alice").patch(
        url(), {"rules": {"turn_seconds": 60}, "public": False, "status": "running"}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["rules"]["turn_seconds"], body["rules"]["joker_penalty"]) == (60, 30)
    assert (body["public"], body["status"]) == (False, "running")


def test_delete_without_results(client_for, tournament):
    assert client_for("alice").delete(url()).status_code == 204
    assert not Tournament.objects.filter(slug="club-open").exists()


def test_staff_add(client_for, tournament, carol):
    """Naming an account invites it: it joins when it accepts."""
    response = client_for("alice").post(
        url() + "staff/", {"username": "carol", "role": "scorekeeper"}, format="json"
    )
    assert response.status_code == 201
    invitation = tournament.staff_invitations.get(username="carol")
    body = response.json()
    assert (body["id"], body["username"], body["role"], body["state"]) == (
        invitation.pk,
        "carol",
        "scorekeeper",
        "open",
    )
    assert not tournament.staff.filter(user=carol).exists()


# --- permission matrix ---------------------------------------------------------------------


@pytest.mark.parametrize(("who", "expected"), matrix(200, ORGANISER_ONLY))
def test_who_may_patch(client_for, tournament, who, expected):
    response = client_for(who).patch(url(), {"name": "Renamed"}, format="json")
    assert response.status_code == expected
    tournament.refresh_from_db()
    assert (tournament.name == "Renamed") == (expected == 200)


@pytest.mark.parametrize(("who", "expected"), matrix(204, ORGANISER_ONLY))
def test_who_may_delete(client_for, tournament, who, expected):
    assert client_for(who).delete(url()).status_code == expected
    assert Tournament.objects.filter(slug="club-open").exists() == (expected != 204)


@pytest.mark.parametrize(("who", "expected"), matrix(201, ORGANISER_ONLY))
def test_who_may_add_staff(client_for, tournament, carol, who, expected):
    response = client_for(who).post(
        url() + "staff/", {"username": "carol", "role": "scorekeeper"}, format="json"
    )
    assert response.status_code == expected
    assert tournament.staff_invitations.filter(username="carol").exists() == (expected == 201)
    assert not tournament.staff.filter(user=carol).exists()  # not before carol accepts


@pytest.mark.parametrize(("who", "expected"), matrix(201, {"anon": 401}))
def test_who_may_create(client_for, people, who, expected):
    response = client_for(who).post("/api/v1/tournaments/", {"name": "New Cup"}, format="json")
    assert response.status_code == expected
    created = Tournament.objects.filter(slug="new-cup").first()
    assert (created is not None) == (expected == 201)
    if created:
        assert created.staff.get().user == people[who]


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Cup", "preset": "chess"}, "preset"),
        ({"name": "Cup", "rules": {"joker_bonus": 5}}, "rules"),
        ({"name": "Cup", "rules": {"joker_penalty": -1}}, "rules"),
        ({"name": "Cup", "rules": {"joker_penalty": "30"}}, "rules"),
        ({"name": "Cup", "rules": {"preset": "mso"}}, "rules"),
        ({"name": "Cup", "rules": ["joker_penalty", 50]}, "rules"),
        ({"name": "Cup", "rules": "standard"}, "rules"),
        ({"name": "Cup", "rules": {"placement_points": {"4": [4, 3, 1]}}}, "rules"),
        ({"name": "Cup", "rules": {"placement_points": {"5": [1, 1, 1, 1, 1]}}}, "rules"),
        ({"name": "Cup", "rules": {"placement_points": [4, 3, 1, 0]}}, "rules"),
        ({"name": "Cup", "rules": {"placement_points": {"3": [0, 2, 4]}}}, "rules"),
        ({"name": "Cup", "ranking": ["elo"]}, "ranking"),
        ({"name": "Cup", "ranking": ["score", "score"]}, "ranking"),
        ({"name": "Cup", "ranking": ["games_played"]}, "ranking"),
        ({"name": "Cup", "ranking": "score"}, "ranking"),
        ({"name": "Cup", "ranking": [1, 2]}, "ranking"),
        ({"name": "Cup", "ranking": []}, "ranking"),
        ({"name": "Cup", "table_size": 5}, "table_size"),
        ({"name": "Cup", "table_size": "four"}, "table_size"),
        ({"name": "Cup", "table_size": 10**30}, "table_size"),
        ({"name": "Cup", "games_per_table": 0}, "games_per_table"),
        ({"name": "Cup", "rounds_planned": -2}, "rounds_planned"),
        ({"name": "Cup", "target_score": 10**12}, "target_score"),
        ({"name": "Cup", "target_score": 100, "target_games_cap": 0}, "target_games_cap"),
        ({"name": "Cup", "target_score": 100, "target_games_cap": 51}, "target_games_cap"),
        ({"name": "Cup", "public": "maybe"}, "public"),
        ({"name": "Cup", "public": None}, "public"),
        ({"name": "Cup", "starts_on": "2026-02-30"}, "starts_on"),
        ({"name": "Cup", "slug": "Not A Slug"}, "slug"),
        ({"name": "Club Open", "slug": "club-open"}, "slug"),
        ({"name": ""}, "name"),
        ({"name": None}, "name"),
        ({"name": ["Cup"]}, "name"),
        ({"name": {"en": "Cup"}}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"name": "Cup\x00"}, "name"),
        ({}, "name"),
    ],
)
def test_create_refuses_bad_input_and_saves_nothing(client_for, tournament, body, field):
    before = rows()
    response = client_for("bob").post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert rows() == before


def test_create_names_every_bad_option(client_for):
    response = client_for("bob").post(
        "/api/v1/tournaments/",
        {"name": "Cup", "rules": {"win_bonus": -5, "colour_blind": True}, "table_size": 9},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body["rules"]) == {"win_bonus", "colour_blind"}
    assert "table_size" in body


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"slug": "other"}, "slug"),
        ({"status": "paused"}, "status"),
        ({"preset": "chess"}, "preset"),
        ({"ranking": ["score", "elo"]}, "ranking"),
        ({"rules": {"loss_cap": 0}}, "rules"),
        ({"name": "  "}, "name"),
    ],
)
def test_patch_refuses_bad_input_and_changes_nothing(client_for, tournament, body, field):
    before = Tournament.objects.values().get(pk=tournament.pk)
    response = client_for("alice").patch(url(), body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert Tournament.objects.values().get(pk=tournament.pk) == before


def _enter_a_result(tournament, alice, round1):
    game = round1.tables.get(number=1).games.get(number=1)
    players = seated(game)
    result_submit(
        game=game,
        by=alice,
        based_on=0,
        end="rummikub",
        winner=players[0],
        racks=[{"player": players[0], "tiles": ""}]
        + [{"player": p, "points": 5} for p in players[1:]],
    )


def test_rules_are_frozen_once_a_result_exists(client_for, tournament, alice, round1):
    _enter_a_result(tournament, alice, round1)
    response = client_for("alice").patch(url(), {"rules": {"joker_penalty": 50}}, format="json")
    assert response.status_code == 400
    assert "rules" in response.json()
    tournament.refresh_from_db()
    assert tournament.rules["joker_penalty"] == 30


def test_delete_with_results_is_refused(client_for, tournament, alice, round1):
    _enter_a_result(tournament, alice, round1)
    before = rows()
    response = client_for("alice").delete(url())
    assert response.status_code == 400
    assert "non_field_errors" in response.json()
    assert rows() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": " ", "role": "scorekeeper"}, "username"),
        ({"username": "carol", "role": "referee"}, "role"),
        ({"username": "x" * 151, "role": "scorekeeper"}, "username"),
        ({"role": "scorekeeper"}, "username"),
    ],
)
def test_staff_add_refuses_bad_input(client_for, tournament, carol, body, field):
    before = rows()
    response = client_for("alice").post(url() + "staff/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert rows() == before


def test_a_placement_table_is_set_through_the_api_and_a_bad_size_is_named(client_for):
    response = client_for("bob").post(
        "/api/v1/tournaments/",
        {"name": "City Cup", "rules": {"placement_points": {"4": [5, 3, 2, 0]}}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["rules"]["placement_points"] == {
        "2": [4, 0],
        "3": [4, 2, 0],
        "4": [5, 3, 2, 0],
    }
    response = client_for("bob").post(
        "/api/v1/tournaments/",
        {"name": "Town Cup", "rules": {"placement_points": {"3": [4, 2]}}},
        format="json",
    )
    assert response.status_code == 400
    assert "needs 3 places" in str(response.json()["rules"]["placement_points"]["3"])
    assert not Tournament.objects.filter(name="Town Cup").exists()
