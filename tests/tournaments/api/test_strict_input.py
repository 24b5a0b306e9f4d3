"""Every write endpoint of the API reads its body strictly: an unknown key (at any level)
or a value of the wrong JSON type is a 400 naming the field, and nothing is saved."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Result
from tests.api import rows, seated

pytestmark = pytest.mark.django_db


def _result(game, **rack_extra):
    players = seated(game)
    racks = [
        {"player": p, "tiles": t} for p, t in zip(players, ["", "R4", "B5", "K6"], strict=True)
    ]
    racks[1].update(rack_extra)
    return {"based_on": 0, "end": "rummikub", "winner": players[0], "racks": racks}


# (endpoint, body) -> the error path that must be named.
CASES = [
    ("tournaments", {"name": "X", "colour": "red"}, ("colour",)),
    ("tournaments", {"name": 5}, ("name",)),
    ("tournaments", {"name": "X", "table_size": "4"}, ("table_size",)),
    ("tournaments", {"name": "X", "table_size": 4.0}, ("table_size",)),
    ("tournaments", {"name": "X", "public": "yes"}, ("public",)),
    ("tournaments", {"name": "X", "starts_on": 20261205}, ("starts_on",)),
    ("tournament", {"colour": "red"}, ("colour",)),
    ("tournament", {"rounds_planned": True}, ("rounds_planned",)),
    ("tournament", {"status": 1}, ("status",)),
    ("staff", {"username": "bob", "role": "scorekeeper", "admin": True}, ("admin",)),
    ("staff", {"username": ["bob"], "role": "scorekeeper"}, ("username",)),
    ("players", {"name": "Ada", "colour": "red"}, ("colour",)),
    ("players", {"name": "Ada", "rating": "1600"}, ("rating",)),
    ("players", {"name": "Ada", "rating": False}, ("rating",)),
    ("player", {"nickname": "A"}, ("nickname",)),
    ("player", {"club": 7}, ("club",)),
    ("rounds", {"method": "random", "tables_count": 2}, ("tables_count",)),
    ("rounds", {"method": "random", "seed": "7"}, ("seed",)),
    ("results", "joker", ("racks", 1, "joker")),
    ("results", "tiles_int", ("racks", 1, "tiles")),
    ("results", "extra_top", ("comment",)),
    ("results", "based_on_text", ("based_on",)),
    ("penalties", {"player": "P", "kind": "timeout", "colour": 1}, ("colour",)),
    ("penalties", {"player": "P", "kind": "timeout", "note": 5}, ("note",)),
    ("penalties", {"player": "P", "kind": "sanction", "points": "5"}, ("points",)),
    ("confirm", {"force": True}, ("force",)),
]


def _url_and_body(what, body, tournament, game):
    base = f"/api/v1/tournaments/{tournament.slug}/"
    if what == "results":
        variants = {
            "joker": _result(game, joker=1),
            "tiles_int": {
                **_result(game),
                "racks": [dict(r, tiles=5) for r in _result(game)["racks"]],
            },
            "extra_top": {**_result(game), "comment": "x"},
            "based_on_text": {**_result(game), "based_on": "0"},
        }
        return f"/api/v1/games/{game.pk}/results/", "post", variants[body]
    if what == "penalties":
        body = {**body, "player": seated(game)[0]}
        return f"/api/v1/games/{game.pk}/penalties/", "post", body
    if what == "confirm":
        return f"/api/v1/games/{game.pk}/results/1/confirm/", "post", body
    urls = {
        "tournaments": ("/api/v1/tournaments/", "post"),
        "tournament": (base, "patch"),
        "staff": (base + "staff/", "post"),
        "players": (base + "players/", "post"),
        "player": (base + f"players/{tournament.players.first().pk}/", "patch"),
        "rounds": (base + "rounds/", "post"),
    }
    return *urls[what], body


def _at(body, path):
    for key in path:
        body = body[key]
    return body


@pytest.mark.parametrize(("what", "body", "path"), CASES)
def test_unknown_fields_and_wrong_types_are_a_400_naming_the_field(
    client_for, tournament, game, what, body, path
):
    if what == "confirm":
        tournament.results_need_confirmation = True
        tournament.save()
        assert (
            client_for("bob")
            .post(f"/api/v1/games/{game.pk}/results/", _result(game), format="json")
            .status_code
            == 201
        )
    url, method, body = _url_and_body(what, body, tournament, game)
    before = rows()
    response = getattr(client_for("alice"), method)(url, body, format="json")
    assert response.status_code == 400, response.content
    assert isinstance(_at(response.json(), path), list), response.json()
    assert rows() == before
    if what == "confirm":
        assert Result.objects.get().status == "submitted"


def test_the_player_import_refuses_an_unknown_form_field(client_for, tournament):
    upload = SimpleUploadedFile("p.csv", b"name,club,rating\nAda,,\n", content_type="text/csv")
    before = rows()
    response = client_for("alice").post(
        f"/api/v1/tournaments/{tournament.slug}/players/import/",
        {"file": upload, "dry_run": "1"},
        format="multipart",
    )
    assert response.status_code == 400
    assert "dry_run" in response.json()
    assert rows() == before


def test_a_well_typed_body_still_passes(client_for, tournament, game):
    response = client_for("bob").post(
        f"/api/v1/games/{game.pk}/results/", _result(game), format="json"
    )
    assert response.status_code == 201, response.content
