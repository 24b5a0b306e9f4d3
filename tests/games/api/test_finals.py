"""The finals in the API: a race-to-N final's standings with the race (additions only),
a round in a decided race refused (409 naming `stage`), a side event started and its
rounds opened with `stage` (400 naming `stage` when two are open and none is named)."""

from __future__ import annotations

import pytest

from games.models import Game, Round
from tests.factories import open_round
from tests.games.helpers import enter_rummikub
from tests.games.test_finals import enter_win
from tournaments.models import Stage

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/club-open/"
STAGES = BASE + "stages/"


def _race_final(client, tournament, alice, *, target=2, cap=3):
    client.post(STAGES, {"name": "Qualification"}, format="json")
    final = {
        "name": "Final",
        "kind": "final",
        "cut_top": 4,
        "race_target": target,
        "race_cap": cap,
    }
    assert client.post(STAGES, final, format="json").status_code == 201
    for game in Game.objects.filter(table__round=open_round(tournament, alice)):
        enter_rummikub(game, alice)
    preview = client.post(STAGES + "1/cut/", {"dry_run": True}, format="json").json()
    assert client.post(STAGES + "1/cut/", preview["commit"], format="json").status_code == 201
    return [p["id"] for p in preview["entrants"]]


def _open_final_round(client, entrants):
    body = {"method": "manual", "tables": [entrants]}
    return client.post(BASE + "rounds/", body, format="json")


def test_the_race_in_the_stage_standings_and_409_once_decided(client_for, tournament, alice):
    client = client_for("alice")
    entrants = _race_final(client, tournament, alice)
    preview = client.post(
        BASE + "rounds/", {"method": "random", "dry_run": True}, format="json"
    ).json()
    assert (preview["stage"], preview["stage_words"]) == (2, "first to 2 wins: game 1 of at most 3")
    assert all(len(t["games"]) == 1 for t in preview["tables"])
    for winner in (entrants[2], entrants[2]):
        response = _open_final_round(client, entrants)
        assert response.status_code == 201, response.json()
        enter_win(Game.objects.get(table__round__number=response.json()["number"]), alice, winner)

    body = client_for("anon").get(STAGES + "2/standings/").json()
    race = body["race"]
    assert (race["status"], race["over"], race["champion"]["id"]) == ("won", True, entrants[2])
    assert (race["games"], race["target"], race["cap"]) == (2, 2, 3)
    assert race["wins"][0] == {"player": race["champion"], "wins": 2}
    assert "2 of at most 3 games played" in race["summary"]
    assert body["rows"][0]["player"]["id"] == entrants[2]
    assert body["rows"][0]["race_wins"] == 2 and body["rows"][0]["rank"] == 1

    rounds = Round.objects.count()
    refused = _open_final_round(client, entrants)
    assert refused.status_code == 409
    assert "stage" in refused.json()
    assert Round.objects.count() == rounds


def test_other_stages_have_no_race(client_for, tournament, alice):
    client = client_for("alice")
    client.post(STAGES, {"name": "Qualification"}, format="json")
    body = client_for("anon").get(STAGES + "1/standings/").json()
    assert body["race"] is None
    assert client_for("anon").get(STAGES + "1/").json()["side_of"] is None


def test_a_side_event_and_its_rounds_name_their_stage(client_for, tournament, alice):
    client = client_for("alice")
    entrants = _race_final(client, tournament, alice)
    assert client_for("bob").post(STAGES + "1/side/", {}, format="json").status_code == 403
    started = client.post(STAGES + "1/side/", {"name": "Consolation"}, format="json")
    assert started.status_code == 201, started.json()
    assert (started.json()["kind"], started.json()["side_of"], started.json()["number"]) == (
        "side",
        1,
        3,
    )
    again = client.post(STAGES + "1/side/", {}, format="json")
    assert again.status_code == 409 and "stage" in again.json()

    rounds = Round.objects.count()
    ambiguous = client.post(BASE + "rounds/", {"method": "random"}, format="json")
    assert ambiguous.status_code == 400 and "stage" in ambiguous.json()
    wrong = client.post(BASE + "rounds/", {"method": "random", "stage": 1}, format="json")
    assert wrong.status_code == 400 and "stage" in wrong.json()
    assert Round.objects.count() == rounds

    side = client.post(BASE + "rounds/", {"method": "random", "stage": 3}, format="json")
    assert side.status_code == 201, side.json()
    seated = {s["player"] for t in side.json()["tables"] for s in t["seats"]}
    assert seated and not seated & set(entrants)
    assert Stage.objects.get(number=3).status == "running"
    standings = client_for("anon").get(STAGES + "3/standings/").json()
    assert {r["player"]["id"] for r in standings["rows"]} == seated
