"""Calendar feeds (iCalendar, RFC 5545) of a tournament's or a season's rounds, for the
calendar apps of players and clubs to subscribe to.

Terms:
* feed — a VCALENDAR with one VEVENT for each tournament's day (`starts_on`, a whole-day
  event; none without a date) and one for each round opened so far: it starts when the
  round was opened (`Round.created_at`) and ends at its round clock (`ends_at`) when one
  is set, else `ROUND_HOURS` later. Rounds not yet opened are not in it: nothing says when
  they will start.
* UID — stable per tournament day and per round (`tournament-<id>@<host>`,
  `round-<id>@<host>`), so a calendar app updates an event instead of adding it again.

The words in it (a round's summary) are in the language of the request that fetched
it, as a calendar app sends it. Written by hand (no library): lines end in CRLF, text
values escape backslash, semicolon, comma and newline, and lines longer than 75 octets
are folded.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import Round, Tournament

# How long a round without a round clock lasts in the feed.
ROUND_HOURS = 1
PRODID = "-//Rummitab//Tournament rounds//EN"
MEDIA_TYPE = "text/calendar; charset=utf-8"


def escape(text: str) -> str:
    """A TEXT value (RFC 5545 §3.3.11)."""
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def fold(line: str) -> str:
    """A content line folded after at most 75 octets, never inside a UTF-8 character."""
    encoded = line.encode()
    if len(encoded) <= 75:
        return line
    parts: list[str] = []
    current = ""
    limit = 75
    for char in line:
        if len((current + char).encode()) > limit:
            parts.append(current)
            current = ""
            limit = 74  # a continuation line starts with one space
        current += char
    parts.append(current)
    return "\r\n ".join(parts)


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _day(value: date) -> str:
    return value.strftime("%Y%m%d")


def _host() -> str:
    return urlsplit(settings.PUBLIC_BASE_URL).hostname or "rummitab"


def _event(lines: list[str], stamp: str, uid: str, summary: str, url: str) -> list[str]:
    return [
        "BEGIN:VEVENT",
        f"UID:{uid}@{_host()}",
        f"DTSTAMP:{stamp}",
        *lines,
        f"SUMMARY:{escape(summary)}",
        f"URL:{url}",
        "END:VEVENT",
    ]


def _tournament_events(tournament: Tournament, rounds: Iterable[Round], stamp: str) -> list[str]:
    page = settings.PUBLIC_BASE_URL + reverse("tournament-detail", args=[tournament.slug])
    lines: list[str] = []
    if tournament.starts_on is not None:
        lines += _event(
            [
                f"DTSTART;VALUE=DATE:{_day(tournament.starts_on)}",
                f"DTEND;VALUE=DATE:{_day(tournament.starts_on + timedelta(days=1))}",
            ],
            stamp,
            f"tournament-{tournament.pk}",
            tournament.name,
            page,
        )
    for round_ in rounds:
        ends = round_.ends_at or round_.created_at + timedelta(hours=ROUND_HOURS)
        lines += _event(
            [f"DTSTART:{_utc(round_.created_at)}", f"DTEND:{_utc(ends)}"],
            stamp,
            f"round-{round_.pk}",
            _("%(tournament)s: round %(number)s")
            % {"tournament": tournament.name, "number": round_.number},
            settings.PUBLIC_BASE_URL
            + reverse("round-detail", args=[tournament.slug, round_.number]),
        )
    return lines


def calendar_of(name: str, tournaments: Iterable[Tournament]) -> str:
    """The feed of these tournaments (their rounds prefetched or read here)."""
    stamp = _utc(timezone.now())
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape(name)}",
    ]
    for tournament in tournaments:
        rounds = sorted(tournament.rounds.all(), key=lambda round_: round_.number)
        lines += _tournament_events(tournament, rounds, stamp)
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
