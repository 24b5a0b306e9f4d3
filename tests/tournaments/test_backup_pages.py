"""The Backups pages (tournaments/views/backups.py): a tournament's organisers see when the
site was last backed up and why, press "Back up now" and download their event file; only
superusers list and download the whole-site backups (password hashes and the key).

The site's database "is" a small SQLite file of the test's (`site_file`), whatever the
test database is.
"""

from __future__ import annotations

import contextlib
import io
import secrets
import sqlite3
import zipfile
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from tests.web import text
from tournaments import backups
from tournaments.backups import backup_take, backups_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def site_file(tmp_path, settings, monkeypatch):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.SECRET_KEY_FILE = tmp_path / "secret_key"
    settings.SECRET_KEY_FILE.write_text(secrets.token_urlsafe(50))
    path = tmp_path / "db.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE entry (id INTEGER PRIMARY KEY)")
        db.commit()
    monkeypatch.setattr(backups, "database_file", lambda alias="default": path)
    return path


def page(tournament) -> str:
    return reverse("tournament-backups", args=[tournament.slug])


def test_the_menu_links_the_page_for_organisers_only(as_user, club):
    url = page(club)
    assert url in text(as_user("alice").get(reverse("tournament-detail", args=[club.slug])))
    assert url not in text(as_user("bob").get(reverse("tournament-detail", args=[club.slug])))


@pytest.mark.parametrize(
    ("persona", "status"), [("anon", 302), ("mallory", 403), ("bob", 403), ("alice", 200)]
)
def test_only_organisers_open_the_tournament_page(as_user, club, site_file, persona, status):
    assert as_user(persona).get(page(club)).status_code == status
    assert as_user(persona).post(page(club)).status_code in {status, 302}
    if status != 200:
        assert backups_list() == []  # a refused "Back up now" takes none


@pytest.mark.parametrize(
    ("persona", "status"), [("anon", 302), ("mallory", 403), ("alice", 403), ("root", 200)]
)
def test_only_superusers_list_and_download_backups(as_user, site_file, persona, status):
    taken = backup_take("manual")
    client = as_user(persona)
    assert client.get(reverse("site-backups")).status_code == status
    download = client.get(reverse("backup-download", args=[taken.path.stem]))
    assert download.status_code == status
    if status == 302:
        assert "/accounts/login/" in download["Location"]


def test_the_organiser_sees_the_last_backup_and_backs_up_now(as_user, club, site_file):
    start = datetime.now(UTC) - timedelta(hours=1)
    backup_take("round", now=start)
    client = as_user("alice")
    shown = text(client.get(page(club)))
    assert "Last backup:" in shown and "when a round was opened" in shown
    assert "every 5 minutes" in shown
    # The event file is theirs; the whole-site download is not.
    assert reverse("event-file", args=[club.slug]) in shown
    assert "/backups/rummitab-" not in shown
    assert "Only the site's administrators may download" in shown

    answer = client.post(page(club), follow=True)
    assert [b.trigger for b in backups_list()] == ["manual", "round"]
    shown = text(answer)
    assert "Backup taken" in shown and "asked for" in shown


def test_the_superuser_downloads_the_database_with_its_key(as_user, club, site_file, settings):
    taken = backup_take("manual")
    shown = text(as_user("root").get(page(club)))
    url = reverse("backup-download", args=[taken.path.stem])
    assert url in shown
    assert url in text(as_user("root").get(reverse("site-backups")))

    answer = as_user("root").get(url)
    assert answer["Content-Disposition"] == f'attachment; filename="{taken.path.stem}.zip"'
    assert "no-store" in answer["Cache-Control"]
    with zipfile.ZipFile(io.BytesIO(b"".join(answer.streaming_content))) as zipped:
        assert zipped.read("rummitab.sqlite3") == taken.path.read_bytes()
        assert zipped.read("secret_key") == settings.SECRET_KEY_FILE.read_bytes()


@pytest.mark.parametrize("name", ["nothing-here", "..%2Fdb", "rummitab-20261126T120000Z-manual"])
def test_only_a_kept_backup_is_downloaded(as_user, site_file, name):
    assert as_user("root").get(f"/backups/{name}.zip").status_code == 404


def test_on_postgresql_the_page_says_whose_job_backups_are(as_user, club, tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "backups"
    # The test database is never an SQLite file: this is the PostgreSQL (or memory) case.
    assert backups.database_file() is None
    shown = text(as_user("alice").get(page(club)))
    assert "pg_dump" in shown and "Back up now" not in shown
    assert reverse("event-file", args=[club.slug]) in shown
    answer = as_user("alice").post(page(club), follow=True)
    assert "nothing was backed up" in text(answer)
    assert backups_list() == []
