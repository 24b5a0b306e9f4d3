"""Season pages: a club's season standings, as a page and as CSV. Anyone may read them;
the events linked are only the tournaments the reader may see. The season's standings
are recomputed by `games.services.seasons` (a declared season: `tournaments.views.clubs`;
its calendar: `tournaments.views.calendar`).

Terms: season, season rule (see `tournaments.models`, `scoring.seasons`).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.models import Club, Season
from tournaments.selectors import tournaments_visible_to
from tournaments.web import csv_download

from ..exports import season_csv
from ..services.seasons import season_events, season_for_read


def _season(club_slug: str, season_slug: str) -> tuple[Club, Season]:
    club = get_object_or_404(Club, slug=club_slug)
    return club, get_object_or_404(club.seasons, slug=season_slug)


@require_GET
def season_detail(request: HttpRequest, club_slug: str, season_slug: str) -> HttpResponse:
    club, season = _season(club_slug, season_slug)
    snapshot = season_for_read(season)
    events = season_events(season)
    visible = set(
        tournaments_visible_to(request.user).filter(season=season).values_list("slug", flat=True)
    )
    rows = []
    for row in snapshot.rows:
        by_event = {c["event"]: c for c in row["contributions"]}
        rows.append({**row, "cells": [by_event.get(event.slug) for event in events]})
    return render(
        request,
        "games/season_detail.html",
        {
            "club": club,
            "season": season,
            "events": events,
            "visible": visible,
            "rows": rows,
            "computed_at": snapshot.computed_at,
        },
    )


@require_GET
def season_csv_view(request: HttpRequest, club_slug: str, season_slug: str) -> HttpResponse:
    club, season = _season(club_slug, season_slug)
    text = season_csv(season_for_read(season).rows, season_events(season))
    return csv_download(text, f"{club.slug}-{season.slug}.csv")
