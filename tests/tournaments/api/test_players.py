"""Players over the API: register, list and filter, change and withdraw, CSV import."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.api import ORGANISER_ONLY, matrix, rows
from tests.factories import make_tournament
from tournaments.models import Player
from tournaments.services.clubs import club_create, member_create, tournament_hold_under

pytestmark = pytest.mark.django_db

PLAYERS = "/api/v1/tournaments/club-open/players/"
PLAYER_KEYS = {
    *("id", "number", "name", "club", "rating", "status", "fixed_table", "joined_round"),
    *("member", "member_name"),  # additions: docs/api/reference.md's shape holds
    "already_qualified",  # an addition: passes a qualification slot down
    "divisions",  # an addition: the slugs of the player's divisions
}


def csv_file(text: str | bytes, name: str = "players.csv") -> SimpleUploadedFile:
    data = text.encode() if isinstance(text, str) else text
    return SimpleUploadedFile(name, data, content_type="text/csv")


# --- happy paths ---------------------------------------------------------------------------


def test_register_answers_the_player(client_for, tournament):
    response = client_for("alice").post(
        PLAYERS, {"name": "Ada Peretz", "club": "Haifa RC", "rating": 1620}, format="json"
    )
    assert response.status_code == 201
    player = Player.objects.get(name="Ada Peretz")
    assert response.json() == {
        "id": player.id,
        "number": 9,
        "name": "Ada Peretz",
        "club": "Haifa RC",
        "rating": 1620,
        "status": "active",
        "fixed_table": None,
        "joined_round": None,  # registered before round 1: from the start
        "member": None,
        "member_name": None,
        "divisions": [],
        "already_qualified": False,
    }


def test_list_is_paginated_by_number_and_filters(client_for, tournament):
    body = client_for("anon").get(PLAYERS).json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 8
    assert [p["number"] for p in body["results"]] == list(range(1, 9))
    assert set(body["results"][0]) == PLAYER_KEYS

    page = client_for("anon").get(PLAYERS, {"page_size": 3, "page": 2}).json()
    assert [p["number"] for p in page["results"]] == [4, 5, 6]
    assert page["next"] and page["previous"]

    # Factories put players in "Club 0", "Club 1", "Club 2" in turn.
    club = client_for("anon").get(PLAYERS, {"club": "club 1"}).json()
    assert [p["number"] for p in club["results"]] == [2, 5, 8]

    Player.objects.filter(tournament=tournament, number=3).update(status="withdrawn")
    withdrawn = client_for("anon").get(PLAYERS, {"status": "withdrawn"}).json()
    assert [p["number"] for p in withdrawn["results"]] == [3]
    assert client_for("anon").get(PLAYERS, {"status": "gone"}).status_code == 400
    assert client_for("anon").get(PLAYERS, {"page": 99}).status_code == 404


def test_detail_and_withdraw(client_for, tournament):
    player = tournament.players.get(number=2)
    detail = client_for("anon").get(f"{PLAYERS}{player.id}/")
    assert detail.status_code == 200
    assert set(detail.json()) == PLAYER_KEYS
    response = client_for("alice").patch(
        f"{PLAYERS}{player.id}/", {"status": "withdrawn"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["status"] == "withdrawn"
    player.refresh_from_db()
    assert player.status == "withdrawn"


def test_a_player_of_another_tournament_is_not_found_here(client_for, tournament, alice):
    other = make_tournament(alice, name="Other Cup", players=1).players.get()
    assert client_for("root").get(f"{PLAYERS}{other.id}/").status_code == 404
    assert client_for("alice").patch(f"{PLAYERS}{other.id}/", {"club": "x"}).status_code == 404


def test_import_registers_every_row(client_for, tournament):
    data = "name,club,rating\nZoe,Haifa,1700\nYael,,\n\nXavier,Utrecht,1500\n"
    response = client_for("alice").post(
        PLAYERS + "import/", {"file": csv_file(data)}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    assert [(p["number"], p["name"], p["club"], p["rating"]) for p in response.json()] == [
        (9, "Zoe", "Haifa", 1700),
        (10, "Yael", "", None),
        (11, "Xavier", "Utrecht", 1500),
    ]
    assert set(response.json()[0]) == PLAYER_KEYS


# --- permission matrix ---------------------------------------------------------------------


@pytest.mark.parametrize(("who", "expected"), matrix(201, ORGANISER_ONLY))
def test_who_may_register(client_for, tournament, who, expected):
    response = client_for(who).post(PLAYERS, {"name": "Newcomer"}, format="json")
    assert response.status_code == expected
    assert tournament.players.filter(name="Newcomer").exists() == (expected == 201)


@pytest.mark.parametrize(("who", "expected"), matrix(200, ORGANISER_ONLY))
def test_who_may_change_a_player(client_for, tournament, who, expected):
    player = tournament.players.get(number=1)
    response = client_for(who).patch(f"{PLAYERS}{player.id}/", {"club": "Elsewhere"})
    assert response.status_code == expected
    player.refresh_from_db()
    assert (player.club == "Elsewhere") == (expected == 200)


@pytest.mark.parametrize(("who", "expected"), matrix(201, ORGANISER_ONLY))
def test_who_may_import(client_for, tournament, who, expected):
    response = client_for(who).post(
        PLAYERS + "import/", {"file": csv_file("name\nNewcomer\n")}, format="multipart"
    )
    assert response.status_code == expected
    assert tournament.players.filter(name="Newcomer").exists() == (expected == 201)


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"club": "Haifa"}, "name"),
        ({"name": "Ada", "rating": -3}, "rating"),
        ({"name": "Ada", "rating": 10**40}, "rating"),
        ({"name": "Ada", "rating": "strong"}, "rating"),
        ({"name": "Ada", "rating": 1.5}, "rating"),
        ({"name": "Ada", "club": "y" * 101}, "club"),
        ({"name": "Ada", "club": ["a"]}, "club"),
    ],
)
def test_register_refuses_bad_input(client_for, tournament, body, field):
    before = rows()
    response = client_for("alice").post(PLAYERS, body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert rows() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"status": "retired"}, "status"),
        ({"name": None}, "name"),
        ({"rating": 20000}, "rating"),
    ],
)
def test_patch_refuses_bad_input(client_for, tournament, body, field):
    player = tournament.players.get(number=1)
    before = Player.objects.values().get(pk=player.pk)
    response = client_for("alice").patch(f"{PLAYERS}{player.id}/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert Player.objects.values().get(pk=player.pk) == before


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ("name,club,rating\nAda,Haifa,1700\n,Utrecht,1500\nBram,Tel Aviv,strong\n", "line 3"),
        ("name,club,rating\nAda,Haifa,1700\nBram,Tel Aviv,strong\n", "line 3: rating"),
        ("who,club\nAda,Haifa\n", "line 1"),
        ("name,club,email\nAda,Haifa,a@b\n", "email"),
        ("name,club,rating\n", "no player rows"),
        ("name,club\nAda,Haifa,extra\n", "line 2"),
        (b"name\n\xff\xfe\n", "UTF-8"),
        (b"name\nA\x00da\n", "line"),
        ("name\n" + "x" * 200_000 + "\n", "line"),
        ("", "empty"),
        ("\n\n", "header"),
    ],
)
def test_import_is_all_or_nothing_and_names_the_line(client_for, tournament, data, needle):
    before = rows()
    response = client_for("alice").post(
        PLAYERS + "import/", {"file": csv_file(data)}, format="multipart"
    )
    assert response.status_code == 400, response.json()
    assert needle in " ".join(response.json()["file"])
    assert rows() == before


def test_import_needs_a_file(client_for, tournament):
    response = client_for("alice").post(PLAYERS + "import/", {}, format="multipart")
    assert response.status_code == 400
    assert "file" in response.json()
    json_body = client_for("alice").post(PLAYERS + "import/", {"file": "x"}, format="json")
    assert json_body.status_code == 415


def test_import_refuses_a_huge_file(client_for, tournament):
    data = "name\n" + "Ada\n" * 300_000
    response = client_for("alice").post(
        PLAYERS + "import/", {"file": csv_file(data)}, format="multipart"
    )
    assert response.status_code == 400
    assert "KiB" in response.json()["file"][0]


# --- how the file was read, and how long it may be ---------------------------------------


def test_the_api_says_which_delimiter_it_read_in_a_header(client_for, tournament):
    data = b"name\tclub\nZoe\tHaifa\n"
    response = client_for("alice").post(
        PLAYERS + "import/", {"file": csv_file(data)}, format="multipart"
    )
    assert response.status_code == 201, response.json()
    assert response["X-CSV-Delimiter"] == "tab"
    body = response.json()
    assert isinstance(body, list)  # docs/api/reference.md: the body is the list of players
    assert [(p["name"], p["club"]) for p in body] == [("Zoe", "Haifa")]


def test_the_api_answers_400_naming_file_over_the_limit(client_for, tournament, settings):
    settings.CSV_IMPORT_MAX_ROWS = 2
    before = tournament.players.count()
    data = b"name\nA\nB\nC\n"
    response = client_for("alice").post(
        PLAYERS + "import/", {"file": csv_file(data)}, format="multipart"
    )
    assert response.status_code == 400
    assert response.json() == {"file": ["has more than 2 player rows; import at most 2."]}
    assert tournament.players.count() == before


# --- delete a player never seated; a warning header on a name taken already ---------------


def test_delete_a_player_never_seated(client_for, tournament, alice):
    late = Player.objects.create(tournament=tournament, number=9, name="Late Larry")
    response = client_for("alice").delete(f"{PLAYERS}{late.pk}/")
    assert response.status_code == 204
    assert not Player.objects.filter(pk=late.pk).exists()


def test_delete_a_seated_player_is_409_naming_player(client_for, round1, tournament):
    player = tournament.players.get(number=2)
    before = rows()
    response = client_for("alice").delete(f"{PLAYERS}{player.pk}/")
    assert response.status_code == 409
    assert response.json()["player"] == [
        "#2 Player 2 has played or been seated in round 1; withdraw instead."
    ]
    assert rows() == before


@pytest.mark.parametrize(("who", "code"), [("anon", 401), ("mallory", 403), ("bob", 403)])
def test_delete_is_for_organisers(client_for, tournament, who, code):
    player = tournament.players.get(number=8)
    assert client_for(who).delete(f"{PLAYERS}{player.pk}/").status_code == code
    assert Player.objects.filter(pk=player.pk).exists()


def test_delete_an_unknown_player_is_404(client_for, tournament):
    assert client_for("alice").delete(f"{PLAYERS}999999/").status_code == 404
    assert tournament.players.count() == 8


def test_a_name_taken_already_is_saved_with_a_warning_header(client_for, tournament):
    alice = client_for("alice")
    response = alice.post(PLAYERS, {"name": "player 3"}, format="json")
    assert response.status_code == 201
    assert set(response.json()) == PLAYER_KEYS  # the shape is as ever
    assert response["X-Warning"] == "another player has this name: #3"
    fresh = alice.post(PLAYERS, {"name": "Nobody Else"}, format="json")
    assert fresh.status_code == 201
    assert "X-Warning" not in fresh
    player = tournament.players.get(number=4)
    renamed = alice.patch(f"{PLAYERS}{player.pk}/", {"name": "Player 3"}, format="json")
    assert renamed.status_code == 200
    assert renamed["X-Warning"] == "another player has this name: #3, #9"


def test_import_links_players_by_membership_code(client_for, tournament, alice):
    club = club_create(by=alice, name="Haifa Joker")
    ada = member_create(club=club, by=alice, name="Ada", code="H-1")
    tournament_hold_under(tournament=tournament, by=alice, club=club)
    data = "name,member\nAda,H-1\nBo,H-9\n"
    response = client_for("alice").post(
        PLAYERS + "import/", {"file": csv_file(data)}, format="multipart"
    )
    assert response.status_code == 400
    assert response.json()["file"] == ["line 3: no member of Haifa Joker has the code 'H-9'."]
    response = client_for("alice").post(
        PLAYERS + "import/", {"file": csv_file("name,member\nAda,H-1\n")}, format="multipart"
    )
    assert response.status_code == 201
    assert Player.objects.get(name="Ada").member == ada


# --- the member link ----------------------------------------------------------------------


@pytest.fixture
def members(tournament, alice):
    """The tournament held under Haifa Joker (members Ada and Bo); Cy is a member of
    another club alice runs."""
    club = club_create(by=alice, name="Haifa Joker")
    tournament_hold_under(tournament=tournament, by=alice, club=club)
    other = club_create(by=alice, name="Tel Aviv Tiles")
    return {
        "ada": member_create(club=club, by=alice, name="Ada Peretz", code="H-1"),
        "bo": member_create(club=club, by=alice, name="Bo Levi"),
        "cy": member_create(club=other, by=alice, name="Cy Cohen"),
    }


def test_register_links_a_member_and_answers_it(client_for, members):
    ada = members["ada"]
    response = client_for("alice").post(PLAYERS, {"name": "Ada", "member": ada.pk}, format="json")
    assert response.status_code == 201, response.json()
    assert (response.json()["member"], response.json()["member_name"]) == (ada.pk, "Ada Peretz")
    assert Player.objects.get(name="Ada").member == ada
    listed = client_for("anon").get(PLAYERS).json()["results"]
    assert [(p["name"], p["member_name"]) for p in listed if p["member"]] == [("Ada", "Ada Peretz")]


def test_patch_links_changes_and_unlinks_the_member(client_for, tournament, members):
    player = tournament.players.get(number=3)
    url = f"{PLAYERS}{player.id}/"
    alice = client_for("alice")
    assert alice.patch(url, {"member": members["ada"].pk}, format="json").json()["member"] == (
        members["ada"].pk
    )
    moved = alice.patch(url, {"member": members["bo"].pk}, format="json").json()
    assert (moved["member"], moved["member_name"]) == (members["bo"].pk, "Bo Levi")
    unlinked = alice.patch(url, {"member": None}, format="json").json()
    assert (unlinked["member"], unlinked["member_name"]) == (None, None)
    player.refresh_from_db()
    assert player.member is None


@pytest.mark.parametrize(
    ("member", "message"),
    [
        ("cy", "no member of Haifa Joker has the id"),  # another club's member
        (999_999, "no member of Haifa Joker has the id 999999"),
        ("taken", "Ada Peretz is already Player 1 (#1)"),
        ("text", "whole number"),
    ],
)
def test_a_bad_member_is_a_400_naming_member_and_nothing_is_saved(
    client_for, tournament, members, alice, member, message
):
    first = tournament.players.get(number=1)
    client_for("alice").patch(f"{PLAYERS}{first.id}/", {"member": members["ada"].pk}, format="json")
    value = {"cy": members["cy"].pk, "taken": members["ada"].pk, "text": "ada"}.get(member, member)
    second = tournament.players.get(number=2)
    before = rows()
    for response in (
        client_for("alice").post(PLAYERS, {"name": "Dov", "member": value}, format="json"),
        client_for("alice").patch(f"{PLAYERS}{second.id}/", {"member": value}, format="json"),
    ):
        assert response.status_code == 400
        assert set(response.json()) == {"member"}
        assert message in response.json()["member"][0]
    assert rows() == before
    second.refresh_from_db()
    assert second.member is None


def test_a_member_needs_a_tournament_under_a_club(client_for, alice):
    make_tournament(alice, name="No Club")
    club = club_create(by=alice, name="Haifa Joker")
    ada = member_create(club=club, by=alice, name="Ada")
    response = client_for("alice").post(
        "/api/v1/tournaments/no-club/players/", {"name": "Ada", "member": ada.pk}, format="json"
    )
    assert response.status_code == 400
    assert "is not held under a club" in response.json()["member"][0]
    assert not Player.objects.filter(tournament__slug="no-club").exists()


def test_the_player_list_reads_members_in_a_fixed_number_of_queries(
    client_for, tournament, members, alice, django_assert_max_num_queries
):
    for number, member in ((1, "ada"), (2, "bo")):
        client_for("alice").patch(
            f"{PLAYERS}{tournament.players.get(number=number).id}/",
            {"member": members[member].pk},
            format="json",
        )
    anon = client_for("anon")
    with django_assert_max_num_queries(8):
        body = anon.get(PLAYERS).json()
    assert [p["member_name"] for p in body["results"][:3]] == ["Ada Peretz", "Bo Levi", None]
