"""Exports and imports too large for a request, run as background jobs: asking for one,
its progress, its file, and forgetting old ones.

Terms:
* export job — an `ExportJob` row: what was asked (`kind`, the tournament and round, the
  `params` it depends on), who asked, how far it got (`done` of `total` steps: a sheet,
  a chunk of an import) and, once `done`, its file; `failed` with an `error` otherwise.
* kinds — `sheets_pdf` (a whole round's table sheets, one PDF: the presentation layer
  renders them, `games.sheets`) and `event_file_import` (an event file too large to
  import inside a request: its upload is the job's file until the import replaces it
  with nothing and names the new tournament in `result`).
* job task — the Celery task that runs one job by id (`SHEETS_TASK`, `IMPORT_TASK`),
  published to a worker when there is a broker, otherwise run on this process's job
  thread (`tournaments.jobs`), never inside the request that asked.
* part — an `ExportPart` of a job: one piece of its output made by a task of its own
  (a chunk of a round's sheets, `games.sheets`), so that several worker processes make
  one job. A part is made once: a redelivered task finds it made and adds nothing. The
  job's progress is the steps of its parts made so far; once every part is made, the
  job joins them into its file and deletes them.
* reuse — a request for the same kind, tournament, round and params while such a job is
  queued or running returns that job instead of starting another (a nervous double
  click, a second organiser at the same moment).
* pruning — every new job first deletes the jobs finished more than `EXPORT_KEEP_HOURS`
  ago, with their files; jobs stuck queued or running that long (a worker killed while
  it ran one) are marked failed and go the same way later.

Decisions: what stays in its request — an event file's export (some 1 s at 200 players x
7 rounds, `bench.event_file`), the CSV exports and one table's sheet; what leaves it — a
whole round's sheets (always, whatever its size) and an event file above
`EVENT_FILE_REQUEST_BYTES` (4 MiB) or holding more than `EVENT_FILE_REQUEST_ROWS`
(10,000) players and racks: what an import costs follows the rows it writes more than
the bytes (a 20,000-player file under 4 MiB outlived the web worker's 30 s in its
request; 200 players x 7 rounds is 5,800 rows and takes seconds). The files live on the
local disk (`EXPORT_DIR`, under `DATA_DIR`), which the web processes and a worker on the
same machine share; a worker on another machine needs that directory shared. Progress is
written once per step, each write its own short statement (the page polls it).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F, Sum
from django.utils import timezone, translation

from scoring.errors import RuleError
from tournaments import jobs
from tournaments.models import Round, Tournament
from tournaments.permissions import User, signed_in

from ..models import ExportJob, ExportPart
from .event_file.load import (
    event_file_import,
    event_file_max_bytes,
    event_file_read,
    event_file_size_check,
)

logger = logging.getLogger(__name__)

SHEETS_TASK = "games.render_sheets_pdf"
IMPORT_TASK = "games.import_event_file"
TASKS: dict[str, str] = {
    ExportJob.Kind.SHEETS_PDF: SHEETS_TASK,
    ExportJob.Kind.EVENT_FILE_IMPORT: IMPORT_TASK,
}
# Each job on a lane of its own: a 60 s PDF must not hold up a standings recompute.
LANE = "exports"


def export_job_request(
    *,
    by: User,
    kind: str,
    tournament: Tournament | None = None,
    round_: Round | None = None,
    params: dict[str, Any] | None = None,
    total: int = 0,
    upload: bytes | None = None,
) -> tuple[ExportJob, bool]:
    """The job for this export: the one already queued or running for the same thing
    (reuse), or a new one queued once this transaction commits; True when new.
    `upload` is an import's input, kept as the job's file until it ran."""
    params = params or {}
    export_jobs_prune()
    with transaction.atomic():
        if upload is None:
            running = (
                ExportJob.objects.select_for_update()
                .filter(
                    kind=kind,
                    tournament=tournament,
                    round=round_,
                    status__in=(ExportJob.Status.QUEUED, ExportJob.Status.RUNNING),
                )
                .order_by("-created_at")
            )
            for job in running:
                if job.params == params:
                    return job, False
        job = ExportJob(
            kind=kind,
            tournament=tournament,
            round=round_,
            params=params,
            requested_by=signed_in(by),  # its callers refuse the anonymous visitor
            total=total,
        )
        if upload is not None:
            job.file.save(f"{kind}.json", ContentFile(upload), save=False)
        job.save()
        task, job_id = TASKS[kind], job.pk
        transaction.on_commit(lambda: jobs.enqueue(task, job_id, lane=LANE))
    return job, True


def export_job_start(job_id: int) -> ExportJob | None:
    """Mark the job running (None: gone, or not waiting any more — run twice)."""
    with transaction.atomic():
        job = ExportJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status != ExportJob.Status.QUEUED:
            return None
        job.status = ExportJob.Status.RUNNING
        job.started_at = timezone.now()
        job.save(update_fields=["status", "started_at"])
    return job


def export_job_progress(job: ExportJob, done: int, total: int | None = None) -> None:
    """`done` steps of `total` (unchanged when None) are done."""
    job.done = done
    fields = ["done"]
    if total is not None:
        job.total = total
        fields.append("total")
    ExportJob.objects.filter(pk=job.pk).update(**{field: getattr(job, field) for field in fields})


def export_job_finish(
    job: ExportJob, *, content: bytes | None, filename: str = "", result: str = ""
) -> None:
    """The job is done: its file (`content`, downloaded as `filename`) or, for an
    import, the new tournament's slug in `result` (its input file is deleted)."""
    with transaction.atomic():
        if job.file:
            job.file.delete(save=False)
        if content is not None:
            job.file.save(filename, ContentFile(content), save=False)
        job.filename = filename
        job.result = result
        job.status = ExportJob.Status.DONE
        job.done = job.total = max(job.total, job.done)
        job.finished_at = timezone.now()
        job.save()
        ExportPart.objects.filter(job=job).delete()


def export_job_fail(job_id: int, error: str) -> None:
    """The job failed with `error` (a sentence for the person who asked)."""
    job = ExportJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    if job.kind == ExportJob.Kind.EVENT_FILE_IMPORT and job.file:
        job.file.delete(save=False)
    ExportJob.objects.filter(pk=job_id).update(
        status=ExportJob.Status.FAILED, error=error[:2000], finished_at=timezone.now(), file=""
    )
    ExportPart.objects.filter(job_id=job_id).delete()


def export_job_split(job: ExportJob, covers: list[list[Any]]) -> list[ExportPart]:
    """Divide the running `job` into parts, one per item of `covers` (what each covers;
    its length the part's steps); the job's total becomes their steps, none done."""
    with transaction.atomic():
        parts = ExportPart.objects.bulk_create(
            ExportPart(job=job, index=index, covers=cover, steps=len(cover))
            for index, cover in enumerate(covers)
        )
        export_job_progress(job, 0, sum(part.steps for part in parts))
    return parts


def export_part_made(part: ExportPart, content: bytes) -> bool:
    """Keep the made `part`'s `content` and count its steps in the job's progress, once
    (a second delivery of its task changes nothing); True when every part of the job is
    made and the job still runs: the caller has the job joined (a joining that runs twice
    finds the job done the second time, `export_job_parts`)."""
    with transaction.atomic():
        # The job's row first: the parts of one job are counted one at a time.
        job = ExportJob.objects.select_for_update().filter(pk=part.job_id).first()
        if job is None or job.status != ExportJob.Status.RUNNING:
            return False
        ExportPart.objects.filter(pk=part.pk, made_at=None).update(
            content=content, made_at=timezone.now()
        )
        parts = ExportPart.objects.filter(job=job)
        made = parts.exclude(made_at=None).aggregate(steps=Sum("steps"))["steps"] or 0
        export_job_progress(job, made)
        return not parts.filter(made_at=None).exists()


def export_job_parts(job_id: int) -> tuple[ExportJob, list[bytes]] | None:
    """The running job and its parts' contents in order, when every part is made (None
    otherwise: already joined, failed, or a part still missing). Call it in a transaction:
    the job's row stays locked until the caller finished the job (`export_job_finish`),
    so that two joinings of one job never both write its file."""
    job = ExportJob.objects.select_for_update().filter(pk=job_id).first()
    if job is None or job.status != ExportJob.Status.RUNNING:
        return None
    parts = list(ExportPart.objects.filter(job=job).order_by("index"))
    if not parts or any(part.made_at is None for part in parts):
        return None
    return job, [bytes(part.content or b"") for part in parts]


def export_jobs_prune(now: Any = None) -> int:
    """Forget the jobs finished (or stuck) longer than `EXPORT_KEEP_HOURS` ago and
    delete their files; how many were forgotten."""
    now = now or timezone.now()
    before = now - timedelta(hours=settings.EXPORT_KEEP_HOURS)
    ExportJob.objects.filter(
        status__in=(ExportJob.Status.QUEUED, ExportJob.Status.RUNNING), created_at__lt=before
    ).update(
        status=ExportJob.Status.FAILED,
        error="The job did not finish (its worker stopped).",
        finished_at=F("created_at"),
    )
    old = list(ExportJob.objects.filter(finished_at__lt=before))
    for job in old:
        if job.file:
            job.file.delete(save=False)
    ExportJob.objects.filter(pk__in=[job.pk for job in old]).delete()
    return len(old)


def event_file_import_run(job_id: int) -> str | None:
    """Run the import job `job_id`: its uploaded file becomes a tournament organised by
    who asked (`games.services.event_file`); the new slug, or None when it failed (the
    problems, each named by its JSON path, are the job's `error`)."""
    job = export_job_start(job_id)
    if job is None:
        return None
    try:
        with job.file.open("rb") as upload:
            data = upload.read()
        export_job_progress(job, 0, 1)
        with translation.override(job.params.get("language") or None):
            document = event_file_read(data)
            del data
            tournament = event_file_import(
                by=job.requested_by, document=document, slug=job.params.get("slug") or None
            )
    except RuleError as error:
        export_job_fail(job_id, "\n".join(str(e) for e in error.flatten()))
        return None
    except Exception as exc:
        logger.exception("import job %s failed", job_id)
        export_job_fail(job_id, f"{type(exc).__name__}: {exc}")
        return None
    export_job_finish(job, content=None, result=tournament.slug)
    return tournament.slug


def event_file_rows(document: Any) -> int:
    """How many players and racks a (not yet checked) event file holds: the rows its
    import writes, near enough to say whether a request can take it."""
    if not isinstance(document, dict):
        return 0
    players = document.get("players")
    rows = len(players) if isinstance(players, list) else 0
    stack = [document.get("rounds")]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            racks = value.get("racks")
            if isinstance(racks, list):
                rows += len(racks)
            stack.extend(v for v in value.values() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, (dict, list)))
    return rows


def event_file_upload(*, by: User, upload: Any, slug: str | None = None) -> Tournament | ExportJob:
    """Import an uploaded event file (`upload`: a file object): at once when it is at most
    `EVENT_FILE_REQUEST_BYTES` and holds at most `EVENT_FILE_REQUEST_ROWS` players and
    racks (the new tournament), else as a job (the job; nothing is checked but its size
    and, below the byte limit, that it is JSON, until it runs). A file above
    `EVENT_FILE_MAX_BYTES` is refused with a `RuleError` naming the limit, read no further
    than that."""
    data = upload.read(event_file_max_bytes() + 1)
    event_file_size_check(len(data))
    if len(data) <= settings.EVENT_FILE_REQUEST_BYTES:
        document = event_file_read(data)
        if event_file_rows(document) <= settings.EVENT_FILE_REQUEST_ROWS:
            return event_file_import(by=by, document=document, slug=slug)
    job, _new = export_job_request(
        by=by,
        kind=ExportJob.Kind.EVENT_FILE_IMPORT,
        params={"slug": slug or "", "language": translation.get_language()},
        total=1,
        upload=data,
    )
    return job
