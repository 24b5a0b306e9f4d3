"""Standings over the API: the latest snapshot and whether it is stale, as JSON and CSV."""

from __future__ import annotations

import csv
import io

import pytest

from games.models import Game, Standings
from games.services.results import penalty_record
from games.services.standings import standings_recompute
from tests.api import PERSONAS, seated
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/club-open/standings/"
CSV_URL = "/api/v1/tournaments/club-open/standings.csv"


def test_without_a_snapshot_the_standings_are_computed_now(client_for, game, bob, tournament):
    enter_rummikub(game, bob)
    assert not Standings.objects.filter(tournament=tournament).exists()
    response = client_for("anon").get(URL)
    assert response.status_code == 200
    body = response.json()
    tournament.refresh_from_db()
    # docs/api/reference.md's fields, and the paging of a large field (one page here).
    assert set(body) == {"results_version", "computed_version", "stale", "computed_at",
                         "ranking", "rows", "count", "page", "pages"}  # fmt: skip
    assert (body["page"], body["pages"]) == (1, 1)
    assert body["results_version"] == body["computed_version"] == tournament.results_version
    assert body["stale"] is False
    assert body["computed_at"]
    assert body["ranking"] == ["games_won", "score"]
    assert len(body["rows"]) == 8
    top = body["rows"][0]
    # docs/api/reference.md's row, and `qualified` (false: this tournament declares no slots)
    assert set(top) == {"rank", "player", "metrics", "qualified"}
    assert top["qualified"] is False
    winner = tournament.players.get(pk=seated(game)[0])
    assert top["rank"] == 1
    assert top["player"] == {"id": winner.id, "number": winner.number, "name": winner.name,
                             "club": winner.club, "status": "active"}  # fmt: skip
    assert {"games_won", "score", "games_played", "penalties"} <= set(top["metrics"])
    assert (top["metrics"]["games_won"], top["metrics"]["games_played"]) == (1, 1)
    # The four who did not play are equal on every ranking metric, so they share a rank.
    idle = [row["rank"] for row in body["rows"] if row["metrics"]["games_played"] == 0]
    assert len(idle) == 4 and len(set(idle)) == 1


def test_a_stale_snapshot_is_served_and_says_so(client_for, game, bob, tournament):
    enter_rummikub(game, bob)
    snapshot = standings_recompute(tournament_id=tournament.pk)
    # A penalty after the snapshot: the recompute would run after commit, which a test
    # transaction never reaches, so the snapshot stays behind.
    penalty_record(game=game, by=bob, player=seated(game)[1], kind="timeout")
    body = client_for("anon").get(URL).json()
    tournament.refresh_from_db()
    assert body["computed_version"] == snapshot.computed_version
    assert body["results_version"] == tournament.results_version > snapshot.computed_version
    assert body["stale"] is True
    assert all(row["metrics"]["penalties"] == 0 for row in body["rows"])


def test_the_csv_is_the_same_table(client_for, game, bob, tournament):
    enter_rummikub(game, bob)
    table = client_for("anon").get(URL).json()
    for accept in ("text/csv", "application/json", "*/*"):
        response = client_for("anon").get(CSV_URL, HTTP_ACCEPT=accept)
        assert response.status_code == 200, accept
        assert response["Content-Type"].startswith("text/csv")
        assert "attachment" in response["Content-Disposition"]
        lines = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
        assert len(lines) == len(table["rows"])
        for line, row in zip(lines, table["rows"], strict=True):
            assert int(line["rank"]) == row["rank"]
            assert int(line["player_id"]) == row["player"]["id"]
            assert line["name"] == row["player"]["name"]
            assert int(line["score"]) == row["metrics"]["score"]
            assert int(line["games_won"]) == row["metrics"]["games_won"]
        header = response.content.decode("utf-8-sig").splitlines()[0].split(",")
        assert header[:8] == ["rank", "player_id", "number", "name", "club", "status",
                              "games_won", "score"]  # fmt: skip


def test_an_empty_tournament_has_standings_too(client_for, alice):
    make_tournament(alice, name="Empty Cup")
    body = client_for("anon").get("/api/v1/tournaments/empty-cup/standings/").json()
    assert (body["rows"], body["stale"]) == ([], False)
    csv_body = client_for("anon").get("/api/v1/tournaments/empty-cup/standings.csv")
    # No rows, so only the ranking's columns after the player's.
    assert csv_body.content.decode() == (
        "\ufeffrank,player_id,number,name,club,status,games_won,score\r\n"
    )


@pytest.mark.parametrize("who", PERSONAS)
def test_anybody_reads_public_standings(client_for, tournament, who):
    assert client_for(who).get(URL).status_code == 200
    assert client_for(who).get(CSV_URL).status_code == 200


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anon", 404), ("mallory", 404), ("dave", 404), ("bob", 200), ("alice", 200),
     ("root", 200)],
)  # fmt: skip
def test_private_standings_are_hidden(client_for, alice, bob, dave, who, expected):
    make_tournament(alice, name="Secret Cup", public=False, scorekeepers=[bob])
    client = client_for(who)
    assert client.get("/api/v1/tournaments/secret-cup/standings/").status_code == expected
    response = client.get("/api/v1/tournaments/secret-cup/standings.csv")
    assert response.status_code == expected
    if expected == 404:
        assert response["Content-Type"] == "application/json"


def test_sanctions_come_off_the_score(client_for, alice, bob):
    t = make_tournament(alice, name="Sanction Cup", scorekeepers=[bob], players=2)
    game = Game.objects.get(table__round=open_round(t, alice), number=1)
    enter_rummikub(game, bob, "R5")
    penalty_record(game=game, by=bob, player=seated(game)[0], kind="sanction", points=3)
    body = client_for("anon").get("/api/v1/tournaments/sanction-cup/standings/").json()
    scores = {row["player"]["id"]: row["metrics"]["score"] for row in body["rows"]}
    assert scores == {seated(game)[0]: 5 - 3, seated(game)[1]: -5}
