"""Club pages: a club with its ranking list and seasons, a member's events and rating
history (a season's standings: `games.views.seasons`). Anyone may read them; the events listed
are only the tournaments the reader may see.

Terms: club, member, season, rating (see `tournaments.models`, `scoring.ratings`).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.views.decorators.http import require_GET

from scoring.ratings import NEW
from tournaments.models import Club
from tournaments.permissions import can_run_club
from tournaments.selectors import tournaments_visible_to

from ..chart import line_chart
from ..selectors.clubs import club_ranking, member_events, member_rating_history


@require_GET
def club_detail(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    return render(
        request,
        "games/club_detail.html",
        {
            "club": club,
            "ranking": club_ranking(club),
            "seasons": club.seasons.order_by("-created_at"),
            "tournaments": tournaments_visible_to(request.user)
            .filter(club=club)
            .order_by("-starts_on", "name"),
            "members": club.members.count(),
            "runs_club": can_run_club(request.user, club),
        },
    )


@require_GET
def member_detail(request: HttpRequest, club_slug: str, member_id: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=club_slug)
    member = get_object_or_404(club.members, pk=member_id)
    history = member_rating_history(member)
    # One point per event (the rating after its last rated game): a season of games
    # would crowd the axis.
    after_event: dict[int, tuple[str, int]] = {}
    for change in history:
        tournament = change.game.table.round.tournament
        starts = tournament.starts_on
        label = date_format(starts, "MONTH_DAY_FORMAT") if starts else tournament.slug
        after_event[tournament.pk] = (label, change.shown)
    points = list(after_event.values())
    return render(
        request,
        "games/member_detail.html",
        {
            "club": club,
            "member": member,
            "events": member_events(member, request.user),
            "history": history,
            "rating": history[-1].shown if history else None,
            "chart": line_chart(points, baseline=NEW.shown) if points else None,
            "runs_club": can_run_club(request.user, club),
        },
    )
