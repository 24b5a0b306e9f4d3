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
from tournaments.services.clubs import (
    club_create,
    member_create,
    player_link,
    tournament_hold_under,
)
from tournaments.services.players import player_update

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


# --- the ranking submission CSV ---------------------------------------------------------------


@pytest.fixture
def submitted(played, alice, bob):
    """Club Open played (game 1 of each table), held under a club, player 2 linked to a
    member with a code and player 8 withdrawn."""
    joker = club_create(by=alice, name="Haifa Joker")
    tournament_hold_under(tournament=played, by=alice, club=joker, season=None, rated=False)
    member = member_create(club=joker, by=alice, name="Player 2", code="HJ-017")
    player_link(player=played.players.get(number=2), by=alice, member=member)
    player_status_set(played, alice, 8)
    return played


def player_status_set(tournament, by, number):
    player = tournament.players.get(number=number)
    player_update(player=player, by=by, status="withdrawn")


@pytest.mark.parametrize("where", ["page", "api"])
def test_the_ranking_csv_is_one_row_per_player_with_member_codes(client, submitted, where):
    url = (
        reverse("ranking-csv", args=[submitted.slug])
        if where == "page"
        else f"/api/v1/tournaments/{submitted.slug}/ranking.csv"
    )
    answer = client.get(url)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    assert f"{submitted.slug}-ranking.csv" in answer["Content-Disposition"]
    rows = read(answer.content)
    assert list(rows[0]) == [
        "event", "date", "rank", "number", "name", "club", "member_code", "status", "score",
        "games_played", "games_won",
    ]  # fmt: skip
    assert len(rows) == 8
    assert {row["event"] for row in rows} == {submitted.slug}
    by_number = {row["number"]: row for row in rows}
    assert by_number["2"]["member_code"] == "HJ-017"
    assert by_number["1"]["member_code"] == ""
    assert by_number["8"]["status"] == "withdrawn"
    assert rows[-1]["number"] == "8"  # withdrawn players come last
    winners = [row for row in rows if row["games_won"] == "1"]
    assert len(winners) == 2 and all(row["games_played"] == "1" for row in winners)
    assert rows[0]["rank"] == "1"
