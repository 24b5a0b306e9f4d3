"""Penalties over the API: record (tiles drawn from the rules, sanction points), void
(kept in history), who may do it, and bad input."""

from __future__ import annotations

import pytest
from django.utils.dateparse import parse_datetime

from games.models import Penalty
from games.services.results import penalty_record
from tests.api import STAFF_ONLY, matrix, rows, seated, versions
from tests.factories import make_tournament, open_round

pytestmark = pytest.mark.django_db

PENALTY_KEYS = {"id", "player", "kind", "tiles_drawn", "points", "note", "recorded_by",
                "recorded_at", "voided"}  # fmt: skip


def url(game) -> str:
    return f"/api/v1/games/{game.id}/penalties/"


def test_record_a_timeout(client_for, game, tournament):
    p = seated(game)[1]
    before = versions(tournament)
    response = client_for("bob").post(
        url(game), {"player": p, "kind": "timeout", "note": "turn ran over"}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == PENALTY_KEYS
    assert parse_datetime(body.pop("recorded_at")) is not None
    assert body == {
        "id": Penalty.objects.get().id,
        "player": p,
        "kind": "timeout",
        "tiles_drawn": 1,
        "points": 0,
        "note": "turn ran over",
        "recorded_by": "bob",
        "voided": False,
    }
    assert versions(tournament) == before + 1


@pytest.mark.parametrize(
    ("preset", "rules", "kind", "drawn"),
    [
        ("standard", {"failed_manipulation_draw": 2}, "failed_manipulation", 2),
        ("standard", {"timeout_draw": 3}, "timeout", 3),
        ("standard", {}, "failed_manipulation", 3),
    ],
)
def test_tiles_drawn_come_from_the_rules(client_for, alice, bob, preset, rules, kind, drawn):
    t = make_tournament(alice, name="Rule Cup", preset=preset, rules=rules, scorekeepers=[bob],
                        players=2)  # fmt: skip
    game = open_round(t, alice).tables.get().games.first()
    response = client_for("bob").post(
        url(game), {"player": seated(game)[0], "kind": kind}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["tiles_drawn"] == drawn


def test_record_a_sanction(client_for, game):
    response = client_for("alice").post(
        url(game), {"player": seated(game)[2], "kind": "sanction", "points": 10}, format="json"
    )
    assert response.status_code == 201
    assert (response.json()["points"], response.json()["tiles_drawn"]) == (10, 0)


def test_void_keeps_the_penalty_in_history(client_for, game, bob, tournament):
    penalty = penalty_record(game=game, by=bob, player=seated(game)[0], kind="timeout")
    before = versions(tournament)
    response = client_for("bob").delete(f"/api/v1/penalties/{penalty.id}/")
    assert response.status_code == 204
    penalty.refresh_from_db()
    assert (penalty.voided, penalty.voided_by) == (True, bob)
    assert versions(tournament) == before + 1
    shown = client_for("anon").get(f"/api/v1/games/{game.id}/").json()["penalties"]
    assert [(x["id"], x["voided"]) for x in shown] == [(penalty.id, True)]
    again = client_for("bob").delete(f"/api/v1/penalties/{penalty.id}/")
    assert again.status_code == 400
    assert "non_field_errors" in again.json()


@pytest.mark.parametrize(("who", "expected"), matrix(201, STAFF_ONLY))
def test_who_may_record(client_for, game, who, expected):
    response = client_for(who).post(
        url(game), {"player": seated(game)[0], "kind": "timeout"}, format="json"
    )
    assert response.status_code == expected
    assert Penalty.objects.exists() == (expected == 201)


@pytest.mark.parametrize(("who", "expected"), matrix(204, STAFF_ONLY))
def test_who_may_void(client_for, game, alice, who, expected):
    penalty = penalty_record(game=game, by=alice, player=seated(game)[0], kind="timeout")
    assert client_for(who).delete(f"/api/v1/penalties/{penalty.id}/").status_code == expected
    penalty.refresh_from_db()
    assert penalty.voided == (expected == 204)


def test_penalties_of_a_private_tournament_are_hidden(client_for, alice):
    t = make_tournament(alice, name="Secret Cup", public=False, players=2)
    game = open_round(t, alice).tables.get().games.first()
    penalty = penalty_record(game=game, by=alice, player=seated(game)[0], kind="timeout")
    assert client_for("mallory").delete(f"/api/v1/penalties/{penalty.id}/").status_code == 404
    assert client_for("anon").delete(f"/api/v1/penalties/{penalty.id}/").status_code == 401
    assert client_for("alice").delete("/api/v1/penalties/987654/").status_code == 404


def _another_tables_player(game) -> int:
    other = game.table.round.tables.exclude(pk=game.table_id).first()
    return other.seats.first().player_id


BAD = {
    "unknown player": (lambda g: {"player": 999999, "kind": "timeout"}, "player"),
    "player from another table": (
        lambda g: {"player": _another_tables_player(g), "kind": "timeout"}, "player"),
    "player as text": (lambda g: {"player": "Ada", "kind": "timeout"}, "player"),
    "no player": (lambda g: {"kind": "timeout"}, "player"),
    "unknown kind": (lambda g: {"player": seated(g)[0], "kind": "rudeness"}, "kind"),
    "sanction without points": (lambda g: {"player": seated(g)[0], "kind": "sanction"},
                                "points"),
    "sanction of negative points": (
        lambda g: {"player": seated(g)[0], "kind": "sanction", "points": -5}, "points"),
    "sanction of zero points": (
        lambda g: {"player": seated(g)[0], "kind": "sanction", "points": 0}, "points"),
    "sanction of huge points": (
        lambda g: {"player": seated(g)[0], "kind": "sanction", "points": 10**30}, "points"),
    "sanction of impossible points": (
        lambda g: {"player": seated(g)[0], "kind": "sanction", "points": 2**40}, "points"),
    "points on a timeout": (
        lambda g: {"player": seated(g)[0], "kind": "timeout", "points": 5}, "points"),
    "note too long": (lambda g: {"player": seated(g)[0], "kind": "timeout", "note": "x" * 301},
                      "note"),
    "note as a list": (lambda g: {"player": seated(g)[0], "kind": "timeout", "note": ["x"]},
                       "note"),
    "note with NUL": (lambda g: {"player": seated(g)[0], "kind": "timeout", "note": "a\x00b"},
                      "note"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(BAD))
def test_bad_penalties_are_400_and_nothing_is_stored(client_for, game, tournament, case):
    make, field = BAD[case]
    before, version = rows(), versions(tournament)
    response = client_for("bob").post(url(game), make(game), format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert rows() == before
    assert versions(tournament) == version
