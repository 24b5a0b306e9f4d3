"""Games over the API: one game with its players, result and penalties; the tournament's
games filtered by round, table and result; private games stay hidden."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.services.results import penalty_record
from tests.api import PERSONAS, seated
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db

GAME_KEYS = {"id", "tournament", "round", "table", "number", "starter", "players", "result",
             "penalties", "extensions"}  # fmt: skip
GAMES = "/api/v1/tournaments/club-open/games/"


def test_game_detail(client_for, game, bob):
    p = seated(game)
    enter_rummikub(game, bob)
    penalty = penalty_record(game=game, by=bob, player=p[1], kind="timeout", note="slow")
    response = client_for("anon").get(f"/api/v1/games/{game.id}/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == GAME_KEYS
    assert {k: body[k] for k in ("id", "tournament", "round", "table", "number", "starter")} == {
        "id": game.id,
        "tournament": "club-open",
        "round": 1,
        "table": 1,
        "number": 1,
        "starter": 1,
    }
    assert [(x["position"], x["player"]) for x in body["players"]] == list(enumerate(p, 1))
    assert set(body["players"][0]) == {"position", "player", "number", "name", "club"}
    assert body["result"]["version"] == 1
    assert body["result"]["status"] == "confirmed"
    assert len(body["result"]["racks"]) == 4
    assert body["penalties"] == [
        {
            "id": penalty.id,
            "player": p[1],
            "kind": "timeout",
            "tiles_drawn": 1,
            "points": 0,
            "note": "slow",
            "recorded_by": None,  # a staff username, hidden from the public
            "recorded_at": body["penalties"][0]["recorded_at"],
            "voided": False,
        }
    ]


def test_a_game_without_a_result(client_for, game):
    body = client_for("anon").get(f"/api/v1/games/{game.id}/").json()
    assert (body["result"], body["penalties"]) == (None, [])


def test_game_list_filters(client_for, round1, bob):
    first = Game.objects.get(table__round=round1, table__number=2, number=3)
    enter_rummikub(first, bob)
    anon = client_for("anon")
    every = anon.get(GAMES).json()
    assert set(every) == {"count", "next", "previous", "results"}
    assert every["count"] == 8
    assert set(every["results"][0]) == GAME_KEYS
    assert [(g["table"], g["number"]) for g in every["results"]][:5] == [
        (1, 1), (1, 2), (1, 3), (1, 4), (2, 1)]  # fmt: skip

    table2 = anon.get(GAMES, {"round": 1, "table": 2}).json()
    assert [g["number"] for g in table2["results"]] == [1, 2, 3, 4]
    done = anon.get(GAMES, {"has_result": "true"}).json()
    assert [g["id"] for g in done["results"]] == [first.id]
    open_ = anon.get(GAMES, {"has_result": "false"}).json()
    assert open_["count"] == 7
    assert anon.get(GAMES, {"round": 2}).json()["count"] == 0
    for bad in ({"round": "first"}, {"table": 0}, {"round": 10**20}, {"has_result": "perhaps"}):
        response = anon.get(GAMES, bad)
        assert response.status_code == 400, bad
        assert set(bad) <= set(response.json())


def test_the_game_list_costs_a_fixed_number_of_queries(client_for, tournament, alice, bob):
    client = client_for("anon")
    enter_rummikub(open_round(tournament, alice).tables.first().games.first(), bob)
    with CaptureQueriesContext(connection) as small:
        client.get(GAMES)
    for _ in range(3):
        open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament, results=None)[:6]:
        enter_rummikub(game, bob)
    with CaptureQueriesContext(connection) as large:
        assert client.get(GAMES).json()["count"] == 32
    assert len(large) == len(small)


@pytest.mark.parametrize("who", PERSONAS)
def test_public_games_are_read_by_anybody(client_for, game, who):
    assert client_for(who).get(f"/api/v1/games/{game.id}/").status_code == 200
    assert client_for(who).get(GAMES).status_code == 200


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anon", 404), ("mallory", 404), ("dave", 404), ("bob", 200), ("alice", 200),
     ("root", 200)],
)  # fmt: skip
def test_private_games_are_hidden_from_outsiders(client_for, alice, bob, dave, who, expected):
    t = make_tournament(alice, name="Secret Cup", public=False, scorekeepers=[bob], players=4)
    game = open_round(t, alice).tables.get().games.first()
    client = client_for(who)
    assert client.get(f"/api/v1/games/{game.id}/").status_code == expected
    assert client.get("/api/v1/tournaments/secret-cup/games/").status_code == expected
    assert client.get(f"/api/v1/games/{game.id}/results/").status_code == expected
    posted = client.post(
        f"/api/v1/games/{game.id}/penalties/", {"player": 999999, "kind": "timeout"}
    )
    # Outsiders learn nothing (401 before anything for the anonymous).
    assert posted.status_code == {"anon": 401, "mallory": 404, "dave": 404}.get(who, 400)


def test_an_unknown_game_is_404(client_for):
    assert client_for("anon").get("/api/v1/games/424242/").status_code == 404
