"""The cache's Redis is down or hangs: the API keeps answering (the throttles count in a
per-process stand-in and say so once in the log), results are stored, and standings are
computed on the next read."""

from __future__ import annotations

import logging
import socket
import threading
import time

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config import fallback_cache
from config import settings as settings_module
from games.models import Game, Result
from tests.factories import make_tournament, open_round
from tests.games.helpers import rummikub_racks, seated

pytestmark = pytest.mark.django_db

CLOSED_PORT = "redis://127.0.0.1:1/0"


def redis_cache(location: str) -> dict:
    """CACHES as config/settings.py builds it for a Redis URL, client timeouts included."""
    return {"default": settings_module.redis_cache(location)}


@pytest.fixture
def cache_down(settings):
    settings.CACHES = redis_cache(CLOSED_PORT)


@pytest.fixture
def club(alice, bob):
    tournament = make_tournament(alice, players=4, scorekeepers=[bob])
    game = Game.objects.get(table__round=open_round(tournament, alice), number=1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob).key}")
    return tournament, game, client


def entry(game: Game) -> dict:
    return {
        "based_on": 0,
        "end": "rummikub",
        "winner": seated(game)[0],
        "racks": rummikub_racks(game, "R4 B10 K2", "J 7", "O3"),
    }


def test_reads_and_result_entry_work_with_the_cache_down(cache_down, club):
    tournament, game, client = club
    assert APIClient().get("/api/v1/tournaments/").status_code == 200
    assert client.get(f"/api/v1/tournaments/{tournament.slug}/").status_code == 200
    response = client.post(f"/api/v1/games/{game.pk}/results/", entry(game), format="json")
    assert response.status_code == 201, response.content
    assert Result.objects.get(game=game).status == "confirmed"
    standings = APIClient().get(f"/api/v1/tournaments/{tournament.slug}/standings/")
    assert standings.status_code == 200
    tournament.refresh_from_db()
    assert standings.json()["computed_version"] == tournament.results_version


def test_throttles_still_count_while_the_cache_is_down(cache_down, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "1000/min", "token": "10/min"},
    }
    client = APIClient()
    codes = [client.get("/api/v1/tournaments/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]  # the per-process stand-in, not "fail open forever"


def test_the_outage_is_logged_once_not_per_request(cache_down, caplog):
    caplog.set_level(logging.INFO, logger="config.fallback_cache")
    client = APIClient()
    for _ in range(20):
        assert client.get("/api/v1/tournaments/").status_code == 200
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "unreachable" in warnings[0].getMessage()


def test_the_log_repeats_while_the_outage_lasts_and_says_when_it_ends(settings, caplog):
    """Driven by the stand-in's own clock: a warning when the outage starts, one more per
    LOG_EVERY_SECONDS while it lasts, and a line when the shared cache answers again."""
    caplog.set_level(logging.INFO, logger="config.fallback_cache")
    now = [1000.0]
    cache = fallback_cache.FallbackCache(clock=lambda: now[0])
    settings.CACHES = redis_cache(CLOSED_PORT)

    def warnings() -> int:
        return sum(record.levelno == logging.WARNING for record in caplog.records)

    for _ in range(5):
        cache.add("k", 1, 60)
        now[0] += fallback_cache.RETRY_SECONDS  # each call dials Redis again
    assert warnings() == 1
    assert cache.get("k") == 1  # counted in the stand-in meanwhile
    now[0] += fallback_cache.LOG_EVERY_SECONDS
    cache.get("k")
    assert warnings() == 2
    # Redis answers again (here: the alias now names a cache that works).
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    now[0] += fallback_cache.RETRY_SECONDS
    cache.set("k", 2, 60)
    assert warnings() == 2
    assert any("reachable again" in record.getMessage() for record in caplog.records)
    assert settings.CACHES and cache.get("k") == 2


@pytest.fixture
def hung_redis():
    """A port that accepts connections and never answers, like a Redis that hangs."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    accepted = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    server.close()


def test_a_hung_redis_does_not_hang_requests(settings, hung_redis):
    settings.CACHES = redis_cache(hung_redis)
    client = APIClient()
    started = time.perf_counter()
    codes = [client.get("/api/v1/tournaments/").status_code for _ in range(10)]
    elapsed = time.perf_counter() - started
    assert codes == [200] * 10
    # One socket timeout in all, not one per cache call: the stand-in takes over at once.
    timeout = settings_module.redis_cache(hung_redis)["OPTIONS"]["socket_timeout"]
    assert elapsed < 2 * timeout + 1, elapsed
