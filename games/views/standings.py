"""Standings pages: a tournament's page with its live standings, the fragment htmx polls,
and the standings as CSV.

Terms:
* fragment — a piece of a page that htmx swaps in place; served with the same
  permissions as the page it belongs to.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.models import Tournament
from tournaments.web import csv_download, tournament_context, tournament_page

from ..exports import standings_csv as standings_csv_text
from ..selectors import standings_table


@tournament_page("view")
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "games/tournament_detail.html",
        {
            **tournament_context(request.user, tournament),
            "standings": standings_table(tournament),
        },
    )


@require_GET
@tournament_page("view")
def standings_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "games/standings_fragment.html",
        {"tournament": tournament, "standings": standings_table(tournament)},
    )


@require_GET
@tournament_page("view")
def standings_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return csv_download(
        standings_csv_text(standings_table(tournament)), f"{tournament.slug}-standings.csv"
    )
