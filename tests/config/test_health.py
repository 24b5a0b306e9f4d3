"""GET /health/: the database, the cache, the broker and how long standings have been
stale; 503 only when this instance cannot serve (no database) or standings stopped
catching up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db.models import F
from django.test import Client
from django.utils import timezone

from config.celery import app as celery_app
from config.settings import redis_cache
from games.models import Standings
from games.services.standings import standings_recompute
from tests.factories import make_tournament
from tournaments.models import Player, Tournament
from tournaments.services.players import player_register

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CLOSED_PORT = "redis://127.0.0.1:1/0"
KEYS = {"status", "database", "cache", "broker", "stale_standings"}


def health(**headers):
    response = Client().get("/health/", **headers)
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, response.json()


@pytest.fixture
def broker(settings):
    """Point this process's Celery app at `url` (None: jobs in-process, no broker)."""
    conf = celery_app.conf
    saved = (conf.broker_url, conf.task_always_eager)

    def point(url):
        celery_app._after_fork()
        conf.broker_url, conf.task_always_eager = url, False

    yield point
    conf.broker_url, conf.task_always_eager = saved
    celery_app._after_fork()


def test_all_well_without_redis():
    status, body = health()
    assert status == 200
    assert set(body) == KEYS
    assert body["status"] == "ok"
    assert (body["database"], body["cache"], body["broker"]) == ("ok", "ok", "not configured")
    assert body["stale_standings"] == {"tournaments": 0, "oldest_seconds": 0, "limit_seconds": 300}


def test_all_well_with_redis_up(settings, redis_url, broker):
    settings.CACHES = {"default": redis_cache(redis_url)}
    broker(redis_url)
    status, body = health()
    assert status == 200, body
    assert (body["status"], body["cache"], body["broker"]) == ("ok", "ok", "ok")


def test_cache_and_broker_down_is_degraded_not_failing(settings, broker):
    settings.CACHES = {"default": redis_cache(CLOSED_PORT)}
    broker(CLOSED_PORT)
    status, body = health()
    assert status == 200  # the site still works: a balancer must keep sending traffic
    assert (body["status"], body["database"], body["cache"], body["broker"]) == (
        "degraded",
        "ok",
        "down",
        "down",
    )


def test_no_secrets_in_the_body(settings, broker):
    settings.CACHES = {"default": redis_cache("redis://:sekrit-pass@127.0.0.1:1/0")}
    broker("redis://:sekrit-pass@127.0.0.1:1/0")
    response = Client().get("/health/")
    text = response.content.decode()
    assert "sekrit" not in text and "redis://" not in text and "127.0.0.1" not in text
    assert settings.DATABASES["default"]["NAME"] not in text


def test_not_throttled_and_no_session(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1/min", "user": "1/min", "token": "1/min"},
    }
    client = Client()
    assert [client.get("/health/").status_code for _ in range(5)] == [200] * 5
    assert not client.cookies


@pytest.fixture
def stale(alice, settings):
    """A tournament whose snapshot is a day old, and one change (a new player) since:
    stale, but only for a moment so far."""
    settings.HEALTH_STALE_SECONDS = 60
    tournament = make_tournament(alice, players=4)
    standings_recompute(tournament_id=tournament.pk)
    Standings.objects.update(computed_at=timezone.now() - timedelta(days=1))
    player_register(tournament=tournament, by=alice, name="Late Lou")  # no worker runs it
    tournament.refresh_from_db()
    assert Standings.objects.get().computed_version < tournament.results_version
    return tournament


def test_just_stale_after_a_quiet_day_is_healthy(stale):
    status, body = health()
    assert status == 200, body
    assert body["stale_standings"]["tournaments"] == 1
    assert 0 <= body["stale_standings"]["oldest_seconds"] < 30  # since the change, not the
    assert body["stale_standings"]["limit_seconds"] == 60  # (day-old) snapshot


def test_stale_for_longer_than_the_limit_is_503(stale):
    Player.history.model.objects.filter(tournament_id=stale.pk, name="Late Lou").update(
        history_date=timezone.now() - timedelta(seconds=120)
    )
    status, body = health()
    assert status == 503
    assert body["status"] == "failing"
    assert 120 <= body["stale_standings"]["oldest_seconds"] < 180
    # Caught up: healthy again.
    standings_recompute(tournament_id=stale.pk)
    status, body = health()
    assert status == 200 and body["stale_standings"]["tournaments"] == 0


def test_a_change_without_a_recorded_time_counts_from_the_snapshot(stale, alice):
    """Every change that affects standings is saved with a history record today; should
    one not be, the age is counted (pessimistically) from the snapshot's time."""
    other = make_tournament(alice, name="Other Open", players=2)
    standings_recompute(tournament_id=other.pk)
    an_hour_ago = timezone.now() - timedelta(hours=1)
    Standings.objects.filter(tournament=other).update(computed_at=an_hour_ago)
    Tournament.history.filter(id=other.pk).update(history_date=an_hour_ago)
    Player.history.filter(tournament_id=other.pk).update(history_date=an_hour_ago)
    Tournament.objects.filter(pk=other.pk).update(results_version=F("results_version") + 1)
    status, body = health()
    assert status == 503
    assert body["stale_standings"]["tournaments"] == 2
    assert body["stale_standings"]["oldest_seconds"] >= 3600


def test_a_new_tournament_without_standings_is_not_stale(alice):
    make_tournament(alice, name="Empty Cup")  # nothing to rank yet: results_version 0
    Tournament.objects.update(created_at=timezone.now() - timedelta(days=1))
    status, body = health()
    assert status == 200
    assert body["stale_standings"]["tournaments"] == 0


def test_database_down_is_503():
    """A real process whose database is a closed port."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_URL"}}
    env.update(DATABASE_URL="postgres://nobody:sekrit@127.0.0.1:1/rummitab", PYTHONPATH=str(ROOT))
    script = (
        "import django, json; django.setup(); from django.test import Client; "
        "r = Client().get('/health/', HTTP_HOST='localhost'); "
        "print(json.dumps([r.status_code, r.content.decode()]))"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    status, text = json.loads(run.stdout.strip().splitlines()[-1])
    assert status == 503
    body = json.loads(text)
    assert (body["status"], body["database"]) == ("failing", "down")
    assert body["stale_standings"] is None  # unknown without the database
    assert "sekrit" not in text and "nobody" not in text
