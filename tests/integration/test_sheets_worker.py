"""A round's sheets PDF made by a real Celery worker of two processes on Redis, from a
round stored in PostgreSQL: its chunks are tasks of their own, made by both processes at
once, and joined into one PDF in table order."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from games.models import ExportJob, ExportPart
from tests.factories import make_tournament, open_round
from tests.games.test_sheets_job import pages_tables
from tests.integration.conftest import Worker, wait_for, worker_environment

pytestmark = pytest.mark.integration


def finished() -> ExportJob | None:
    return ExportJob.objects.exclude(status__in=("queued", "running")).first()


def test_a_rounds_chunks_are_made_by_both_processes_at_once_and_joined_in_order(
    live_jobs, alice, bob, settings, tmp_path
):
    settings.EXPORT_DIR = tmp_path / "exports"  # the worker's too: it writes the file there
    marks = tmp_path / "chunks"
    marks.touch()
    env = worker_environment(
        live_jobs,
        RUMMITAB_SHEETS_MARKS=str(marks),
        RUMMITAB_SHEETS_CHUNK="2",
        EXPORT_DIR=str(settings.EXPORT_DIR),
    )
    tournament = make_tournament(alice, scorekeepers=[bob], players=48)  # 12 tables: 6 chunks
    open_round(tournament, alice)
    worker = Worker("tests.integration.sheets_worker", env, tmp_path / "worker.log", concurrency=2)
    try:
        client = Client()
        client.force_login(bob)
        path = reverse("round-sheets-job", kwargs={"slug": tournament.slug, "round_number": 1})
        assert client.post(path, {"paper": "a4"}).status_code == 302
        job, _seconds = wait_for(finished, timeout=180, interval=0.2)
        assert job is not None, worker.log.read_text()[-3000:]
    finally:
        worker.stop()

    assert (job.status, job.done, job.total) == ("done", 12, 12), job.error
    with job.file.open("rb") as pdf:
        assert pages_tables(PdfReader(pdf)) == list(range(1, 13))
    assert not ExportPart.objects.exists()
    chunks = [json.loads(line) for line in marks.read_text().splitlines()]
    assert sorted(chunk["index"] for chunk in chunks) == list(range(6))  # each made once
    assert len({chunk["pid"] for chunk in chunks}) == 2  # by both processes...
    assert any(  # ...laying out at the same time
        a["pid"] != b["pid"] and a["start"] < b["end"] and b["start"] < a["end"]
        for a in chunks
        for b in chunks
    ), chunks
