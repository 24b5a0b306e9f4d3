"""The tables part of the round page at any size: one page of tables at a time, the
round's counts, the tables still to enter, the players "find my table" matches, and a
seat-swap form that fits a phone (`games.views.rounds.render_round` shows them).

What it reads does not grow with the round (`games.selectors.rounds`): the counts of
every table in one query, one page of TABLES_PER_PAGE tables (`?page=N`) with their seats
and series scores summed by the database, and the seats the query matches (the page of
the first table found is shown).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournaments.models import Round, Tournament
from tournaments.web import whole_number

from ..forms.rounds import SWAP_CHOICES_UP_TO, SeatSwapForm
from ..models import Seat
from ..selectors.rounds import (
    TABLES_PER_PAGE,
    RoundProgress,
    round_find,
    round_progress,
    round_tables_page,
)

# The round page names at most this many tables still to enter.
WAITING_SHOWN = 40


def _page_of(number: int) -> int:
    return (number - 1) // TABLES_PER_PAGE + 1


def _shown_numbers(progress: RoundProgress, asked: int | None, found: list[Seat]):
    """The table numbers shown, the page and the pages: the page asked for, else the page
    of the first table found, else the first."""
    pages = max(1, -(-progress.tables // TABLES_PER_PAGE))
    page = asked if asked is not None else (_page_of(found[0].table.number) if found else 1)
    page = min(max(page, 1), pages)
    first = (page - 1) * TABLES_PER_PAGE + 1
    return list(range(first, min(first + TABLES_PER_PAGE, progress.tables + 1))), page, pages


def _page_links(request: HttpRequest, page: int, pages: int, tables: int) -> list[dict]:
    """Links to the pages of tables (the query kept), each named by its tables' range."""
    if pages < 2:
        return []
    query = request.GET.copy()
    query.pop("q", None)
    links = []
    for number in range(1, pages + 1):
        query["page"] = str(number)
        first = (number - 1) * TABLES_PER_PAGE + 1
        last = min(number * TABLES_PER_PAGE, tables)
        href = "?" + query.urlencode()
        links.append({"first": first, "last": last, "current": number == page, "href": href})
    return links


def round_tables_context(request: HttpRequest, round_: Round, query: str) -> dict[str, Any]:
    """What the round page shows of its tables, for the request's page and query."""
    progress = round_progress(round_)
    found = round_find(round_, query) if query else []
    numbers, page, pages = _shown_numbers(progress, whole_number(request.GET.get("page")), found)
    marked = {seat.pk for seat in found}
    cards = round_tables_page(round_, numbers)
    for card in cards:
        for item in card["seats"]:
            item["match"] = item["seat"].pk in marked
        card["match"] = any(item["match"] for item in card["seats"])
    # Once results come in, the tables still playing (the first WAITING_SHOWN).
    waiting = progress.waiting if progress.entered else []
    return {
        "progress": progress,
        "cards": cards,
        "table_page_links": _page_links(request, page, pages, progress.tables),
        "waiting": [{"number": n, "page": _page_of(n)} for n in waiting[:WAITING_SHOWN]],
        "waiting_more": len(waiting[WAITING_SHOWN:]),
        "found": [{"seat": seat, "page": _page_of(seat.table.number)} for seat in found],
    }


def swap_form_for(
    round_: Round, tournament: Tournament, data: Any = None, seats: int | None = None
) -> SeatSwapForm:
    """The seat-swap form: two selects of the round's seats in a small round, two start
    numbers in a large one (`SWAP_CHOICES_UP_TO`); `seats`: how many, when known."""
    if seats is None:
        seats = Seat.objects.filter(round=round_).count()
    if seats > SWAP_CHOICES_UP_TO:
        return SeatSwapForm(data, tournament=tournament)
    listed = Seat.objects.filter(round=round_).select_related("player", "table")
    return SeatSwapForm(data, seats=list(listed.order_by("table__number", "position")))
