"""DELETE /api/v1/tournaments/{slug}/rounds/{number}/: cancel the last round (204), or say
why not (409 naming `round`); nothing is deleted when refused."""

from __future__ import annotations

import pytest

from tests.factories import open_round
from tests.games.helpers import enter_rummikub
from tests.games.test_round_cancel import counts, game_of
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(tournament, alice):
    """Club Open (tests/api.py) with rounds 1 and 2 open."""
    open_round(tournament, alice)
    open_round(tournament, alice)
    return tournament


def url(tournament: Tournament, number: int) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/rounds/{number}/"


def test_api_delete_cancels(club, client_for):
    response = client_for("alice").delete(url(club, 2))
    assert response.status_code == 204
    assert list(club.rounds.values_list("number", flat=True)) == [1]


def test_api_refuses_a_played_round_with_409_naming_round(club, client_for, alice):
    enter_rummikub(game_of(club, 2, 1), alice)
    response = client_for("alice").delete(url(club, 2))
    assert response.status_code == 409
    assert response.json()["round"] == ["round 2 has results at table 1; it cannot be cancelled."]
    assert counts(club) == (2, 4, 16, 16)


@pytest.mark.parametrize(("who", "code"), [("anon", 401), ("mallory", 403), ("bob", 403)])
def test_api_refuses_others(club, client_for, who, code):
    assert client_for(who).delete(url(club, 2)).status_code == code
    assert counts(club) == (2, 4, 16, 16)


def test_api_unknown_round_is_404(club, client_for):
    assert client_for("alice").delete(url(club, 9)).status_code == 404
    assert counts(club) == (2, 4, 16, 16)
