"""Result versions over the API: enter, list, confirm; stale entries; who may do it; and
every kind of impossible game answered 400 with the field named and nothing stored."""

from __future__ import annotations

import pytest
from django.utils.dateparse import parse_datetime

from games.models import Game, Result
from games.services.results import result_submit
from scoring.tiles import format_tiles, parse_tiles
from tests.api import PERSONAS, STAFF_ONLY, matrix, rows, seated, versions
from tests.factories import make_tournament, open_round

pytestmark = pytest.mark.django_db

RACK_KEYS = {"player", "tiles", "points", "tile_count", "jokers", "no_meld", "charge", "score",
             "winner", "substitute", "forfeit"}  # fmt: skip
# Every rack of an ordinary game: played by the seat's player, not forfeited.
PLAYED = {"substitute": "", "forfeit": False}
RESULT_KEYS = {"version", "status", "end", "racks", "submitted_by", "submitted_at",
               "confirmed_by", "confirmed_at"}  # fmt: skip


def results_url(game: Game) -> str:
    return f"/api/v1/games/{game.id}/results/"


def api_example(game: Game, based_on: int = 0) -> dict:
    """The example entry of docs/api/reference.md, for this game's four seated players."""
    p1, p2, p3, p4 = seated(game)
    return {
        "based_on": based_on,
        "end": "rummikub",
        "winner": p1,
        "racks": [
            {"player": p1, "tiles": ""},
            {"player": p2, "tiles": "R4 B10 K2"},
            {"player": p3, "tiles": "J 7"},
            {"player": p4, "points": 23, "tile_count": 4, "jokers": 0, "no_meld": "could_not"},
        ],
    }


# --- happy paths ---------------------------------------------------------------------------


def test_submit_scores_and_confirms_at_once(client_for, game, tournament):
    p1, p2, p3, p4 = seated(game)
    before = versions(tournament)
    response = client_for("bob").post(results_url(game), api_example(game), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == RESULT_KEYS
    assert parse_datetime(body.pop("submitted_at")) is not None
    assert parse_datetime(body.pop("confirmed_at")) is not None
    assert body == {
        "version": 1,
        "status": "confirmed",
        "end": "rummikub",
        "racks": [
            {"player": p1, "tiles": "", "points": 0, "tile_count": 0, "jokers": 0,
             "no_meld": None, "charge": 0, "score": 76, "winner": True, **PLAYED},
            {"player": p2, "tiles": format_tiles(parse_tiles("R4 B10 K2")), "points": 16,
             "tile_count": 3, "jokers": 0, "no_meld": None, "charge": 16, "score": -16,
             "winner": False, **PLAYED},
            {"player": p3, "tiles": format_tiles(parse_tiles("J 7")), "points": 37,
             "tile_count": 2, "jokers": 1, "no_meld": None, "charge": 37, "score": -37,
             "winner": False, **PLAYED},
            {"player": p4, "tiles": None, "points": 23, "tile_count": 4, "jokers": 0,
             "no_meld": "could_not", "charge": 23, "score": -23, "winner": False, **PLAYED},
        ],
        "submitted_by": "bob",
        "confirmed_by": "bob",
    }  # fmt: skip
    assert versions(tournament) == before + 1


def test_a_correction_supersedes_and_the_history_stays(client_for, game):
    client = client_for("bob")
    assert client.post(results_url(game), api_example(game), format="json").status_code == 201
    correction = api_example(game, based_on=1)
    correction["racks"][3]["points"] = 25
    second = client.post(results_url(game), correction, format="json")
    assert second.status_code == 201
    assert second.json()["version"] == 2

    listed = client_for("anon").get(results_url(game)).json()
    assert set(listed) == {"count", "next", "previous", "results"}
    assert [(r["version"], r["status"]) for r in listed["results"]] == [
        (1, "superseded"),
        (2, "confirmed"),
    ]
    assert set(listed["results"][0]) == RESULT_KEYS
    game_body = client_for("anon").get(f"/api/v1/games/{game.id}/").json()
    assert game_body["result"]["version"] == 2


def test_a_stale_entry_is_409_naming_the_current_version(client_for, game):
    client = client_for("bob")
    client.post(results_url(game), api_example(game), format="json")
    client.post(results_url(game), api_example(game, based_on=1), format="json")
    before = rows()
    stale = client_for("alice").post(results_url(game), api_example(game, based_on=1),
                                     format="json")  # fmt: skip
    assert stale.status_code == 409
    body = stale.json()
    assert body["current_version"] == 2
    assert "version 2" in body["based_on"][0]
    assert rows() == before
    ahead = client.post(results_url(game), api_example(game, based_on=7), format="json")
    assert ahead.status_code == 409
    assert ahead.json()["current_version"] == 2


@pytest.fixture
def double_entry(alice, bob, carol):
    """A tournament whose results wait for a second person; carol keeps score too."""
    t = make_tournament(alice, name="Double Cup", scorekeepers=[bob, carol], players=4,
                        results_need_confirmation=True)  # fmt: skip
    return open_round(t, alice).tables.get().games.get(number=1)


def test_confirmation_by_a_second_person(client_for, double_entry):
    game = double_entry
    tournament = game.table.round.tournament
    submitted = client_for("bob").post(results_url(game), api_example(game), format="json")
    assert submitted.status_code == 201
    assert (submitted.json()["status"], submitted.json()["confirmed_by"]) == ("submitted", None)
    assert client_for("anon").get(f"/api/v1/games/{game.id}/").json()["result"] is None
    before = versions(tournament)

    confirmed = client_for("carol").post(results_url(game) + "1/confirm/")
    assert confirmed.status_code == 200, confirmed.json()
    assert set(confirmed.json()) == RESULT_KEYS
    assert (confirmed.json()["status"], confirmed.json()["confirmed_by"]) == ("confirmed", "carol")
    assert versions(tournament) == before + 1
    again = client_for("alice").post(results_url(game) + "1/confirm/")
    assert again.status_code == 400
    assert client_for("alice").post(results_url(game) + "9/confirm/").status_code == 404


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anon", 401), ("mallory", 403), ("dave", 403), ("bob", 403), ("carol", 200),
     ("alice", 200), ("root", 200)],
)  # fmt: skip
def test_who_may_confirm(client_for, double_entry, who, expected):
    game = double_entry
    client_for("bob").post(results_url(game), api_example(game), format="json")
    response = client_for(who).post(results_url(game) + "1/confirm/")
    assert response.status_code == expected
    status = Result.objects.get(game=game, version=1).status
    assert status == ("confirmed" if expected == 200 else "submitted")


def test_an_organiser_may_confirm_their_own_entry(client_for, double_entry):
    game = double_entry
    client_for("alice").post(results_url(game), api_example(game), format="json")
    assert client_for("alice").post(results_url(game) + "1/confirm/").status_code == 200


@pytest.mark.parametrize(("who", "expected"), matrix(201, STAFF_ONLY))
def test_who_may_submit(client_for, game, who, expected):
    before = rows()
    response = client_for(who).post(results_url(game), api_example(game), format="json")
    assert response.status_code == expected
    assert Result.objects.filter(game=game).exists() == (expected == 201)
    if expected != 201:
        assert rows() == before


@pytest.mark.parametrize("who", PERSONAS)
def test_everybody_reads_the_versions_of_a_public_game(client_for, game, who):
    assert client_for(who).get(results_url(game)).status_code == 200


# --- bad input -----------------------------------------------------------------------------


def _other_table_player(game: Game) -> int:
    other = game.table.round.tables.exclude(pk=game.table_id).first()
    return other.seats.first().player_id


BAD_ENTRIES = {
    # id: (change the docs/api/reference.md example, the field the 400 names)
    "unknown player": (lambda e, g: e["racks"][1].update(player=999999), "racks"),
    "a player twice": (lambda e, g: e["racks"][1].update(player=e["racks"][2]["player"]),
                       "racks"),
    "a seated player missing": (lambda e, g: e["racks"].pop(), "racks"),
    "a player from another table": (
        lambda e, g: e["racks"][3].update(player=_other_table_player(g)), "racks"),
    "a bad tile token": (lambda e, g: e["racks"][1].update(tiles="R4 X10 K2"), "racks"),
    "a tile number 14": (lambda e, g: e["racks"][1].update(tiles="R14"), "racks"),
    "three jokers": (lambda e, g: (e["racks"][1].update(tiles="J J"),
                                   e["racks"][2].update(tiles="J 7")), "racks"),
    "a tile three times": (lambda e, g: (e["racks"][1].update(tiles="R5 R5"),
                                         e["racks"][2].update(tiles="R5")), "racks"),
    "a winner holding tiles": (lambda e, g: e["racks"][0].update(tiles="K3"), "racks"),
    "two empty racks": (lambda e, g: e["racks"][1].update(tiles=""), "racks"),
    "no winner and no blank rack": (
        lambda e, g: (e.pop("winner"), e["racks"][0].update(tiles="K3")),
        "winner",
    ),
    "a winner not at the table": (lambda e, g: e.update(winner=999999), "winner"),
    "negative points": (lambda e, g: e["racks"][3].update(points=-5), "racks"),
    "impossible points": (lambda e, g: e["racks"][3].update(points=500, tile_count=2), "racks"),
    "more points than tiles exist": (lambda e, g: e["racks"][3].update(points=10**6,
                                                                       tile_count=None), "racks"),
    "huge points": (lambda e, g: e["racks"][3].update(points=10**30), "racks"),
    "huge tile count": (lambda e, g: e["racks"][3].update(tile_count=10**30), "racks"),
    "three jokers by totals": (lambda e, g: e["racks"][3].update(jokers=3), "racks"),
    "tiles and points": (lambda e, g: e["racks"][1].update(points=16), "racks"),
    "neither tiles nor points": (lambda e, g: e["racks"][1].pop("tiles"), "racks"),
    "points as text": (lambda e, g: e["racks"][3].update(points="twenty"), "racks"),
    "tiles as a list": (lambda e, g: e["racks"][1].update(tiles=["R4"]), "racks"),
    "tiles absurdly long": (lambda e, g: e["racks"][1].update(tiles="R4 " * 1000), "racks"),
    "unknown no-meld flag": (lambda e, g: e["racks"][3].update(no_meld="forgot"), "racks"),
    "a rack that is not an object": (lambda e, g: e["racks"].__setitem__(1, [1, 2]), "racks"),
    "a rack without a player": (lambda e, g: e["racks"][1].pop("player"), "racks"),
    "a null player": (lambda e, g: e["racks"][1].update(player=None), "racks"),
    "racks not a list": (lambda e, g: e.update(racks={"player": 1}), "racks"),
    "racks null": (lambda e, g: e.update(racks=None), "racks"),
    "no racks": (lambda e, g: e.update(racks=[]), "racks"),
    "unknown end": (lambda e, g: e.update(end="draw"), "end"),
    "based_on text": (lambda e, g: e.update(based_on="first"), "based_on"),
    "based_on negative": (lambda e, g: e.update(based_on=-1), "based_on"),
    "based_on missing": (lambda e, g: e.pop("based_on"), "based_on"),
    "winner as text": (lambda e, g: e.update(winner="Ada"), "winner"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(BAD_ENTRIES))
def test_impossible_games_are_400_and_nothing_is_stored(client_for, game, tournament, case):
    change, field = BAD_ENTRIES[case]
    entry = api_example(game)
    change(entry, game)
    before, version = rows(), versions(tournament)
    response = client_for("bob").post(results_url(game), entry, format="json")
    assert response.status_code == 400, (case, response.json())
    assert field in response.json(), response.json()
    assert rows() == before
    assert versions(tournament) == version


def test_rack_errors_sit_at_the_rack_in_drf_list_shape(client_for, game):
    entry = api_example(game)
    entry["racks"][2]["tiles"] = "J 7 Q"
    body = client_for("bob").post(results_url(game), entry, format="json").json()
    assert body["racks"][:2] == [{}, {}]
    assert list(body["racks"][2]) == ["tiles"]
    assert "Q" in body["racks"][2]["tiles"][0]
    assert len(body["racks"]) == 4


def _exhausted_entry(game: Game, winner: int | None) -> dict:
    p1, p2, p3, p4 = seated(game)
    return {
        "based_on": 0,
        "end": "pool_exhausted",
        "winner": winner,
        "racks": [
            {"player": p1, "tiles": "R12"},
            {"player": p2, "tiles": "O13 O7"},
            {"player": p3, "tiles": "B3"},
            {"player": p4, "tiles": "K10 K11"},
        ],
    }


def test_pool_exhausted_computes_the_winner(client_for, game):
    p3 = seated(game)[2]
    response = client_for("bob").post(results_url(game), _exhausted_entry(game, None),
                                      format="json")  # fmt: skip
    assert response.status_code == 201
    winners = [r["player"] for r in response.json()["racks"] if r["winner"]]
    assert winners == [p3]


def test_pool_exhausted_with_a_winner_who_is_not_lowest(client_for, game):
    before = rows()
    response = client_for("bob").post(
        results_url(game), _exhausted_entry(game, seated(game)[0]), format="json"
    )
    assert response.status_code == 400
    assert "winner" in response.json()
    assert rows() == before


def test_tile_count_is_required_when_fewest_tiles_decides(client_for, alice, bob):
    t = make_tournament(alice, name="Enc Cup", preset="encyclopedia", scorekeepers=[bob],
                        players=3)  # fmt: skip
    game = open_round(t, alice).tables.get().games.get(number=1)
    p1, p2, p3 = seated(game)
    entry = {
        "based_on": 0,
        "end": "pool_exhausted",
        "racks": [
            {"player": p1, "points": 12},
            {"player": p2, "points": 20, "tile_count": 2},
            {"player": p3, "points": 9, "tile_count": 3},
        ],
    }
    before = rows()
    response = client_for("bob").post(results_url(game), entry, format="json")
    assert response.status_code == 400
    assert list(response.json()["racks"][0]) == ["tile_count"]
    assert "tile count is required" in response.json()["racks"][0]["tile_count"][0]
    assert rows() == before


@pytest.mark.parametrize(
    "body",
    [[], "result", None, 17, [{"based_on": 0}]],
)
def test_a_body_that_is_not_an_object(client_for, game, body):
    before = rows()
    response = client_for("bob").post(results_url(game), body, format="json")
    assert response.status_code == 400
    assert {"non_field_errors", "detail", "racks"} & set(response.json())
    assert rows() == before


def test_results_of_an_unknown_game_are_404(client_for, game):
    assert client_for("bob").post("/api/v1/games/999999/results/", {}).status_code == 404
    assert client_for("anon").get("/api/v1/games/999999/results/").status_code == 404


def test_the_service_check_stands_behind_the_view(bob, game):
    """The same rules hold without the API (the web forms call the same service)."""
    from scoring.errors import RuleError

    with pytest.raises(RuleError):
        result_submit(game=game, by=bob, based_on=0, end="rummikub", racks=[])


def test_the_one_blank_rack_implies_the_winner(client_for, game):
    entry = api_example(game)
    del entry["winner"]
    response = client_for("bob").post(results_url(game), entry, format="json")
    assert response.status_code == 201, response.json()
    winners = [rack["player"] for rack in response.json()["racks"] if rack["winner"]]
    assert winners == [seated(game)[0]]
