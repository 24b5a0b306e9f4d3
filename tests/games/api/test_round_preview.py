"""`POST rounds/` in two steps over the API: `dry_run` answers the draw and saves nothing;
the preview's `commit` body opens exactly that draw; a stale preview, tables that do not
seat exactly the players to seat, and missing results without `open_anyway` are refused
(409/400 naming the field) with nothing saved. Existing one-step requests still work."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.api import rows
from tests.factories import open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Round
from tournaments.services.players import player_register

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/tournaments/club-open/rounds/"


def seats(body: dict) -> list[list[int]]:
    return [[seat["player"] for seat in table["seats"]] for table in body["tables"]]


def test_a_dry_run_answers_the_draw_and_saves_nothing(client_for, tournament):
    for n in range(6):  # 14 players: two tables of four, two of three
        player_register(tournament=tournament, by=tournament.staff.first().user, name=f"X{n}")
    before = rows()
    response = client_for("alice").post(
        ROUNDS, {"method": "random", "seed": 11, "dry_run": True}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert rows() == before
    body = response.json()
    assert (body["number"], body["method"], body["seed"]) == (1, "random", 11)
    assert [len(t) for t in seats(body)] == [4, 4, 3, 3]
    assert [len(t["games"]) for t in body["tables"]] == [4, 4, 3, 3]
    assert body["tables"][2]["games"] == [{"number": n, "starter": n} for n in (1, 2, 3)]
    assert body["table_sizes"] == "2 tables of 4 and 2 tables of 3; tables of 3 play 3 games."
    assert body["uneven"] is True
    assert body["quality"]["repeat_pairs"] == 0 and "same_club_pairs" in body["quality"]
    assert "Nobody meets an earlier opponent again." in body["quality_words"]
    assert (body["missing_results"], body["open_anyway_needed"]) == ([], False)
    assert body["commit"] == {
        "method": "random",
        "seed": 11,
        "number": 1,
        "tables": seats(body),
        "open_anyway": False,
    }

    opened = client_for("alice").post(ROUNDS, body["commit"], format="json")
    assert opened.status_code == 201, opened.json()
    assert seats(opened.json()) == seats(body)
    assert Round.objects.get(tournament=tournament).seed == 11


def test_a_new_seed_redraws(client_for, tournament):
    draws = {
        seed: seats(
            client_for("alice")
            .post(ROUNDS, {"method": "random", "seed": seed, "dry_run": True}, format="json")
            .json()
        )
        for seed in (1, 2, 1)
    }
    assert len(draws) == 2 and draws[1] != draws[2]


def test_a_stale_preview_is_a_409_and_saves_nothing(client_for, tournament, alice):
    preview = client_for("alice").post(ROUNDS, {"method": "random", "dry_run": True}, format="json")
    open_round(tournament, alice)  # another round was opened meanwhile
    before = rows()
    response = client_for("alice").post(ROUNDS, preview.json()["commit"], format="json")
    assert response.status_code == 409
    assert response.json()["last_round"] == 1
    assert "round 1 is already open" in response.json()["number"][0]
    assert rows() == before


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda t: [t[0], t[1][:-1]], "not seated"),
        (lambda t: [t[0], [*t[1], 10**6]], "unknown player"),
        (lambda t: [t[0], [*t[1][:-1], t[0][0]]], "seated twice"),
        (lambda t: [[*t[0], *t[1]]], "seats 8 players"),
        (lambda t: {"a": 1}, "list the tables"),
    ],
)
def test_committed_tables_must_seat_exactly_the_players_to_seat(client_for, tournament,
                                                                change, needle):  # fmt: skip
    commit = (
        client_for("alice")
        .post(ROUNDS, {"method": "random", "dry_run": True}, format="json")
        .json()["commit"]
    )
    before = rows()
    response = client_for("alice").post(
        ROUNDS, {**commit, "tables": change(commit["tables"])}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert needle in " ".join(response.json()["tables"])
    assert rows() == before


def test_missing_results_need_open_anyway(client_for, tournament, round1, bob):
    for game in Game.objects.filter(table__round=round1, table__number=1):
        enter_rummikub(game, bob)
    preview = client_for("alice").post(ROUNDS, {"method": "random", "dry_run": True}, format="json")
    body = preview.json()
    assert body["open_anyway_needed"] is True
    assert body["missing_results"] == [
        {
            "round": 1,
            "missing": 4,
            "missing_tables": [2],
            "unconfirmed": 0,
            "unconfirmed_tables": [],
            "message": "round 1: 4 games missing at table 2",
        }
    ]
    before = rows()
    refused = client_for("alice").post(
        ROUNDS, {**body["commit"], "open_anyway": False}, format="json"
    )
    assert refused.status_code == 409
    assert "round 1: 4 games missing at table 2" in refused.json()["open_anyway"][0]
    assert refused.json()["missing_results"] == ["round 1: 4 games missing at table 2"]
    # The one-step request of existing clients is refused the same way.
    one_step = client_for("alice").post(ROUNDS, {"method": "random"}, format="json")
    assert one_step.status_code == 409 and "open_anyway" in one_step.json()
    assert rows() == before

    opened = client_for("alice").post(ROUNDS, body["commit"], format="json")
    assert opened.status_code == 201, opened.json()
    assert opened.json()["number"] == 2


@pytest.mark.parametrize(
    "body",
    [
        {"method": "random", "dry_run": "yes"},
        {"method": "random", "dry_run": 1},
        {"method": "random", "open_anyway": "true"},
    ],
)
def test_flags_must_be_booleans(client_for, tournament, body):
    before = rows()
    response = client_for("alice").post(ROUNDS, body, format="json")
    assert response.status_code == 400
    assert set(response.json()) <= {"dry_run", "open_anyway"}
    assert rows() == before


@pytest.mark.parametrize(("who", "expected"), [("anon", 401), ("bob", 403), ("mallory", 403)])
def test_only_organisers_preview(client_for, tournament, who, expected):
    response = client_for(who).post(ROUNDS, {"method": "random", "dry_run": True}, format="json")
    assert response.status_code == expected


def test_a_manual_dry_run_measures_the_given_tables(client_for, tournament):
    ids = list(tournament.players.order_by("number").values_list("id", flat=True))
    response = client_for("alice").post(
        ROUNDS, {"method": "manual", "tables": [ids[:4], ids[4:]], "dry_run": True}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["seed"] is None
    assert seats(response.json()) == [ids[:4], ids[4:]]
    assert not Round.objects.exists()
