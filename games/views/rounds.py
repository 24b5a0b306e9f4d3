"""Round pages: a round's tables with "find my table" (public), opening the next round,
swapping seats and cancelling the last round (organisers), and the printable table sheets
(staff).

Every write is one service call; a `RuleError` goes back onto the form's fields
(`tournaments.web.add_rule_errors`) and nothing is saved.

Terms:
* series score — a player's scores after sanctions summed over the confirmed games at
  their table in one round (`RackEntry.net_score`, `games.selectors`).
* table sheet — one printed page per table: who sits where, who starts each game, empty
  boxes for racks and penalties, and a QR code that opens the table's entry page.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import segno
from django.contrib import messages
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.timezone import localtime
from django.views.decorators.http import require_POST, require_safe

from scoring.errors import RuleError
from tournaments.models import Round, Tournament
from tournaments.selectors import active_players
from tournaments.web import add_rule_errors, tournament_context, tournament_page

from ..forms import FindTableForm, RoundClockForm, RoundOpenForm, SeatSwapForm
from ..selectors import round_tables
from ..services import rounds as services
from .caching import Conditional


def _table_cards(round_: Round, query: str) -> list[dict[str, Any]]:
    """Each table with its seats (series score so far) and how many games are entered;
    `match` marks the tables where a player's name or start number fits the query."""
    needle = query.strip().lower().lstrip("#")
    cards = []
    for table in round_tables(round_):
        games = list(table.games.all())
        series: dict[int, int] = defaultdict(int)
        entered = 0
        for game in games:
            if game.confirmed_results:
                entered += 1
                for rack in game.confirmed_results[0].racks.all():
                    series[rack.player_id] += rack.net_score
        seats = [
            {
                "seat": seat,
                "series": series.get(seat.player_id) if entered else None,
                "match": bool(needle)
                and (needle in seat.player.name.lower() or needle == str(seat.player.number)),
            }
            for seat in table.seats.all()
        ]
        cards.append(
            {
                "table": table,
                "seats": seats,
                "games": len(games),
                "entered": entered,
                "match": any(seat["match"] for seat in seats),
            }
        )
    return cards


@require_safe
@tournament_page("view")
def round_detail(request: HttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """The round page, with validators: a reload while nothing changed answers 304."""
    cond = Conditional(request, tournament, personal=True)
    if (answer := cond.not_modified()) is not None:
        return answer
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    return cond.finish(render_round(request, tournament, round_))


def _quality_rows(quality: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        (key.replace("_", " "), " / ".join(map(str, value)) if isinstance(value, list) else value)
        for key, value in quality.items()
    ]


def render_round(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    *,
    swap_form: SeatSwapForm | None = None,
    clock_form: RoundClockForm | None = None,
) -> HttpResponse:
    """The round page; the seat-swap and clock views render it again with their errors."""
    find = FindTableForm(request.GET or None)
    query = find.cleaned_data["q"] if find.is_valid() else ""
    cards = _table_cards(round_, query)
    page = tournament_context(request.user, tournament)
    clock_form = clock_form or (
        RoundClockForm() if page["can_organise"] and round_.number == page["rounds"][-1] else None
    )
    # Offered while some table has not started; the service refuses a table that has.
    if swap_form is None and page["can_organise"] and not all(c["entered"] for c in cards):
        # Prefetched seats know their table, so the choice labels cost no query.
        swap_form = SeatSwapForm(seats=[seat["seat"] for card in cards for seat in card["seats"]])
    return render(
        request,
        "games/round_detail.html",
        {
            **page,
            "round": round_,
            "quality": _quality_rows(round_.quality),
            "cards": cards,
            "find": find,
            "query": query,
            "found": [seat for card in cards for seat in card["seats"] if seat["match"]],
            "swap_form": swap_form,
            "clock_form": clock_form,
            # An anonymous reader posts nothing here, and the page is kept for every
            # anonymous reader (config.page_cache): no per-visitor CSRF token in it.
            **({} if request.user.is_authenticated else {"csrf_token": ""}),
        },
    )


@require_POST
@tournament_page("organise")
def round_clock(request: HttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """Set or stop the round clock the projector counts down."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    form = RoundClockForm(request.POST)
    if form.is_valid():
        try:
            round_ = services.round_clock_set(
                round_=round_, by=request.user, minutes=form.cleaned_data["minutes"]
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            if round_.ends_at:
                messages.success(
                    request,
                    f"Round {round_.number} clock runs until {localtime(round_.ends_at):%H:%M}.",
                )
            else:
                messages.success(request, f"Round {round_.number} clock stopped.")
            return redirect("round-detail", slug=tournament.slug, round_number=round_.number)
    return render_round(request, tournament, round_, clock_form=form)


@tournament_page("organise")
def round_open(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    next_number = (tournament.rounds.aggregate(top=Max("number"))["top"] or 0) + 1
    form = RoundOpenForm(
        request.POST or None, tournament=tournament, initial={"number": next_number}
    )
    if request.method == "POST" and form.is_valid():
        try:
            round_ = services.round_open(
                tournament=tournament,
                by=request.user,
                method=form.cleaned_data["method"],
                tables=form.cleaned_data["tables"],
                number=form.cleaned_data["number"],
            )
        except services.RoundConflict as conflict:
            # A repeated click: show the round that is open instead of a form error.
            messages.warning(request, capfirst(conflict.message))
            if conflict.last_round:
                return redirect(
                    "round-detail", slug=tournament.slug, round_number=conflict.last_round
                )
            return redirect("round-open", slug=tournament.slug)
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, f"Round {round_.number} is open.")
            return redirect("round-detail", slug=tournament.slug, round_number=round_.number)
    return render(
        request,
        "games/round_open.html",
        {
            **tournament_context(request.user, tournament),
            "form": form,
            "next_number": next_number,
            "active": active_players(tournament).order_by("number"),
        },
    )


@require_POST
@tournament_page("organise")
def seat_swap(request: HttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    seats = [seat for table in round_tables(round_) for seat in table.seats.all()]
    form = SeatSwapForm(request.POST, seats=seats)
    if form.is_valid():
        try:
            services.seat_swap(round_=round_, by=request.user, **form.cleaned_data)
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, "Seats swapped.")
            return redirect("round-detail", slug=tournament.slug, round_number=round_.number)
    return render_round(request, tournament, round_, swap_form=form)


@tournament_page("organise")
def round_cancel(request: HttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """GET asks "Cancel round N?"; POST cancels it. A refusal (not the last round,
    something played) goes back to the round page and says why."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    if request.method == "POST":
        try:
            services.round_cancel(round_=round_, by=request.user)
        except RuleError as error:
            messages.error(request, capfirst(error.message))
            if tournament.rounds.filter(pk=round_.pk).exists():
                return redirect("round-detail", slug=tournament.slug, round_number=round_.number)
        else:
            messages.success(request, f"Round {round_.number} is cancelled.")
        return redirect("tournament-detail", slug=tournament.slug)
    return render(
        request,
        "games/round_cancel.html",
        {
            **tournament_context(request.user, tournament),
            "round": round_,
            "refusal": services.round_cancel_refusal(round_),
        },
    )


def _qr_svg(url: str, table_number: int) -> str:
    code = segno.make(url, error="m")
    # segno writes the SVG itself; the only text in it is our own URL and title.
    return mark_safe(
        code.svg_inline(scale=4, border=2, omitsize=True, title=f"Table {table_number} entry")
    )


@tournament_page("score")
def round_sheets(request: HttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """One printable page per table (the browser's print dialog makes the paper)."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    sheets = []
    for table in round_tables(round_):
        seats = list(table.seats.all())
        by_position = {seat.position: seat for seat in seats}
        url = request.build_absolute_uri(
            reverse(
                "table-entry",
                kwargs={
                    "slug": tournament.slug,
                    "round_number": round_.number,
                    "table_number": table.number,
                },
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
        "games/sheets.html",
        {**tournament_context(request.user, tournament), "round": round_, "sheets": sheets},
    )
