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

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.db.models import Max
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.timezone import localtime
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring.errors import RuleError
from scoring.seating.words import PER_GAME_HINT, quality_sentences
from tournaments.models import Round, Tournament
from tournaments.selectors import checkin_list, open_stages
from tournaments.services.table_links import table_links_revoke as revoke_links
from tournaments.web import (
    add_rule_errors,
    tournament_context,
    tournament_page,
    whole_number,
)

from ..forms.rounds import (
    FindTableForm,
    RoundClockForm,
    RoundDrawForm,
    RoundOpenForm,
    SeatSwapForm,
    draw_json,
)
from ..models import ExportJob
from ..services import draw as drawing
from ..services import rounds as services
from ..services.export_jobs import export_job_request
from ..sheets import PAPERS, one_sheet_pdf, sheets_filename, sheets_of_round
from ..words import round_stage_words
from .caching import Conditional
from .round_tables import round_tables_context, swap_form_for

if TYPE_CHECKING:
    pass


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
    """The round page; the seat-swap and clock views render it again with their errors.
    Its tables a page at a time, whatever the round's size (`games.views.round_tables`)."""
    find = FindTableForm(request.GET or None)
    query = find.cleaned_data["q"] if find.is_valid() else ""
    tables = round_tables_context(request, round_, query)
    page = tournament_context(request.user, tournament)
    clock_form = clock_form or (
        RoundClockForm() if page["can_organise"] and round_.number == page["rounds"][-1] else None
    )
    # Offered while some table has not started; the service refuses a table that has.
    progress = tables["progress"]
    if swap_form is None and page["can_organise"] and progress.unstarted:
        swap_form = swap_form_for(round_, tournament, seats=progress.seats)
    return render(
        request,
        "games/round_detail.html",
        {
            **page,
            **tables,
            "round": round_,
            "stage_words": round_stage_words(round_),
            "quality": quality_sentences(round_.quality),
            "find": find,
            "query": query,
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
    initial: dict[str, object] = {"number": next_number}
    # The one open stage's own seating is offered first (a method named wins).
    open_now = open_stages(tournament)
    if len(open_now) == 1 and open_now[0].seating:
        initial["method"] = open_now[0].seating
    form = RoundOpenForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            preview = drawing.round_draw(
                tournament=tournament,
                by=request.user,
                method=form.cleaned_data["method"],
                tables=form.cleaned_data["tables"],
                number=form.cleaned_data["number"],
                stage=form.cleaned_data["stage"],
            )
        except drawing.RoundConflict as conflict:
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
    request: HttpRequest, tournament: Tournament, conflict: drawing.RoundConflict
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
            preview = drawing.round_draw(**draw)
            if preview.seed == seed:  # one chance in two billion: draw once more
                preview = drawing.round_draw(**draw)
            return _preview_page(request, tournament, preview)
        if action == "swap" and not carried.errors:
            tables = carried.swapped()
            preview = drawing.round_draw(**draw, tables=tables, seed=seed)
            return _preview_page(request, tournament, preview)
    except drawing.RoundConflict as conflict:
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
        preview = drawing.round_draw(**draw, tables=tables, seed=seed)
    except RuleError as again:
        messages.error(request, capfirst(again.message))
        return redirect("round-open", slug=tournament.slug)
    return _preview_page(request, tournament, preview, error=error, errors_of=carried)


def _preview_page(
    request: HttpRequest,
    tournament: Tournament,
    preview: drawing.DrawPreview,
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
    form = swap_form_for(round_, tournament, request.POST)
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


def _sheets(request: HttpRequest, tournament: Tournament, round_: Round) -> dict[str, Any]:
    return {
        **tournament_context(request.user, tournament),
        "round": round_,
        "sheets": sheets_of_round(request.user, tournament, round_),
        "papers": PAPERS,
        "job": _sheets_job(tournament, round_),
    }


def _sheets_job(tournament: Tournament, round_: Round) -> ExportJob | None:
    """The newest whole-round PDF job of the round (its progress or its download)."""
    return (
        ExportJob.objects.filter(
            kind=ExportJob.Kind.SHEETS_PDF, tournament=tournament, round=round_
        )
        .order_by("-created_at", "-pk")
        .first()
    )


@tournament_page("score")
def round_sheets(request: HttpRequest, tournament: Tournament, round_number: int) -> HttpResponse:
    """One printable page per table (the browser's print dialog makes the paper)."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    return render(request, "games/sheets.html", _sheets(request, tournament, round_))


def _paper(request: HttpRequest) -> str:
    paper = request.GET.get("paper") or request.POST.get("paper") or "a4"
    if paper not in PAPERS:
        raise Http404(_("Paper is a4 or letter."))
    return paper


@tournament_page("score")
def round_sheets_pdf(
    request: HttpRequest, tournament: Tournament, round_number: int
) -> HttpResponse:
    """One table's sheet as a PDF (``?table=N``), on A4 (``?paper=a4``, the default) or
    Letter (``?paper=letter``), laid out at once. Without a table, the whole round is a
    background job: this answers with the sheets page, where it is started and followed."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    paper = _paper(request)
    table = whole_number(request.GET.get("table"))
    if table is None:
        url = reverse(
            "round-sheets", kwargs={"slug": tournament.slug, "round_number": round_.number}
        )
        return redirect(f"{url}?paper={paper}#round-pdf")
    if not round_.tables.filter(number=table).exists():
        raise Http404(_("No such table in this round."))
    pdf = one_sheet_pdf(request.user, tournament, round_, table, paper)
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = sheets_filename(tournament, round_, paper, table)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_POST
@tournament_page("score")
def round_sheets_job(
    request: HttpRequest, tournament: Tournament, round_number: int
) -> HttpResponse:
    """Start the whole round's PDF as a background job (or follow the one already
    running for the same paper), then show its progress on the sheets page."""
    round_ = get_object_or_404(tournament.rounds, number=round_number)
    paper = _paper(request)
    job, _new = export_job_request(
        by=request.user,
        kind=ExportJob.Kind.SHEETS_PDF,
        tournament=tournament,
        round_=round_,
        params={"paper": paper, "language": get_language()},
        total=round_.tables.count(),
    )
    if request.headers.get("HX-Request"):
        return _job_fragment(request, tournament, job)
    url = reverse("round-sheets", kwargs={"slug": tournament.slug, "round_number": round_.number})
    return redirect(f"{url}#round-pdf")


def _job_fragment(request: HttpRequest, tournament: Tournament, job: ExportJob) -> HttpResponse:
    return render(request, "games/_export_job.html", {"tournament": tournament, "job": job})


def _tournament_job(tournament: Tournament, job_id: int) -> ExportJob:
    return get_object_or_404(ExportJob, pk=job_id, tournament=tournament)


@require_safe
@tournament_page("score")
def export_job_status(request: HttpRequest, tournament: Tournament, job_id: int) -> HttpResponse:
    """A job's progress (the fragment the sheets page polls while it runs)."""
    return _job_fragment(request, tournament, _tournament_job(tournament, job_id))


@require_safe
@tournament_page("score")
def export_job_download(
    request: HttpRequest, tournament: Tournament, job_id: int
) -> HttpResponseBase:
    """A finished job's file (404 until it is done, or once it was cleaned up)."""
    job = _tournament_job(tournament, job_id)
    if job.status != ExportJob.Status.DONE or not job.file:
        raise Http404(_("This file is not ready, or no longer kept."))
    try:
        handle = job.file.open("rb")
    except FileNotFoundError:
        raise Http404(_("This file is not ready, or no longer kept.")) from None
    return FileResponse(handle, as_attachment=True, filename=job.filename)


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
