"""People: registering, editing, privacy, links, and the event file carrying the link."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from rest_framework.test import APIClient

from games.services.event_file.export import event_file_export
from games.services.event_file.load import event_file_import
from scoring.errors import RuleError
from tests.factories import make_tournament
from tournaments.services.people import person_create, person_update, player_person_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(alice):
    return make_tournament(alice, name="Open", players=4)


def test_a_federation_id_is_unique_and_named_in_the_error(alice, desk):
    person_create(by=alice, name="Ada", federation_id="PL-1")
    with pytest.raises(RuleError) as refused:
        person_create(by=alice, name="Ada again", federation_id="PL-1")
    assert refused.value.path == ("federation_id",)


def test_only_who_may_edits(alice, bob, desk):
    ada = person_create(by=alice, name="Ada")
    with pytest.raises(PermissionDenied):
        person_update(person=ada, by=bob, name="Eve")
    person_update(person=ada, by=alice, birth_year=1961)
    ada.refresh_from_db()
    assert ada.birth_year == 1961


def test_a_person_plays_once_in_a_tournament(alice, desk):
    ada = person_create(by=alice, name="Ada")
    first, second = desk.players.order_by("number")[:2]
    player_person_link(player=first, by=alice, person=ada)
    with pytest.raises(RuleError) as refused:
        player_person_link(player=second, by=alice, person=ada)
    assert refused.value.path == ("person",)


def test_the_api_searches_and_hides_private_fields(alice, bob, desk):
    person_create(by=alice, name="Ada Peretz", federation_id="PL-9", email="ada@example.org")
    api = APIClient()
    assert api.get("/api/v1/people/?q=ada").status_code in (401, 403)
    make_tournament(bob, name="Bob's")
    api.force_authenticate(bob)
    found = api.get("/api/v1/people/?q=ada").json()
    assert found == [{"id": found[0]["id"], "name": "Ada Peretz", "federation_id": "PL-9",
                      "merged_into": None}]  # fmt: skip
    assert api.get("/api/v1/people/?q=PL-9").json()[0]["name"] == "Ada Peretz"
    refused = api.post("/api/v1/people/", {"name": "Eve", "birth_year": 1800}, format="json")
    assert refused.status_code == 400 and "birth_year" in refused.json()


def test_the_api_links_a_player(alice, desk):
    ada = person_create(by=alice, name="Ada")
    player = desk.players.get(number=1)
    api = APIClient()
    api.force_authenticate(alice)
    url = f"/api/v1/tournaments/{desk.slug}/players/{player.pk}/person/"
    assert api.put(url, {"person": ada.pk}, format="json").json() == {"person": ada.pk}
    assert api.put(url, {"person": 999999}, format="json").status_code == 400


def test_the_event_file_carries_the_person_and_links_by_federation_id(alice, bob, desk):
    ada = person_create(by=alice, name="Ada", federation_id="PL-5")
    eve = person_create(by=alice, name="Eve")
    players = list(desk.players.order_by("number"))
    player_person_link(player=players[0], by=alice, person=ada)
    player_person_link(player=players[1], by=alice, person=eve)
    document = event_file_export(desk)
    assert document["players"][0]["person"] == {"name": "Ada", "federation_id": "PL-5"}
    assert document["players"][2]["person"] is None
    make_tournament(bob, name="Bob's")
    copy = event_file_import(document=document, by=bob, slug="open-copy")
    linked = dict(copy.players.values_list("number", "person_id"))
    # by federation id only: Eve (no federation id) is not linked by her name
    assert linked == {1: ada.pk, 2: None, 3: None, 4: None}


def test_the_desk_page_finds_links_and_registers(alice, mallory, desk, client):
    ada = person_create(by=alice, name="Ada Peretz", federation_id="PL-3")
    client.force_login(mallory)
    assert client.get(f"/t/{desk.slug}/people/").status_code == 403
    client.force_login(alice)
    page = client.get(f"/t/{desk.slug}/people/?q=peretz").content.decode()
    assert "Ada Peretz (PL-3)" in page
    answer = client.post(f"/t/{desk.slug}/people/1/", {"person": ada.pk})
    assert answer.status_code == 302
    assert desk.players.get(number=1).person == ada
    # the same person for a second player: refused beside the player, nothing saved
    refused = client.post(f"/t/{desk.slug}/people/2/", {"person": ada.pk})
    assert refused.status_code == 400 and "already plays" in refused.content.decode()
    assert desk.players.get(number=2).person is None
    # a new person, linked at once; a taken federation id is named beside its field
    taken = client.post(
        f"/t/{desk.slug}/people/new/", {"name": "Ben", "federation_id": "PL-3", "player": 2}
    )
    assert taken.status_code == 400 and "another person has this federation id" in (
        taken.content.decode()
    )
    client.post(f"/t/{desk.slug}/people/new/", {"name": "Ben", "player": 2})
    assert desk.players.get(number=2).person.name == "Ben"
