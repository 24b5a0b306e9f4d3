"""The visual design's markup: the tournament menu marks the page shown, the rounds sit in
a disclosure; the standings carry movement since the last round, a finished tournament's
podium, the full value names for phones; the site is installable (manifest, icons)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from games.models import Game
from games.selectors.standings import standings_movement, standings_table
from games.services.standings import standings_recompute
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.html import Element, assert_in_html, parse
from tests.web import text
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rounds(alice, bob):
    """8 players, round 1 played whole, round 2 open with one game entered."""
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament):
        enter_rummikub(game, bob)
    ids = list(tournament.players.order_by("-number").values_list("id", flat=True))
    open_round(tournament, alice, tables=[ids[:4], ids[4:]])  # start numbers 8..5, 4..1
    game = Game.objects.get(table__round__number=2, table__number=1, number=1)
    enter_rummikub(game, bob)
    standings_recompute(tournament_id=tournament.pk)
    return tournament


def page(client, name, tournament, **kwargs) -> str:
    return text(client.get(reverse(name, kwargs={"slug": tournament.slug, **kwargs})))


def current_links(html: str) -> list[str]:
    """The addresses of the links (`<a href="…" aria-current="page">`, no other attribute)
    that mark the page shown, in the page's order."""
    found = []

    def walk(element: Element) -> None:
        for child in element.children:
            if isinstance(child, Element):
                attributes = dict(child.attributes)
                marks = attributes.keys() == {"href", "aria-current"}
                if child.name == "a" and marks and attributes["aria-current"] == "page":
                    found.append(str(attributes["href"]))
                walk(child)

    walk(parse(html))
    return found


def test_the_menu_marks_the_page_shown_and_folds_the_rounds(as_user, two_rounds):
    client = as_user("alice")
    slug = two_rounds.slug
    standings = page(client, "tournament-detail", two_rounds)
    assert current_links(standings) == [f"/t/{slug}/"]
    assert '<details class="menu">' in standings
    assert ">Rounds<" in standings
    round_two = page(client, "round-detail", two_rounds, round_number=2)
    assert current_links(round_two) == [f"/t/{slug}/rounds/2/"]
    assert '<summary class="current">Round 2<' in round_two
    staff = page(client, "tournament-staff", two_rounds)
    assert current_links(staff) == [f"/t/{slug}/staff/"]
    # A table of round 2: the round is where the page is, not the page itself.
    entry = page(client, "table-entry", two_rounds, round_number=2, table_number=1)
    assert current_links(entry) == []
    assert_in_html(f'<a href="/t/{slug}/rounds/2/" aria-current="location">', entry)


def test_the_standings_show_movement_since_the_last_round(client, two_rounds):
    html = page(client, "tournament-detail", two_rounds)
    table = standings_table(two_rounds)
    moves = standings_movement(two_rounds, table.rows, 2)
    assert any(moves), moves  # the reversed seating moved somebody
    shown = re.findall(r'<td class="num rank">(\d+)\s*(?:<span class="move (\w+)")?', html)
    assert [int(rank) for rank, _ in shown] == [row["rank"] for row in table.rows]
    expected = ["up" if m and m > 0 else "down" if m else "same" if m == 0 else "" for m in moves]
    assert [kind for _, kind in shown] == expected
    # The live fragment, cached per page state, shows the same.
    live = text(client.get(reverse("standings-live", kwargs={"slug": two_rounds.slug})))
    assert live.count('class="move ') == html.count('class="move ')


def test_round_one_shows_no_movement(client, alice):
    tournament = make_tournament(alice, players=8)
    open_round(tournament, alice)
    html = page(client, "tournament-detail", tournament)
    assert 'class="move ' not in html


def test_a_finished_tournament_opens_with_its_podium(
    client, alice, two_rounds, django_capture_on_commit_callbacks
):
    assert 'class="podium"' not in page(client, "tournament-detail", two_rounds)
    with django_capture_on_commit_callbacks(execute=True):  # the pages' generation moves
        tournament_update(tournament=two_rounds, by=alice, status="finished")
    html = page(client, "tournament-detail", two_rounds)
    assert '<span class="badge badge-finished">Finished</span>' in html
    podium = re.search(r'<ol class="podium".*?</ol>', html, re.S).group(0)
    first_three = [row["player"]["name"] for row in standings_table(two_rounds).rows[:3]]
    assert re.findall(r'class="who"[^>]*>([^<]+)<', podium) == first_three
    assert "Place 1:" in podium


def test_phones_get_the_full_names_of_the_values(client, two_rounds):
    html = page(client, "tournament-detail", two_rounds)
    table = standings_table(two_rounds)
    for column in table.columns:
        assert_in_html(f'<span class="cell-label" aria-hidden="true">{column.name} </span>', html)
        assert_in_html(f'<abbr title="{column.name}">{column.abbr}</abbr>', html)


def test_the_site_is_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["display"] == "standalone"
    assert manifest["short_name"] == "Rummitab"
    assert manifest["theme_color"] == "#0b2545"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]
    home = text(client.get("/"))
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=en">' in home
    assert 'rel="icon"' in home and 'name="theme-color"' in home
    assert client.get("/favicon.ico").status_code == 302


NAME = "Rummitab — Rummikub tournaments"


@pytest.fixture
def planted_dutch_name():
    """The manifest's name in the Dutch catalog (the catalogs are filled elsewhere)."""
    catalog = trans_real.translation("nl")._catalog
    saved = catalog.get(NAME)
    catalog[NAME] = "Rummitab — Rummikubtoernooien"
    try:
        yield
    finally:
        translation.deactivate()
        if saved is None:
            for part in catalog._catalogs:
                part.pop(NAME, None)
        else:
            catalog[NAME] = saved


def test_the_manifest_speaks_the_language_in_its_address(client, planted_dutch_name):
    dutch = client.get("/manifest.webmanifest", {"lang": "nl"})
    assert dutch.json()["name"] == "Rummitab — Rummikubtoernooien"
    assert (dutch.json()["lang"], dutch.json()["dir"]) == ("nl", "ltr")
    hebrew = client.get("/manifest.webmanifest", {"lang": "he"}).json()
    assert (hebrew["lang"], hebrew["dir"]) == ("he", "rtl")
    english = client.get("/manifest.webmanifest", {"lang": "en"}).json()
    assert (english["name"], english["lang"], english["dir"]) == (NAME, "en", "ltr")
    # One address per language: nothing else to vary on but what every answer varies on.
    assert "Cookie" not in dutch.get("Vary", "")
    assert "public" in dutch["Cache-Control"]


def test_without_a_language_the_manifest_follows_the_request(client, planted_dutch_name):
    for lang in ({}, {"lang": "xx"}):  # none, or one the site does not speak
        answer = client.get("/manifest.webmanifest", lang, HTTP_ACCEPT_LANGUAGE="nl")
        assert answer.json()["name"] == "Rummitab — Rummikubtoernooien"
        assert answer.json()["lang"] == "nl"
        vary = {part.strip() for part in answer["Vary"].split(",")}
        assert {"Accept-Language", "Cookie"} <= vary  # a shared cache keeps them apart


def test_each_page_links_the_manifest_in_its_language(client):
    home = text(client.get("/", HTTP_ACCEPT_LANGUAGE="he"))
    translation.deactivate()
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=he">' in home


def test_the_round_page_says_the_draws_quality_in_words(client, two_rounds):
    round_two = two_rounds.rounds.get(number=2)
    round_two.quality = {"repeat_pairs": 0, "max_meetings": 1, "same_club_pairs": 2}
    round_two.save(update_fields=["quality"])
    html = page(client, "round-detail", two_rounds, round_number=2)
    assert "Nobody meets an earlier opponent again." in html
    assert "2 pairs of players of the same club share a table." in html
    assert "repeat pairs" not in html and "same club pairs" not in html
