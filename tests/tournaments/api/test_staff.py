"""The staff API: list, change a role (`PATCH staff/{id}/`), remove (`DELETE`), create an
account (`POST staff/accounts/`), invitations (`staff/invitations/`). Refusals answer
400/403/409 naming the field and save nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.api import rows
from tournaments.models import StaffInvitation, StaffMember

pytestmark = pytest.mark.django_db


def base(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/staff/"


def member(tournament, username) -> StaffMember:
    return tournament.staff.get(user__username=username)


def state() -> tuple:
    return (
        rows(),
        get_user_model().objects.count(),
        sorted(StaffMember.objects.values_list("user__username", "role")),
        list(StaffInvitation.objects.values_list("used_at", "revoked_at")),
    )


def test_organisers_list_the_staff(client_for, tournament):
    response = client_for("alice").get(base(tournament))
    assert response.status_code == 200
    assert response.json() == [
        {"id": member(tournament, "alice").pk, "username": "alice", "role": "organiser"},
        {"id": member(tournament, "bob").pk, "username": "bob", "role": "scorekeeper"},
    ]


@pytest.mark.parametrize("who", ["bob", "mallory", "dave"])
def test_a_non_organiser_manages_no_staff(client_for, tournament, who):
    client = client_for(who)
    alice_id = member(tournament, "alice").pk
    before = state()
    answers = [
        client.get(base(tournament)),
        client.patch(f"{base(tournament)}{alice_id}/", {"role": "scorekeeper"}, format="json"),
        client.delete(f"{base(tournament)}{alice_id}/"),
        client.post(
            base(tournament) + "accounts/", {"username": "x1", "role": "organiser"}, format="json"
        ),
        client.post(base(tournament) + "invitations/", {"role": "organiser"}, format="json"),
    ]
    assert [a.status_code for a in answers] == [403] * 5
    assert state() == before


def test_anonymous_writes_need_credentials(client_for, tournament):
    before = state()
    answer = client_for("anon").delete(f"{base(tournament)}{member(tournament, 'bob').pk}/")
    assert answer.status_code == 401
    assert state() == before


def test_change_a_role(client_for, tournament):
    bob_id = member(tournament, "bob").pk
    response = client_for("alice").patch(
        f"{base(tournament)}{bob_id}/", {"role": "organiser"}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {"id": bob_id, "username": "bob", "role": "organiser"}


def test_demoting_the_last_organiser_is_409_naming_role(client_for, tournament):
    alice_id = member(tournament, "alice").pk
    before = state()
    response = client_for("alice").patch(
        f"{base(tournament)}{alice_id}/", {"role": "scorekeeper"}, format="json"
    )
    assert response.status_code == 409
    assert response.json() == {
        "role": ["alice is the only organiser; make someone else organiser first."]
    }
    assert state() == before


def test_removing_the_last_organiser_is_409_naming_staff(client_for, tournament):
    before = state()
    response = client_for("root").delete(f"{base(tournament)}{member(tournament, 'alice').pk}/")
    assert response.status_code == 409
    assert list(response.json()) == ["staff"]
    assert "alice is the only organiser" in response.json()["staff"][0]
    assert state() == before


def test_remove_staff_and_they_lose_access(client_for, tournament, round1):
    bob_id = member(tournament, "bob").pk
    assert client_for("alice").delete(f"{base(tournament)}{bob_id}/").status_code == 204
    assert not tournament.staff.filter(user__username="bob").exists()
    game = round1.tables.get(number=1).games.get(number=1)
    seated = list(game.table.seats.values_list("player_id", flat=True))
    answer = client_for("bob").post(
        f"/api/v1/games/{game.pk}/penalties/",
        {"player": seated[0], "kind": "timeout"},
        format="json",
    )
    assert answer.status_code == 403


def test_a_bad_role_or_another_tournaments_member_is_refused(client_for, tournament, dave):
    bob_id = member(tournament, "bob").pk
    client = client_for("alice")
    before = state()
    bad = client.patch(f"{base(tournament)}{bob_id}/", {"role": "referee"}, format="json")
    assert bad.status_code == 400 and list(bad.json()) == ["role"]
    unknown = client.patch(f"{base(tournament)}{bob_id}/", {"rank": 1}, format="json")
    assert unknown.status_code == 400 and "rank" in unknown.json()
    daves = StaffMember.objects.get(user=dave).pk  # staff of Other Open, not of this one
    assert client.delete(f"{base(tournament)}{daves}/").status_code == 404
    assert state() == before


def test_create_an_account_with_a_generated_password(client_for, tournament):
    response = client_for("alice").post(
        base(tournament) + "accounts/", {"username": "table4", "role": "scorekeeper"}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["username"], body["role"]) == ("table4", "scorekeeper")
    assert body["id"] == member(tournament, "table4").pk
    assert get_user_model().objects.get(username="table4").check_password(body["password"])


def test_an_invalid_username_and_password_make_no_account(client_for, tournament):
    before = state()
    response = client_for("alice").post(
        base(tournament) + "accounts/",
        {"username": "no spaces please", "password": "123", "role": "scorekeeper"},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"username", "password"}
    assert "valid username" in body["username"][0]
    assert "too short" in body["password"][0]
    assert state() == before


def test_invitations_made_listed_used_and_revoked(client_for, tournament):
    client = client_for("alice")
    made = client.post(base(tournament) + "invitations/", {"role": "organiser"}, format="json")
    assert made.status_code == 201
    invitation = made.json()
    assert (invitation["role"], invitation["state"]) == ("organiser", "open")
    link = invitation["link"]
    assert link.startswith("http://testserver/invitations/")

    invitee = Client()
    joined = invitee.post(link, {"username": "oona", "password": "tile-rack-42"})
    assert joined.status_code == 302
    assert member(tournament, "oona").role == "organiser"

    listed = client.get(base(tournament) + "invitations/").json()
    assert [(i["state"], i["used_by"], i["link"]) for i in listed] == [("used", "oona", None)]
    before = state()
    used = client.delete(f"{base(tournament)}invitations/{invitation['id']}/")
    assert used.status_code == 409 and list(used.json()) == ["invitation"]
    assert state() == before

    second = client.post(base(tournament) + "invitations/", {"role": "scorekeeper"}, format="json")
    revoked = client.delete(f"{base(tournament)}invitations/{second.json()['id']}/")
    assert revoked.status_code == 200
    assert (revoked.json()["state"], revoked.json()["link"]) == ("revoked", None)
    assert Client().get(second.json()["link"]).status_code == 410
