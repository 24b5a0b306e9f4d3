"""The stages API: add stages, a stage's standings, and the cut in two steps (`dry_run`
preview, then commit), with bad input refused (400/409 naming the field), nothing saved."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Stage, StageEntry

pytestmark = pytest.mark.django_db

STAGES = "/api/v1/tournaments/club-open/stages/"


def _two_stages(client, *, cut_top=4):
    assert client.post(STAGES, {"name": "Qualification"}, format="json").status_code == 201
    final = {"name": "Final", "kind": "final", "cut_top": cut_top, "carry_over": "half"}
    response = client.post(STAGES, final, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _play(round_, alice):
    for game in Game.objects.filter(table__round=round_):
        enter_rummikub(game, alice)


def test_add_and_list_stages(client_for, tournament):
    body = _two_stages(client_for("alice"))
    assert body["number"] == 2 and body["cut_top"] == 4 and body["status"] == "upcoming"
    listed = client_for("anon").get(STAGES).json()
    assert [s["name"] for s in listed] == ["Qualification", "Final"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Final", "cut_top": 4, "ranking": ["score", "luck"]}, "ranking"),
        ({"name": "Final", "cut_top": "4"}, "cut_top"),
        ({"name": "Final", "cut_top": 4, "cut_min_score": 0}, "cut_top"),
        ({"name": "Final", "cut_top": 4, "race_target": 4, "race_cap": 2}, "race_cap"),
        ({"name": "Final", "cut_top": 4, "colour": "red"}, "colour"),
    ],
)
def test_bad_stage_input_is_400_naming_the_field(client_for, tournament, body, field):
    client = client_for("alice")
    client.post(STAGES, {"name": "Qualification"}, format="json")
    response = client.post(STAGES, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert Stage.objects.count() == 1


def test_only_organisers_add_stages(client_for, tournament):
    assert client_for("bob").post(STAGES, {"name": "Q"}, format="json").status_code == 403
    assert client_for("anon").post(STAGES, {"name": "Q"}, format="json").status_code == 401
    assert not Stage.objects.exists()


def test_cut_preview_then_commit_then_the_final_standings(client_for, tournament, alice):
    client = client_for("alice")
    _two_stages(client)
    _play(open_round(tournament, alice), alice)
    preview = client.post(STAGES + "1/cut/", {"dry_run": True}, format="json")
    assert preview.status_code == 200, preview.json()
    body = preview.json()
    assert len(body["entrants"]) == 4 and len(body["eliminated"]) == 4
    assert body["committed"] is False
    assert not StageEntry.objects.exists()

    committed = client.post(STAGES + "1/cut/", body["commit"], format="json")
    assert committed.status_code == 201, committed.json()
    assert committed.json()["committed"] is True
    assert StageEntry.objects.count() == 4

    standings = client_for("anon").get(STAGES + "2/standings/").json()
    assert [r["player"]["id"] for r in standings["rows"]] != []
    assert {r["player"]["id"] for r in standings["rows"]} == {p["id"] for p in body["entrants"]}
    assert all(r["metrics"]["score"] == r["carried"] for r in standings["rows"])
    assert {str(r["player"]["id"]): r["carried"] for r in standings["rows"]} == body["carried"]


def test_a_stale_cut_is_409_and_saves_nothing(client_for, tournament, alice):
    client = client_for("alice")
    _two_stages(client)
    _play(open_round(tournament, alice), alice)
    body = client.post(STAGES + "1/cut/", {"dry_run": True}, format="json").json()
    stale = {"expected_entrants": [p["id"] for p in body["eliminated"]]}
    response = client.post(STAGES + "1/cut/", stale, format="json")
    assert response.status_code == 409
    assert "expected_entrants" in response.json()
    assert not StageEntry.objects.exists()
    assert Stage.objects.get(number=1).status == "running"


def test_a_cut_larger_than_the_field_is_400_naming_top(client_for, tournament, alice):
    client = client_for("alice")
    _two_stages(client, cut_top=12)
    _play(open_round(tournament, alice), alice)
    response = client.post(STAGES + "1/cut/", {"expected_entrants": []}, format="json")
    assert response.status_code == 400
    assert "top" in response.json()
    assert not StageEntry.objects.exists()


def test_closing_with_missing_results_is_409(client_for, tournament, alice):
    client = client_for("alice")
    _two_stages(client)
    open_round(tournament, alice)
    response = client.post(STAGES + "1/cut/", {"expected_entrants": []}, format="json")
    assert response.status_code == 409
    assert "stage" in response.json()
    assert response.json()["missing_results"]
    assert not StageEntry.objects.exists()
    assert Stage.objects.get(number=1).status == "running"


def test_the_cut_is_the_organisers(client_for, tournament, alice):
    _two_stages(client_for("alice"))
    _play(open_round(tournament, alice), alice)
    assert (
        client_for("bob").post(STAGES + "1/cut/", {"dry_run": True}, format="json").status_code
        == 403
    )
    assert (
        client_for("bob")
        .post(STAGES + "1/cut/", {"expected_entrants": []}, format="json")
        .status_code
        == 403
    )
    assert not StageEntry.objects.exists()


def test_an_unknown_stage_is_404(client_for, tournament):
    assert client_for("anon").get(STAGES + "3/standings/").status_code == 404


def test_change_a_stage_and_bad_changes_save_nothing(client_for, tournament, alice):
    client = client_for("alice")
    _two_stages(client)
    changed = client.patch(
        STAGES + "2/", {"name": "Grand final", "race_target": 4, "race_cap": 9}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["name"], changed.json()["race_target"]) == ("Grand final", 4)
    bad = client.patch(STAGES + "2/", {"ranking": ["score", "luck"]}, format="json")
    assert bad.status_code == 400 and "ranking" in bad.json()
    assert Stage.objects.get(number=2).ranking == tournament.ranking
    assert client_for("bob").patch(STAGES + "2/", {"name": "X"}, format="json").status_code == 403
    assert client_for("anon").get(STAGES + "2/").json()["name"] == "Grand final"


def test_the_rounds_list_names_each_rounds_stage(client_for, tournament, alice):
    client = client_for("alice")
    _two_stages(client)
    _play(open_round(tournament, alice), alice)
    body = client.post(STAGES + "1/cut/", {"dry_run": True}, format="json").json()
    assert client.post(STAGES + "1/cut/", body["commit"], format="json").status_code == 201
    open_round(tournament, alice, tables=[[p["id"] for p in body["entrants"]]])
    rounds = client_for("anon").get("/api/v1/tournaments/club-open/rounds/").json()
    listed = rounds["results"] if isinstance(rounds, dict) else rounds
    assert [(r["number"], r["stage"]) for r in listed] == [(1, 1), (2, 2)]
