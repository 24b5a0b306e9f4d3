"""The Backups pages in Chromium at phone size (412x900): the organiser finds the page in
the tournament menu (a backup was taken as the round opened) and backs up now; the
superuser downloads a backup (a zip with the key); neither page scrolls sideways nor has
a serious axe violation.

The site's database "is" a small SQLite file of the test's (the live server's test
database is not a file the backups could copy)."""

from __future__ import annotations

import contextlib
import sqlite3
import zipfile

import pytest

from tests.browser.conftest import sign_in
from tests.browser.test_accessibility import RUN_AXE, SERIOUS
from tests.factories import make_tournament, open_round
from tournaments import backups
from tournaments.backups import backups_list, backups_wait

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site_file(tmp_path, settings, monkeypatch):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.SECRET_KEY_FILE = tmp_path / "secret_key"
    settings.SECRET_KEY_FILE.write_text("k" * 50)
    path = tmp_path / "db.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE entry (id INTEGER PRIMARY KEY)")
        db.commit()
    monkeypatch.setattr(backups, "database_file", lambda alias="default": path)
    return path


def _fits_and_is_accessible(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 412
    page.add_script_tag(url="/static/vendor/axe.min.js")
    serious = [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]
    assert serious == []


def test_the_organiser_backs_up_and_the_superuser_downloads(
    new_page, alice, root, site_file, tmp_path
):
    tournament = make_tournament(alice, players=8)
    open_round(tournament, alice)
    backups_wait()  # opening the round committed: its backup runs in a thread
    assert [b.trigger for b in backups_list()] == ["round"]

    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(f"/t/{tournament.slug}/")
    page.get_by_role("link", name="Backups").click()
    page.get_by_text("when a round was opened").wait_for()
    _fits_and_is_accessible(page)
    page.get_by_role("button", name="Back up now").click()
    page.get_by_text("Backup taken (").wait_for()
    assert [b.trigger for b in backups_list()] == ["manual", "round"]
    assert page.get_by_role("link", name="Download the last backup").count() == 0
    assert page.get_by_role("link", name="Download the event file").count() == 1

    page = new_page()
    sign_in(page, "root", "root-pass-123")
    page.get_by_role("link", name="Backups").click()
    page.get_by_text("2 kept backups").wait_for()
    _fits_and_is_accessible(page)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download").first.click()
    saved = tmp_path / "download.zip"
    download.value.save_as(saved)
    with zipfile.ZipFile(saved) as zipped:
        assert sorted(zipped.namelist()) == ["rummitab.sqlite3", "secret_key"]
