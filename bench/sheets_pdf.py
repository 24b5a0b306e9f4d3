"""Benchmark: the whole round's table sheets PDF, made by its background job (WeasyPrint).

    DATABASE_URL=sqlite:///:memory: python -m bench.sheets_pdf
    python -m bench.sheets_pdf --tables 4 25 250
    python -m bench.sheets_pdf --quick          # 2 tables: that it runs, not how fast

    REDIS_URL=redis://127.0.0.1:6379/2 DATABASE_URL=postgres://… python -m bench.sheets_pdf \
        --tables 250                            # a worker pool of 2 processes, as production

For each size, opens round 1 of a tournament of that many tables of four, in a throw-away
test database, and as its organiser posts the sheets page's "PDF of the round" (the
request only queues the job: its milliseconds), lets the job run (`games.sheets`: its
start, its chunks, its joining) and prints the job's wall seconds from its start to its
file, the pages and bytes of the PDF, and the seconds per table. Goals: the request well
under a second whatever the size; 250 tables within 60 s in the job. One table's PDF
(`?table=N`, laid out in its request) is timed once too.

Who runs the job: without a broker, the job thread of this process (the club laptop's
in-process queue); with one (`REDIS_URL` or `CELERY_BROKER_URL`, and PostgreSQL: the
worker shares the test database), a real `celery worker` of `--concurrency` processes
(2, as production on two cores) that this bench starts on the test database and stops at
the end (it first empties the broker's default queue: give it a Redis database of its
own).

The baseline, measured in the same run just before each job: one sheet's PDF laid out in
this process (the best of three) times the tables. The ratio job / baseline says what
the whole-round job costs beyond laying out its sheets one by one (its queries, QR
codes, the join, less the processes working at once): under 1 when the chunks lay out cheaper
than single sheets or in parallel. Beside each figure, the CPU seconds of the job: of this
process (the job thread's work, near enough) or of the worker's processes, and the load
average (the rest of the wall time is a busy machine).
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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

from config.celery import app as celery_app  # noqa: E402
from games.models import ExportJob  # noqa: E402
from games.sheets import one_sheet_pdf  # noqa: E402
from tests.factories import make_tournament, open_round  # noqa: E402
from tournaments import jobs  # noqa: E402
from tournaments.models import Round  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[4, 25])
    parser.add_argument("--quick", action="store_true", help="2 tables (a smoke run)")
    parser.add_argument(
        "--concurrency", type=int, default=2, help="the worker's processes (with a broker)"
    )
    args = parser.parse_args()
    sizes = [2] if args.quick else args.tables
    broker = jobs.mode() == jobs.BROKER
    if broker and connection.vendor != "postgresql":
        raise SystemExit("with a broker the worker needs the test database: use PostgreSQL")
    setup_test_environment()
    settings.EXPORT_DIR = tempfile.mkdtemp(prefix="bench-sheets-")
    old_name = connection.creation.create_test_db(verbosity=0)
    worker = None
    try:
        if broker:
            worker = Worker(args.concurrency)
            print(f"the job runs in a celery worker of {args.concurrency} processes")
        else:
            print("the job runs on the job thread of this process (no broker)")
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
            cpu = worker.cpu() if worker else time.process_time()
            start = time.perf_counter()
            response = client.post(reverse("round-sheets-job", kwargs=kwargs), {"paper": "a4"})
            request_ms = (time.perf_counter() - start) * 1000
            assert response.status_code == 302, response.status_code
            if not _finished(tournament, worker):
                raise SystemExit("the job did not finish within 30 minutes")
            cpu = (worker.cpu() if worker else time.process_time()) - cpu
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
        if worker:
            worker.stop()
        connection.creation.destroy_test_db(old_name, verbosity=0)


def _finished(tournament, worker: Worker | None) -> bool:
    """Wait (30 minutes at most) for the job: the job thread idle, or the job's row done
    or failed."""
    if worker is None:
        return jobs.wait_idle(timeout=1800)
    deadline = time.monotonic() + 1800
    while time.monotonic() < deadline:
        job = ExportJob.objects.filter(tournament=tournament).first()
        if job is not None and not job.active:
            return True
        worker.check()
        time.sleep(0.2)
    return False


class Worker:
    """`celery -A config worker` of `concurrency` prefork processes on the test database,
    in a process group of its own (stopped with it); its log in a temporary file."""

    def __init__(self, concurrency: int) -> None:
        db = connection.settings_dict
        user = f"{db['USER']}:{db['PASSWORD']}@" if db["PASSWORD"] else f"{db['USER']}@"
        env = dict(
            os.environ,
            DATABASE_URL=f"postgres://{user}{db['HOST']}:{db['PORT']}/{db['NAME']}",
            EXPORT_DIR=str(settings.EXPORT_DIR),
            PYTHONPATH=str(Path(__file__).resolve().parent.parent),
        )
        with celery_app.connection_for_write() as conn:  # tasks of an earlier, broken run
            conn.default_channel.queue_purge("celery")
        self.log = Path(settings.EXPORT_DIR) / "worker.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
             "--concurrency", str(concurrency), "--loglevel", "INFO", "--without-gossip",
             "--without-mingle", "-n", f"bench-sheets-{os.getpid()}@%h"],
            env=env, stdout=self.log.open("w"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while "ready." not in self.log.read_text():
            self.check()
            if time.monotonic() > deadline:
                raise SystemExit(f"the worker did not start:\n{self.log.read_text()[-2000:]}")
            time.sleep(0.2)

    def check(self) -> None:
        if self.process.poll() is not None:
            raise SystemExit(f"the worker exited:\n{self.log.read_text()[-2000:]}")

    def cpu(self) -> float:
        """CPU seconds so far of the worker and its pool processes (from /proc)."""
        stats = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                # after the name: state, ppid, ... utime (the 12th), stime (the 13th)
                stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
        tree, ticks = {self.process.pid}, 0
        for _round in range(3):  # the worker, its pool, anything they started
            tree |= {pid for pid, (ppid, _ticks) in stats.items() if ppid in tree}
        ticks = sum(stats[pid][1] for pid in tree if pid in stats)
        return ticks / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


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
