"""Pages over all the tournament's games: the confirmation queue (double entry), the games
still missing a result, and the results as CSV.

Terms:
* confirmation queue — result versions `submitted` and waiting for a second staff member
  (only when the tournament has `results_need_confirmation`).
* missing — a game without a confirmed result; it may have a submitted version waiting.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import RuleError
from tournaments.models import Tournament
from tournaments.web import csv_download, tournament_context, tournament_page

from .. import exports
from ..models import Game, Result
from ..selectors.games import results_shown
from ..services.results import result_confirm


@tournament_page("score")
def confirm_queue(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    pending = list(
        results_shown()
        .filter(game__table__round__tournament=tournament, status=Result.Status.SUBMITTED)
        .select_related("game__table__round")
        .prefetch_related("racks__player")
        .order_by("submitted_at")
    )
    return render(
        request,
        "games/confirm_queue.html",
        {**tournament_context(request.user, tournament), "pending": pending},
    )


@require_POST
@tournament_page("score")
def confirm_result(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    result = get_object_or_404(
        Result.objects.select_related("game__table__round"),
        pk=pk,
        game__table__round__tournament=tournament,
    )
    where = _("Round {round}, table {table}, game {game}, version {version}").format(
        round=result.game.table.round.number,
        table=result.game.table.number,
        game=result.game.number,
        version=result.version,
    )
    try:
        result_confirm(result=result, by=request.user)
    except PermissionDenied as denied:
        messages.error(request, _("{where}: {denied}").format(where=where, denied=denied))
    except RuleError as error:
        messages.error(request, _("{where}: {error}").format(where=where, error=error))
    else:
        messages.success(request, _("{where} confirmed.").format(where=where))
    return redirect("confirm-queue", slug=tournament.slug)


@tournament_page("score")
def results_missing(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Per round and table, the games still without a confirmed result."""
    confirmed = Result.objects.filter(game=OuterRef("pk"), status=Result.Status.CONFIRMED)
    waiting = Result.objects.filter(game=OuterRef("pk"), status=Result.Status.SUBMITTED)
    games = (
        Game.objects.filter(table__round__tournament=tournament)
        .annotate(done=Exists(confirmed), waiting=Exists(waiting))
        .filter(done=False)
        .select_related("table__round")
        .order_by("table__round__number", "table__number", "number")
    )
    tables: dict[Any, list[Game]] = defaultdict(list)
    for game in games:
        tables[game.table].append(game)
    return render(
        request,
        "games/missing.html",
        {**tournament_context(request.user, tournament), "tables": list(tables.items())},
    )


@tournament_page("organise")
def results_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every rack of every confirmed result, one row each (only confirmed results count)."""
    return csv_download(exports.results_csv(tournament), f"{tournament.slug}-results.csv")
