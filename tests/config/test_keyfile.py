"""The secret key file (config/keyfile.py), DATA_DIR, PLAIN_HTTP, PORT and the SQLite
settings of config/settings.py, read by a fresh process as a server would."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.keyfile import secret_key_from_file
from tests.threads import at_once

ROOT = Path(__file__).resolve().parents[2]
OLD_DEVELOPMENT_KEY = "dev-only-insecure-key-rummitab-do-not-use-in-production"
PRINT_SETTINGS = """
import json, os
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from django.conf import settings
from django.db import connection
values = {name: str(getattr(settings, name, None)) for name in (
    "SECRET_KEY", "DATA_DIR", "SECRET_KEY_FILE", "PUBLIC_BASE_URL", "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS")}
values["OPTIONS"] = settings.DATABASES["default"].get("OPTIONS", {})
if connection.vendor == "sqlite":
    with connection.cursor() as cursor:
        values["pragmas"] = [
            cursor.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("journal_mode", "synchronous", "busy_timeout")
        ]
print("SETTINGS" + json.dumps(values, default=str))
"""
CLEARED = {"DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "DATA_DIR", "PUBLIC_BASE_URL", "PORT"}


def settings_of(**env: str) -> tuple[int, dict, str]:
    environment = {k: v for k, v in os.environ.items() if k not in CLEARED}
    environment.update(env)
    run = subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next((ln for ln in run.stdout.splitlines() if ln.startswith("SETTINGS")), "")
    return run.returncode, json.loads(line[8:]) if line else {}, run.stderr


def test_the_key_is_made_once_private_and_kept(tmp_path):
    path = tmp_path / "club" / "secret_key"
    key = secret_key_from_file(path)
    assert len(key) >= 50 and key != OLD_DEVELOPMENT_KEY
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secret_key_from_file(path) == key
    assert os.listdir(path.parent) == ["secret_key"]  # no temporary file left


def test_processes_starting_at_once_share_one_key(tmp_path):
    path = tmp_path / "secret_key"
    keys = at_once(*[lambda: secret_key_from_file(path)] * 8)
    assert len(set(keys)) == 1 and isinstance(keys[0], str)
    assert keys[0] == path.read_text().strip()


def test_a_damaged_key_file_is_refused_not_replaced(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("short\n")
    with pytest.raises(ImproperlyConfigured, match="restore it from a backup"):
        secret_key_from_file(path)
    assert path.read_text() == "short\n"


def test_a_laptop_signs_with_its_key_file_beside_the_database(tmp_path):
    database = tmp_path / "club" / "db.sqlite3"
    database.parent.mkdir()
    for debug in ("1", "0"):  # `make run`, and `make lan` (club mode: SQLite, DEBUG off)
        code, values, stderr = settings_of(
            DEBUG=debug, DATABASE_URL=f"sqlite:///{database}", PLAIN_HTTP="1"
        )
        assert code == 0, stderr
        assert values["DATA_DIR"] == str(database.parent)
        assert values["SECRET_KEY_FILE"] == str(database.parent / "secret_key")
        assert values["SECRET_KEY"] == (database.parent / "secret_key").read_text().strip()
        assert values["SECRET_KEY"] not in stderr  # never printed
    # Plain http on the Wi-Fi: nothing that only works over https.
    assert values["SECURE_SSL_REDIRECT"] == values["SESSION_COOKIE_SECURE"] == "False"
    # The SQLite connection as every server thread opens it.
    assert values["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert values["OPTIONS"]["timeout"] == 20
    assert values["pragmas"] == ["wal", 1, 20000]  # WAL, synchronous NORMAL, 20 s wait


def test_production_keeps_https_and_needs_a_key_from_the_environment(tmp_path):
    postgres = "postgres://postgres@127.0.0.1:5432/rummitab_nowhere"
    code, _, stderr = settings_of(DEBUG="0", DATABASE_URL=postgres)
    assert code != 0 and "SECRET_KEY must be set" in stderr
    assert not (tmp_path / "secret_key").exists()
    code, values, stderr = settings_of(
        DEBUG="0", DATABASE_URL=postgres, SECRET_KEY="p" * 60, ALLOWED_HOSTS="tab.example.org"
    )
    assert code == 0, stderr
    assert values["SECURE_SSL_REDIRECT"] == values["CSRF_COOKIE_SECURE"] == "True"
    assert values["OPTIONS"] == {}


def test_data_dir_and_port_from_the_environment(tmp_path):
    code, values, stderr = settings_of(
        DEBUG="1",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/rummitab_nowhere",
        DATA_DIR=str(tmp_path),
        PORT="8123",
    )
    assert code == 0, stderr
    assert values["SECRET_KEY"] == (tmp_path / "secret_key").read_text().strip()
    # `make run PORT=8123`: the sheets' QR codes point at the port the site is on.
    assert values["PUBLIC_BASE_URL"] == "http://127.0.0.1:8123"
