"""The in-process job queue (`tournaments.jobs`) in its thread mode — the club laptop's
default without a broker: a job runs after `enqueue` returns, on the lane's daemon
thread; a failing job is logged and the thread goes on; repeated requests with one key
coalesce; countdowns are kept; a job asked for inside a transaction waits for the
commit; a slow lane does not hold up another; at exit the due jobs are drained and the
later ones dropped (a real child process).

The rest of the suite runs jobs inline (`JOBS_INLINE`, tests/conftest.py); these tests
switch it off (`thread_jobs`)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from celery import shared_task

from tournaments import jobs

ROOT = Path(__file__).resolve().parent.parent.parent
RAN: list[tuple[object, str, float]] = []  # (value, thread name, monotonic time)


@shared_task(name="tests.jobs.record")
def record(value: object) -> None:
    RAN.append((value, threading.current_thread().name, time.monotonic()))


@shared_task(name="tests.jobs.slow")
def slow(value: object, seconds: float) -> None:
    time.sleep(seconds)
    RAN.append((value, threading.current_thread().name, time.monotonic()))


@shared_task(name="tests.jobs.fail")
def fail(value: object) -> None:
    raise RuntimeError(f"job failed on purpose: {value}")


@pytest.fixture
def thread_jobs(settings):
    settings.JOBS_INLINE = False
    RAN.clear()
    assert jobs.mode() == jobs.THREAD
    yield
    jobs.shutdown(timeout=5)
    RAN.clear()


def ran() -> list[object]:
    return [value for value, *_ in RAN]


def test_a_job_runs_after_enqueue_returns_on_the_jobs_thread(thread_jobs):
    started = time.monotonic()
    assert jobs.enqueue("tests.jobs.slow", "late", 0.3) is True
    assert time.monotonic() - started < 0.1 and ran() == []
    assert jobs.wait_idle(5)
    assert [(value, thread) for value, thread, _ in RAN] == [("late", "rummitab-jobs")]


def test_a_failing_job_is_logged_and_the_thread_goes_on(thread_jobs, caplog):
    caplog.set_level(logging.ERROR, logger="tournaments.jobs")
    jobs.enqueue("tests.jobs.fail", "first")
    jobs.enqueue("tests.jobs.record", "second")
    assert jobs.wait_idle(5)
    assert ran() == ["second"]
    failed = [
        r
        for r in caplog.records
        if r.name == "tournaments.jobs" and "tests.jobs.fail" in r.getMessage()
    ]
    assert len(failed) == 1 and "job failed on purpose: first" in failed[0].getMessage()
    jobs.enqueue("tests.jobs.record", "third")
    assert jobs.wait_idle(5) and ran() == ["second", "third"]


def test_an_unknown_job_is_logged_not_raised(thread_jobs, caplog):
    caplog.set_level(logging.ERROR, logger="tournaments.jobs")
    jobs.enqueue("tests.jobs.nobody", 1)
    jobs.enqueue("tests.jobs.record", "after")
    assert jobs.wait_idle(5) and ran() == ["after"]
    assert any("tests.jobs.nobody" in r.getMessage() for r in caplog.records)


def test_requests_with_one_key_coalesce_until_the_job_starts(thread_jobs):
    for n in range(5):
        jobs.enqueue("tests.jobs.record", n, countdown=0.2, key="standings:pending:1")
    jobs.enqueue("tests.jobs.record", "other", countdown=0.2, key="standings:pending:2")
    assert jobs.wait_idle(5, within=1)
    assert sorted(map(str, ran())) == ["0", "other"]
    # Forgotten once it started: the next change asks for a new run.
    jobs.enqueue("tests.jobs.record", "again", key="standings:pending:1")
    assert jobs.wait_idle(5) and ran()[-1] == "again"


def test_countdowns_are_kept_and_jobs_run_in_the_order_they_fall_due(thread_jobs):
    asked = time.monotonic()
    jobs.enqueue("tests.jobs.record", "later", countdown=0.4)
    jobs.enqueue("tests.jobs.record", "now")
    assert jobs.wait_idle(5, within=1)
    assert ran() == ["now", "later"]
    assert RAN[1][2] - asked >= 0.4


@pytest.mark.django_db
def test_a_job_asked_for_in_a_transaction_waits_for_the_commit(
    thread_jobs, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as waiting:
        jobs.enqueue("tests.jobs.record", "after commit")
        time.sleep(0.2)
        assert ran() == []
    assert len(waiting) == 1  # run at the commit: queued then
    assert jobs.wait_idle(5) and ran() == ["after commit"]


def test_a_slow_lane_does_not_hold_up_the_jobs_lane(thread_jobs):
    jobs.enqueue("tests.jobs.slow", "slow webhook", 1.5, lane="webhooks")
    time.sleep(0.1)
    asked = time.monotonic()
    jobs.enqueue("tests.jobs.record", "recompute")
    deadline = time.monotonic() + 1
    while "recompute" not in ran() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ran() == ["recompute"] and RAN[0][2] - asked < 0.5
    assert RAN[0][1] == "rummitab-jobs"
    assert jobs.wait_idle(5)
    assert RAN[1][:2] == ("slow webhook", "rummitab-webhooks")


def test_shutdown_finishes_the_due_jobs_and_drops_the_later_ones(thread_jobs):
    jobs.enqueue("tests.jobs.slow", "due", 0.3)
    jobs.enqueue("tests.jobs.record", "in a minute", countdown=60)
    assert jobs.pending() == 2
    assert jobs.shutdown(timeout=5) == 1
    assert ran() == ["due"] and jobs.pending() == 0
    # The queue starts again on the next job.
    jobs.enqueue("tests.jobs.record", "next")
    assert jobs.wait_idle(5) and ran() == ["due", "next"]


def test_with_a_broker_the_job_is_published_not_run_here(settings, monkeypatch):
    published = []
    conf = jobs.current_app.conf
    monkeypatch.setitem(conf, "task_always_eager", False)  # a broker is configured
    monkeypatch.setattr(
        "celery.canvas.Signature.apply_async",
        lambda self, *args, **kwargs: published.append((self.task, self.args, kwargs)),
    )
    assert jobs.mode() == jobs.BROKER
    assert jobs.enqueue("tests.jobs.record", "x", countdown=0.5) is True
    assert published == [("tests.jobs.record", ("x",), {"countdown": 0.5})] and ran() == []


EXITING = """
import os, sys, time
import django
django.setup()
from celery import shared_task
from tournaments import jobs

@shared_task(name="exit.write")
def write(path, seconds):
    time.sleep(seconds)
    with open(path, "w") as out:
        out.write("done")

print(jobs.mode(), flush=True)
jobs.enqueue("exit.write", sys.argv[1], 0.5)
jobs.enqueue("exit.write", sys.argv[1] + ".later", 0, countdown=60)
# The script ends here, at once: the interpreter's exit drains the queue.
"""


def test_at_process_exit_due_jobs_finish_and_later_ones_are_dropped(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
        "CELERY_BROKER_URL": "",
        "REDIS_URL": "",
        "JOBS_DRAIN_SECONDS": "5",
    }
    env.pop("JOBS_INLINE", None)
    out = tmp_path / "written"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", EXITING, str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["thread"]
    assert out.read_text() == "done"
    assert not Path(f"{out}.later").exists()
    assert "1 background job(s) dropped at exit" in done.stderr
    # The later job is due in 60 s: an exit that waited for it would take longer than this
    # (the bound leaves room for a child's start-up on a machine busy with the suite's
    # other processes; the drain itself is bounded by JOBS_DRAIN_SECONDS=5).
    assert time.monotonic() - started < 55
