"""Small pages of the scoring side: the live standings fragment (polled by htmx), the
standings as CSV, the resolved-rules panel of the tournament form, and a rack's value
while it is being typed.

Terms:
* fragment — a piece of a page that htmx swaps in place; served with the same
  permissions as the page it belongs to.
* rack value — face values plus the tournament's joker penalty per joker (RULES.md §3),
  shown beside the tiles input before anything is submitted.
"""

from __future__ import annotations

import csv

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.web import tournament_page

from .errors import RuleError
from .selectors import standings_table
from .tiles import check_availability, joker_count, parse_tiles, rack_face_value

MAX_RACK_TEXT = 400  # the length of RackEntry.tiles


@require_GET
@tournament_page("view")
def standings_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "scoring/standings_fragment.html",
        {"tournament": tournament, "standings": standings_table(tournament)},
    )


@require_GET
@tournament_page("view")
def standings_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    table = standings_table(tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-standings.csv"'
    writer = csv.writer(response)
    writer.writerow(
        ["rank", "number", "name", "club", "status", *(column.key for column in table.columns)]
    )
    for row, values in table.cells:
        player = row["player"]
        writer.writerow(
            [row["rank"], player["number"], player["name"], player["club"], player["status"]]
            + ["" if value is None else value for value in values]
        )
    return response


@require_GET
def rules_preview(request: HttpRequest) -> HttpResponse:
    """The tournament form's preset and overrides, resolved (nothing is stored)."""
    form = TournamentForm(request.GET)
    return render(request, "scoring/rules_panel.html", {"preview": form.preview()})


@require_GET
@tournament_page("score")
def rack_value(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The value of the tiles typed so far, or what is wrong with them.

    htmx sends the input under its own form name (``g1-r2-tiles``); any parameter whose
    name ends in ``tiles`` is read.
    """
    text = next(
        (value for key, value in request.GET.items() if key == "tiles" or key.endswith("-tiles")),
        "",
    )
    try:
        if len(text) > MAX_RACK_TEXT:
            raise RuleError("tiles", f"at most {MAX_RACK_TEXT} characters.")
        tiles = parse_tiles(text)
        check_availability([tiles])
    except RuleError as error:
        return render(request, "scoring/rack_value.html", {"error": error.message})
    jokers = joker_count(tiles)
    points = rack_face_value(tiles) + jokers * tournament.rule_set.joker_penalty
    return render(
        request,
        "scoring/rack_value.html",
        {"points": points, "count": len(tiles), "jokers": jokers, "empty": not tiles},
    )
