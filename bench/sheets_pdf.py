"""Benchmark: the whole round's table sheets PDF, made by its background job (WeasyPrint).

    DATABASE_URL=sqlite:///:memory: python -m bench.sheets_pdf
    python -m bench.sheets_pdf --tables 4 25 250
    python -m bench.sheets_pdf --quick          # 2 tables: that it runs, not how fast

For each size, opens round 1 of a tournament of that many tables of four, in a throw-away
test database, and as its organiser posts the sheets page's "PDF of the round" (the
request only queues the job: its milliseconds), lets the job thread of this process run
the job (`games.sheets`, as a worker would without a broker) and prints the job's wall
seconds from its start to its file, the pages and bytes of the PDF, and the seconds per
table. Goals: the request well under a second whatever the size; 250 tables within 60 s
in the job. One table's PDF (`?table=N`, laid out in its request) is timed once too.

The baseline, measured in the same run just before each job: one sheet's PDF laid out in
this process (the best of three) times the tables. The ratio job / baseline says what
the whole-round job costs beyond laying out its sheets one by one (its queries, QR
codes, the join): under 1 when the chunks lay out cheaper than single sheets. Beside
each figure, the CPU seconds of this process (the job thread's work, near enough: the
rest of the wall time is a busy machine) and the load average.
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from games.models import ExportJob  # noqa: E402
from games.sheets import one_sheet_pdf  # noqa: E402
from tests.factories import make_tournament, open_round  # noqa: E402
from tournaments import jobs  # noqa: E402
from tournaments.models import Round  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[4, 25])
    parser.add_argument("--quick", action="store_true", help="2 tables (a smoke run)")
    args = parser.parse_args()
    sizes = [2] if args.quick else args.tables
    setup_test_environment()
    settings.EXPORT_DIR = tempfile.mkdtemp(prefix="bench-sheets-")
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        alice = get_user_model().objects.create_user("alice", password="alice-pass-123")
        client = Client()
        client.force_login(alice)
        for tables in sizes:
            # Built with the recomputes inline: a job thread writing to the in-memory
            # SQLite database meanwhile would find its tables locked.
            settings.JOBS_INLINE = True
            tournament = make_tournament(alice, name=f"Bench {tables}", players=4 * tables)
            open_round(tournament, alice)
            settings.JOBS_INLINE = False  # the job thread of this process, as without a broker
            kwargs = {"slug": tournament.slug, "round_number": 1}
            # Warm up first (the first request of a process loads every view module).
            client.get(reverse("tournament-detail", kwargs={"slug": tournament.slug}))
            one = _one_sheet_seconds(alice, tournament)
            cpu = time.process_time()
            start = time.perf_counter()
            response = client.post(reverse("round-sheets-job", kwargs=kwargs), {"paper": "a4"})
            request_ms = (time.perf_counter() - start) * 1000
            assert response.status_code == 302, response.status_code
            if not jobs.wait_idle(timeout=1800):
                raise SystemExit("the job did not finish within 30 minutes")
            cpu = time.process_time() - cpu
            job = ExportJob.objects.get(tournament=tournament)
            assert job.status == ExportJob.Status.DONE, job.error
            seconds = (job.finished_at - job.started_at).total_seconds()
            with job.file.open("rb") as pdf:
                data = pdf.read()
            pages = len(PdfReader(io.BytesIO(data)).pages)
            print(
                f"{tables:>4} tables -> request {request_ms:5.0f} ms; job {seconds:6.2f} s, "
                f"{pages:>4} pages, {len(data):>10,} B ({seconds / tables:.3f} s per table); "
                f"CPU {cpu:.2f} s; baseline one sheet {one:.3f} s x {tables} = "
                f"{one * tables:.2f} s, ratio {seconds / (one * tables):.2f}; "
                f"load {os.getloadavg()[0]:.1f}"
            )
        start = time.perf_counter()
        one = client.get(reverse("round-sheets-pdf", kwargs=kwargs), {"table": 1})
        one_ms = (time.perf_counter() - start) * 1000
        assert one.status_code == 200, one.status_code
        print(f"one table's PDF in its request: {one_ms:,.0f} ms")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _one_sheet_seconds(user, tournament) -> float:
    """The baseline: one sheet's PDF laid out here, the best of three (a warm-up first:
    the first PDF of a process loads WeasyPrint and parses site.css)."""
    round_ = Round.objects.get(tournament=tournament, number=1)
    one_sheet_pdf(user, tournament, round_, 1, "a4")
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        one_sheet_pdf(user, tournament, round_, 1, "a4")
        best = min(best, time.perf_counter() - start)
    return best


if __name__ == "__main__":
    main()
