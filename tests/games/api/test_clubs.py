"""The clubs API: reads of a club, a member and a season's standings; the club
organisers' writes with bad input (400 naming the field, nothing saved) and refusals."""

from __future__ import annotations

import io

from django.core.management import call_command

from games.services.ratings import current_ratings
from tests.factories import make_tournament
from tournaments.models import Season


def test_api_club_member_and_season(client_for, league):
    api = client_for("anon")
    club = api.get(f"/api/v1/clubs/{league.club.slug}/").json()
    assert club["members"] == 8 and club["seasons"][0]["slug"] == league.slug
    assert club["ranking"][0]["rank"] == 1 and club["ranking"][0]["games"] == 8
    member_id = club["ranking"][0]["member"]["id"]
    member = api.get(f"/api/v1/clubs/{league.club.slug}/members/{member_id}/").json()
    assert member["rating"] == club["ranking"][0]["rating"]
    assert len(member["history"]) == 8 and len(member["events"]) == 2
    standings = api.get(f"/api/v1/clubs/{league.club.slug}/seasons/{league.slug}/standings/")
    body = standings.json()
    assert body["events"] == ["evening-1", "evening-2"] and len(body["rows"]) == 8


def test_api_register_a_member_and_refuse_bad_input(client_for, league, alice):
    url = f"/api/v1/clubs/{league.club.slug}/members/"
    created = client_for("alice").post(url, {"name": "Noa", "code": "17"}, format="json")
    assert created.status_code == 201 and created.json()["code"] == "17"
    again = client_for("alice").post(url, {"name": "Other", "code": "17"}, format="json")
    assert again.status_code == 400 and "code" in again.json()
    assert client_for("mallory").post(url, {"name": "X"}, format="json").status_code == 403
    assert client_for("anon").post(url, {"name": "X"}, format="json").status_code == 401
    assert client_for("alice").post(url, {"nom": "X"}, format="json").status_code == 400
    assert league.club.members.count() == 9


def test_api_declare_a_season_with_a_bad_rule(client_for, league):
    url = f"/api/v1/clubs/{league.club.slug}/seasons/"
    bad = client_for("alice").post(url, {"name": "Autumn", "rule": {"rule": "best"}}, format="json")
    assert bad.status_code == 400 and "best" in bad.json()
    good = client_for("alice").post(
        url, {"name": "Autumn", "rule": {"rule": "places", "cap": 20}}, format="json"
    )
    assert good.status_code == 201 and good.json()["rule"]["cap"] == 20
    assert Season.objects.filter(club=league.club).count() == 2


def test_api_hold_a_tournament_under_a_club_and_link_a_player(client_for, league, alice):
    tournament = make_tournament(alice, name="Evening 3", players=2)
    url = f"/api/v1/tournaments/{tournament.slug}/club/"
    wrong = client_for("alice").put(
        url, {"club": league.club.slug, "season": "nope"}, format="json"
    )
    assert wrong.status_code == 400 and "season" in wrong.json()
    held = client_for("alice").put(
        url, {"club": league.club.slug, "season": league.slug, "rated": True}, format="json"
    )
    assert held.json() == {"club": league.club.slug, "season": league.slug, "rated": True}
    player = tournament.players.get(number=1)
    member = league.club.members.get(name="Player 1")
    link = f"/api/v1/tournaments/{tournament.slug}/players/{player.pk}/member/"
    assert client_for("alice").put(link, {"member": member.pk}, format="json").json() == {
        "member": member.pk
    }
    other = tournament.players.get(number=2)
    twice = f"/api/v1/tournaments/{tournament.slug}/players/{other.pk}/member/"
    refused = client_for("alice").put(twice, {"member": member.pk}, format="json")
    assert refused.status_code == 400 and "member" in refused.json()
    assert client_for("bob").put(twice, {"member": None}, format="json").status_code == 403


def test_the_recompute_command_rates_from_scratch_to_the_same_numbers(league):
    before = current_ratings(league.club.pk)
    out = io.StringIO()
    call_command("ratings_recompute", "--club", league.club.slug, stdout=out)
    assert "16 games rated" in out.getvalue()
    assert current_ratings(league.club.pk) == before
