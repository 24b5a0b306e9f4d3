"""Club pages and API: the club's rating list, a member's events and rating
history, a season's standings (page, CSV, API), and the organisers' writes with bad input."""

from __future__ import annotations

import csv
import io
import re

from django.urls import reverse

from games.models import RatingChange
from games.services.ratings import current_ratings
from tests.web import text
from tournaments.models import Member
from tournaments.services.tournaments import tournament_update


def test_the_club_page_lists_the_rating_list_seasons_and_tournaments(client, league):
    club = league.club
    page = text(client.get(reverse("club-detail", args=[club.slug])))
    assert "8 members" in page
    assert reverse("season-detail", args=[club.slug, league.slug]) in page
    assert "Evening 2" in page and "rated" in page
    best = max(current_ratings(club.pk).items(), key=lambda item: item[1].shown)
    member = Member.objects.get(pk=best[0])
    # The rows' cells sit on lines of their own: whitespace between the tags is not compared.
    cells = re.sub(r">\s+<", "><", page)
    assert f'>{member.name}</a></td><td class="num">{best[1].shown}<' in cells


def test_club_pages_query_count_does_not_grow_with_members(
    client, league, django_assert_max_num_queries
):
    with django_assert_max_num_queries(8):
        client.get(reverse("club-detail", args=[league.club.slug]))


def test_a_member_page_lists_events_and_draws_the_rating(client, league):
    member = league.club.members.get(name="Player 1")
    page = text(client.get(reverse("member-detail", args=[league.club.slug, member.pk])))
    assert page.count("Evening ") >= 2
    assert "<svg" in page and "Rating after each event" in page and "after evening-2: " in page
    last = RatingChange.objects.filter(member=member).order_by("position").last()
    assert f"rating <strong>{last.shown}</strong> after 8 games" in page


def test_a_private_tournament_is_not_listed_on_a_member_page(client, league, alice):
    tournament = league.tournaments.get(name="Evening 1")
    tournament_update(tournament=tournament, by=alice, public=False)
    member = league.club.members.get(name="Player 1")
    page = text(client.get(reverse("member-detail", args=[league.club.slug, member.pk])))
    assert "Evening 2" in page and "Evening 1" not in page


def test_the_season_page_and_csv_show_what_counted(client, league):
    club = league.club
    page = text(client.get(reverse("season-detail", args=[club.slug, league.slug])))
    assert "best 2 of the events count" in page
    response = client.get(reverse("season-csv", args=[club.slug, league.slug]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["rank", "member_id", "member", "total", "events", "evening-1", "evening-2"]
    first = rows[1]
    assert first[0] == "1" and int(first[3]) == int(first[5]) + int(first[6])


def test_unknown_clubs_and_seasons_are_404(client, league):
    assert client.get(reverse("club-detail", args=["nope"])).status_code == 404
    assert client.get(reverse("season-detail", args=[league.club.slug, "nope"])).status_code == 404
    assert client.get(reverse("member-detail", args=[league.club.slug, 99999])).status_code == 404
