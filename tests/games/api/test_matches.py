"""A game after the decision of a target-score match, over the API: 409 naming it."""

from __future__ import annotations

import pytest

from tests.api import seated
from tests.games.test_matches import enter, games_of, match  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def test_the_api_answers_409_naming_the_game(match, alice, client_for):  # noqa: F811
    g1, g2, *_ = games_of(match)
    enter(g2, alice, 1, (1, 1, 1))
    enter(g1, alice, 1, (60, 30, 30))  # decided in game 1
    p1, p2, p3, p4 = seated(g2)
    body = {
        "based_on": 1,
        "end": "rummikub",
        "winner": p2,
        "racks": [{"player": p2, "tiles": ""}] + [{"player": p, "points": 3} for p in (p1, p3, p4)],
    }
    response = client_for("alice").post(f"/api/v1/games/{g2.id}/results/", body, format="json")
    assert response.status_code == 409, response.json()
    assert "decided" in response.json()["game"][0]
    assert response.json()["deciding_game"] == 1
