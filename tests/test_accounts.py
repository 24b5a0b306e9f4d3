"""The account pages (config/urls.py): sign-in, sign-out and password change always;
password reset — which mails a link — only when the site can send mail (EMAIL_HOST)."""

# ruff: noqa: F811 — the tests take fixtures of tests/web.py, imported below, as arguments.

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import NoReverseMatch, clear_url_caches, reverse

import config.urls
from tests.web import as_user  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent

RESET_PAGES = [
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/done/",
]


def _reload_urls() -> None:
    importlib.reload(config.urls)
    clear_url_caches()


@contextmanager
def site_with(email_host: str) -> Iterator[None]:
    """The URL configuration as it is built at start-up with this EMAIL_HOST."""
    try:
        with override_settings(EMAIL_HOST=email_host):
            _reload_urls()
            yield
    finally:
        _reload_urls()  # back to this run's own settings


@pytest.fixture
def without_mail() -> Iterator[None]:
    with site_with(""):
        yield


@pytest.fixture
def with_mail(settings) -> Iterator[None]:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with site_with("smtp.example.org"):
        yield


def test_without_mail_there_is_no_password_reset(without_mail, as_user, alice):
    for path in RESET_PAGES:
        assert as_user("anon").get(path).status_code == 404, path
    assert as_user("anon").post(RESET_PAGES[0], {"email": "a@example.org"}).status_code == 404
    with pytest.raises(NoReverseMatch):
        reverse("password_reset")
    login = as_user("anon").get("/accounts/login/")
    assert login.status_code == 200
    assert "password_reset" not in login.content.decode()
    assert "Forgotten your password" not in login.content.decode()


def test_without_mail_sign_in_out_and_password_change_still_work(without_mail, as_user, alice):
    anon = as_user("anon")
    signed_in = anon.post(
        "/accounts/login/", {"username": "alice", "password": "alice-pass-123"}, follow=True
    )
    assert "Sign out (alice)" in signed_in.content.decode()

    change = anon.get("/accounts/password_change/")
    assert change.status_code == 200
    assert "<h1>Change your password</h1>" in change.content.decode()
    assert '<header class="site' in change.content.decode()  # the site's page, not the admin's
    # The password rules are a list: inside the help that the input names (a <p> cannot
    # hold a list, so the browser left that help empty and the list outside it).
    assert '<div class="help" id="id_new_password1_helptext"><ul>' in change.content.decode()
    changed = anon.post(
        "/accounts/password_change/",
        {
            "old_password": "alice-pass-123",
            "new_password1": "a-new-tile-rack-77",
            "new_password2": "a-new-tile-rack-77",
        },
    )
    assert changed.status_code == 302
    assert changed["Location"] == "/accounts/password_change/done/"
    alice.refresh_from_db()
    assert alice.check_password("a-new-tile-rack-77")

    signed_out = anon.post("/accounts/logout/")
    assert signed_out.status_code == 302
    assert "Sign in" in anon.get("/").content.decode()


def test_with_mail_the_reset_link_is_offered_and_mailed(with_mail, as_user, alice):
    alice.email = "alice@example.org"
    alice.save()
    login = as_user("anon").get("/accounts/login/").content.decode()
    assert '<a href="/accounts/password_reset/">Forgotten your password?</a>' in login

    form = as_user("anon").get("/accounts/password_reset/")
    assert form.status_code == 200
    assert '<header class="site' in form.content.decode()
    sent = as_user("anon").post("/accounts/password_reset/", {"email": "alice@example.org"})
    assert sent.status_code == 302
    assert sent["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body

    anon = as_user("anon")
    confirm = anon.get(link.group(1), follow=True)  # Django swaps the token for a session mark
    assert "<h1>Choose a new password</h1>" in confirm.content.decode()
    done = anon.post(
        confirm.redirect_chain[-1][0],
        {"new_password1": "fresh-joker-tiles-9", "new_password2": "fresh-joker-tiles-9"},
    )
    assert done["Location"] == "/accounts/reset/done/"
    alice.refresh_from_db()
    assert alice.check_password("fresh-joker-tiles-9")


@pytest.mark.parametrize(
    ("email_host", "expected"),
    [("smtp.example.org", "/accounts/password_reset/"), ("", "NoReverseMatch")],
)
def test_email_host_from_the_environment_switches_password_reset(email_host, expected):
    """The whole way: the EMAIL_HOST variable, the setting, the URL configuration."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("EMAIL_")}
    environment["EMAIL_HOST"] = email_host
    code = (
        "from django.urls import reverse\n"
        "try:\n    print(reverse('password_reset'))\n"
        "except Exception as error:\n    print(type(error).__name__)"
    )
    run = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == expected
