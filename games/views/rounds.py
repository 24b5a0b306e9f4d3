"""Round pages: a round's tables with "find my table" (public), opening the next round,
swapping seats and cancelling the last round (organisers), and the printable table sheets
(staff).

Every write is one service call; a `RuleError` goes back onto the form's fields
(`tournaments.web.add_rule_errors`) and nothing is saved.

Terms:
* series score — a player's scores after sanctions summed over the confirmed games at
  their table in one round (`RackEntry.net_score`, `games.selectors`).
* table sheet — one printed page per table (A4 or Letter): who sits where, a ruled grid
  of games by players with who starts each game and a series-total row, boxes for
  penalties, a signature line, and the QR code of the table link (it signs a phone in as
  that table's scorekeeper for the round, `tournaments.table_links`). The browser prints
  the page; the PDF of the whole round is the same page laid out by WeasyPrint.
"""

from __future__ import annotations

import functools
import os
from collections import defaultdict
from typing import Any

import segno
from django import forms
from django.contrib import messages
from django.contrib.staticfiles import finders
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe
from weasyprint import CSS, HTML

from scoring.errors import RuleError
from scoring.seating.words import PER_GAME_HINT, quality_sentences
from tournaments.models import Round, Tournament
from tournaments.selectors import checkin_list
from tournaments.services.table_links import table_links_issue
from tournaments.services.table_links import table_links_revoke as revoke_links
from tournaments.table_links import token_for
from tournaments.web import (
    add_rule_errors,
    public_url,
    tournament_context,
    tournament_page,
    whole_number,
)

from ..forms import (
    FindTableForm,
    RoundClockForm,
    RoundDrawForm,
    RoundOpenForm,
    SeatSwapForm,
    draw_json,
)
from ..selectors import round_tables
from ..services import rounds as services
from ..services.stages import round_stage_words
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
            "stage_words": round_stage_words(round_),
            "quality": quality_sentences(round_.quality),
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
                    _("Round {number} clock runs until {time}.").format(
                        number=round_.number, time=f"{localtime(round_.ends_at):%H:%M}"
                    ),
                )
            else:
                messages.success(
                    request, _("Round {number} clock stopped.").format(number=round_.number)
                )
            return redirect("round-detail", slug=tournament.slug, round_number=round_.number)
    return render_round(request, tournament, round_, clock_form=form)


@tournament_page("organise")
def round_open(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Opening the next round in two steps. The form (method; tables for manual) asks
    for a preview (`round_draw`, nothing saved); the preview page shows the draw, carried
    in hidden fields, and offers a re-draw (new seed), a swap of two players in it and
    "Open round N", which opens exactly that draw (`round_open`), "open anyway" ticked
    when earlier results are missing."""
    next_number = (tournament.rounds.aggregate(top=Max("number"))["top"] or 0) + 1
    action = request.POST.get("action", "preview") if request.method == "POST" else None
    if action in ("redraw", "swap", "open"):
        return _on_preview(request, tournament, action)
    form = RoundOpenForm(
        request.POST or None, tournament=tournament, initial={"number": next_number}
    )
    if request.method == "POST" and form.is_valid():
        try:
            preview = services.round_draw(
                tournament=tournament,
                by=request.user,
                method=form.cleaned_data["method"],
                tables=form.cleaned_data["tables"],
                number=form.cleaned_data["number"],
                stage=form.cleaned_data["stage"],
            )
        except services.RoundConflict as conflict:
            return _round_conflict(request, tournament, conflict)
        except RuleError as error:
            if error.path[:1] == ("stage",) and not form.asks_stage:
                # The stage is not asked (one is open): why it takes no round goes on top.
                form.add_error(None, capfirst(error.message))
            else:
                add_rule_errors(form, error)
        else:
            return _preview_page(request, tournament, preview)
    return render(
        request,
        "games/round_open.html",
        {
            **tournament_context(request.user, tournament),
            "form": form,
            "next_number": next_number,
            # Check-in: the round seats the present players only.
            **_present_and_absent(tournament, next_number),
        },
    )


def _present_and_absent(tournament: Tournament, number: int) -> dict[str, Any]:
    rows = checkin_list(tournament, number)
    return {
        "present": [row.player for row in rows if row.present],
        "absent": [row.player for row in rows if not row.present],
    }


def _round_conflict(
    request: HttpRequest, tournament: Tournament, conflict: services.RoundConflict
) -> HttpResponse:
    """A repeated click, or a preview gone stale: show the round that is open instead."""
    messages.warning(request, capfirst(conflict.message))
    if conflict.last_round:
        return redirect("round-detail", slug=tournament.slug, round_number=conflict.last_round)
    return redirect("round-open", slug=tournament.slug)


def _on_preview(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse:
    """A button of the preview page: re-draw, swap two players, or open the round."""
    carried = RoundDrawForm(request.POST)
    carried.is_valid()
    if any(name in carried.errors for name in ("method", "seed", "number", "draw")):
        messages.error(request, _("The previewed draw could not be read; preview it again."))
        return redirect("round-open", slug=tournament.slug)
    data = carried.cleaned_data
    draw = {
        "tournament": tournament,
        "by": request.user,
        "method": data["method"],
        "number": data.get("number"),
        "stage": data.get("stage"),
    }
    tables, seed = data["draw"], data.get("seed")
    try:
        if action == "open":
            round_ = services.round_open(
                **draw, tables=tables, seed=seed, open_anyway=data["open_anyway"]
            )
            messages.success(request, _("Round {number} is open.").format(number=round_.number))
            return redirect("round-detail", slug=tournament.slug, round_number=round_.number)
        if action == "redraw":
            preview = services.round_draw(**draw)
            if preview.seed == seed:  # one chance in two billion: draw once more
                preview = services.round_draw(**draw)
            return _preview_page(request, tournament, preview)
        if action == "swap" and not carried.errors:
            tables = carried.swapped()
            preview = services.round_draw(**draw, tables=tables, seed=seed)
            return _preview_page(request, tournament, preview)
    except services.RoundConflict as conflict:
        return _round_conflict(request, tournament, conflict)
    except RuleError as error:
        return _preview_again(request, tournament, draw, tables, seed, error)
    except forms.ValidationError:
        pass  # the swap's errors are on its fields
    return _preview_again(request, tournament, draw, tables, seed, None, carried)


def _preview_again(
    request: HttpRequest,
    tournament: Tournament,
    draw: dict[str, Any],
    tables: list[list[int]],
    seed: int | None,
    error: RuleError | None,
    carried: RoundDrawForm | None = None,
) -> HttpResponse:
    """The preview page again, the draw as it came, with what was wrong beside its field;
    a draw that no longer fits (a player withdrew meanwhile) goes back to the first step."""
    try:
        preview = services.round_draw(**draw, tables=tables, seed=seed)
    except RuleError as again:
        messages.error(request, capfirst(again.message))
        return redirect("round-open", slug=tournament.slug)
    return _preview_page(request, tournament, preview, error=error, errors_of=carried)


def _preview_page(
    request: HttpRequest,
    tournament: Tournament,
    preview: services.DrawPreview,
    *,
    error: RuleError | None = None,
    errors_of: RoundDrawForm | None = None,
) -> HttpResponse:
    players = tournament.players.in_bulk([p for table in preview.tables for p in table])
    cards = []
    for index, table in enumerate(preview.tables):
        starts: dict[int, list[int]] = defaultdict(list)
        for game, pid in enumerate(preview.starters(index), start=1):
            starts[pid].append(game)
        cards.append(
            {
                "number": index + 1,
                "games": preview.games[index],
                "seats": [
                    {"position": n, "player": players[pid], "starts": starts.get(pid, [])}
                    for n, pid in enumerate(table, start=1)
                ],
            }
        )
    form = RoundDrawForm(
        initial={
            "method": preview.method,
            "seed": preview.seed,
            "number": preview.number,
            "draw": draw_json(preview.tables),
            "stage": preview.stage.number if preview.stage else None,
        },
        seats=[
            (
                pid,
                _("#{number} {name} (table {table}, seat {seat})").format(
                    number=players[pid].number, name=players[pid].name, table=t + 1, seat=s + 1
                ),
            )
            for t, table in enumerate(preview.tables)
            for s, pid in enumerate(table)
        ],
    )
    form.cleaned_data = {}  # an unbound form takes errors only with this in place
    if error is not None:
        add_rule_errors(form, error)
    for name, messages_of in errors_of.errors.items() if errors_of else ():
        if name in ("player_a", "player_b", "open_anyway"):
            form.add_error(name, messages_of)
    ranking = set(tournament.ranking)
    return render(
        request,
        "games/round_preview.html",
        {
            **tournament_context(request.user, tournament),
            "preview": preview,
            "cards": cards,
            "form": form,
            "drawn": preview.method != Round.Method.MANUAL,
            # The method's words ("Random (fewest repeats)"), as the round page shows them.
            "method_label": Round.Method(preview.method).label,
            "per_game_hint": _(PER_GAME_HINT)
            if preview.uneven and not ranking & {"score_per_game", "won_per_game"}
            else "",
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
            messages.success(request, _("Seats swapped."))
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
            messages.success(
                request, _("Round {number} is cancelled.").format(number=round_.number)
            )
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
        code.svg_inline(
            scale=4,
            border=2,
            omitsize=True,
            title=_("Table {number} entry").format(number=table_number),
        )
    )


def _sheets(request: HttpRequest, tournament: Tournament, round_: Round) -> dict[str, Any]:
    """What the sheets of a round show: per table its seats, each game's starter and its
    table link (the link's address and QR, from `PUBLIC_BASE_URL`)."""
    tables = list(round_tables(round_))
    links = table_links_issue(
        by=request.user, round_=round_, table_numbers=[table.number for table in tables]
    )
    sheets = []
    for table in tables:
        seats = list(table.seats.all())
        by_position = {seat.position: seat for seat in seats}
        url = public_url(
            reverse(
                "table-link",
                kwargs={
                    "slug": tournament.slug,
                    "round_number": round_.number,
                    "table_number": table.number,
                    "token": token_for(links[table.number]),
                },
            )
        )
        games = [
            {"game": game, "starter": by_position.get(game.present_starter(seats))}
            for game in table.games.all()
        ]
        sheets.append(
            {
                "table": table,
                "seats": seats,
                "games": games,
                "dense": len(games) > SPACIOUS_GAMES,
                "link": links[table.number],
                "url": url,
                "qr": _qr_svg(url, table.number),
            }
        )
    return {
        **tournament_context(request.user, tournament),
        "round": round_,
        "sheets": sheets,
        "papers": PAPERS,
    }


# Up to this many games a sheet has tall cells to write a rack's tiles in; more games
# (up to 12) get shorter ones, so the sheet stays one page.
SPACIOUS_GAMES = 6
# Paper sizes of the PDF download: its query value -> the CSS @page size.
PAPERS = {"a4": "A4", "letter": "letter"}


@tournament_page("score")
def round_sheets(request: HttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """One printable page per table (the browser's print dialog makes the paper)."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    return render(request, "games/sheets.html", _sheets(request, tournament, round_))


@tournament_page("score")
def round_sheets_pdf(
    request: HttpRequest, tournament: Tournament, round_number: int
) -> HttpResponse:
    """The round's sheets as one PDF, one table per page, on A4 (``?paper=a4``, the
    default) or Letter (``?paper=letter``): the same page and stylesheet as the browser
    prints, laid out by WeasyPrint."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    paper = request.GET.get("paper", "a4")
    if paper not in PAPERS:
        raise Http404(_("Paper is a4 or letter."))
    html = render_to_string(
        "games/sheets_pdf.html", _sheets(request, tournament, round_), request=request
    )
    pdf = sheets_pdf(html, PAPERS[paper])
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"{tournament.slug}-round-{round_.number}-sheets-{paper}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def sheets_pdf(html: str, size: str) -> bytes:
    """The PDF of the sheets page `html` on paper `size` (a CSS @page size)."""
    path = finders.find("css/site.css")
    return HTML(string=html).write_pdf(stylesheets=_stylesheets(path, os.path.getmtime(path), size))


@functools.lru_cache(maxsize=4)
def _stylesheets(path: str, mtime: float, size: str) -> list[CSS]:
    """site.css and the paper size, parsed once per process (about a second of a PDF's
    time otherwise); `mtime` makes an edited site.css count at once."""
    return [CSS(filename=path), CSS(string=f"@page {{ size: {size}; }}")]


@require_POST
@tournament_page("organise")
def table_links_revoke(
    request: HttpRequest, tournament: Tournament, round_number: int
) -> HttpResponse:
    """Revoke the round's table links (``table`` posted: that table's only); the sheets
    page then shows the new ones to print."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    table_number = whole_number(request.POST.get("table"))
    links = revoke_links(by=request.user, round_=round_, table_number=table_number)
    if links:
        tables = ", ".join(str(link.table_number) for link in links)
        messages.success(
            request,
            ngettext(
                "Table link of table {tables} revoked: print the new sheets.",
                "Table links of tables {tables} revoked: print the new sheets.",
                len(links),
            ).format(tables=tables),
        )
    else:
        messages.warning(request, _("No table link to revoke."))
    return redirect("round-sheets", slug=tournament.slug, round_number=round_.number)
