"""The tournament's own page: its live standings (`games.views.standings` makes the
table, a fragment htmx polls), the stages' timeline, the divisions and, once finished,
each division's prizes.

Terms: fragment, division filter, conditional polling — see `games.views.standings`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from tournaments.models import Tournament
from tournaments.selectors import divisions_list
from tournaments.web import tournament_context, tournament_page

from ..selectors.stages import stages_timeline
from ..selectors.standings import DivisionPrizes, division_prizes, standings_table
from .caching import Conditional, cached
from .standings import UnknownDivision, division_of, standings_fragment


def _prizes(tournament: Tournament, cond: Conditional) -> list[DivisionPrizes]:
    """A finished tournament's division prizes (`division_prizes`), kept in the shared
    cache at this page state (a division's change moves the state)."""
    if tournament.status != Tournament.Status.FINISHED:
        return []

    def read() -> list[DivisionPrizes]:
        return division_prizes(tournament, standings_table(tournament, whole=True).rows)

    if cond.state.stale:
        return read()
    return cached(cond.fragment_key("division-prizes"), read)


@require_safe
@tournament_page("view")
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    missing = ""
    try:
        division = division_of(request, tournament)
    except UnknownDivision as error:
        # Said on the page (a 404), beside the divisions there are, over the whole field.
        division, missing = None, str(error)
    cond = Conditional(request, tournament, personal=True)
    if not missing and (answer := cond.not_modified()) is not None:
        return answer
    fragment = standings_fragment(request, tournament, cond, division)
    divisions = divisions_list(tournament)
    context = {
        **tournament_context(request.user, tournament),
        "standings_html": mark_safe(fragment["html"]),  # our own template's output
        "paged": fragment["paged"],
        "withdrawn": fragment["withdrawn"],
        "hide_withdrawn": fragment["hide_withdrawn"],
        "timeline": stages_timeline(tournament),
        "divisions": divisions,
        "division": division,
        "division_missing": missing,
        "prizes": _prizes(tournament, cond) if divisions and division is None else [],
    }
    if cond.public:
        # Kept and served to every anonymous reader: no per-visitor CSRF token in it
        # (an anonymous reader of this page posts nothing).
        context["csrf_token"] = ""
    if missing:
        return render(request, "games/tournament_detail.html", context, status=404)
    return cond.finish(render(request, "games/tournament_detail.html", context))
