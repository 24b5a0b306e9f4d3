"""Standings of a large field come a page at a time — on the page, in the fragment every
phone polls, and in the API — while a small field's come whole, as docs/api/reference.md
shows them."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games.selectors.standings import STANDINGS_PAGE_SIZE, STANDINGS_WHOLE_UP_TO
from tests.factories import make_tournament
from tests.web import as_user, text  # noqa: F401  (as_user is a fixture)
from tournaments.models import Player

LARGE = STANDINGS_WHOLE_UP_TO + 50  # three pages of 100, 100 and 50


@pytest.fixture
def large(alice):
    tournament = make_tournament(alice, name="Nationals", players=1)
    Player.objects.bulk_create(
        Player(tournament=tournament, number=n, name=f"Entrant {n}") for n in range(2, LARGE + 1)
    )
    return tournament


def api(client, tournament, **query):
    return client.get(reverse("api-standings", kwargs={"slug": tournament.slug}), query)


def test_a_small_field_comes_whole_in_the_api(client, alice):
    small = make_tournament(alice, players=12)
    body = api(client, small).json()
    assert (body["count"], body["page"], body["pages"], len(body["rows"])) == (12, 1, 1, 12)


def test_a_large_field_comes_a_page_at_a_time_in_the_api(client, large):
    first = api(client, large).json()
    assert (first["count"], first["page"], first["pages"]) == (LARGE, 1, 3)
    assert len(first["rows"]) == STANDINGS_PAGE_SIZE
    last = api(client, large, page=3).json()
    assert len(last["rows"]) == LARGE - 2 * STANDINGS_PAGE_SIZE
    assert {row["player"]["id"] for row in first["rows"]}.isdisjoint(
        row["player"]["id"] for row in last["rows"]
    )
    # Past the end: the last page, not an empty one.
    assert api(client, large, page=99).json()["page"] == 3


def test_find_me_shows_the_page_a_start_number_is_on(client, large):
    everyone = api(client, large, page=1).json()["rows"] + api(client, large, page=2).json()["rows"]
    wanted = everyone[STANDINGS_PAGE_SIZE + 5]["player"]["number"]  # on page 2
    body = api(client, large, player=wanted).json()
    assert body["page"] == 2
    assert wanted in [row["player"]["number"] for row in body["rows"]]


@pytest.mark.parametrize("query", [{"page": "0"}, {"page": "two"}, {"player": "-3"}])
def test_a_bad_page_is_a_400_naming_it(client, large, query):
    response = api(client, large, **query)
    assert response.status_code == 400
    assert set(response.json()) == set(query)


def test_the_page_and_its_fragment_show_one_page_and_poll_it(as_user, large):  # noqa: F811
    page = text(as_user("anon").get(reverse("tournament-detail", kwargs={"slug": large.slug})))
    assert "Page 1 of 3" in page and f"{LARGE} players" in page
    assert page.count('<td class="num rank">') >= STANDINGS_PAGE_SIZE  # the rank column
    live = reverse("standings-live", kwargs={"slug": large.slug})
    fragment = as_user("anon").get(live, {"page": "2"})
    html = text(fragment)
    assert "Page 2 of 3" in html
    assert f'hx-get="{live}?page=2"' in html  # polling keeps to the page shown
    assert html.count("<tr>") == STANDINGS_PAGE_SIZE + 1  # the header row and one page
    # "Find me" sits on the page, outside what polling replaces (typing is never wiped).
    assert 'name="player"' in page and 'name="player"' not in html


def test_the_csv_is_always_the_whole_table(as_user, large):  # noqa: F811
    response = as_user("anon").get(reverse("standings-csv", kwargs={"slug": large.slug}))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == LARGE + 1
