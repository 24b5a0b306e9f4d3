"""Tiles as chips (orange O1 never reads as 01), the player page's rank and current table,
"1 tile" in the singular, and a round without results left off the chart."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Game
from games.services.results import result_submit
from games.templatetags.tiles import tile_chips
from tests.factories import open_round
from tests.games.helpers import seated
from tests.html import html_text
from tests.web import text

pytestmark = pytest.mark.django_db


def test_tile_chips_keep_the_notation_and_name_the_colour():
    html = str(tile_chips("O1 O8 B10 R4 K2 J 7"))
    assert (
        '<span class="tile tile-orange" title="orange 1"><span class="tile-colour">O</span>1</span>'
        in html
    )
    assert (
        '<span class="tile tile-blue" title="blue 10"><span class="tile-colour">B</span>10</span>'
        in html
    )
    assert (
        '<span class="tile tile-red" title="red 4"><span class="tile-colour">R</span>4</span>'
        in html
    )
    assert (
        '<span class="tile tile-black" title="black 2"><span class="tile-colour">K</span>2</span>'
        in html
    )
    assert '<span class="tile tile-joker" title="joker">J</span>' in html
    assert '<span class="tile tile-bare" title="7, colour not noted">7</span>' in html
    assert str(tile_chips("")) == "" and str(tile_chips(None)) == ""
    assert "&lt;b&gt;" in str(tile_chips("<b>"))  # unknown text is escaped, never markup


def player_url(tournament, number: int) -> str:
    return reverse("player-detail", kwargs={"slug": tournament.slug, "player_number": number})


def test_player_page_shows_chips_rank_table_and_singular_tile(as_user, club, bob):
    game = Game.objects.get(table__round__tournament=club, table__number=1, number=1)
    players = seated(game)
    result_submit(
        game=game,
        by=bob,
        based_on=0,
        end="rummikub",
        winner=players[0],
        racks=[
            {"player": players[0], "tiles": ""},
            {"player": players[1], "tiles": "O1 O8 O9"},
            {"player": players[2], "points": 5, "tile_count": 1},
            {"player": players[3], "tiles": "R2"},
        ],
    )
    client = as_user("anon")
    client.get(reverse("tournament-detail", kwargs={"slug": club.slug}))  # a snapshot
    page = client.get(player_url(club, 2)).content.decode()
    assert 'class="tile tile-orange" title="orange 1"><span class="tile-colour">O</span>1<' in page
    assert "Rank: <strong>" in page and "of 8" in page
    assert "Round 1: " in page and ">table 1</a>, seat 2" in page
    totals = html_text(client.get(player_url(club, 3)).content)
    assert "5 points, 1 tile" in totals and "1 tiles" not in totals
    winner = text(client.get(player_url(club, 1)))
    assert "Rank: <strong>1</strong> of 8" in winner


def test_a_game_not_entered_yet_shows_no_rack_points(as_user, club):
    page = as_user("anon").get(player_url(club, 2)).content.decode()
    assert "not entered yet" in page
    # No rack, so no "N points" line: the points line is only for a rack given by totals.
    assert not re.search(r"<td>\s*points?\b", page)


def test_a_round_without_results_is_not_plotted(as_user, club, alice, bob):
    game = Game.objects.get(table__round__tournament=club, table__number=1, number=1)
    players = seated(game)
    result_submit(
        game=game,
        by=bob,
        based_on=0,
        end="rummikub",
        winner=players[0],
        racks=[{"player": players[0], "tiles": ""}]
        + [{"player": p, "tiles": t} for p, t in zip(players[1:], ("R2", "B2", "K2"), strict=True)],
    )
    open_round(club, alice)  # round 2: seated, nothing entered
    page = as_user("anon").get(player_url(club, 2)).content.decode()
    assert "after R1: -2" in page and "after R2" not in page
    assert "Round 2: " in page  # the current table is round 2's
