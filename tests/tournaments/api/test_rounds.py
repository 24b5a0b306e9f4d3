"""Rounds over the API: open one (manual seating; the drawn methods go to the service),
read them back, who may open one, and seatings that are refused."""

from __future__ import annotations

import pytest

from games.services import rounds as services
from scoring.errors import RuleError
from tests.api import ORGANISER_ONLY, matrix, rows
from tournaments.models import Player, Round

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/tournaments/club-open/rounds/"


def ids(tournament) -> list[int]:
    return list(tournament.players.order_by("number").values_list("id", flat=True))


def test_open_a_manual_round(client_for, tournament):
    p = ids(tournament)
    body = {"method": "manual", "tables": [p[:4], p[4:7]]}
    Player.objects.filter(pk=p[7]).update(status="withdrawn")
    response = client_for("alice").post(ROUNDS, body, format="json")
    assert response.status_code == 201, response.json()
    round_ = Round.objects.get(tournament=tournament)
    tables = list(round_.tables.order_by("number"))
    assert response.json() == {
        "number": 1,
        "method": "manual",
        "stage": None,
        "tables": [
            {
                "id": table.id,
                "number": table.number,
                "seats": [{"position": n, "player": pid} for n, pid in enumerate(players, 1)],
                "games": [
                    {"id": game.id, "number": game.number, "starter": game.number}
                    for game in table.games.order_by("number")
                ],
            }
            for table, players in zip(tables, [p[:4], p[4:7]], strict=True)
        ],
        "quality": {
            "repeat_pairs": 0,
            "max_meetings": 1,
            "starter_balance": 1,
            "same_club_pairs": 1,
        },
    }
    # One game per seated player: four at the first table, three at the second.
    assert [len(t["games"]) for t in response.json()["tables"]] == [4, 3]


def test_list_and_detail(client_for, tournament, round1):
    listed = client_for("anon").get(ROUNDS).json()
    assert set(listed) == {"count", "next", "previous", "results"}
    assert [r["number"] for r in listed["results"]] == [1]
    detail = client_for("anon").get(ROUNDS + "1/")
    assert detail.status_code == 200
    assert detail.json() == listed["results"][0]
    assert set(detail.json()) == {"number", "method", "stage", "tables", "quality"}
    assert detail.json()["stage"] is None  # no stages in this tournament
    assert client_for("anon").get(ROUNDS + "2/").status_code == 404


@pytest.mark.parametrize("method", ["random", "swiss", "plan"])
def test_drawn_methods_go_to_the_service_with_the_tables(client_for, tournament, monkeypatch,
                                                          method):  # fmt: skip
    calls = []

    def spy(**kwargs):
        calls.append(kwargs)
        raise RuleError("method", "not today")

    monkeypatch.setattr(services, "round_open", spy)
    response = client_for("alice").post(
        ROUNDS, {"method": method, "tables": [[1, 2]]}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"method": ["not today"]}
    assert calls[0]["method"] == method
    assert calls[0]["tables"] == [[1, 2]]
    assert calls[0]["tournament"] == tournament


def test_a_random_round_is_drawn_and_repeatable_by_seed(client_for, tournament):
    response = client_for("alice").post(ROUNDS, {"method": "random", "seed": 42}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["number"], body["method"]) == (1, "random")
    seated = sorted(s["player"] for t in body["tables"] for s in t["seats"])
    assert seated == sorted(ids(tournament))
    assert {"repeat_pairs", "max_meetings"} <= set(body["quality"])
    # The same seed over the same history draws the same tables.
    Round.objects.filter(tournament=tournament).delete()
    again = client_for("alice").post(ROUNDS, {"method": "random", "seed": 42}, format="json")
    assert [[s["player"] for s in t["seats"]] for t in again.json()["tables"]] == [
        [s["player"] for s in t["seats"]] for t in body["tables"]
    ]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"method": "random", "seed": -1}, "seed"),
        ({"method": "random", "seed": "lucky"}, "seed"),
        ({"method": "random", "tables": [[1, 2]]}, "tables"),
    ],
)
def test_bad_draws_are_refused(client_for, tournament, body, field):
    before = rows()
    response = client_for("alice").post(ROUNDS, body, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert rows() == before


@pytest.mark.parametrize(("who", "expected"), matrix(201, ORGANISER_ONLY))
def test_who_may_open_a_round(client_for, tournament, who, expected):
    p = ids(tournament)
    response = client_for(who).post(
        ROUNDS, {"method": "manual", "tables": [p[:4], p[4:]]}, format="json"
    )
    assert response.status_code == expected
    assert Round.objects.filter(tournament=tournament).exists() == (expected == 201)


@pytest.mark.parametrize(
    ("tables", "field", "needle"),
    [
        (lambda p: [p[:4], [*p[4:7], 999999]], "tables", "unknown player 999999"),
        (lambda p: [p[:4], [*p[4:7], p[0]]], "tables", "seated twice"),
        (lambda p: [p[:4], p[4:7]], "tables", "not seated"),
        (lambda p: [p[:5], p[5:]], "tables", "seats 5 players"),
        (lambda p: [p[:7], p[7:]], "tables", "seats 1 players"),
        (lambda p: [], "tables", "list the tables"),
        (lambda p: None, "tables", "list the tables"),
        (lambda p: "1,2,3", "tables", "list the tables"),
        (lambda p: [["a", "b"], p], "tables", "list of player ids"),
        (lambda p: [p[:4], [*p[4:], 10**30]], "tables", "unknown player"),
        (lambda p: {"1": p}, "tables", "list the tables"),
    ],
)
def test_bad_seatings_are_refused_and_nothing_is_saved(client_for, tournament, tables, field,
                                                       needle):  # fmt: skip
    before = rows()
    response = client_for("alice").post(
        ROUNDS, {"method": "manual", "tables": tables(ids(tournament))}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert needle in " ".join(response.json()[field])
    assert rows() == before


def test_a_round_that_seats_a_withdrawn_player_is_refused(client_for, tournament):
    p = ids(tournament)
    Player.objects.filter(pk=p[7]).update(status="withdrawn")
    before = rows()
    response = client_for("alice").post(
        ROUNDS, {"method": "manual", "tables": [p[:4], p[4:]]}, format="json"
    )
    assert response.status_code == 400
    assert "withdrawn" in " ".join(response.json()["tables"])
    assert rows() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"method": "alphabetical", "tables": []}, "method"),
        ({"tables": [[1, 2]]}, "method"),
        ({"method": None}, "method"),
        ({"method": ["manual"]}, "method"),
    ],
)
def test_bad_method_is_refused(client_for, tournament, body, field):
    before = rows()
    response = client_for("alice").post(ROUNDS, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert rows() == before
