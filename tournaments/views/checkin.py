"""The check-in page: every active player with one big present/absent toggle for a round,
and "everyone present" in one tap — for the organiser or a scorekeeper at the door, on a
phone. Without JavaScript each tap is a form post that comes back to the player's row.

Every write is one service call (`tournaments.services.checkin`); a refusal (a round
already open, a withdrawn player) is said at the top of the page and nothing is saved.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.errors import RuleError

from ..forms.checkin import CheckInForm
from ..models import Tournament
from ..selectors import checkin_list, next_round_number
from ..services import checkin as services
from ..web import tournament_context, tournament_page


@tournament_page("score")
def checkin_next(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The check-in of the round to be opened next."""
    return redirect("checkin", slug=tournament.slug, round_number=next_round_number(tournament))


@tournament_page("score")
def checkin(request: HttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """GET: the list; POST: one player's toggle (`player`, `present` = 1 or 0)."""
    if request.method == "POST":
        form = CheckInForm(request.POST)
        anchor = ""
        if not form.is_valid():
            messages.error(request, _("Choose a player and present or absent."))
        else:
            player = form.cleaned_data["player"]
            try:
                services.checkin_set(
                    tournament=tournament,
                    by=request.user,
                    round_number=round_number,
                    player=player,
                    present=form.cleaned_data["present"] == "1",
                )
            except RuleError as error:
                messages.error(request, capfirst(error.message))
            else:
                anchor = f"#player-{player}"
        url = reverse("checkin", kwargs={"slug": tournament.slug, "round_number": round_number})
        return redirect(url + anchor)
    rows = checkin_list(tournament, round_number)
    present = sum(row.present for row in rows)
    return render(
        request,
        "tournaments/checkin.html",
        {
            **tournament_context(request.user, tournament),
            "round_number": round_number,
            "rows": rows,
            "present": present,
            "absent": len(rows) - present,
            "is_open": tournament.rounds.filter(number=round_number).exists(),
            "is_next": round_number == next_round_number(tournament),
        },
    )


@require_POST
@tournament_page("score")
def checkin_everyone(
    request: HttpRequest, tournament: Tournament, round_number: int
) -> HttpResponse:
    try:
        count = services.checkin_everyone(
            tournament=tournament, by=request.user, round_number=round_number
        )
    except RuleError as error:
        messages.error(request, capfirst(error.message))
    else:
        if count:
            message = ngettext(
                "Everyone is present for round %(round)s (%(count)s was absent).",
                "Everyone is present for round %(round)s (%(count)s were absent).",
                count,
            )
        else:
            message = _("Everyone is present for round %(round)s.")
        messages.success(request, message % {"round": round_number, "count": count})
    return redirect("checkin", slug=tournament.slug, round_number=round_number)
