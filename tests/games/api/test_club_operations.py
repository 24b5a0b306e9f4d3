"""The club operations that were web forms only: create and list clubs, list seasons
(declaring one is tests/games/api/test_clubs.py), list and add club organisers — with the
web pages' permissions (anyone reads clubs and seasons; the club's organisers alone see
and add organisers) — and a player registered from a club member with a blank name."""

from __future__ import annotations

from tests.factories import make_tournament
from tournaments.models import Club, ClubOrganiser


def test_create_and_list_clubs(client_for, alice):
    assert (
        client_for("anon").post("/api/v1/clubs/", {"name": "X"}, format="json").status_code == 401
    )
    created = client_for("alice").post("/api/v1/clubs/", {"name": "Haifa Joker"}, format="json")
    assert created.status_code == 201
    assert created.json() == {"slug": "haifa-joker", "name": "Haifa Joker"}
    assert ClubOrganiser.objects.filter(club__slug="haifa-joker", user=alice).exists()
    listed = client_for("anon").get("/api/v1/clubs/")
    assert listed.status_code == 200 and listed.json() == [created.json()]


def test_club_bad_input_is_a_400_naming_the_field_and_saves_nothing(client_for):
    for body in ({"name": ""}, {"name": 5}, {"name": "Ok", "colour": "red"}, {}):
        answer = client_for("alice").post("/api/v1/clubs/", body, format="json")
        assert answer.status_code == 400, body
        assert set(answer.json()) & {"name", "colour"}, answer.json()
    assert not Club.objects.exists()


def test_list_seasons(client_for, league):
    answer = client_for("anon").get(f"/api/v1/clubs/{league.club.slug}/seasons/")
    assert answer.status_code == 200
    assert [s["slug"] for s in answer.json()] == [league.slug]
    assert client_for("anon").get("/api/v1/clubs/nope/seasons/").status_code == 404


def test_organisers_are_for_the_club_organisers(client_for, league, people):
    url = f"/api/v1/clubs/{league.club.slug}/organisers/"
    assert client_for("anon").get(url).status_code == 401
    assert client_for("mallory").get(url).status_code == 403
    assert client_for("mallory").post(url, {"username": "bob"}, format="json").status_code == 403
    listed = client_for("alice").get(url)
    assert listed.status_code == 200 and [o["username"] for o in listed.json()] == ["alice"]
    added = client_for("alice").post(url, {"username": "bob"}, format="json")
    assert added.status_code == 201 and added.json()["username"] == "bob"
    again = client_for("alice").post(url, {"username": "bob"}, format="json")
    assert again.status_code == 400 and "username" in again.json()
    unknown = client_for("alice").post(url, {"username": "nobody"}, format="json")
    assert unknown.status_code == 400 and "username" in unknown.json()
    assert client_for("bob").get(url).status_code == 200  # bob organises it now


def test_a_blank_name_with_a_member_takes_the_members_name(client_for, league, alice):
    tournament = make_tournament(alice, name="Evening 3")
    held = client_for("alice").put(
        f"/api/v1/tournaments/{tournament.slug}/club/",
        {"club": league.club.slug, "season": None},
        format="json",
    )
    assert held.status_code == 200, held.json()
    member = league.club.members.order_by("name").first()
    url = f"/api/v1/tournaments/{tournament.slug}/players/"
    blank = client_for("alice").post(url, {"name": "", "member": member.id}, format="json")
    assert blank.status_code == 201, blank.json()
    assert blank.json()["name"] == member.name and blank.json()["member"] == member.id
    other = league.club.members.order_by("name")[1]
    left_out = client_for("alice").post(url, {"member": other.id}, format="json")
    assert left_out.status_code == 201 and left_out.json()["name"] == other.name
    nameless = client_for("alice").post(url, {"name": "  "}, format="json")
    assert nameless.status_code == 400 and "name" in nameless.json()
    assert tournament.players.count() == 2
