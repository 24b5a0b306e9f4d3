"""Stage pages: a stage's standings, and for the organiser the cut that closes it — a
preview (entrants, eliminated, the tie at the line stated), then the commit of exactly
that cut. The services decide (`games.services.stages`); a refusal is shown as a
message above the preview, nothing saved."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from scoring.standings import METRICS
from tournaments.models import Stage, Tournament
from tournaments.selectors import division_members, divisions_list
from tournaments.services.stages import stage_create
from tournaments.web import add_rule_errors, tournament_context, tournament_page, whole_number

from ..forms.stage_graph import StageGraphForm
from ..forms.stages import SideEventForm
from ..selectors.stages import rows_within, side_event_offer, stage_close_blockers, stages_timeline
from ..services.stages import (
    StageRow,
    stage_close,
    stage_cut_preview,
    stage_race,
    stage_rows,
    stage_side_start,
)
from ..words import stage_state_words


def _columns(stage: Stage) -> list[str]:
    """The metrics shown: the stage's ranking, then score and games played."""
    shown = [key for key in stage.ranking if key != "lot"]
    return shown + [key for key in ("score", "games_played") if key not in shown]


def _table(stage: Stage, rows: list[StageRow]) -> dict[str, Any]:
    columns = _columns(stage)
    return {
        "columns": [
            {"name": _(METRICS[key].name), "abbr": _(METRICS[key].abbr)} for key in columns
        ],
        "cells": [(row, [row.metrics.get(key) for key in columns]) for row in rows],
    }


def _cut_context(stage: Stage) -> dict[str, Any]:
    """The organiser's preview of the cut, or why there is none."""
    if stage.status == Stage.Status.CLOSED:
        return {}
    blockers = stage_close_blockers(stage)
    try:
        preview = stage_cut_preview(stage)
    except RuleError as error:
        return {"cut_error": capfirst(error.message), "close_blockers": blockers}
    return {"preview": preview, "stage_rows_of_preview": preview.rows, "close_blockers": blockers}


@tournament_page("view")
def stage_detail(request: HttpRequest, tournament: Tournament, stage_number: int) -> HttpResponse:
    stage = get_object_or_404(
        tournament.stages.select_related("side_of", "division"), number=stage_number
    )
    context = tournament_context(request.user, tournament)
    extra: dict[str, Any] = {}
    race = stage_race(stage)
    if context["can_organise"]:
        extra = _cut_context(stage)
        extra["side_offer"] = side_event_offer(stage)
        extra["side_form"] = SideEventForm()
    rows = stage_rows(stage, race) if race else None
    rows = rows or extra.pop("stage_rows_of_preview", None) or stage_rows(stage)
    divisions = divisions_list(tournament)
    slug = (request.GET.get("division") or "").strip().lower()
    division = next((d for d in divisions if d.slug == slug), None)
    if slug and division is None:
        raise Http404(
            _("%(tournament)s has no division '%(division)s'.")
            % {"tournament": tournament.name, "division": slug}
        )
    if division is not None:
        # That division's players only, ranked again 1..n (as the tournament's standings).
        rows = rows_within(rows, division_members(division))
    timeline = stages_timeline(tournament)
    rounds = next((item.rounds for item in timeline if item.stage.pk == stage.pk), 0)
    return render(
        request,
        "games/stage_detail.html",
        {
            **context,
            **extra,
            "stage": stage,
            "race": race,
            "stage_state": stage_state_words(stage, race),
            "timeline": timeline,
            "stage_rounds": rounds,
            "stage_rounds_words": bool(rounds or stage.rounds_planned),
            "table": _table(stage, rows),
            "divisions": divisions,
            "division": division,
        },
    )


@require_POST
@tournament_page("organise")
def stage_side_view(
    request: HttpRequest, tournament: Tournament, stage_number: int
) -> HttpResponse:
    """Start a side event for the players this closed stage did not cut."""
    stage = get_object_or_404(tournament.stages, number=stage_number)
    form = SideEventForm(request.POST)
    name = form.cleaned_data["name"] if form.is_valid() else ""
    try:
        side = stage_side_start(stage=stage, by=request.user, name=name)
    except RuleError as error:
        messages.error(request, capfirst(error.message))
        return redirect("stage-detail", slug=tournament.slug, stage_number=stage.number)
    messages.success(
        request,
        _("%(name)s is started: %(count)s players. Open its rounds from “Open next round”.")
        % {"name": side.name, "count": side.entries.count()},
    )
    return redirect("stage-detail", slug=tournament.slug, stage_number=side.number)


@require_POST
@tournament_page("organise")
def stage_close_view(
    request: HttpRequest, tournament: Tournament, stage_number: int
) -> HttpResponse:
    """Commit the previewed cut: the entrants the preview listed come back as `entrant`."""
    stage = get_object_or_404(tournament.stages, number=stage_number)
    expected = [whole_number(value) for value in request.POST.getlist("entrant")]
    try:
        preview = stage_close(
            stage=stage,
            by=request.user,
            expected_entrants=[p for p in expected if p is not None],
        )
    except RuleError as error:
        messages.error(request, capfirst(error.message))
        return redirect("stage-detail", slug=tournament.slug, stage_number=stage.number)
    if preview.next_stage is None:
        messages.success(request, _("{name} is closed.").format(name=stage.name))
        return redirect("stage-detail", slug=tournament.slug, stage_number=stage.number)
    messages.success(
        request,
        ngettext(
            "{stage} is closed: {count} player goes on to {next_stage}.",
            "{stage} is closed: {count} players go on to {next_stage}.",
            len(preview.entrants),
        ).format(stage=stage.name, count=len(preview.entrants), next_stage=preview.next_stage.name),
    )
    return redirect("stage-detail", slug=tournament.slug, stage_number=preview.next_stage.number)


@tournament_page("organise")
def stage_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Add the next stage; a refusal is shown beside the field it names, nothing saved."""
    form = StageGraphForm(
        request.POST or None,
        divisions=divisions_list(tournament),
        stages=list(tournament.stages.order_by("number")),
    )
    if request.method == "POST" and form.is_valid():
        try:
            stage = stage_create(tournament=tournament, by=request.user, **form.values())
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _("Stage {number} ({name}) is added.").format(number=stage.number, name=stage.name),
            )
            return redirect("stage-detail", slug=tournament.slug, stage_number=stage.number)
    return render(
        request,
        "games/stage_new.html",
        {
            **tournament_context(request.user, tournament),
            "form": form,
            "stages": list(tournament.stages.order_by("number")),
            "timeline": stages_timeline(tournament),
            "stage": None,
        },
    )
