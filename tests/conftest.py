"""Shared fixtures: named people (alice organises, bob keeps score, mallory is a stranger,
root is a superuser), factories for a seated round, and the rule for service tests.

This is the one conftest of the whole suite's fixtures: the page tests' running
tournament and signed-in clients (tests/web.py: `club`, `played`, `as_user`) and the API
tests' (tests/api.py: `tournament`, `round1`, `game`, `people`, `dave`, `client_for`) are
registered here for every folder, instead of a copy of the same imports per folder. A
folder's own conftest holds only what that folder alone needs (tests/games: `league`;
tests/browser: the browser; tests/integration: the Celery worker; tests/scoring: the
guard that keeps the engine's tests off the database).

Tests that need real PostgreSQL or Redis take the `postgres` / `redis_url` fixtures: they
skip when the service is not configured, and fail instead when REQUIRE_SERVICES=1 (CI).

Under pytest-xdist (`-n`, the Makefile's `make test`) each worker process has a test
database of its own (pytest-django adds the worker's id to its name) and a Redis database
of its own (`worker_redis_url`), so the integration tests' brokers, caches and queues of
two workers never meet.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import hypothesis
import pytest
from django.db import connection, transaction
from django.test import override_settings
from django.utils import translation

from config.celery import app as celery_app
from tests.api import (  # noqa: F401 (fixtures, registered by being names of this module)
    api_settings,
    client_for,
    dave,
    game,
    people,
    round1,
    tournament,
)
from tests.web import as_user, club, played  # noqa: F401 (fixtures, as above)

T = TypeVar("T")

#: The Redis databases of the xdist workers: gw0 uses 8, gw1 9, ... (a wider run wraps
#: around and shares). The run without xdist keeps REDIS_URL's own database.
WORKER_REDIS_DATABASES = range(8, 16)


def worker_redis_url(url: str, worker: str) -> str:
    """REDIS_URL with the database of xdist worker `worker` ("gw3") in place of its own."""
    index = int(worker.removeprefix("gw"))
    database = WORKER_REDIS_DATABASES[index % len(WORKER_REDIS_DATABASES)]
    base = url.split("?")[0].rstrip("/")
    if base.count("/") > 2 and base.rsplit("/", 1)[1].isdigit():
        base = base.rsplit("/", 1)[0]
    return f"{base}/{database}"


# Set before any test and any child process reads it: the child processes a test starts
# (a Celery worker, a club server) inherit the worker's database with the environment.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER and os.environ.get("REDIS_URL"):
    _shared = os.environ["REDIS_URL"]
    os.environ["REDIS_URL"] = worker_redis_url(_shared, _WORKER)
    if os.environ.get("CELERY_BROKER_URL") == _shared:
        os.environ["CELERY_BROKER_URL"] = os.environ["REDIS_URL"]


# Hypothesis without its per-example deadline (200 ms): the suite's processes share the
# machine's cores, and an example slowed down by its neighbours is not a failure. The
# examples, their number and every assertion are unchanged.
hypothesis.settings.register_profile("suite", deadline=None)
hypothesis.settings.load_profile("suite")


def _need(what: str) -> None:
    message = f"{what} is not configured"
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"{message}, and REQUIRE_SERVICES=1 forbids skipping", pytrace=False)
    pytest.skip(message)


@pytest.fixture(autouse=True)
def _english_again():
    """Every test starts and ends in the site's default language: a request in Dutch
    activates Dutch for the thread, and Django's middleware never switches it back, so
    the next test would read Dutch where it expects English."""
    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def _in_process_jobs(request, settings):
    """Unit tests run jobs in-process with a private cache; the integration tests (marked
    `integration`) use the real broker, a real worker and the shared Redis cache."""
    if request.node.get_closest_marker("integration"):
        yield
        return
    # A location of its own: local-memory caches of one location share their contents,
    # and what one test kept (pages, marks) must not answer the next one.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": request.node.nodeid,
        }
    }
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    # Jobs run at once, in the caller, once the commit returns (tournaments.jobs); the
    # tests of the worker thread switch this off.
    settings.JOBS_INLINE = True
    yield
    celery_app.conf.task_always_eager = previous


#: The folders whose tests talk to the API (tests/<app>/api/) or count its throttles
#: (tests/config/): each of their tests counts throttles in a cache of its own, at rates no
#: test reaches except the throttling tests, which set their own (tests/api.py).
API_FOLDERS = {"api", "config"}


@pytest.fixture(autouse=True)
def _api_throttles_out_of_the_way(request, settings, _in_process_jobs):
    """tests/api.py's `api_settings` for the tests of an API folder; after
    `_in_process_jobs`, whose cache it replaces with one of its own."""
    if request.path.parent.name in API_FOLDERS:
        api_settings(settings)


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _pages_move_at_once(settings):
    """A change reaches the public pages at the next read, not within the second a venue
    gets (tournaments.events, "coalescing"); the tests of that window set it back."""
    settings.PAGE_CACHE_COALESCE_SECONDS = 0


def shared_rows(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """`build()`'s rows, made once for the tests of a module (or class) in a transaction
    rolled back at its end. In a module-scoped fixture:
    `yield from shared_rows(django_db_blocker, build)`.

    Each test asks for `db` as well (directly or through a fixture; pytest sets up the
    module's fixture first): the test then runs in a savepoint of that transaction,
    rolled back after it, so what one test writes never reaches the next and every test
    starts from the same rows, as when they were made per test. Not for a module with
    `transactional_db` tests (they would empty the tables under the open transaction).
    `build` runs under the settings every test gets (`_in_process_jobs` and the rest:
    jobs in-process, a cache of its own, fast passwords), and its after-commit jobs never
    run, as in a `db` test."""
    where = f"shared-rows-{build.__module__}.{build.__qualname__}"
    cache = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": where}
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        eager = celery_app.conf.task_always_eager
        celery_app.conf.task_always_eager = True
        try:
            with override_settings(
                CACHES={"default": cache},
                JOBS_INLINE=True,
                PAGE_CACHE_COALESCE_SECONDS=0,
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
            ):
                rows = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
        finally:
            celery_app.conf.task_always_eager = eager
    try:
        yield rows
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def postgres(transactional_db):
    if connection.vendor != "postgresql":
        _need("PostgreSQL (DATABASE_URL)")
    return connection


@pytest.fixture
def redis_url():
    url = os.environ.get("REDIS_URL")
    if not url:
        _need("Redis (REDIS_URL)")
    return url


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="alice-pass-123")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password="bob-pass-123")


@pytest.fixture
def carol(django_user_model):
    """A second scorekeeper, for double entry."""
    return django_user_model.objects.create_user("carol", password="carol-pass-123")


@pytest.fixture
def mallory(django_user_model):
    return django_user_model.objects.create_user("mallory", password="mallory-pass-123")


@pytest.fixture
def root(django_user_model):
    return django_user_model.objects.create_superuser("root", password="root-pass-123")


@pytest.fixture(scope="session")
def built_docs(tmp_path_factory):
    """The help pages (docs/) built by MkDocs into a folder of this test run, as `make
    docs` builds them into build/docs/ (strict: a warning fails the build here too).
    Once per xdist worker: the modules that use it share the group "built_docs"."""
    site = tmp_path_factory.mktemp("docs-site")
    root = Path(__file__).resolve().parent.parent
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=root,
        check=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    return site
