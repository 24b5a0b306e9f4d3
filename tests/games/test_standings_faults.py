"""A venue's broker goes down: results are still stored, standings say they are stale, and
the periodic repair (or the next read) brings them to the current version."""

from __future__ import annotations

import time

import pytest

from config.celery import app as celery_app
from games.models import Result
from games.services.standings import latest_standings, standings_for_read, standings_repair
from games.tasks import repair_standings
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

CLOSED_PORT_BROKER = "redis://127.0.0.1:1/0"


@pytest.fixture
def broker_down():
    """Point the app at a port where nothing listens, as if Redis had died."""
    conf = celery_app.conf
    saved = (conf.broker_url, conf.task_always_eager)

    def fresh_connections():
        # As after a fork: forget pooled connections so the next publish dials anew.
        celery_app._after_fork()

    fresh_connections()
    conf.broker_url, conf.task_always_eager = CLOSED_PORT_BROKER, False
    yield
    conf.broker_url, conf.task_always_eager = saved
    fresh_connections()


@pytest.fixture
def entered(transactional_db, alice, bob):
    """A round with one game entered while the broker still worked (in-process jobs)."""
    t = make_tournament(alice, players=4, scorekeepers=[bob])
    game = open_round(t, alice).tables.get().games.get(number=1)
    enter_rummikub(game, bob)
    t.refresh_from_db()
    assert latest_standings(t).computed_version == t.results_version
    return t, game


def submit_with_broker_down(t, game, bob):
    started = time.perf_counter()
    result = enter_rummikub(game, bob, "R1", "R2", "R3", based_on=1)
    elapsed = time.perf_counter() - started
    t.refresh_from_db()
    return result, elapsed


def test_submission_succeeds_and_repair_catches_up(entered, bob, broker_down):
    t, game = entered
    result, elapsed = submit_with_broker_down(t, game, bob)
    assert Result.objects.get(pk=result.pk).status == "confirmed"
    assert elapsed < 15  # the publish gives up quickly instead of hanging the scorekeeper
    assert latest_standings(t).computed_version < t.results_version  # stale

    assert repair_standings() == [t.pk]  # what the beat schedule runs
    assert latest_standings(t).computed_version == t.results_version
    assert standings_repair() == []  # nothing left to repair


def test_next_read_computes_when_no_worker_can_be_asked(entered, bob, broker_down):
    t, game = entered
    submit_with_broker_down(t, game, bob)
    snapshot, stale = standings_for_read(t)
    assert (snapshot.computed_version, stale) == (t.results_version, False)
