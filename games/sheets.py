"""The printable table sheets: what a sheet shows, one sheet as a PDF (in the request),
and a whole round as a PDF (a background job, `games.services.export_jobs`).

Terms:
* table sheet — one printed page per table (A4 or Letter): who sits where, a ruled grid
  of games by players with who starts each game and a series-total row, boxes for
  penalties, a signature line, and the QR code of the table link (it signs a phone in as
  that table's scorekeeper for the round, `tournaments.table_links`). The browser prints
  the page; a PDF is the same page laid out by WeasyPrint.
* chunk — `CHUNK_SHEETS` tables' sheets laid out by one WeasyPrint call into a PDF of
  their own, by a task of its own (`render_sheets_part`), kept as a part of the job
  (`ExportPart`) until the joining.
* the round's job — three kinds of task: the start (`render_sheets_pdf`) issues every
  table link and divides the round into chunks; the chunks, `SHEETS_PARALLEL` of them
  queued or running at a time (each chunk made queues the one `SHEETS_PARALLEL` places
  further); the joining (`join_sheets_pdf`, queued by the chunk that completes the set)
  puts their pages one after the other in table order with pypdf into the job's file.
  The progress counts the sheets of the chunks made.

Decisions: a request lays out at most one sheet (`?table=` on the PDF address); the whole
round's PDF is always a job, whatever the round's size, so a round of 4 tables and one of
250 behave alike. The job renders with the language and paper of the request that asked,
and issues the table links as the person who asked (they may score: the view checked).

Why chunks in tasks: a sheet costs some 0.14 s of CPU in WeasyPrint whatever the chunk
size (from 2 sheets up; one alone 0.16 s), so 250 sheets are some 40 s of CPU in one
process; chunks in separate tasks are laid out by as many worker processes as there are
(two on two cores: half the wall time). Only `SHEETS_PARALLEL` chunks are in the queue at
a time, not the whole round: a standings recompute queued meanwhile waits for one chunk
(a second or two), not for the round. A site stylesheet of the sheets' rules only was
measured and left out: WeasyPrint matches its rules by class and element, and a chunk
laid out with site.css took the same time as with the print rules of the sheets alone.

Where the chunks' PDFs wait: in the database (`ExportPart.content`, some 70 KB a chunk,
deleted at the joining), not in `EXPORT_DIR`: workers on several hosts all reach the
database, and need no shared directory between them (the finished file goes to
`EXPORT_DIR`, which the web processes read, as before). A chunk is made once: a
redelivered task (acks late: its worker died) finds it made, counts nothing again and
queues the next steps again; the joining runs under the job's row lock and once. A chunk
that fails fails the job, its message naming the chunk's tables; the chunks still queued
then find the job failed and do nothing. Without a broker (the in-process queue,
`tournaments.jobs`) the same tasks run one after the other on the exports lane.
"""

from __future__ import annotations

import functools
import io
import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import segno
from celery import shared_task
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournaments import jobs
from tournaments.models import Round, Tournament
from tournaments.services.table_links import table_links_issue
from tournaments.table_links import token_for
from tournaments.web import public_url

from .models import ExportPart
from .selectors.rounds import round_tables
from .services.export_jobs import (
    LANE,
    SHEETS_TASK,
    export_job_fail,
    export_job_finish,
    export_job_parts,
    export_job_split,
    export_job_start,
    export_part_made,
)

if TYPE_CHECKING:
    from weasyprint import CSS

logger = logging.getLogger(__name__)

# Up to this many games a sheet has tall cells to write a rack's tiles in; more games
# (up to 12) get shorter ones, so the sheet stays one page.
SPACIOUS_GAMES = 6
# Paper sizes of the PDF download: its query value -> the CSS @page size.
PAPERS = {"a4": "A4", "letter": "letter"}
# Sheets per chunk of the round's job: a second or two of a worker's time each, so the
# progress moves every few seconds and a recompute waits at most that long for a worker
# process (a chunk of 2 lays out as cheaply per sheet as one of 12: 0.14 s).
CHUNK_SHEETS = 10
SHEETS_PART_TASK = "games.render_sheets_part"
SHEETS_JOIN_TASK = "games.join_sheets_pdf"


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
    table_numbers: Sequence[int] | None = None,
    pdf: bool = False,
) -> list[dict[str, Any]]:
    """What the sheets of a round show (one table's only, given `table_number`; those of
    the table numbers `table_numbers`, given them): per table its seats, each game's starter and
    its table link (the link's address and QR, from `PUBLIC_BASE_URL`; the QR as a PNG
    when the sheets are for a `pdf`). Issues the links as `user`."""
    chosen = round_tables(round_)
    if table_number is not None:
        chosen = chosen.filter(number=table_number)
    if table_numbers is not None:
        chosen = chosen.filter(number__in=table_numbers)
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


def pypdf() -> Any:
    """pypdf, imported when a round's chunks are joined and not with this module (as
    `weasyprint()`: every manage.py command would pay for it)."""
    import pypdf as module

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


def _chunk_pdf(part: ExportPart) -> bytes:
    """The PDF of a chunk: its tables' sheets, in the language and on the paper of the
    job, with the links issued as the person who asked (the job's start issued them)."""
    job = part.job
    round_ = Round.objects.select_related("tournament").get(pk=cast(int, job.round_id))
    with translation.override(job.params.get("language") or None):
        sheets = sheets_of_round(
            job.requested_by, round_.tournament, round_, table_numbers=part.covers, pdf=True
        )
        return sheets_pdf(
            _html(round_.tournament, round_, sheets), PAPERS[job.params.get("paper", "a4")]
        )


def joined_pdf(contents: Sequence[bytes]) -> bytes:
    """The PDFs `contents` as one, their pages in order (the first one's title kept)."""
    module = pypdf()
    writer = module.PdfWriter()
    for content in contents:
        writer.append(module.PdfReader(io.BytesIO(content)))
    metadata = module.PdfReader(io.BytesIO(contents[0])).metadata
    if metadata:
        writer.add_metadata(dict(metadata))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _enqueue(task: str, job_id: int, *args: int) -> None:
    """Queue a task of the job on the exports lane; a broker that cannot be reached
    fails the job (nothing else would ever finish it)."""
    if not jobs.enqueue(task, job_id, *args, lane=LANE):
        export_job_fail(job_id, "The job's next step could not be queued (no broker).")


# Time limits of a chunk and of the joining: a chunk is some 1.5 s of CPU, the joining of
# 250 sheets a few seconds; the limits leave room for a machine many times busier. The
# hard limit stays below the broker's visibility timeout (CELERY_VISIBILITY_TIMEOUT,
# 270 s): a task still running then would be handed to a second worker.
SHEETS_PART_SOFT_SECONDS = 3 * 60


# The start keeps the default time limits (CELERY_TASK_SOFT_TIME_LIMIT): a few queries
# and the round's links.
@shared_task(name=SHEETS_TASK)
def render_sheets_pdf(job_id: int) -> int | None:
    """Start the sheets job `job_id` (see the module): its chunks, the first
    `SHEETS_PARALLEL` of them queued; its id, or None when it was not waiting (a second
    delivery) or failed."""
    job = export_job_start(job_id)
    if job is None:
        return None
    try:
        round_ = Round.objects.get(pk=cast(int, job.round_id))  # a sheets job names its round
        numbers = list(round_.tables.order_by("number").values_list("number", flat=True))
        # Every link at once, here: the chunks then only read them.
        table_links_issue(by=job.requested_by, round_=round_, table_numbers=numbers)
        covers = [
            numbers[start : start + CHUNK_SHEETS]
            for start in range(0, max(len(numbers), 1), CHUNK_SHEETS)
        ]
        export_job_split(job, covers)
    except Exception as exc:
        logger.exception("sheets job %s failed", job_id)
        export_job_fail(job_id, f"{type(exc).__name__}: {exc}")
        return None
    width = max(1, int(settings.SHEETS_PARALLEL))
    for index in range(min(width, len(covers))):
        _enqueue(SHEETS_PART_TASK, job_id, index, width)
    return job_id


@shared_task(
    name=SHEETS_PART_TASK,
    soft_time_limit=SHEETS_PART_SOFT_SECONDS,
    time_limit=SHEETS_PART_SOFT_SECONDS + 60,
)
def render_sheets_part(job_id: int, index: int, width: int) -> bool:
    """Make chunk `index` of the sheets job `job_id`, then queue chunk `index + width`
    (so `width` chunks are queued or running at a time), and the joining once every
    chunk is made. A chunk already made (a second delivery) is not made again, the next
    steps are queued again (the first delivery may have died before it queued them);
    True when this call made the chunk."""
    part = (
        ExportPart.objects.filter(job_id=job_id, index=index)
        .select_related("job", "job__requested_by")
        .defer("content")
        .first()
    )
    if part is None or not part.job.active:
        return False  # the job failed, or was joined, or forgotten
    made = part.made_at is None
    if made:
        try:
            content = _chunk_pdf(part)
        except Exception as exc:
            logger.exception("sheets job %s: chunk %s failed", job_id, index)
            first, last = (part.covers[0], part.covers[-1]) if part.covers else ("", "")
            export_job_fail(
                job_id, f"The sheets of tables {first}-{last}: {type(exc).__name__}: {exc}"
            )
            return False
    else:
        content = b""
    every_part_made = export_part_made(part, content)
    if ExportPart.objects.filter(job_id=job_id, index=index + width).exists():
        _enqueue(SHEETS_PART_TASK, job_id, index + width, width)
    if every_part_made:
        _enqueue(SHEETS_JOIN_TASK, job_id)
    return made


@shared_task(
    name=SHEETS_JOIN_TASK,
    soft_time_limit=SHEETS_PART_SOFT_SECONDS,
    time_limit=SHEETS_PART_SOFT_SECONDS + 60,
)
def join_sheets_pdf(job_id: int) -> int | None:
    """Join the chunks of the sheets job `job_id` into its file (pypdf), once; its id,
    or None when there was nothing to join (already joined, failed)."""
    try:
        with transaction.atomic():
            found = export_job_parts(job_id)
            if found is None:
                return None
            job, contents = found
            round_ = Round.objects.select_related("tournament").get(pk=cast(int, job.round_id))
            paper = job.params.get("paper", "a4")
            export_job_finish(
                job,
                content=joined_pdf(contents),
                filename=sheets_filename(round_.tournament, round_, paper, None),
            )
    except Exception as exc:
        logger.exception("sheets job %s: the joining failed", job_id)
        export_job_fail(job_id, f"{type(exc).__name__}: {exc}")
        return None
    return job_id
