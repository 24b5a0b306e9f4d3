"""Text people typed is isolated from the page's direction (`<bdi>`): a Latin club name in
a Hebrew page ("Utrecht 30+") or a Hebrew name in an English one never reorders with the
words around it. Checked on the pages that show names: the standings (table and podium),
a round, a table, a player, and the projectors."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.templatetags.bidi import bdi
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.services.divisions import division_create
from tournaments.services.players import player_register
from tournaments.services.stages import stage_create
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db

CLUB = "Utrecht 30+"
HEBREW = "דנה כהן"


@pytest.fixture
def mixed(alice):
    tournament = make_tournament(alice, name="Open <2026>", players=2, games_per_table=1)
    player_register(tournament=tournament, by=alice, name="Ada Lovelace", club=CLUB)
    player_register(tournament=tournament, by=alice, name=HEBREW, club="חיפה")
    round_ = open_round(tournament, alice)
    for game in Game.objects.filter(table__round=round_):
        enter_rummikub(game, alice)
    return tournament


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (CLUB, "<bdi>Utrecht 30+</bdi>"),
        ("<b>x</b>", "<bdi>&lt;b&gt;x&lt;/b&gt;</bdi>"),  # still escaped
        ("", ""),
        (None, ""),
    ],
)
def test_the_filter_isolates_and_escapes(value, shown):
    assert bdi(value) == shown


def _get(path, language="he"):
    response = Client().get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["he", "en"])
def test_names_and_clubs_are_isolated_on_the_public_pages(mixed, language):
    slug = mixed.slug
    pages = {
        "standings": reverse("tournament-detail", kwargs={"slug": slug}),
        "round": reverse("round-detail", kwargs={"slug": slug, "round_number": 1}),
        "player": reverse("player-detail", kwargs={"slug": slug, "player_number": 3}),
        "projector": reverse("projector-live", kwargs={"slug": slug}),
    }
    shown = {name: _get(path, language) for name, path in pages.items()}
    assert f"<bdi>{CLUB}</bdi>" in shown["standings"]
    assert f"<bdi>{HEBREW}</bdi>" in shown["standings"]
    assert "<h1><bdi>Open &lt;2026&gt;</bdi></h1>" in shown["standings"]
    assert f"<bdi>{HEBREW}</bdi>" in shown["round"]
    assert "<h1><bdi>Ada Lovelace</bdi>" in shown["player"]
    assert f"<bdi>{CLUB}</bdi>" in shown["player"]
    assert f"<bdi>{CLUB}</bdi>" in shown["projector"]
    # No bare club: every time it shows, it is isolated.
    for page in shown.values():
        assert page.count(CLUB) == page.count(f"<bdi>{CLUB}</bdi>")


def test_the_podium_isolates_names_and_clubs(mixed, alice):
    tournament_update(tournament=mixed, by=alice, status="finished")
    page = _get(reverse("tournament-detail", kwargs={"slug": mixed.slug}))
    podium = page[page.index('class="podium"') : page.index("</ol>", page.index('class="podium"'))]
    assert "<bdi>" in podium and '<span class="club"><bdi>' in podium


def test_the_table_page_isolates_the_seats_names(mixed, as_user):
    page = as_user("alice").get(
        reverse("table-entry", kwargs={"slug": mixed.slug, "round_number": 1, "table_number": 1})
    )
    assert page.status_code == 200
    # "Player 1 +56": the score's sign stays after the name in a right-to-left page.
    assert '<span class="nowrap"><bdi>Player 1</bdi> +' in page.content.decode()


def test_division_chips_and_stage_names_are_isolated(alice):
    tournament = make_tournament(alice, players=4)
    division_create(tournament=tournament, by=alice, name="Seniors 60+")
    stage_create(tournament=tournament, by=alice, name="Qualification 1+")
    page = _get(reverse("tournament-detail", kwargs={"slug": tournament.slug}))
    assert 'aria-current="page"' in page  # the chips are shown
    assert ">Seniors 60+</a>" not in page and "<bdi>Seniors 60+</bdi></a>" in page
    assert "1. <bdi>Qualification 1+</bdi></a>" in page
