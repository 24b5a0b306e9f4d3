"""Standings pages: a tournament's page with its live standings, the fragment htmx polls,
and the standings as CSV.

Terms:
* fragment — a piece of a page that htmx swaps in place; served with the same
  permissions as the page it belongs to. A large field's standings come a page at a
  time (`games.selectors.standings_page_of`); the fragment polls the page it shows, the
  way it shows it (`?withdrawn=hide` kept across polls).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.models import Tournament
from tournaments.web import csv_download, tournament_context, tournament_page, whole_number

from ..exports import standings_csv as standings_csv_text
from ..selectors import HIDE, StandingsTable, standings_table


def _hide_withdrawn(request: HttpRequest) -> bool:
    return request.GET.get("withdrawn") == HIDE


def _shown_standings(request: HttpRequest, tournament: Tournament) -> StandingsTable:
    """The standings page the request asks for: `?page=N`, or `?player=N` (a start number:
    "find me", the page that player is on); `?withdrawn=hide` leaves the withdrawn players
    out. A large field is shown a page at a time."""
    return standings_table(
        tournament,
        page=whole_number(request.GET.get("page")),
        player_number=whole_number(request.GET.get("player")),
        hide_withdrawn=_hide_withdrawn(request),
    )


@tournament_page("view")
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "games/tournament_detail.html",
        {
            **tournament_context(request.user, tournament),
            "standings": _shown_standings(request, tournament),
        },
    )


@require_GET
@tournament_page("view")
def standings_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "games/standings_fragment.html",
        {"tournament": tournament, "standings": _shown_standings(request, tournament)},
    )


@require_GET
@tournament_page("view")
def standings_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return csv_download(
        standings_csv_text(
            standings_table(tournament, whole=True, hide_withdrawn=_hide_withdrawn(request))
        ),
        f"{tournament.slug}-standings.csv",
    )
