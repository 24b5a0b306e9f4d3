"""Qualification slots over the API: the tournament's slots and event, a player's
"already qualified" flag, `qualified` in the standings rows, the qualified list as CSV;
bad input is a 400 naming the field, with nothing saved."""

from __future__ import annotations

import csv
import io

import pytest

from games.models import Game
from games.services.standings import standings_recompute
from tests.api import rows, versions
from tests.games.helpers import enter_rummikub
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/club-open/"


@pytest.fixture
def played(tournament, round1, alice):
    """Club Open, game 1 of both tables entered: seat 1 goes out, seat 4 holds least."""
    for game in Game.objects.filter(table__round=round1, number=1):
        enter_rummikub(game, alice)
    return tournament


def _standings(client):
    # The change asked for a recompute on commit; a test's transaction never commits.
    standings_recompute(tournament_id=Tournament.objects.get(slug="club-open").pk)
    body = client.get(URL + "standings/").json()
    return {row["player"]["number"]: row for row in body["rows"]}, body["rows"]


def test_slots_pass_down_past_an_already_qualified_player(client_for, played):
    alice = client_for("alice")
    response = alice.patch(
        URL, {"qualify_slots": 2, "qualify_event": "National final"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["qualify_slots"], response.json()["qualify_event"]) == (
        2,
        "National final",
    )
    _by_number, ordered = _standings(alice)
    first = ordered[0]["player"]
    before = versions(played)
    assert [row["qualified"] for row in ordered].count(True) == 2
    assert ordered[0]["qualified"] is True

    # The leader qualified at an earlier event: the slot passes down.
    response = alice.patch(
        f"{URL}players/{first['id']}/", {"already_qualified": True}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["already_qualified"] is True
    assert versions(played) == before + 1  # the standings are recomputed for it
    _by_number, ordered = _standings(alice)
    assert ordered[0]["qualified"] is False and ordered[0]["already_qualified"] is True
    taken = [row["player"]["number"] for row in ordered if row["qualified"]]
    assert len(taken) == 2 and first["number"] not in taken

    text = alice.get(URL.replace("club-open/", "club-open/qualified.csv")).content.decode()
    lines = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert lines[0][:3] == ["event", "qualify_event", "slot"]
    assert [int(line[4]) for line in lines[1:]] == taken
    assert {line[1] for line in lines[1:]} == {"National final"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"qualify_slots": 3}, "qualify_event"),
        ({"qualify_event": "National final"}, "qualify_slots"),
        ({"qualify_slots": 0, "qualify_event": "Final"}, "qualify_slots"),
        ({"qualify_slots": 1001, "qualify_event": "Final"}, "qualify_slots"),
        ({"qualify_slots": "3", "qualify_event": "Final"}, "qualify_slots"),
        ({"qualify_slots": 3, "qualify_event": "x" * 121}, "qualify_event"),
    ],
)
def test_bad_slots_are_refused_naming_the_field(client_for, tournament, body, field):
    response = client_for("alice").patch(URL, body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    tournament.refresh_from_db()
    assert (tournament.qualify_slots, tournament.qualify_event) == (None, "")


def test_a_bad_already_qualified_flag_is_refused(client_for, tournament):
    player = tournament.players.first()
    before = rows()
    response = client_for("alice").patch(
        f"{URL}players/{player.id}/", {"already_qualified": "yes"}, format="json"
    )
    assert response.status_code == 400
    assert "already_qualified" in response.json()
    assert rows() == before
    player.refresh_from_db()
    assert player.already_qualified is False


def test_only_an_organiser_sets_the_flag(client_for, tournament):
    player = tournament.players.first()
    response = client_for("bob").patch(
        f"{URL}players/{player.id}/", {"already_qualified": True}, format="json"
    )
    assert response.status_code == 403
    assert (
        not Tournament.objects.get(pk=tournament.pk).players.filter(already_qualified=True).exists()
    )
