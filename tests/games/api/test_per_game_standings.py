"""Ranking by per-game averages: seven players sit at a table of 4
(4 games) and a table of 3 (3 games); `won_per_game` and `score_per_game` rank them by
games won and score per game played, in the API (2 decimal places), on the page and in
the CSV."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.web import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def uneven(alice, bob):
    tournament = make_tournament(
        alice,
        name="Uneven Open",
        scorekeepers=[bob],
        players=7,
        ranking=["won_per_game", "score_per_game"],
    )
    round_ = open_round(tournament, alice)  # tables of 4 and 3
    for game in Game.objects.filter(table__round=round_):
        enter_rummikub(game, bob)  # seat 1 wins every game of its table
    return tournament


def test_the_api_ranks_by_games_won_per_game(client_for, uneven):
    body = client_for("anon").get("/api/v1/tournaments/uneven-open/standings/").json()
    rows = {row["player"]["number"]: row for row in body["rows"]}
    # Seat 1 of each table won every game: 4 of 4 and 3 of 3 are both 1.00 per game.
    assert rows[1]["metrics"]["won_per_game"] == 1.0
    assert rows[5]["metrics"]["won_per_game"] == 1.0
    assert rows[1]["metrics"]["games_won"] == 4 and rows[5]["metrics"]["games_won"] == 3
    assert rows[2]["metrics"]["won_per_game"] == 0.0
    assert {rows[1]["rank"], rows[5]["rank"]} <= {1, 2}
    per_game = rows[5]["metrics"]["score_per_game"]
    assert per_game == round(rows[5]["metrics"]["score"] / 3, 2)
    assert isinstance(per_game, float)


def test_the_page_and_the_csv_show_two_decimals(client, uneven):
    page = text(client.get(reverse("tournament-detail", kwargs={"slug": uneven.slug})))
    assert 'title="Games won per game">W/G</abbr>' in page
    assert ">1.00<" in page
    csv = client.get(reverse("standings-csv", kwargs={"slug": uneven.slug})).content.decode()
    header = csv.lstrip("\ufeff").splitlines()[0].split(",")
    assert header[6:8] == ["won_per_game", "score_per_game"]


def test_the_ranking_help_explains_per_game_metrics(as_user):
    page = text(as_user("alice").get(reverse("tournament-create")))
    # The ranking is picked from named metrics: the per-game ones are offered by name.
    assert "Score per game" in page and "Games won per game" in page
