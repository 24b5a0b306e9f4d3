"""Standings pages: the live standings (the tournament's page shows them:
`games.views.tournament`), the fragment htmx polls, and the standings as CSV.

Terms:
* fragment — a piece of a page that htmx swaps in place; served with the same
  permissions as the page it belongs to. A large field's standings come a page at a
  time (`games.selectors.standings.standings_page_of`); the fragment polls the page it
  shows, the way it shows it (`?withdrawn=hide` kept across polls).
* division filter — `?division=<slug>` shows only that division's players, ranked again
  1..n within it (`games.selectors.standings.within_division`), on the page, in its
  fragment (the polls keep it) and in the CSV; the movement arrows compare ranks within
  the division. A slug the tournament has no division for is a 404 (the page says so,
  and shows the divisions there are).
* conditional polling — every answer carries an ETag (`games.views.caching`); the
  page's script (static/js/poll.js) sends it back with each poll, a 304 leaves the
  table as it is, and a new standings version (or anything else shown) brings a 200
  with the new table.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.models import Division, Tournament
from tournaments.selectors import division_members, division_named
from tournaments.web import csv_download, tournament_page, whole_number

from ..exports import qualified_csv as qualified_csv_text
from ..exports import ranking_csv as ranking_csv_text
from ..exports import standings_csv as standings_csv_text
from ..selectors.standings import (
    HIDE,
    StandingsTable,
    ranks_within,
    standings_movement,
    standings_table,
)
from ..services.event_file.export import event_file_export
from .caching import Conditional, cached, ranks_before


def _hide_withdrawn(request: HttpRequest) -> bool:
    return request.GET.get("withdrawn") == HIDE


class UnknownDivision(Http404):
    """`?division=` names no division of the tournament."""


def _division_slug(request: HttpRequest) -> str:
    return (request.GET.get("division") or "").strip().lower()


def division_of(request: HttpRequest, tournament: Tournament) -> Division | None:
    """The division `?division=<slug>` asks for (None: the whole field); a slug of no
    division of the tournament raises `UnknownDivision`."""
    slug = _division_slug(request)
    if not slug:
        return None
    division = division_named(tournament, slug)
    if division is None:
        raise UnknownDivision(
            _("%(tournament)s has no division '%(division)s'.")
            % {"tournament": tournament.name, "division": slug}
        )
    return division


def _shown_standings(
    request: HttpRequest, tournament: Tournament, division: Division | None
) -> StandingsTable:
    """The standings page the request asks for: `?page=N`, or `?player=N` (a start number:
    "find me", the page that player is on); `?withdrawn=hide` leaves the withdrawn players
    out; `?division=<slug>` keeps only that division's players, ranked again within it.
    A large field is shown a page at a time."""
    return standings_table(
        tournament,
        page=whole_number(request.GET.get("page")),
        player_number=whole_number(request.GET.get("player")),
        hide_withdrawn=_hide_withdrawn(request),
        division=division,
    )


def _rows_with_movement(
    tournament: Tournament, standings: StandingsTable, cond: Conditional
) -> list[tuple[dict[str, Any], list[tuple[Any, Any]], int | None, int]]:
    """Each shown row with its (column, value) pairs, its movement since the standings
    before the last round (as on the projector: places gained, negative when lost, None in
    round 1 or for a player without an earlier rank) and the size of that movement. The
    page state names the last round, so a new round also gives a new cached fragment; the
    earlier ranks are kept in the shared cache at this state, for every page and way the
    standings are shown (a recompute of the rounds before, done once)."""
    cells = standings.cells
    round_number = cond.state.last_round_number
    before = ranks_before(tournament, cond, round_number)
    if before is not None and standings.division is not None:
        before = ranks_within(before, division_members(standings.division))
    movement = standings_movement(tournament, [row for row, _ in cells], round_number, before)
    return [
        (row, list(zip(standings.columns, values, strict=True)), moved, abs(moved or 0))
        for (row, values), moved in zip(cells, movement, strict=True)
    ]


def _podium(
    tournament: Tournament, standings: StandingsTable
) -> list[tuple[dict[str, Any], list[tuple[Any, Any]]]]:
    """The first three of a finished tournament, shown above its first page of standings
    (places as ranked: two players tied for first both stand on the top step)."""
    if tournament.status != Tournament.Status.FINISHED or standings.page != 1:
        return []
    return [
        (row, list(zip(standings.columns[:2], values, strict=False)))
        for row, values in standings.cells[:3]
        if row["player"]["status"] != "withdrawn"
    ]


def standings_fragment(
    request: HttpRequest,
    tournament: Tournament,
    cond: Conditional,
    division: Division | None,
) -> dict[str, Any]:
    """The rendered standings table (and whether it is paged), from the shared cache
    while the page state is the same; a stale table is rendered every time (it may be
    computed on read, and the "updating…" poll must see the new one at once)."""

    def render_table() -> dict[str, Any]:
        standings = cond.shown(_shown_standings(request, tournament, division))
        cond.refresh()
        html = render_to_string(
            "games/standings_fragment.html",
            {
                "tournament": tournament,
                "standings": standings,
                "rows": _rows_with_movement(tournament, standings, cond),
                "podium": _podium(tournament, standings),
                "etag": cond.shared_etag,
            },
        )
        return {
            "html": html,
            "paged": standings.paged,
            "withdrawn": standings.withdrawn,
            "hide_withdrawn": standings.hide_withdrawn,
        }

    if cond.state.stale:
        return render_table()
    key = cond.fragment_key(
        "standings",
        request.GET.get("page"),
        request.GET.get("player"),
        _hide_withdrawn(request),
        division.slug if division else "",
    )
    return cached(key, render_table)


@require_GET
@tournament_page("view")
def standings_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    division = division_of(request, tournament)
    cond = Conditional(request, tournament, personal=False)
    if (answer := cond.not_modified()) is not None:
        return answer
    return cond.finish(
        HttpResponse(standings_fragment(request, tournament, cond, division)["html"])
    )


@require_GET
@tournament_page("view")
def standings_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    division = division_of(request, tournament)
    cond = Conditional(request, tournament, personal=False)
    if (answer := cond.not_modified()) is not None:
        return answer
    table = standings_table(
        tournament, whole=True, hide_withdrawn=_hide_withdrawn(request), division=division
    )
    name = f"{tournament.slug}-{division.slug}" if division else tournament.slug
    return cond.finish(csv_download(standings_csv_text(table), f"{name}-standings.csv"))


@require_GET
@tournament_page("view")
def ranking_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The flat file for ranking submissions (`games.exports`, "ranking CSV"). Not
    conditional: its member codes change with member links, which the page state does not
    follow."""
    table = standings_table(tournament, whole=True)
    return csv_download(ranking_csv_text(tournament, table), f"{tournament.slug}-ranking.csv")


@require_GET
@tournament_page("view")
def qualified_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The players who take the qualification slots (`games.exports`, "qualified CSV")."""
    cond = Conditional(request, tournament, personal=False)
    if (answer := cond.not_modified()) is not None:
        return answer
    table = standings_table(tournament, whole=True)
    text = qualified_csv_text(tournament, table)
    return cond.finish(csv_download(text, f"{tournament.slug}-qualified.csv"))


@require_GET
@tournament_page("view")
def event_file_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament as an open event file (`games.services.event_file`), a download."""
    text = json.dumps(event_file_export(tournament), ensure_ascii=False, indent=1)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.event.json"'
    return response
