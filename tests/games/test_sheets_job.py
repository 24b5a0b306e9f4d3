"""The whole round's sheets PDF as a background job (`games.sheets`,
`games.services.export_jobs`): the request that asks lays nothing out, the job makes one
page per table, the page follows its progress, and only staff of the tournament see it.

WeasyPrint's layouts are counted by wrapping `weasyprint.HTML.render` (which `write_pdf`
calls too): the real layout still runs, the counter only records the thread it ran on.
"""

from __future__ import annotations

import io
import re
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
import segno
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader
from weasyprint import HTML

from games import sheets
from games.models import ExportJob, ExportPart
from games.services import export_jobs
from games.services.export_jobs import export_job_finish, export_jobs_prune
from tests.factories import make_tournament, open_round
from tournaments import jobs

BASE = "http://127.0.0.1:8000"


@pytest.fixture(autouse=True)
def _exports(settings, tmp_path, monkeypatch):
    settings.PUBLIC_BASE_URL = BASE
    settings.EXPORT_DIR = tmp_path / "exports"
    # Two sheets a chunk: a round of a few tables shows the chunks being joined.
    monkeypatch.setattr(sheets, "CHUNK_SHEETS", 2)


@pytest.fixture
def layouts(monkeypatch):
    """The threads WeasyPrint laid a document out on, one entry per layout."""
    seen: list[str] = []
    real = HTML.render

    def render(self, *args, **kwargs):
        seen.append(threading.current_thread().name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(HTML, "render", render)
    return seen


def job_path(tournament, round_number: int = 1) -> str:
    return reverse(
        "round-sheets-job", kwargs={"slug": tournament.slug, "round_number": round_number}
    )


def download(client, job: ExportJob):
    path = reverse("export-job-download", kwargs={"slug": job.tournament.slug, "job_id": job.pk})
    return client.get(path)


@pytest.mark.parametrize(("paper", "size"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_the_round_pdf_job_makes_one_page_per_table(
    alice, bob, as_user, paper, size, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, scorekeepers=[bob], players=20)  # 5 tables: 3 chunks
    open_round(tournament, alice)
    client = as_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(job_path(tournament), {"paper": paper})
    assert response.status_code == 302
    job = ExportJob.objects.get()
    assert (job.status, job.done, job.total) == ("done", 5, 5)
    response = download(client, job)
    assert response.status_code == 200
    assert f"round-1-sheets-{paper}.pdf" in response["Content-Disposition"]
    pdf = PdfReader(io.BytesIO(b"".join(response.streaming_content)))
    assert len(pdf.pages) == 5
    box = pdf.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size
    for number, page in enumerate(pdf.pages, start=1):
        words = page.extract_text()
        assert f"Table {number}" in words and "Series total" in words


def test_the_round_pdf_request_answers_at_once_and_lays_nothing_out(
    alice, bob, as_user, layouts, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, scorekeepers=[bob], players=120)  # 30 tables
    open_round(tournament, alice)
    client = as_user("bob")
    with django_capture_on_commit_callbacks(execute=False) as queued:
        started = time.perf_counter()
        response = client.post(job_path(tournament), {"paper": "a4"}, HTTP_HX_REQUEST="true")
        seconds = time.perf_counter() - started
        old_address = client.get(
            reverse("round-sheets-pdf", kwargs={"slug": tournament.slug, "round_number": 1})
        )
    assert response.status_code == 200
    assert "Waiting for a worker" in response.content.decode()
    assert old_address.status_code == 302  # the old whole-round address: the sheets page
    assert layouts == []  # nothing laid out by either request
    assert seconds < 3, seconds  # 30 sheets laid out take some 8 s and more
    assert len(queued) == 1  # the job, for the job thread or a worker after the response
    assert ExportJob.objects.get().status == "queued"


def test_one_tables_pdf_lays_out_one_sheet(alice, bob, as_user, layouts):
    tournament = make_tournament(alice, scorekeepers=[bob], players=16)
    open_round(tournament, alice)
    path = reverse("round-sheets-pdf", kwargs={"slug": tournament.slug, "round_number": 1})
    response = as_user("bob").get(path, {"table": 3, "paper": "letter"})
    assert response.status_code == 200
    assert "round-1-table-3-letter.pdf" in response["Content-Disposition"]
    pdf = PdfReader(io.BytesIO(response.content))
    assert len(pdf.pages) == 1 and "Table 3" in pdf.pages[0].extract_text()
    assert len(layouts) == 1
    assert as_user("bob").get(path, {"table": 9}).status_code == 404
    assert as_user("bob").get(path, {"table": 1, "paper": "a3"}).status_code == 404


def test_asking_again_while_it_runs_follows_the_same_job(
    alice, bob, as_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    with django_capture_on_commit_callbacks(execute=False):
        as_user("bob").post(job_path(tournament), {"paper": "a4"})
        as_user("alice").post(job_path(tournament), {"paper": "a4"})
        as_user("alice").post(job_path(tournament), {"paper": "letter"})  # another paper
    assert sorted(ExportJob.objects.values_list("params__paper", flat=True)) == ["a4", "letter"]


def test_the_page_polls_while_it_runs_then_offers_the_download(
    alice, bob, as_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    client = as_user("bob")
    sheets = reverse("round-sheets", kwargs={"slug": tournament.slug, "round_number": 1})
    with django_capture_on_commit_callbacks(execute=False) as queued:
        client.post(job_path(tournament), {"paper": "a4"})
    job = ExportJob.objects.get()
    ExportJob.objects.filter(pk=job.pk).update(status="running", done=1, total=2)
    status = reverse("export-job", kwargs={"slug": tournament.slug, "job_id": job.pk})
    page = client.get(sheets).content.decode()
    assert 'hx-trigger="every 1s"' in page and "1 of 2 sheets" in page
    assert '<progress max="2" value="1">' in client.get(status).content.decode()
    ExportJob.objects.filter(pk=job.pk).update(status="queued", done=0)
    for callback in queued:
        callback()
    fragment = client.get(status).content.decode()
    assert "hx-trigger" not in fragment  # done: the polling stops
    assert reverse("export-job-download", kwargs={"slug": tournament.slug, "job_id": job.pk}) in (
        fragment
    )


def test_only_the_tournaments_scorers_see_the_job(
    alice, bob, as_user, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    with django_capture_on_commit_callbacks(execute=True):
        as_user("bob").post(job_path(tournament), {"paper": "a4"})
    job = ExportJob.objects.get()
    assert download(as_user("alice"), job).status_code == 200
    assert download(as_user("mallory"), job).status_code == 403
    assert download(as_user("anon"), job).status_code == 302  # to sign in
    assert as_user("mallory").post(job_path(tournament)).status_code == 403
    other = make_tournament(alice, name="Other", players=4)
    wrong = reverse("export-job-download", kwargs={"slug": other.slug, "job_id": job.pk})
    assert as_user("alice").get(wrong).status_code == 404  # a job of another tournament
    assert ExportJob.objects.count() == 1


def test_a_failed_job_says_so(alice, bob, as_user, monkeypatch, django_capture_on_commit_callbacks):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)

    def broken(self, *args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(HTML, "render", broken)
    with django_capture_on_commit_callbacks(execute=True):
        response = as_user("bob").post(job_path(tournament), {"paper": "a4"}, HTTP_HX_REQUEST="1")
    job = ExportJob.objects.get()
    assert job.status == "failed" and "disk full" in job.error
    status = reverse("export-job", kwargs={"slug": tournament.slug, "job_id": job.pk})
    assert "could not be made" in as_user("bob").get(status).content.decode()
    assert "Waiting for a worker" in response.content.decode()  # it failed afterwards
    assert download(as_user("bob"), job).status_code == 404


def test_old_files_are_cleaned_up(
    alice, bob, as_user, settings, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    with django_capture_on_commit_callbacks(execute=True):
        as_user("bob").post(job_path(tournament), {"paper": "a4"})
    job = ExportJob.objects.get()
    path = job.file.path
    assert (settings.EXPORT_DIR / job.file.name).exists()
    assert export_jobs_prune(timezone.now()) == 0
    assert export_jobs_prune(timezone.now() + timedelta(hours=settings.EXPORT_KEEP_HOURS + 1)) == 1
    assert not ExportJob.objects.exists()
    assert not Path(path).exists()


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_job_thread_makes_it_after_the_response(
    alice, bob, as_user, settings, layouts
):
    settings.JOBS_INLINE = False  # the club laptop: the in-process job thread
    tournament = make_tournament(alice, scorekeepers=[bob], players=12)
    open_round(tournament, alice)
    response = as_user("bob").post(job_path(tournament), {"paper": "a4"})
    assert response.status_code == 302
    assert jobs.wait_idle(120)
    job = ExportJob.objects.get()
    assert job.status == "done", job.error
    # The start, the chunks and the joining, one after the other on the exports lane.
    assert len(layouts) == 2 and all(name == "rummitab-exports" for name in layouts)
    assert (job.done, job.total) == (3, 3)
    body = b"".join(download(as_user("bob"), job).streaming_content)
    assert pages_tables(PdfReader(io.BytesIO(body))) == [1, 2, 3]


def test_a_finished_export_keeps_its_file_name(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=4)
    round_ = open_round(tournament, alice)
    job = ExportJob.objects.create(
        kind="sheets_pdf", tournament=tournament, round=round_, requested_by=bob, total=1
    )
    export_job_finish(job, content=b"%PDF-1.7", filename="x.pdf")
    job.refresh_from_db()
    assert (job.status, job.filename, job.file.read()) == ("done", "x.pdf", b"%PDF-1.7")


def pages_tables(pdf: PdfReader) -> list[int]:
    """The table of each page, in page order (from the page's heading)."""
    found = [re.search(r"Table (\d+) · round 1", page.extract_text()) for page in pdf.pages]
    return [int(match.group(1)) if match else 0 for match in found]


@pytest.fixture
def queued(monkeypatch):
    """The tasks queued (`jobs.enqueue`), each as (task name, args), still run as before."""
    seen: list[tuple[str, tuple]] = []
    real = jobs.enqueue

    def enqueue(task, *args, **kwargs):
        seen.append((task, args))
        return real(task, *args, **kwargs)

    monkeypatch.setattr(jobs, "enqueue", enqueue)
    return seen


@pytest.fixture
def progress(monkeypatch):
    """Each write of a job's progress, as (done, total or None)."""
    steps: list[tuple[int, int | None]] = []
    real = export_jobs.export_job_progress

    def write(job, done, total=None):
        steps.append((done, total))
        real(job, done, total)

    monkeypatch.setattr(export_jobs, "export_job_progress", write)
    return steps


@pytest.mark.parametrize(
    ("parallel", "order", "steps"),
    [
        # Two chunks queued at a time: chunk 0 queues chunk 2 (run inline at once), then 1.
        (2, [0, 2, 1], [(0, 5), (2, None), (3, None), (5, None)]),
        (1, [0, 1, 2], [(0, 5), (2, None), (4, None), (5, None)]),
    ],
)
def test_each_chunk_is_a_task_of_its_own_and_the_pages_are_joined_in_table_order(
    alice,
    bob,
    as_user,
    settings,
    layouts,
    queued,
    progress,
    parallel,
    order,
    steps,
    django_capture_on_commit_callbacks,
):
    settings.SHEETS_PARALLEL = parallel
    tournament = make_tournament(alice, scorekeepers=[bob], players=20)  # 5 tables: 3 chunks
    open_round(tournament, alice)
    with django_capture_on_commit_callbacks(execute=True):
        as_user("bob").post(job_path(tournament), {"paper": "a4"})
    job = ExportJob.objects.get()
    assert (job.status, job.done, job.total) == ("done", 5, 5), job.error
    chunks = [args for task, args in queued if task == sheets.SHEETS_PART_TASK]
    assert [task for task, _args in queued] == [
        export_jobs.SHEETS_TASK,
        *[sheets.SHEETS_PART_TASK] * 3,
        sheets.SHEETS_JOIN_TASK,
    ]
    assert sorted(chunks) == [(job.pk, index, parallel) for index in range(3)]
    assert len(layouts) == 3  # one layout per chunk, each in its own task
    assert progress == steps  # sheets made, counted as each chunk is made
    pdf = PdfReader(io.BytesIO(b"".join(download(as_user("bob"), job).streaming_content)))
    assert pages_tables(pdf) == [1, 2, 3, 4, 5]
    assert not ExportPart.objects.exists()  # joined, then forgotten


def test_a_chunk_delivered_twice_is_made_and_counted_once(alice, bob, layouts, monkeypatch):
    tournament = make_tournament(alice, scorekeepers=[bob], players=20)  # 5 tables: 3 chunks
    round_ = open_round(tournament, alice)
    job = ExportJob.objects.create(
        kind="sheets_pdf",
        tournament=tournament,
        round=round_,
        requested_by=bob,
        params={"paper": "a4", "language": "en"},
    )
    later: list[tuple] = []

    def enqueue(task, *args, **kwargs):
        later.append((task, *args))
        return True  # queued: run below, by hand

    monkeypatch.setattr(jobs, "enqueue", enqueue)
    assert sheets.render_sheets_pdf(job.pk) == job.pk
    assert sheets.render_sheets_pdf(job.pk) is None  # the start delivered twice: once
    assert later == [
        (sheets.SHEETS_PART_TASK, job.pk, 0, 2),
        (sheets.SHEETS_PART_TASK, job.pk, 1, 2),
    ]
    assert sheets.render_sheets_part(job.pk, 0, 2) is True
    assert sheets.render_sheets_part(job.pk, 0, 2) is False  # redelivered: not made again
    job.refresh_from_db()
    assert (job.status, job.done, job.total, len(layouts)) == ("running", 2, 5, 1)
    # ...but its next steps queued again (the first delivery may have died before).
    assert later[2:] == [(sheets.SHEETS_PART_TASK, job.pk, 2, 2)] * 2
    assert sheets.render_sheets_part(job.pk, 2, 2) is True
    assert sheets.render_sheets_part(job.pk, 1, 2) is True
    assert later[-1] == (sheets.SHEETS_JOIN_TASK, job.pk)
    assert sheets.render_sheets_part(job.pk, 1, 2) is False
    job.refresh_from_db()
    assert (job.done, len(layouts)) == (5, 3)
    assert sheets.join_sheets_pdf(job.pk) == job.pk
    assert sheets.join_sheets_pdf(job.pk) is None  # joined once
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 5, 5)
    assert pages_tables(PdfReader(job.file.open("rb"))) == [1, 2, 3, 4, 5]


def test_a_failing_chunk_fails_the_job_naming_its_tables(
    alice, bob, as_user, layouts, monkeypatch, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, scorekeepers=[bob], players=20)  # 5 tables: 3 chunks
    open_round(tournament, alice)
    real = sheets._chunk_pdf

    def chunk_pdf(part):
        if part.index == 1:
            raise OSError("disk full")
        return real(part)

    monkeypatch.setattr(sheets, "_chunk_pdf", chunk_pdf)
    with django_capture_on_commit_callbacks(execute=True):
        as_user("bob").post(job_path(tournament), {"paper": "a4"})
    job = ExportJob.objects.get()
    assert job.status == "failed"
    assert job.error == "The sheets of tables 3-4: OSError: disk full"
    assert not job.file and not ExportPart.objects.exists()
    assert sheets.render_sheets_part(job.pk, 2, 2) is False  # a chunk queued still: nothing
    assert sheets.join_sheets_pdf(job.pk) is None
    assert ExportJob.objects.get().status == "failed"


def test_a_chunk_that_cannot_be_queued_fails_the_job(alice, bob, monkeypatch):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    round_ = open_round(tournament, alice)
    job = ExportJob.objects.create(
        kind="sheets_pdf", tournament=tournament, round=round_, requested_by=bob
    )
    monkeypatch.setattr(jobs, "enqueue", lambda *args, **kwargs: False)  # the broker is down
    sheets.render_sheets_pdf(job.pk)
    job.refresh_from_db()
    assert (job.status, job.error) == (
        "failed",
        "The job's next step could not be queued (no broker).",
    )
    assert not ExportPart.objects.exists()


def test_a_round_without_tables_makes_an_empty_pdf(alice, bob, as_user, monkeypatch):
    tournament = make_tournament(alice, scorekeepers=[bob], players=4)
    round_ = open_round(tournament, alice)
    round_.tables.all().delete()
    job = ExportJob.objects.create(
        kind="sheets_pdf",
        tournament=tournament,
        round=round_,
        requested_by=bob,
        params={"paper": "a4"},
    )
    sheets.render_sheets_pdf(job.pk)
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 0, 0), job.error
    assert len(PdfReader(job.file.open("rb")).pages) == 1


def test_a_sheet_in_the_pdf_reads_as_the_sheet(
    alice, bob, as_user, django_capture_on_commit_callbacks
):
    """The text of a PDF page, line by line: what the layout of the sheet (site.css) must
    keep when it is made faster (the table link's token masked)."""
    tournament = make_tournament(alice, name="Club Open", scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    with django_capture_on_commit_callbacks(execute=True):
        as_user("bob").post(job_path(tournament), {"paper": "a4"})
    job = ExportJob.objects.get()
    pdf = PdfReader(io.BytesIO(b"".join(download(as_user("bob"), job).streaming_content)))
    assert len(pdf.pages) == 2
    text = re.sub(r"/link/\S+", "/link/TOKEN", pdf.pages[1].extract_text().replace("\n", " "))
    starters = [f"Game {game}  starts: {game}. Player {game + 4}" for game in range(1, 5)]
    assert text.startswith(
        "Table 2 · round 1 Club Open · standard rules · joker 30 · turn 120 s "
        "Seat 1: Player 5 (#5) Seat 2: Player 6 (#6) Seat 3: Player 7 (#7) "
        "Seat 4: Player 8 (#8) Scan to enter this table's results (round 1 only) "
        "Penalties (game, player, kind: timeout, failed manipulation, sanction points) "
        "Signed for the table: Checked by the tab: "
        f"{BASE}/t/club-open/rounds/1/tables/2/link/TOKEN"
    ), text
    assert "Game · starts 1. Player 5 2. Player 6 3. Player 7 4. Player 8 End" in text
    for game, starter in enumerate(starters, start=1):
        row = text.split(starter, 1)[1]
        cells = [("starts · rack" if seat == game else "rack") + " score" for seat in range(1, 5)]
        assert row.split("☐ Rummikub", 1)[0].split() == " ".join(cells).split(), row
    assert text.endswith("Series total")


def test_the_pdfs_qr_code_is_the_links_code_one_pixel_per_module(
    alice, bob, as_user, django_capture_on_commit_callbacks
):
    """In the PDF the QR code is a PNG (WeasyPrint embeds it; an SVG it would draw module
    by module), drawn unsmoothed so that its modules print square."""
    tournament = make_tournament(alice, scorekeepers=[bob], players=4)
    open_round(tournament, alice)
    path = reverse("round-sheets-pdf", kwargs={"slug": tournament.slug, "round_number": 1})
    page = PdfReader(io.BytesIO(as_user("bob").get(path, {"table": 1}).content)).pages[0]
    url = re.search(r"http\S+/link/\S+/", page.extract_text().replace("\n", "")).group(0)
    (image,) = page.images
    expected = segno.make(url, error="m")
    border = 2
    width, height = expected.symbol_size(scale=1, border=border)
    assert image.image.size == (width, height)
    pixels = image.image.convert("1")
    for y, row in enumerate(expected.matrix):
        for x, dark in enumerate(row):
            assert (pixels.getpixel((x + border, y + border)) == 0) == bool(dark), (x, y)
    xobject = next(iter(page["/Resources"]["/XObject"].values())).get_object()
    assert xobject["/Interpolate"].value is False  # drawn unsmoothed


def test_the_sheets_page_keeps_its_svg_qr_codes(alice, bob, as_user):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    page = as_user("bob").get(
        reverse("round-sheets", kwargs={"slug": tournament.slug, "round_number": 1})
    )
    body = page.content.decode()
    assert body.count('<div class="qr"><svg') == 2 and "data:image/png" not in body
