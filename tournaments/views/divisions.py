"""The organiser's division pages: the list with a form to add one, and one division's
page to rename it, set its prizes, choose its players, or delete it.

Every write is one service call (`tournaments.services.divisions`); a `RuleError` goes
back onto the form's fields and nothing is saved.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import RuleError

from ..forms.divisions import DivisionForm, DivisionPlayersForm
from ..models import Tournament
from ..services import divisions as services
from ..web import add_rule_errors, tournament_context, tournament_page


@tournament_page("organise")
def divisions(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The divisions with how many players each has; POST adds one."""
    form = DivisionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            division = services.division_create(
                tournament=tournament, by=request.user, **form.values()
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _("%(division)s is added: choose its players below.") % {"division": division.name},
            )
            return redirect("division-edit", slug=tournament.slug, division_slug=division.slug)
    listed = tournament.divisions.annotate(player_count=Count("players")).order_by(
        "order", "name", "id"
    )
    return render(
        request,
        "tournaments/divisions.html",
        {**tournament_context(request.user, tournament), "form": form, "divisions": listed},
    )


@tournament_page("organise")
def division_edit(request: HttpRequest, tournament: Tournament, division_slug: str) -> HttpResponse:
    """One division: its settings (one form) and its players (another); each POST says
    which form it is by its button (`save`)."""
    division = get_object_or_404(tournament.divisions, slug=division_slug)
    players = list(tournament.players.order_by("number"))
    posted = request.POST.get("save") if request.method == "POST" else None
    form = DivisionForm(
        request.POST if posted == "settings" else None,
        initial=DivisionForm.initial_for(division),
    )
    members = DivisionPlayersForm(
        request.POST if posted == "players" else None,
        players=players,
        initial={"players": [str(pk) for pk in division.players.values_list("pk", flat=True)]},
    )
    if posted == "settings" and form.is_valid():
        try:
            division = services.division_update(division=division, by=request.user, **form.values())
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, _("%(division)s is saved.") % {"division": division.name})
            return redirect("division-edit", slug=tournament.slug, division_slug=division.slug)
    if posted == "players" and members.is_valid():
        try:
            count = services.division_members_set(
                division=division, by=request.user, player_ids=members.player_ids()
            )
        except RuleError as error:
            add_rule_errors(members, error)
        else:
            messages.success(
                request,
                _("%(division)s has %(count)s players now.")
                % {"division": division.name, "count": count},
            )
            return redirect("tournament-divisions", slug=tournament.slug)
    return render(
        request,
        "tournaments/division_edit.html",
        {
            **tournament_context(request.user, tournament),
            "division": division,
            "form": form,
            "members": members,
        },
    )


@require_POST
@tournament_page("organise")
def division_delete(
    request: HttpRequest, tournament: Tournament, division_slug: str
) -> HttpResponse:
    division = get_object_or_404(tournament.divisions, slug=division_slug)
    try:
        services.division_delete(division=division, by=request.user)
    except RuleError as error:
        messages.error(request, str(error.message))
        return redirect("division-edit", slug=tournament.slug, division_slug=division.slug)
    messages.success(request, _("%(division)s is deleted.") % {"division": division.name})
    return redirect("tournament-divisions", slug=tournament.slug)
