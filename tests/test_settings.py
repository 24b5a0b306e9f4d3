"""Settings come from the environment; production refuses to start without a secret and
passes Django's deployment checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_secret_key():
    # Production is DEBUG off on PostgreSQL; SQLite is the club laptop, which keeps its
    # key in a file (tests/config/test_keyfile.py).
    run = manage(
        "check", DEBUG="0", DATABASE_URL="postgres://postgres@127.0.0.1:5432/rummitab_nowhere"
    )
    assert run.returncode != 0
    assert "SECRET_KEY must be set" in run.stderr


def test_production_settings_pass_check_deploy():
    run = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY="a-long-random-production-secret-" + "x" * 40,
        ALLOWED_HOSTS="tab.example.org",
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues" in run.stdout


def test_local_admin_is_refused_in_production():
    run = manage("local_admin", DEBUG="0", SECRET_KEY="s" * 60)
    assert run.returncode != 0
    assert "DEBUG" in run.stderr


def test_database_url_selects_the_database(settings):
    import dj_database_url

    parsed = dj_database_url.parse("postgres://postgres@127.0.0.1:5432/rummitab")
    assert parsed["ENGINE"] == "django.db.backends.postgresql"
    # Whatever this run uses came from DATABASE_URL, or SQLite when it is unset.
    expected = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite3"
    assert settings.DATABASES["default"]["ENGINE"].endswith(expected)


def test_standings_keep_must_keep_the_newest_snapshot():
    run = manage("check", STANDINGS_KEEP="0")
    assert run.returncode != 0
    assert "STANDINGS_KEEP must be at least 1" in run.stderr
