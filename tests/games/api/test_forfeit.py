"""Withdrawal during a round, forfeits, substitutes and late entries over the API: who may
do it, what comes back, and bad input (400/409 naming the field, nothing saved)."""

from __future__ import annotations

import pytest

from games.models import Game, Result
from tests.api import ORGANISER_ONLY, matrix, rows, seated, versions
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db


def withdraw_url(tournament, player_id: int) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/players/{player_id}/withdraw/"


def forfeit_url(game) -> str:
    return f"/api/v1/games/{game.id}/forfeit/"


@pytest.fixture
def played(game, bob):
    """Game 1 at table 1 played; games 2 to 4 not."""
    enter_rummikub(game, bob)
    return game


def test_withdraw_with_forfeit(client_for, played, tournament):
    leaver = seated(played)[1]
    before = versions(tournament)
    response = client_for("alice").post(
        withdraw_url(tournament, leaver), {"unplayed": "forfeit"}, format="json"
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["player"]["status"] == "withdrawn"
    assert body["unplayed"] == "forfeit"
    assert body["games"] == [2, 3, 4]
    assert len(body["forfeits"]) == 3
    assert versions(tournament) == before + 1
    game4 = Game.objects.get(pk=body["forfeits"][-1])
    shown = client_for("anon").get(f"/api/v1/games/{game4.id}/").json()["result"]
    assert shown["end"] == "forfeit"
    leaver_rack = next(rack for rack in shown["racks"] if rack["player"] == leaver)
    assert (leaver_rack["forfeit"], leaver_rack["score"], leaver_rack["substitute"]) == (
        True,
        -98,
        "",
    )


def test_withdraw_without_a_choice_names_the_field(client_for, played, tournament):
    before = rows()
    response = client_for("alice").post(
        withdraw_url(tournament, seated(played)[1]), {}, format="json"
    )
    assert response.status_code == 400
    (message,) = response.json()["unplayed"]
    assert "games 2, 3, 4 unplayed" in message
    assert rows() == before


@pytest.mark.parametrize("choice", ["later", 7, True])
def test_withdraw_with_an_unknown_choice(client_for, played, tournament, choice):
    before = rows()
    response = client_for("alice").post(
        withdraw_url(tournament, seated(played)[1]), {"unplayed": choice}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) == {"unplayed"}
    assert rows() == before
    assert tournament.players.get(pk=seated(played)[1]).status == "active"


@pytest.mark.parametrize(("who", "expected"), matrix(200, ORGANISER_ONLY))
def test_who_may_withdraw(client_for, people, played, tournament, who, expected):
    response = client_for(who).post(
        withdraw_url(tournament, seated(played)[1]), {"unplayed": "plays_on"}, format="json"
    )
    assert response.status_code == expected


def test_forfeit_on_a_game_already_played_is_a_409_on_game(client_for, played, tournament):
    before, version = rows(), versions(tournament)
    response = client_for("alice").post(
        forfeit_url(played), {"player": seated(played)[1], "based_on": 1}, format="json"
    )
    assert response.status_code == 409
    assert "already has a result" in response.json()["game"][0]
    assert (rows(), versions(tournament)) == (before, version)


def test_forfeit_of_an_unplayed_game(client_for, played):
    game2 = played.table.games.get(number=2)
    absent = seated(game2)[3]
    response = client_for("alice").post(
        forfeit_url(game2), {"player": absent, "based_on": 0}, format="json"
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["end"], body["status"], body["version"]) == ("forfeit", "confirmed", 1)
    assert sum(rack["score"] for rack in body["racks"]) == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"player": 999999, "based_on": 0}, "player"),
        ({"player": "x", "based_on": 0}, "player"),
        ({"based_on": 0}, "player"),
        ({"player": None, "based_on": -1}, "player"),
    ],
)
def test_forfeit_bad_input(client_for, played, body, field):
    game2 = played.table.games.get(number=2)
    before = rows()
    response = client_for("alice").post(forfeit_url(game2), body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    assert rows() == before


def test_a_scorekeeper_cannot_forfeit(client_for, played):
    game2 = played.table.games.get(number=2)
    response = client_for("bob").post(
        forfeit_url(game2), {"player": seated(game2)[0], "based_on": 0}, format="json"
    )
    assert response.status_code == 403
    assert not Result.objects.filter(game=game2).exists()


def _racks(game, substitute_for: int | None = None, name: str = "Sam Sub") -> list[dict]:
    players = seated(game)
    racks = [{"player": players[0], "tiles": ""}]
    racks += [
        {"player": p, "tiles": t} for p, t in zip(players[1:], ("R4", "B10", "K2"), strict=True)
    ]
    if substitute_for is not None:
        racks[substitute_for]["substitute"] = name
    return racks


def test_a_result_with_a_substitute(client_for, game):
    response = client_for("bob").post(
        f"/api/v1/games/{game.id}/results/",
        {"based_on": 0, "end": "rummikub", "winner": seated(game)[0], "racks": _racks(game, 2)},
        format="json",
    )
    assert response.status_code == 201, response.json()
    subs = {rack["player"]: rack["substitute"] for rack in response.json()["racks"]}
    assert subs[seated(game)[2]] == "Sam Sub"
    assert subs[seated(game)[1]] == ""


def test_a_substitute_for_a_player_not_at_that_table(client_for, game, tournament):
    stranger = tournament.players.exclude(seats__table=game.table).first()
    racks = _racks(game)
    racks[3] = {"player": stranger.pk, "tiles": "K2", "substitute": "Sam Sub"}
    before = rows()
    response = client_for("bob").post(
        f"/api/v1/games/{game.id}/results/",
        {"based_on": 0, "end": "rummikub", "winner": seated(game)[0], "racks": racks},
        format="json",
    )
    assert response.status_code == 400
    assert "player" in response.json()["racks"][3]
    assert rows() == before


def test_forfeit_is_not_an_end_to_enter(client_for, game):
    response = client_for("bob").post(
        f"/api/v1/games/{game.id}/results/",
        {"based_on": 0, "end": "forfeit", "winner": seated(game)[0], "racks": _racks(game)},
        format="json",
    )
    assert response.status_code == 400
    assert "end" in response.json()


def test_tournament_options_and_late_entries(client_for, round1, tournament):
    client = client_for("alice")
    url = f"/api/v1/tournaments/{tournament.slug}/"
    response = client.patch(
        url,
        {
            "missed_rounds": "average",
            "forfeit_rule": "absent_only",
            "credit_substitute_games": True,
        },
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["missed_rounds"], body["forfeit_rule"], body["credit_substitute_games"]) == (
        "average",
        "absent_only",
        True,
    )
    bad = client.patch(url, {"missed_rounds": "double"}, format="json")
    assert bad.status_code == 400 and "missed_rounds" in bad.json()
    late = client.post(f"{url}players/", {"name": "Late Larry"}, format="json")
    assert late.status_code == 201
    assert late.json()["joined_round"] == 2
    standings = client.get(f"{url}standings/").json()
    row = next(r for r in standings["rows"] if r["player"]["name"] == "Late Larry")
    assert row["notes"]["joined_round"] == 2
    assert row["notes"]["missed_rounds"] == "average"
