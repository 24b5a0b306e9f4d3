"""The organiser's pages: create and edit a tournament, staff, players (form, CSV import,
withdraw), open a round, swap seats, print the table sheets, export the players.

Every write is one service call; a `RuleError` goes back onto the form's fields
(`web.add_rule_errors`) and nothing is saved.

Terms:
* table sheet — one printed page per table: who sits where, who starts each game, empty
  boxes for racks and penalties, and a QR code that opens the table's entry page.
"""

from __future__ import annotations

import csv
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from games.selectors import round_tables
from scoring.errors import RuleError
from scoring.rules import PRESET_RANKING, PRESET_TABLE_SIZE, resolve_rules

from .. import services
from ..forms import (
    PlayerForm,
    PlayerImportForm,
    RoundOpenForm,
    SeatSwapForm,
    StaffForm,
    TournamentForm,
)
from ..models import Player, Tournament
from ..selectors import active_players
from ..web import add_rule_errors, tournament_context, tournament_page
from .public import render_round

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
            messages.success(request, f"{tournament.name} is created; you organise it.")
            return redirect("tournament-players", slug=tournament.slug)
    return render(request, "tournaments/tournament_form.html", {"form": form, "creating": True})


def _changes(form: TournamentForm, tournament: Tournament) -> dict[str, Any]:
    """The form's values as tournament_update takes them. Unchanged rules are left out:
    once results exist the service refuses any rules in the input, even the same ones."""
    values = form.service_values()
    preset = values["preset"]
    try:
        unchanged = resolve_rules(preset, values["rules"]).as_dict() == tournament.rules
    except RuleError:
        unchanged = False  # the service names the problem
    if unchanged:
        del values["preset"], values["rules"]
    # Blank means "the preset's", as on the create form.
    if values["ranking"] is None:
        values["ranking"] = list(PRESET_RANKING.get(preset, tournament.ranking))
    if values["table_size"] is None:
        values["table_size"] = PRESET_TABLE_SIZE.get(preset, tournament.table_size)
    return values


@tournament_page("organise")
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(
        request.POST or None, initial=TournamentForm.initial_for(tournament), editing=True
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(
                tournament=tournament, by=request.user, **_changes(form, tournament)
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, "Settings saved.")
            return redirect("tournament-detail", slug=tournament.slug)
    return render(
        request,
        "tournaments/tournament_form.html",
        {
            **tournament_context(request.user, tournament),
            "form": form,
            "rules_locked": services.tournament_has_results(tournament),
        },
    )


# --- staff -------------------------------------------------------------------------------


@tournament_page("organise")
def staff(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            member = services.staff_add(tournament=tournament, by=request.user, **form.cleaned_data)
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, f"{member.user.username} is now {member.role}.")
            return redirect("tournament-staff", slug=tournament.slug)
    members = tournament.staff.select_related("user").order_by("role", "user__username")
    return render(
        request,
        "tournaments/staff.html",
        {**tournament_context(request.user, tournament), "form": form, "members": members},
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
            "form": form or PlayerForm(),
            "import_form": import_form or PlayerImportForm(),
            "players": tournament.players.order_by("number"),
        },
    )


@tournament_page("organise")
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The player list; POST registers one player."""
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.player_register(
                tournament=tournament, by=request.user, **form.cleaned_data
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, f"{player.name} registered as #{player.number}.")
            return redirect("tournament-players", slug=tournament.slug)
    return _players_page(request, tournament, form=form)


@require_POST
@tournament_page("organise")
def players_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PlayerImportForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            imported = services.players_import_csv(
                tournament=tournament, by=request.user, data=upload.read(services.MAX_CSV_BYTES + 1)
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, f"{len(imported)} players imported.")
            return redirect("tournament-players", slug=tournament.slug)
    return _players_page(request, tournament, import_form=form)


@require_POST
@tournament_page("organise")
def player_status(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Withdraw a player, or reinstate one (buttons on the player list)."""
    player = get_object_or_404(tournament.players, number=number)
    try:
        services.player_update(player=player, by=request.user, status=request.POST.get("status"))
    except RuleError as error:
        messages.error(request, f"#{player.number} {player.name}: {error}")
    else:
        state = "withdrawn" if player.status == Player.Status.WITHDRAWN else "active again"
        messages.success(request, f"#{player.number} {player.name} is {state}.")
    return redirect("tournament-players", slug=tournament.slug)


@tournament_page("organise")
def players_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    response = _csv_response(f"{tournament.slug}-players.csv")
    writer = csv.writer(response)
    writer.writerow(["number", "name", "club", "rating", "status"])
    for player in tournament.players.order_by("number"):
        writer.writerow([player.number, player.name, player.club, player.rating, player.status])
    return response


def _csv_response(filename: str) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# --- rounds ------------------------------------------------------------------------------


@tournament_page("organise")
def round_open(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RoundOpenForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            round_ = services.round_open(
                tournament=tournament,
                by=request.user,
                method=form.cleaned_data["method"],
                tables=form.cleaned_data["tables"],
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, f"Round {round_.number} is open.")
            return redirect("round-detail", slug=tournament.slug, number=round_.number)
    return render(
        request,
        "tournaments/round_open.html",
        {
            **tournament_context(request.user, tournament),
            "form": form,
            "next_number": tournament.rounds.count() + 1,
            "active": active_players(tournament).order_by("number"),
        },
    )


@require_POST
@tournament_page("organise")
def seat_swap(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(tournament.rounds, number=number)
    seats = [seat for table in round_tables(round_) for seat in table.seats.all()]
    form = SeatSwapForm(request.POST, seats=seats)
    if form.is_valid():
        try:
            services.seat_swap(round_=round_, by=request.user, **form.cleaned_data)
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, "Seats swapped.")
            return redirect("round-detail", slug=tournament.slug, number=round_.number)
    return render_round(request, tournament, round_, swap_form=form)


def _qr_svg(url: str, table_number: int) -> str:
    code = segno.make(url, error="m")
    # segno writes the SVG itself; the only text in it is our own URL and title.
    return mark_safe(
        code.svg_inline(scale=4, border=2, omitsize=True, title=f"Table {table_number} entry")
    )


@tournament_page("score")
def round_sheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """One printable page per table (the browser's print dialog makes the paper)."""
    round_ = get_object_or_404(tournament.rounds, number=number)
    sheets = []
    for table in round_tables(round_):
        seats = list(table.seats.all())
        by_position = {seat.position: seat for seat in seats}
        url = request.build_absolute_uri(
            reverse(
                "table-entry",
                kwargs={"slug": tournament.slug, "number": round_.number, "table": table.number},
            )
        )
        sheets.append(
            {
                "table": table,
                "seats": seats,
                "games": [
                    {"game": game, "starter": by_position.get(game.starter_position)}
                    for game in table.games.all()
                ],
                "url": url,
                "qr": _qr_svg(url, table.number),
            }
        )
    return render(
        request,
        "tournaments/sheets.html",
        {
            **tournament_context(request.user, tournament),
            "round": round_,
            "sheets": sheets,
        },
    )
