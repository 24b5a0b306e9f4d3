"""Integration tests: real PostgreSQL, real Redis and a real `celery -A config worker`
subprocess sharing the test database. Skipped without the services, failed instead when
REQUIRE_SERVICES=1 (CI)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration


def worker_environment(redis_url: str, **extra: str) -> dict[str, str]:
    db = connection.settings_dict
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        REDIS_URL=redis_url,
        CELERY_BROKER_URL=redis_url,
        PYTHONPATH=str(ROOT),
        **extra,
    )
    return env


class Worker:
    """A Celery worker in its own process group, stopped and reaped at the end."""

    def __init__(
        self,
        app_module: str,
        env: dict[str, str],
        log: Path,
        *extra_args: str,
        concurrency: int = 1,
    ):
        self.log = log
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                app_module,
                "worker",
                "--pool",
                "prefork",
                "--concurrency",
                str(concurrency),
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "-n",
                f"it-{os.getpid()}@%h",
                *extra_args,
            ],
            cwd=ROOT,
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.wait_ready()

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker exited: {self.log.read_text()[-2000:]}")
            if "ready." in self.log.read_text():
                return
            time.sleep(0.2)
        raise RuntimeError(f"worker not ready: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@pytest.fixture
def live_jobs(postgres, redis_url, settings):
    """Publish to the real broker from this process (not in-process jobs)."""
    conf = celery_app.conf
    saved = (conf.broker_url, conf.task_always_eager)
    celery_app._after_fork()  # forget any pooled connection to another broker
    conf.broker_url, conf.task_always_eager = redis_url, False
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "rummitab",
        }
    }
    # Tasks left in the queue by an earlier, interrupted run would only add noise.
    with celery_app.connection_for_write() as conn:
        conn.default_channel.queue_purge("celery")
    yield redis_url
    conf.broker_url, conf.task_always_eager = saved
    celery_app._after_fork()


@pytest.fixture
def worker(live_jobs, tmp_path):
    running = Worker("config", worker_environment(live_jobs), tmp_path / "worker.log")
    yield running
    running.stop()


def wait_for(predicate, timeout: float, interval: float = 0.1):
    """Poll until `predicate()` is truthy; returns its value and the seconds it took."""
    started = time.monotonic()
    while True:
        value = predicate()
        elapsed = time.monotonic() - started
        if value or elapsed > timeout:
            return value, elapsed
        time.sleep(interval)
