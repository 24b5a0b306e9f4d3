"""The calendar feeds of a tournament and of a season, read back with the `icalendar`
package: the tournament's day and each opened round, with stable UIDs, CRLF lines and
escaped text; private tournaments stay out."""

from __future__ import annotations

from datetime import date, timedelta

import icalendar
import pytest
from django.urls import reverse

from tests.factories import make_tournament, open_round
from tests.games.helpers import evening
from tournaments.calendar import escape, fold
from tournaments.models import Round
from tournaments.services.clubs import club_create, season_create
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


def events(response) -> list:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    raw = response.content
    assert raw.endswith(b"\r\n") and b"\n" not in raw.replace(b"\r\n", b"")
    assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
    calendar = icalendar.Calendar.from_ical(raw)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    return sorted(calendar.walk("VEVENT"), key=lambda event: str(event["UID"]))


def test_a_tournament_feed_has_its_day_and_each_opened_round(client, alice):
    tournament = make_tournament(
        alice, name="Club Open; winter, 2026", players=8, starts_on=date(2026, 12, 5)
    )
    first = open_round(tournament, alice)
    Round.objects.filter(pk=first.pk).update(ends_at=first.created_at + timedelta(minutes=50))
    second = open_round(tournament, alice)

    found = events(client.get(reverse("tournament-calendar", args=[tournament.slug])))
    by_uid = {str(event["UID"]).split("@")[0]: event for event in found}
    assert set(by_uid) == {f"tournament-{tournament.pk}", f"round-{first.pk}", f"round-{second.pk}"}
    day = by_uid[f"tournament-{tournament.pk}"]
    assert str(day["SUMMARY"]) == "Club Open; winter, 2026"
    assert day.decoded("DTSTART") == date(2026, 12, 5)
    assert day.decoded("DTEND") == date(2026, 12, 6)
    one = by_uid[f"round-{first.pk}"]
    assert str(one["SUMMARY"]) == "Club Open; winter, 2026: round 1"
    assert one.decoded("DTSTART") == first.created_at.replace(microsecond=0)
    assert one.decoded("DTEND") - one.decoded("DTSTART") == timedelta(minutes=50)
    two = by_uid[f"round-{second.pk}"]
    assert two.decoded("DTEND") - two.decoded("DTSTART") == timedelta(hours=1)
    assert str(two["URL"]).endswith(reverse("round-detail", args=[tournament.slug, 2]))
    assert all("DTSTAMP" in event for event in found)


def test_a_tournament_without_a_date_or_rounds_is_an_empty_calendar(client, alice):
    tournament = make_tournament(alice)
    assert events(client.get(reverse("tournament-calendar", args=[tournament.slug]))) == []


def test_a_private_tournament_feed_is_a_404_for_outsiders(client, alice):
    tournament = make_tournament(alice, public=False)
    assert client.get(reverse("tournament-calendar", args=[tournament.slug])).status_code == 404
    client.force_login(alice)
    assert client.get(reverse("tournament-calendar", args=[tournament.slug])).status_code == 200


def test_a_season_feed_has_each_public_evening(client, alice):
    joker = club_create(by=alice, name="Haifa Joker")
    season = season_create(club=joker, by=alice, name="Spring", rule={"rule": "sum"})
    one = evening(alice, joker, season, "Evening 1", played=False, rated=False)
    two = evening(alice, joker, season, "Evening 2", played=False, rated=False)
    tournament_update(tournament=two, by=alice, public=False)
    url = reverse("season-calendar", args=[joker.slug, season.slug])
    found = events(client.get(url))
    assert [str(event["SUMMARY"]) for event in found] == ["Evening 1: round 1"]
    assert str(found[0]["UID"]).startswith(f"round-{one.rounds.get().pk}@")
    assert client.get(reverse("season-calendar", args=[joker.slug, "autumn"])).status_code == 404


def test_text_is_escaped_and_long_lines_folded():
    assert escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne"
    line = "SUMMARY:" + "ü" * 60
    folded = fold(line)
    assert all(len(part.encode()) <= 75 for part in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == line
