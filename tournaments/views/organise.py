"""The organiser's pages: create and edit a tournament (with the resolved-rules panel
beside the form), players (form with a warning on a name already taken, CSV import,
reinstate, delete one never seated), export the players. The staff pages are
`views.staff`; editing a player and the withdraw confirmation are `views.players`. Opening
rounds and the table sheets are the games app's pages (`games.views.rounds`).

Every write is one service call; a `RuleError` goes back onto the form's fields
(`web.add_rule_errors`) and nothing is saved.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from scoring.errors import RuleError
from scoring.rules import PRESET_RANKING, PRESET_TABLE_SIZE

from ..csv_files import delimiter_sentence
from ..exports import players_csv as players_csv_text
from ..forms.organise import TournamentForm
from ..forms.players import PlayerForm, PlayerImportForm
from ..models import Player, Tournament
from ..selectors import divisions_list
from ..services import players as player_services
from ..services import tournaments as services
from ..web import (
    add_rule_errors,
    csv_download,
    tournament_context,
    tournament_page,
    whole_number,
)
from ..words import same_name_warning

# --- tournament settings -----------------------------------------------------------------


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    """Any signed-in user may create a tournament and becomes its organiser."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(by=request.user, **form.service_values())
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request, _("%(name)s is created; you organise it.") % {"name": tournament.name}
            )
            return redirect("tournament-players", slug=tournament.slug)
    return render(request, "tournaments/tournament_form.html", {"form": form, "creating": True})


def _changes(form: TournamentForm, tournament: Tournament) -> dict[str, Any]:
    """The form's values as tournament_update takes them."""
    values = form.service_values()
    preset = values["preset"]
    # Blank means "the preset's", as on the create form.
    if values["ranking"] is None:
        values["ranking"] = list(PRESET_RANKING.get(preset, tournament.ranking))
    if values["table_size"] is None:
        values["table_size"] = PRESET_TABLE_SIZE.get(preset, tournament.table_size)
    return values


@tournament_page("organise")
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    locked = tournament.first_result_at is not None
    form = TournamentForm(
        request.POST or None,
        initial=TournamentForm.initial_for(tournament),
        editing=True,
        locked=locked,
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(
                tournament=tournament, by=request.user, **_changes(form, tournament)
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("tournament-detail", slug=tournament.slug)
    return render(
        request,
        "tournaments/tournament_form.html",
        {
            **tournament_context(request.user, tournament),
            "form": form,
            "rules_locked": locked,
        },
    )


# --- players -----------------------------------------------------------------------------


def _players_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: PlayerForm | None = None,
    import_form: PlayerImportForm | None = None,
) -> HttpResponse:
    return render(
        request,
        "tournaments/players.html",
        {
            **tournament_context(request.user, tournament),
            "form": form or PlayerForm(tournament=tournament, divisions=divisions_list(tournament)),
            "import_form": import_form or PlayerImportForm(),
            "players": tournament.players.select_related("member")
            .prefetch_related("divisions")
            .order_by("number"),
        },
    )


@tournament_page("organise")
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The player list; POST registers one player."""
    form = PlayerForm(
        request.POST or None, tournament=tournament, divisions=divisions_list(tournament)
    )
    if request.method == "POST" and form.is_valid():
        try:
            player = player_services.player_register(
                tournament=tournament, by=request.user, **form.values()
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _("%(name)s registered as #%(number)s.")
                % {"name": player.name, "number": player.number},
            )
            warning = same_name_warning(player)
            if warning:
                messages.warning(request, _("Note: %(warning)s.") % {"warning": warning})
            return redirect("tournament-players", slug=tournament.slug)
    return _players_page(request, tournament, form=form)


@require_POST
@tournament_page("organise")
def players_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PlayerImportForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            imported = player_services.players_import_csv(
                tournament=tournament,
                by=request.user,
                data=upload.read(player_services.MAX_CSV_BYTES + 1),
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            count = len(imported.players)
            messages.success(
                request,
                ngettext("%(count)d player imported.", "%(count)d players imported.", count)
                % {"count": count}
                + " "
                + delimiter_sentence(imported.delimiter),
            )
            return redirect("tournament-players", slug=tournament.slug)
    return _players_page(request, tournament, import_form=form)


@require_POST
@tournament_page("organise")
def player_status(request: HttpRequest, tournament: Tournament, player_number: int) -> HttpResponse:
    """Withdraw a player, or reinstate one (buttons on the player list)."""
    player = get_object_or_404(tournament.players, number=player_number)
    try:
        player_services.player_update(
            player=player, by=request.user, status=request.POST.get("status")
        )
    except RuleError as error:
        messages.error(
            request,
            _("#%(number)s %(name)s: %(error)s")
            % {"number": player.number, "name": player.name, "error": error},
        )
    else:
        names = {"number": player.number, "name": player.name}
        if player.status == Player.Status.WITHDRAWN:
            messages.success(request, _("#%(number)s %(name)s is withdrawn.") % names)
        else:
            messages.success(request, _("#%(number)s %(name)s is active again.") % names)
    return redirect("tournament-players", slug=tournament.slug)


@require_POST
@tournament_page("organise")
def player_fixed_table(
    request: HttpRequest, tournament: Tournament, player_number: int
) -> HttpResponse:
    """Set or clear a player's fixed table (a mobility need) from the player list."""
    player = get_object_or_404(tournament.players, number=player_number)
    typed = request.POST.get("fixed_table", "").strip()
    # Blank clears it; text that is not a number goes on as typed, for the service to name.
    number = whole_number(typed)
    value: object = None if not typed else typed if number is None else number
    try:
        player_services.player_update(player=player, by=request.user, fixed_table=value)
    except RuleError as error:
        messages.error(
            request,
            _("#%(number)s %(name)s: fixed table %(problem)s")
            % {"number": player.number, "name": player.name, "problem": error.message},
        )
    else:
        names = {"number": player.number, "name": player.name, "table": player.fixed_table}
        if player.fixed_table:
            messages.success(request, _("#%(number)s %(name)s sits at table %(table)s.") % names)
        else:
            messages.success(request, _("#%(number)s %(name)s sits at any table.") % names)
    return redirect("tournament-players", slug=tournament.slug)


@tournament_page("organise")
def player_delete(request: HttpRequest, tournament: Tournament, player_number: int) -> HttpResponse:
    """GET asks "Delete #N name?"; POST deletes the player. A refusal (seated already)
    goes back to the player list and says why."""
    player = get_object_or_404(tournament.players, number=player_number)
    if request.method == "POST":
        try:
            player_services.player_delete(player=player, by=request.user)
        except RuleError as error:
            messages.error(request, capfirst(error.message))
        else:
            messages.success(
                request,
                _("#%(number)s %(name)s is deleted.")
                % {"number": player.number, "name": player.name},
            )
        return redirect("tournament-players", slug=tournament.slug)
    return render(
        request,
        "tournaments/player_delete.html",
        {**tournament_context(request.user, tournament), "player": player},
    )


@tournament_page("organise")
def players_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return csv_download(players_csv_text(tournament), f"{tournament.slug}-players.csv")


@require_GET
def rules_preview(request: HttpRequest) -> HttpResponse:
    """The tournament form's preset and overrides, resolved (nothing is stored)."""
    form = TournamentForm(request.GET)
    return render(request, "tournaments/rules_panel.html", {"preview": form.preview()})
