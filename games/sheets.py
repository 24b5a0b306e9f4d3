"""The printable table sheets: what a sheet shows, one sheet as a PDF (in the request),
and a whole round as a PDF (a background job, `games.services.export_jobs`).

Terms:
* table sheet — one printed page per table (A4 or Letter): who sits where, a ruled grid
  of games by players with who starts each game and a series-total row, boxes for
  penalties, a signature line, and the QR code of the table link (it signs a phone in as
  that table's scorekeeper for the round, `tournaments.table_links`). The browser prints
  the page; a PDF is the same page laid out by WeasyPrint.
* chunk — the sheets laid out by one WeasyPrint call in the round's job
  (`CHUNK_SHEETS`); the job's progress counts sheets, one step per chunk, and the chunks'
  pages are joined into one PDF at the end (WeasyPrint's documented way to combine
  documents, `Document.copy`).

Decisions: a request lays out at most one sheet (`?table=` on the PDF address); the whole
round's PDF is always a job, whatever the round's size, so a round of 4 tables and one of
250 behave alike. The job renders with the language and paper of the request that asked,
and issues the table links as the person who asked (they may score: the view checked).
"""

from __future__ import annotations

import functools
import logging
import os
from typing import TYPE_CHECKING, Any, cast

import segno
from celery import shared_task
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournaments.models import Round, Tournament
from tournaments.services.table_links import table_links_issue
from tournaments.table_links import token_for
from tournaments.web import public_url

from .models import ExportJob
from .selectors.rounds import round_tables
from .services.export_jobs import (
    SHEETS_TASK,
    export_job_fail,
    export_job_finish,
    export_job_progress,
    export_job_start,
)

if TYPE_CHECKING:
    from weasyprint import CSS

logger = logging.getLogger(__name__)

# Up to this many games a sheet has tall cells to write a rack's tiles in; more games
# (up to 12) get shorter ones, so the sheet stays one page.
SPACIOUS_GAMES = 6
# Paper sizes of the PDF download: its query value -> the CSS @page size.
PAPERS = {"a4": "A4", "letter": "letter"}
# Sheets per WeasyPrint call in the round's job: progress every few seconds, and each
# layout small (WeasyPrint's time grows faster than its page count).
CHUNK_SHEETS = 10


def _qr(url: str, table_number: int, *, png: bool = False) -> str:
    """The QR code of `url`: inline SVG for the page, or for a PDF an `img` of a PNG with
    one pixel per module, drawn unsmoothed (`image-rendering: pixelated`, site.css) at the
    same size. WeasyPrint embeds the PNG as it is; the SVG's path it would parse and draw
    module by module, some tenth of a sheet's time."""
    code = segno.make(url, error="m")
    title = _("Table {number} entry").format(number=table_number)
    if png:
        uri = code.png_data_uri(scale=1, border=2)
        return format_html('<img src="{}" alt="{}" class="qr-code">', uri, title)
    # segno writes the SVG itself; the only text in it is our own URL and title.
    return mark_safe(code.svg_inline(scale=4, border=2, omitsize=True, title=title))


def sheets_of_round(
    user: Any,
    tournament: Tournament,
    round_: Round,
    table_number: int | None = None,
    *,
    pdf: bool = False,
) -> list[dict[str, Any]]:
    """What the sheets of a round show (one table's only, given `table_number`): per
    table its seats, each game's starter and its table link (the link's address and QR,
    from `PUBLIC_BASE_URL`; the QR as a PNG when the sheets are for a `pdf`). Issues the
    links as `user`."""
    chosen = round_tables(round_)
    if table_number is not None:
        chosen = chosen.filter(number=table_number)
    tables = list(chosen)
    links = table_links_issue(
        by=user, round_=round_, table_numbers=[table.number for table in tables]
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
                "qr": _qr(url, table.number, png=pdf),
            }
        )
    return sheets


def _html(tournament: Tournament, round_: Round, sheets: list[dict[str, Any]]) -> str:
    return render_to_string(
        "games/sheets_pdf.html", {"tournament": tournament, "round": round_, "sheets": sheets}
    )


def sheets_pdf(html: str, size: str) -> bytes:
    """The PDF of the sheets page `html` on paper `size` (a CSS @page size)."""
    return weasyprint().HTML(string=html).write_pdf(stylesheets=_paper(size))


def weasyprint() -> Any:
    """WeasyPrint, imported on the first PDF and not with this module: loading it (Pango
    through cffi) takes about a second, which every manage.py command and every start of
    the site would pay, since the URL checks import the views that import this module
    (docs/operations/install.md)."""
    import weasyprint as module

    return module


def _paper(size: str) -> list[CSS]:
    path = cast(str, finders.find("css/site.css"))  # the site's own stylesheet: always found
    return _stylesheets(path, os.path.getmtime(path), size)


@functools.lru_cache(maxsize=4)
def _stylesheets(path: str, mtime: float, size: str) -> list[CSS]:
    """site.css and the paper size, parsed once per process (about a second of a PDF's
    time otherwise); `mtime` makes an edited site.css count at once."""
    css = weasyprint().CSS
    return [css(filename=path), css(string=f"@page {{ size: {size}; }}")]


def one_sheet_pdf(
    user: Any, tournament: Tournament, round_: Round, table: int, paper: str
) -> bytes:
    """One table's sheet as a PDF (what a request may lay out)."""
    sheets = sheets_of_round(user, tournament, round_, table_number=table, pdf=True)
    return sheets_pdf(_html(tournament, round_, sheets), PAPERS[paper])


def sheets_filename(tournament: Tournament, round_: Round, paper: str, table: int | None) -> str:
    which = "sheets" if table is None else f"table-{table}"
    return f"{tournament.slug}-round-{round_.number}-{which}-{paper}.pdf"


def round_pdf(job: ExportJob) -> bytes:
    """The job's round, every sheet, as one PDF; its progress counts the sheets."""
    round_id = cast(int, job.round_id)  # a sheets job names its round
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = round_.tournament
    sheets = sheets_of_round(job.requested_by, tournament, round_, pdf=True)
    export_job_progress(job, 0, len(sheets))
    stylesheets = _paper(PAPERS[job.params.get("paper", "a4")])
    documents = []
    for start in range(0, max(len(sheets), 1), CHUNK_SHEETS):
        chunk = sheets[start : start + CHUNK_SHEETS]
        documents.append(
            weasyprint()
            .HTML(string=_html(tournament, round_, chunk))
            .render(stylesheets=stylesheets)
        )
        export_job_progress(job, start + len(chunk))
    pages = [page for document in documents for page in document.pages]
    return documents[0].copy(pages).write_pdf()


# A whole round's PDF outlives the recomputes' time limits (CELERY_TASK_SOFT_TIME_LIMIT,
# 60 s): 250 tables take about a minute on a quiet machine and several on a busy one.
SHEETS_SOFT_SECONDS = 20 * 60


@shared_task(
    name=SHEETS_TASK, soft_time_limit=SHEETS_SOFT_SECONDS, time_limit=SHEETS_SOFT_SECONDS + 60
)
def render_sheets_pdf(job_id: int) -> int | None:
    """Run the sheets job `job_id` (see the module); its id once done."""
    job = export_job_start(job_id)
    if job is None:
        return None
    try:
        with translation.override(job.params.get("language") or None):
            pdf = round_pdf(job)
            paper = job.params.get("paper", "a4")
            round_ = cast(Round, job.round)  # a sheets job names its round
            filename = sheets_filename(round_.tournament, round_, paper, None)
        export_job_finish(job, content=pdf, filename=filename)
    except Exception as exc:
        logger.exception("sheets job %s failed", job_id)
        export_job_fail(job_id, f"{type(exc).__name__}: {exc}")
        return None
    return job.pk
