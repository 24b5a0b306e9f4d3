"""The calendar feeds (`tournaments.calendar`): `/t/<slug>/calendar.ics` for a tournament
and `/clubs/<club>/seasons/<season>/calendar.ics` for a season's tournaments. Public as
the tournaments are: a private one is a 404 (and left out of its season's feed) for
anyone without a role in it, which is every calendar app."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from ..calendar import MEDIA_TYPE, calendar_of
from ..models import Season
from ..selectors import tournaments_visible_to


def _feed(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=MEDIA_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def tournament_calendar(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = (
        tournaments_visible_to(request.user).filter(slug=slug).prefetch_related("rounds").first()
    )
    if tournament is None:
        raise Http404(_("No such tournament."))
    return _feed(calendar_of(tournament.name, [tournament]), f"{slug}.ics")


def season_calendar(request: HttpRequest, club: str, season: str) -> HttpResponse:
    held = get_object_or_404(Season.objects.select_related("club"), club__slug=club, slug=season)
    tournaments = (
        tournaments_visible_to(request.user)
        .filter(season=held)
        .prefetch_related("rounds")
        .order_by("starts_on", "name")
    )
    return _feed(calendar_of(f"{held.club.name}: {held.name}", tournaments), f"{season}.ics")
