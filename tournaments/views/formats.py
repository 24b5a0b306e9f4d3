"""New tournament from a format: the catalogue as a page (one radio list, each format
with its description and source), creating the tournament with its stages and rules
(`tournaments.services.formats`); the organiser goes on to register its players."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring.errors import RuleError
from scoring.formats import CATALOGUE

from ..forms.formats import FormatForm
from ..models import Club
from ..permissions import signed_in
from ..services.formats import tournament_from_format
from ..web import add_rule_errors


@login_required
def tournament_from_format_page(request: HttpRequest) -> HttpResponse:
    """Any signed-in user; a club is offered to the organisers of clubs (season league)."""
    user = signed_in(request.user)  # login_required let only the signed-in in
    clubs = Club.objects.filter(organisers__user=user).order_by("name")
    form = FormatForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_from_format(by=request.user, **form.service_values())
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _("%(name)s is created from the format; register its players, then open round 1.")
                % {"name": tournament.name},
            )
            return redirect("tournament-players", slug=tournament.slug)
    formats = [(form["format"][i], f) for i, f in enumerate(CATALOGUE)]
    return render(request, "tournaments/formats.html", {"form": form, "formats": formats})
