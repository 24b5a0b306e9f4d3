"""Shared by the API tests (tests/<app>/api/): clients signed in as each persona, a
running tournament to work on, and what the permission matrix and bad-input tests check.

Personas (tests/conftest.py): alice organises "Club Open", bob keeps score there, carol is
a second scorekeeper when a test makes her one, dave keeps score in *another* tournament,
mallory is a signed-in stranger, root a superuser, anon nobody at all.
"""

from __future__ import annotations

import uuid

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, Penalty, RackEntry, Result, Seat, Table
from tests.factories import make_tournament, open_round
from tournaments.models import Player, Round, StaffMember, Tournament

# Who may write, per docs/api/index.md, and what everybody else gets.
PERSONAS = ("anon", "mallory", "dave", "bob", "alice", "root")
ORGANISER_ONLY = {"anon": 401, "mallory": 403, "dave": 403, "bob": 403}
STAFF_ONLY = {"anon": 401, "mallory": 403, "dave": 403}


def matrix(allowed: int, denied: dict[str, int]) -> list[tuple[str, int]]:
    """(persona, expected status) pairs for `pytest.mark.parametrize`."""
    return [(who, denied.get(who, allowed)) for who in PERSONAS]


@pytest.fixture(autouse=True)
def _api_settings(settings):
    """`api_settings` for every test of a module that imports this fixture (the API
    folders' tests get it from tests/conftest.py)."""
    api_settings(settings)


def api_settings(settings) -> None:
    """A cache of this test's own (throttle counters start at zero) and rates no test
    reaches, except the throttling tests, which set their own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"api-test-{uuid.uuid4()}",
        }
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "10000/min", "user": "10000/min", "token": "10000/min"},
    }


@pytest.fixture
def dave(django_user_model):
    """Keeps score in another tournament, none of this one's business."""
    dave = django_user_model.objects.create_user("dave", password="dave-pass-123")
    olga = django_user_model.objects.create_user("olga", password="olga-pass-123")
    make_tournament(olga, name="Other Open", scorekeepers=[dave])
    return dave


@pytest.fixture
def people(alice, bob, carol, dave, mallory, root):
    return {
        "alice": alice,
        "bob": bob,
        "carol": carol,
        "dave": dave,
        "mallory": mallory,
        "root": root,
    }


@pytest.fixture
def client_for(people):
    """`client_for("bob")`: an API client sending bob's token; "anon" sends nothing."""

    def make(who: str) -> APIClient:
        client = APIClient()
        if who != "anon":
            token, _ = Token.objects.get_or_create(user=people[who])
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


@pytest.fixture
def tournament(alice, bob, people):
    """Club Open: alice organises, bob keeps score, eight players, nothing seated yet."""
    return make_tournament(alice, name="Club Open", scorekeepers=[bob], players=8)


@pytest.fixture
def round1(tournament, alice):
    """Round 1 of Club Open: two tables of four, four games each."""
    return open_round(tournament, alice)


@pytest.fixture
def game(round1):
    """Game 1 at table 1 of round 1."""
    return Game.objects.get(table__round=round1, table__number=1, number=1)


def seated(game: Game) -> list[int]:
    return list(game.table.seats.order_by("position").values_list("player_id", flat=True))


def rows() -> dict[str, int]:
    """How many rows each table holds: compare before and after a refused request."""
    models = (Tournament, StaffMember, Player, Round, Table, Seat, Game, Result, RackEntry, Penalty)
    return {model.__name__: model.objects.count() for model in models}


def versions(tournament: Tournament) -> int:
    tournament.refresh_from_db(fields=["results_version"])
    return tournament.results_version
