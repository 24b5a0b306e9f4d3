"""The games layer's CSV exports (results, standings on the page and in the API) go through
the safe writer: a BOM first, formula cells neutralised, scores still numbers."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games.models import Game
from tests.games.helpers import enter_rummikub
from tournaments.models import Player

pytestmark = pytest.mark.django_db

# Start number -> (name, club) as a spreadsheet would run them; stored straight in the
# table (a tab or CR in front never survives the services, but could come from elsewhere).
HOSTILE = {
    1: ('=HYPERLINK("http://evil.example","x")', "-3"),
    2: ("+1+1", "@SUM(A1)"),
    3: ("\t=1", "\r=2"),
}


@pytest.fixture
def hostile(club, bob):
    """Club Open, its players renamed to formulas, then game 1 of each table entered (so
    the standings snapshot carries the names too)."""
    for number, (name, club_name) in HOSTILE.items():
        Player.objects.filter(tournament=club, number=number).update(name=name, club=club_name)
    for game in Game.objects.filter(table__round__tournament=club, number=1):
        enter_rummikub(game, bob)
    return club


def read(content: bytes) -> list[dict[str, str]]:
    assert content.startswith("\ufeff".encode()), content[:20]  # the BOM Excel needs
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))


def test_results_csv_neutralises_names_and_keeps_scores_numbers(as_user, hostile):
    rows = read(as_user("alice").get(reverse("results-csv", args=[hostile.slug])).content)
    names = {row["player"] for row in rows}
    assert {"'" + name for name, _ in HOSTILE.values()} <= names
    assert not any(name.startswith(("=", "+", "-", "@", "\t", "\r")) for name in names)
    losers = [row for row in rows if row["winner"] == "0"]
    assert losers and all(int(row["score"]) < 0 for row in losers)  # "-16", not "'-16"


@pytest.mark.parametrize("address", ["standings-csv", "api-standings-csv"])
def test_standings_csv_neutralises_names_and_clubs_and_keeps_scores_numbers(
    as_user, hostile, address
):
    rows = read(as_user("anon").get(reverse(address, args=[hostile.slug])).content)
    by_number = {int(row["number"]): row for row in rows}
    for number, (name, club_name) in HOSTILE.items():
        assert (by_number[number]["name"], by_number[number]["club"]) == (
            "'" + name,
            "'" + club_name,
        )
    assert any(int(row["score"]) < 0 for row in rows)


def test_standings_csv_is_byte_identical_on_the_page_and_in_the_api(as_user, hostile):
    page = as_user("anon").get(reverse("standings-csv", args=[hostile.slug]))
    api = as_user("anon").get(reverse("api-standings-csv", args=[hostile.slug]))
    assert page.content == api.content
    assert page.content.startswith("\ufeff".encode())
