"""`make lan` (config/lan.py): the LAN address is allowed and becomes the public base URL
the sheets' QR codes are built from; the server is not started with the admin/admin
account of `make run`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import lan

ROOT = Path(__file__).resolve().parent.parent.parent


def test_lan_address_override_and_detection():
    assert lan.lan_address({"LAN_ADDRESS": " 192.168.1.20 "}) == "192.168.1.20"
    detected = lan.lan_address({})
    assert detected.count(".") == 3 and not detected.startswith("0.")


def test_the_environment_allows_the_address_and_builds_links_from_it():
    env = lan.lan_environment("192.168.1.20", 8000, {"ALLOWED_HOSTS": "tab.club.example"})
    assert env["ALLOWED_HOSTS"].split(",") == [
        "192.168.1.20",
        "localhost",
        "127.0.0.1",
        "[::1]",
        "tab.club.example",
    ]
    assert env["PUBLIC_BASE_URL"] == "http://192.168.1.20:8000"
    chosen = lan.lan_environment("192.168.1.20", 8000, {"PUBLIC_BASE_URL": "http://tab.lan"})
    assert chosen["PUBLIC_BASE_URL"] == "http://tab.lan"  # what the organiser set wins


def test_the_banner_prints_the_lan_address():
    text = lan.banner("http://192.168.1.20:8000", "192.168.1.20", 8000)
    assert "phones and sheets: http://192.168.1.20:8000/" in text
    assert "No network address" not in text
    assert "LAN_ADDRESS" in lan.banner("http://127.0.0.1:8000", "127.0.0.1", 8000)


def test_the_banner_believes_a_given_address():
    """`make lan LAN_ADDRESS=…` never reads "No network address was found"."""
    given = lan.banner("http://127.0.0.1:8001", "127.0.0.1", 8001, given=True)
    assert "No network address" not in given
    assert "only this laptop" in given and "http://127.0.0.1:8001/" in given
    text = lan.banner("http://10.0.0.7:8001", "10.0.0.7", 8001, given=True)
    assert "No network address" not in text and "only this laptop" not in text


def test_the_lan_server_runs_without_debug_over_plain_http():
    env = lan.lan_environment("192.168.1.20", 8001, {"DEBUG": "1"})
    # A DEBUG=1 left in the shell does not show technical pages to the whole room.
    assert (env["DEBUG"], env["PLAIN_HTTP"], env["PORT"]) == ("0", "1", "8001")
    assert env["PUBLIC_BASE_URL"] == "http://192.168.1.20:8001"  # the QR codes follow PORT


def test_settings_read_the_public_base_url():
    def setting(**env: str) -> str:
        environment = {k: v for k, v in os.environ.items() if k not in {"PUBLIC_BASE_URL", "DEBUG"}}
        environment.update(env)
        run = subprocess.run(
            [
                sys.executable,
                "-c",
                "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
                "'config.settings'); django.setup(); from django.conf import settings; "
                "print(settings.PUBLIC_BASE_URL, settings.ALLOWED_HOSTS)",
            ],
            cwd=ROOT,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        return run.stdout.strip().splitlines()[-1]

    assert setting().startswith("http://127.0.0.1:8000 ")
    lan_env = lan.lan_environment("10.0.0.7", 8000, {})
    assert setting(**lan_env, SECRET_KEY="s" * 60).startswith("http://10.0.0.7:8000 ['10.0.0.7',")
    assert setting(DEBUG="0", SECRET_KEY="s" * 60, ALLOWED_HOSTS="tab.example.org").startswith(
        "https://tab.example.org "
    )


@pytest.mark.django_db
def test_the_admin_admin_account_keeps_the_lan_server_from_starting(django_user_model):
    assert "no organiser account" in lan._accounts_ready(interactive=False)
    django_user_model.objects.create_superuser("admin", password="admin")
    assert "changepassword admin" in lan._accounts_ready(interactive=False)
    admin = django_user_model.objects.get(username="admin")
    admin.set_password("a long club password")
    admin.save()
    assert lan._accounts_ready(interactive=False) is None
