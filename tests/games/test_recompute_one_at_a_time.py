"""A tournament's standings recomputes run one at a time (tournaments.events, "running
mark"): a recompute that starts while another of its tournament runs goes back on the
queue, still pending, instead of computing the same table beside it."""

from __future__ import annotations

import pytest

from games import tasks
from games.models import Standings
from tests.factories import make_tournament
from tournaments import events, jobs

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker(monkeypatch):
    """As with a Celery worker: the marks are kept in the shared cache, and what would be
    published is recorded instead."""
    published: list[tuple] = []
    monkeypatch.setattr(jobs, "mode", lambda: jobs.BROKER)
    monkeypatch.setattr(
        events.jobs, "enqueue", lambda task, *args, **kw: published.append((task, args, kw)) or True
    )
    return published


def run_task(tournament_id: int, task_id: str) -> int | None:
    """The task as a worker runs it, under the id `task_id`."""
    tasks.recompute_standings.push_request(id=task_id)
    try:
        return tasks.recompute_standings.run(tournament_id)
    finally:
        tasks.recompute_standings.pop_request()


def test_the_running_mark_is_one_tasks_at_a_time(broker):
    assert events.recompute_begin(7, "first")
    assert not events.recompute_begin(7, "second")
    assert events.recompute_begin(8, "second")  # another tournament runs beside it
    # A worker killed mid-recompute: Celery hands the same task again, which takes over.
    assert events.recompute_begin(7, "first")
    events.recompute_end(7, "second")  # not its mark: left alone
    assert not events.recompute_begin(7, "second")
    events.recompute_end(7, "first")
    assert events.recompute_begin(7, "second")


def test_a_recompute_that_finds_another_running_waits_its_turn_still_pending(alice, broker):
    tournament = make_tournament(alice, players=4)
    stored = Standings.objects.filter(tournament=tournament).count()
    assert events.request_recompute(tournament.pk)  # pending, published
    assert len(broker) == 1
    events.recompute_begin(tournament.pk, "running")  # another worker's recompute
    assert run_task(tournament.pk, "waiting") is None
    assert Standings.objects.filter(tournament=tournament).count() == stored  # nothing computed
    assert broker[-1][:2] == (events.RECOMPUTE_TASK, (tournament.pk,))  # back on the queue
    assert broker[-1][2]["countdown"] == events.RETRY_SECONDS
    # Still pending: the results landing meanwhile add no task of their own.
    assert events.request_recompute(tournament.pk)
    assert len(broker) == 2
    events.recompute_end(tournament.pk, "running")
    tournament.refresh_from_db()
    assert run_task(tournament.pk, "waiting-again") == tournament.results_version
    # It gave its mark back, and cleared the pending mark: the next result publishes.
    assert events.recompute_begin(tournament.pk, "next")
    events.recompute_end(tournament.pk, "next")
    assert events.request_recompute(tournament.pk)
    assert len(broker) == 3


def test_a_recompute_that_fails_gives_its_mark_back(alice, broker, monkeypatch):
    tournament = make_tournament(alice, players=4)

    def broken(**kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(tasks, "standings_recompute", broken)
    with pytest.raises(RuntimeError):
        run_task(tournament.pk, "failing")
    assert events.recompute_begin(tournament.pk, "another")


def test_in_process_jobs_take_no_mark(alice):
    # Inline (the tests, JOBS_INLINE) and the job thread run one job at a time anyway.
    assert events.recompute_begin(7, "first")
    assert events.recompute_begin(7, "second")
    assert jobs.mode() == jobs.INLINE
