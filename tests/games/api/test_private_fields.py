"""Nothing public in the API that the pages keep for organisers.

The test reads each club resource through the API as an anonymous caller and compares it,
field by field, with the public page of the same thing: every value the API shows must be
on that page. The exceptions are listed in `NOT_ON_THE_PAGE`, each with the reason why it is
public all the same (the pages draw or format it instead of printing it). A membership
`code` or a `joined_on` date, which the web pages show to the club's organisers only (the
members list and its CSV), fail the comparison when the API gives them away.

Terms: leaf — one scalar value of the JSON answer with its path (`rows[].member.name`).
"""

from __future__ import annotations

import html
import re
from datetime import date

import pytest
from django.test import Client

from tests.games.helpers import evening
from tournaments.models import Member
from tournaments.services.clubs import club_create, member_create, season_create

# Paths (list indexes as []) public in the API though no page prints their value.
NOT_ON_THE_PAGE = {
    # The two parts of the rating: the page draws the rating (1000 + 40 (mu - 3 sigma)).
    "history[].mu": "drawn as the rating",
    "history[].sigma": "drawn as the rating",
    # Dates and times in ISO form; the pages print them in the reader's format.
    "computed_at": "formatted on the page",
    # A season's rule: the page words the parts its rule uses (a "best 2" season does
    # not use its place points).
    "seasons[].rule.place_points[]": "the season's rule, worded on its page",
    "season.rule.place_points[]": "the season's rule, worded on its page",
}

CODE = "J-4417"
JOINED = date(2019, 3, 14)


def leaves(value, path=""):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item, f"{path}[]")
    else:
        yield path, value


def page_text(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def not_on_page(answer: dict | list, page: str) -> list[str]:
    """The API's leaves whose value the page does not show (None and booleans say no more
    than the presence of their field, which the other leaves check)."""
    missing = []
    for path, value in leaves(answer):
        if value is None or isinstance(value, bool) or path in NOT_ON_THE_PAGE:
            continue
        if not re.search(rf"(?<![\w-]){re.escape(str(value))}(?![\w-])", page):
            missing.append(f"{path}={value!r}")
    return missing


@pytest.fixture
def joker(alice):
    """A club whose members all have a membership code and a joining date, with a rated
    season of two evenings."""
    club = club_create(by=alice, name="Haifa Joker")
    for n in range(1, 9):
        member_create(club=club, by=alice, name=f"Player {n}", code=f"{CODE}{n}", joined_on=JOINED)
    season = season_create(club=club, by=alice, name="Spring", rule={"rule": "best", "best": 2})
    for n in (1, 2):
        evening(alice, club, season, f"Evening {n}")
    return club


def test_the_api_shows_an_anonymous_caller_no_more_than_the_public_pages(client_for, joker):
    api = client_for("anon")
    web = Client()
    season = joker.seasons.get()
    members = api.get(f"/api/v1/clubs/{joker.slug}/members/").json()
    assert len(members) == 8
    # Every public page of the club: its own, its season's, each member's.
    club_pages = [f"/clubs/{joker.slug}/", f"/clubs/{joker.slug}/seasons/{season.slug}/"]
    member_pages = {m["id"]: f"/clubs/{joker.slug}/members/{m['id']}/" for m in members}
    public = "\n".join(page_text(web, url) for url in [*club_pages, *member_pages.values()])
    assert CODE not in public and "2019" not in public  # the organisers' fields

    club = api.get(f"/api/v1/clubs/{joker.slug}/").json()
    assert not_on_page(club, public) == []
    standings = api.get(f"/api/v1/clubs/{joker.slug}/seasons/{season.slug}/standings/").json()
    assert not_on_page(standings, public) == []
    for listed in members:
        # A member's fields are on that member's own page.
        member_page = page_text(web, member_pages[listed["id"]])
        assert not_on_page(listed, member_page) == [], listed
        detail = api.get(f"/api/v1/clubs/{joker.slug}/members/{listed['id']}/").json()
        assert not_on_page(detail, member_page) == [], listed
        assert set(detail) == {"id", "name", "rating", "events", "history"}


def test_the_clubs_organisers_read_the_codes_in_the_api_as_on_their_members_page(
    client_for, joker, as_user
):
    member = Member.objects.get(club=joker, name="Player 3")
    for who in ("alice",):
        api = client_for(who)
        listed = {m["id"]: m for m in api.get(f"/api/v1/clubs/{joker.slug}/members/").json()}
        assert listed[member.pk]["code"] == f"{CODE}3"
        assert listed[member.pk]["joined_on"] == "2019-03-14"
        detail = api.get(f"/api/v1/clubs/{joker.slug}/members/{member.pk}/").json()
        assert detail["code"] == f"{CODE}3"
        page = page_text(as_user("alice"), f"/clubs/{joker.slug}/members/")
        assert f"{CODE}3" in page
    # A signed-in stranger is the public: no codes.
    stranger = client_for("mallory").get(f"/api/v1/clubs/{joker.slug}/members/").json()
    assert all(set(m) == {"id", "name"} for m in stranger)
