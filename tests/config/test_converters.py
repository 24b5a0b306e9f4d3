"""The path converters (`config.converters`): one set, registered by the root URLconf,
the same digit limit for page addresses (`num`) and API paths (`id`). A number too long
for its column is a 404 on every route that takes one, page or API, never a 500."""

from __future__ import annotations

import re

import pytest
from django.urls import get_resolver
from django.urls.resolvers import URLPattern, URLResolver

from config.converters import MAX_DIGITS, NumberConverter
from tests.factories import make_tournament, open_round
from tournaments.services.clubs import club_create, season_create

pytestmark = pytest.mark.django_db

PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def _routes(patterns=None, prefix: str = "") -> list[str]:
    """Every route of the site as a path pattern ("t/<slug:slug>/rounds/<num:round_number>/")."""
    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            found += _routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            found.append(prefix + str(entry.pattern))
    return found


NUMBERED = sorted(
    route for route in _routes() if re.search(r"<(num|id):", route) and "^" not in route
)


def test_both_names_are_the_one_converter():
    from django.urls.converters import get_converters

    converters = get_converters()
    assert type(converters["num"]) is NumberConverter
    assert type(converters["id"]) is NumberConverter
    assert converters["num"].regex == converters["id"].regex == f"[0-9]{{1,{MAX_DIGITS}}}"


def test_pages_and_api_paths_take_numbers():
    assert any(route.startswith("api/v1/") for route in NUMBERED)
    assert any(not route.startswith("api/v1/") for route in NUMBERED)


@pytest.fixture
def world(alice, root):
    club = club_create(by=alice, name="Haifa Joker")
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "sum"})
    tournament = make_tournament(alice, players=8)
    open_round(tournament, alice)
    return {"slug": tournament.slug, "club": club.slug, "season": season.slug}


def _path(route: str, world: dict[str, str], number: str) -> str:
    def fill(match: re.Match) -> str:
        kind, name = match.group(1), match.group(2)
        if kind in ("num", "id", "int"):
            return number
        if "club" in name:
            return world["club"]
        if "season" in name:
            return world["season"]
        if name == "slug":
            return world["slug"]
        return "x"

    return "/" + PARAMETER.sub(fill, route)


@pytest.mark.parametrize("digits", [10, MAX_DIGITS, MAX_DIGITS + 1])
def test_a_number_too_big_for_its_column_is_404_everywhere(client, root, world, digits):
    """Not found (or the method not allowed) everywhere; only check-in, which takes a round
    not yet opened, shows its page (the page) or names the round (the API, a 400)."""
    client.force_login(root)  # a superuser: every page looks the number up
    answers = {
        route: client.get(_path(route, world, "9" * digits)).status_code for route in NUMBERED
    }
    assert answers and max(answers.values()) < 500, answers
    others = {
        route: code
        for route, code in answers.items()
        if code not in (404, 405) and "checkin" not in route
    }
    assert not others
