"""Naming a stage's entrants by hand (`Stage.entry` manual) from its page: the start
numbers typed in seed order (`games.services.stage_entrants` decides)."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from tournaments.models import Tournament
from tournaments.web import tournament_page, whole_number

from ..services.stage_entrants import stage_entrants_set


@require_POST
@tournament_page("organise")
def stage_entrants_view(
    request: HttpRequest, tournament: Tournament, stage_number: int
) -> HttpResponse:
    """The start numbers (spaces or commas between them), best seed first."""
    stage = get_object_or_404(tournament.stages, number=stage_number)
    typed = [t for t in re.split(r"[\s,;]+", request.POST.get("numbers", "")) if t]
    numbers = [whole_number(t.lstrip("#")) for t in typed]
    by_number = dict(tournament.players.values_list("number", "pk"))
    unknown = [t for t, n in zip(typed, numbers, strict=True) if n not in by_number]
    if unknown:
        messages.error(
            request,
            _("No player has the start number %(numbers)s.") % {"numbers": ", ".join(unknown)},
        )
        return redirect("stage-detail", slug=tournament.slug, stage_number=stage.number)
    try:
        entries = stage_entrants_set(
            stage=stage,
            by=request.user,
            players=[by_number[n] for n in numbers if n is not None],  # all known: checked above
        )
    except RuleError as error:
        messages.error(request, capfirst(error.message))
    else:
        messages.success(
            request,
            ngettext(
                "%(count)s player enters %(stage)s.",
                "%(count)s players enter %(stage)s.",
                len(entries),
            )
            % {"count": len(entries), "stage": stage.name},
        )
    return redirect("stage-detail", slug=tournament.slug, stage_number=stage.number)
