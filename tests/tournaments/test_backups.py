"""Backups of the SQLite database and restoring one (tournaments.backups).

The round trip runs a club evening in its own processes on real SQLite files (whatever
database the test run uses): backup during a round, restore into a fresh folder, the
same standings, the printed table links still good. The other tests back up a small
SQLite file of their own (`source`), so they run on PostgreSQL too.

Terms: `source` — a small SQLite database standing for the site's; `data` — a temporary
data folder (BACKUP_DIR and SECRET_KEY_FILE inside it).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import subprocess
import sys
import threading
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from games.services.stages import stage_close, stage_cut_preview
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments import backups
from tournaments.backups import (
    BackupError,
    backup_archive,
    backup_restore,
    backup_take,
    backups_list,
    backups_wait,
    server_running,
    start_backup_thread,
)
from tournaments.services.stages import stage_create
from tournaments.table_links import read_token

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_TIMEOUT = 300


@pytest.fixture
def data(tmp_path, settings):
    folder = tmp_path / "data"
    folder.mkdir()
    settings.BACKUP_DIR = folder / "backups"
    settings.SECRET_KEY_FILE = folder / "secret_key"
    settings.SECRET_KEY_FILE.write_text(secrets.token_urlsafe(50))
    settings.BACKUP_KEEP = 48
    return folder


@pytest.fixture
def source(tmp_path):
    """A WAL-mode SQLite database with a table of rows, like the site's."""
    path = tmp_path / "site.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE entry (id INTEGER PRIMARY KEY, pair INTEGER)")
        db.commit()
    return path


def _rows(path: Path) -> list[tuple]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT id, pair FROM entry ORDER BY id").fetchall()


def _insert(path: Path, n: int) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executemany("INSERT INTO entry (pair) VALUES (?)", [(i,) for i in range(n)])
        db.commit()


# --- the round trip -------------------------------------------------------------------


def _scenario(folder: Path, *args: str) -> dict:
    """Run tests.tournaments.backup_scenario as a club server would run, on `folder`."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"REDIS_URL", "CELERY_BROKER_URL", "CACHE_URL", "BACKUP_DIR"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{folder}/db.sqlite3",
        DATA_DIR=str(folder),
        SECRET_KEY_FILE=str(folder / "secret_key"),
        # The key as the club server reads it from its file (the clubserver branch's
        # settings do that themselves; saying it here keeps this test independent of it).
        SECRET_KEY=(folder / "secret_key").read_text(),
        BACKUP_INTERVAL_SECONDS="0",
        DEBUG="1",
    )
    done = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=SCENARIO_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_backup_during_a_round_restores_on_another_laptop(tmp_path, settings):
    laptop, spare = tmp_path / "laptop", tmp_path / "spare"
    laptop.mkdir()
    spare.mkdir()
    key = secrets.token_urlsafe(50)
    (laptop / "secret_key").write_text(key)
    # The spare laptop was started once: a database and a key of its own.
    (spare / "secret_key").write_text(secrets.token_urlsafe(50))

    before = _scenario(laptop, "-m", "tests.tournaments.backup_scenario", "before")
    before = json.loads(before.stdout.strip().splitlines()[-1])
    # Opening the round took a backup by itself (in the background, after the commit).
    assert before["triggers_after_round_opened"] == ["round"]
    assert before["standings"][0][2]["games_played"] == 1  # one table has played

    # The superuser's download: the database and the key in one zip.
    kept = backups.Backup(Path(before["backup"]), datetime.now(UTC), "manual", 0)
    settings.SECRET_KEY_FILE = laptop / "secret_key"
    archive = tmp_path / "stick" / "rummitab.zip"
    archive.parent.mkdir()
    with open(archive, "wb") as out:
        backup_archive(kept, out)

    restored = _scenario(spare, "manage.py", "restore_backup", str(archive))
    assert "printed table links keep working" in restored.stdout
    assert (spare / "secret_key").read_text() == key
    assert list(spare.glob("secret_key.replaced-*")), "the spare's own key is kept aside"

    after = _scenario(
        spare, "-m", "tests.tournaments.backup_scenario", "after", json.dumps(before["tokens"])
    )
    after = json.loads(after.stdout.strip().splitlines()[-1])
    assert after["standings"] == before["standings"]
    assert after["recomputed"] == before["standings"]  # from the restored results
    assert after["results_version"] == before["results_version"]
    assert after["links_valid"] == {"1": True, "2": True}
    # They are valid because the key came along: signed with any other, they are not.
    token = before["tokens"]["1"]
    with override_settings(SECRET_KEY=key):
        assert read_token(token) is not None
    with override_settings(SECRET_KEY=secrets.token_urlsafe(50)):
        assert read_token(token) is None


# --- taking backups -------------------------------------------------------------------


def test_a_backup_is_whole_while_writers_go_on(data, source):
    """Each transaction of the writer inserts two rows: a consistent copy holds an even
    number of them, and passes the integrity check, however the copy and the writes
    interleave."""
    stop = threading.Event()

    def write() -> None:
        with contextlib.closing(sqlite3.connect(source, timeout=10)) as db:
            while not stop.is_set():
                db.executemany("INSERT INTO entry (pair) VALUES (?)", [(1,), (2,)])
                db.commit()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        taken = [backup_take("manual", source=source) for _ in range(5)]
    finally:
        stop.set()
        writer.join()
    for backup in taken:
        rows = _rows(backup.path)
        assert len(rows) % 2 == 0
        with contextlib.closing(sqlite3.connect(backup.path)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            # One self-contained file: no WAL needed beside it.
            assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert len(_rows(taken[-1].path)) > 0
    assert not list(Path(data / "backups").glob(".*.partial"))


def test_the_newest_backups_of_each_trigger_are_kept(data, source, settings):
    settings.BACKUP_KEEP = 3
    start = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    for minute in range(6):
        backup_take("interval", source=source, now=start + timedelta(minutes=minute))
    backup_take("round", source=source, now=start - timedelta(hours=1))
    kept = backups_list()
    assert [(b.trigger, b.taken_at.minute) for b in kept] == [
        ("interval", 5),
        ("interval", 4),
        ("interval", 3),
        ("round", 0),
    ]
    assert kept[0].name == "rummitab-20261126T120500Z-interval.sqlite3"
    # The key is kept beside the backups, readable by its owner only.
    copy = data / "backups" / "secret_key"
    assert copy.read_text() == settings.SECRET_KEY_FILE.read_text()
    assert copy.stat().st_mode & 0o077 == 0


def test_two_backups_in_one_second_are_both_kept(data, source):
    now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    first = backup_take("manual", source=source, now=now)
    second = backup_take("manual", source=source, now=now)
    assert first.path != second.path
    assert backups_list() == [second, first]  # newest first


def test_a_timed_backup_is_skipped_when_nothing_changed(data, source):
    assert backup_take("interval", source=source, only_if_changed=True) is not None
    assert backup_take("interval", source=source, only_if_changed=True) is None
    _insert(source, 1)
    assert backup_take("interval", source=source, only_if_changed=True) is not None
    assert backup_take("manual", source=source) is not None  # asked for: always


def test_nothing_is_backed_up_without_an_sqlite_file(data, monkeypatch):
    monkeypatch.setattr(backups, "database_file", lambda alias="default": None)
    assert backup_take("manual") is None
    assert start_backup_thread(interval=60) is None
    assert backups_list() == []


def test_the_timer_backs_up_and_holds_the_server_lock(data, source, monkeypatch):
    monkeypatch.setattr(backups, "database_file", lambda alias="default": source)
    assert not server_running()
    thread = start_backup_thread(interval=3600)
    try:
        for _ in range(100):
            if backups_list():
                break
            threading.Event().wait(0.05)
        assert [b.trigger for b in backups_list()] == ["interval"]
        assert server_running()
        with pytest.raises(BackupError, match="server seems to be running"):
            backup_restore(backups_list()[0].path, target=data / "other.sqlite3")
    finally:
        thread.stop.set()
        thread.join(5)
    assert not server_running()


# --- the triggers ---------------------------------------------------------------------


@pytest.fixture
def site_file(source, monkeypatch):
    """The site's database "is" `source` for the backups (the test database may be
    PostgreSQL or in memory)."""
    monkeypatch.setattr(backups, "database_file", lambda alias="default": source)
    return source


@pytest.mark.django_db
def test_opening_a_round_backs_up_after_the_commit(
    data, site_file, alice, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, players=8)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        open_round(tournament, alice)
    assert backups_list() == []  # not inside the request's transaction
    for callback in callbacks:
        callback()
    backups_wait()
    assert [b.trigger for b in backups_list()] == ["round"]


@pytest.mark.django_db
def test_a_round_that_does_not_open_takes_no_backup(
    data, site_file, alice, django_capture_on_commit_callbacks
):
    tournament = make_tournament(alice, players=8)
    with django_capture_on_commit_callbacks(execute=True):  # noqa: SIM117  # order matters
        with pytest.raises(RuleError):
            open_round(tournament, alice, tables=[[1, 2, 3, 4]])
    backups_wait()
    assert backups_list() == []


@pytest.mark.django_db
def test_closing_a_stage_backs_up(data, site_file, alice, django_capture_on_commit_callbacks):
    tournament = make_tournament(alice, players=8, games_per_table=1)
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(
        tournament=tournament,
        by=alice,
        name="Final",
        kind="final",
        cut_top=4,
        carry_over="all",
        cut_ties="lot",
    )
    round_ = open_round(tournament, alice)
    for table in round_.tables.all():
        for game in table.games.all():
            enter_rummikub(game, alice)
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    with django_capture_on_commit_callbacks(execute=True):
        stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    backups_wait()
    assert [b.trigger for b in backups_list()] == ["stage"]


# --- restoring ------------------------------------------------------------------------


def test_restore_refuses_to_overwrite_a_site_with_data_unless_forced(data, source, tmp_path):
    backup = backup_take("manual", source=source)
    target = tmp_path / "new" / "db.sqlite3"
    target.parent.mkdir()
    with contextlib.closing(sqlite3.connect(target)) as db:
        db.execute("CREATE TABLE auth_user (id INTEGER PRIMARY KEY)")
        db.execute("INSERT INTO auth_user VALUES (1)")
        db.commit()
    key_target = tmp_path / "new" / "secret_key"
    with pytest.raises(BackupError, match="--force"):
        backup_restore(backup.path, target=target, key_target=key_target)
    with contextlib.closing(sqlite3.connect(target)) as db:  # nothing changed
        assert db.execute("SELECT id FROM auth_user").fetchall() == [(1,)]
    assert not key_target.exists()

    _insert(source, 3)
    backup = backup_take("manual", source=source)
    Path(f"{target}-wal").write_bytes(b"stale")  # of the old database: must not be replayed
    restored = backup_restore(backup.path, target=target, key_target=key_target, force=True)
    assert len(_rows(target)) == 3
    assert key_target.read_text() == (data / "secret_key").read_text()  # the one beside
    assert not Path(f"{target}-wal").exists()
    aside = [p.name.split(".replaced-")[0] for p in restored.moved_aside]
    assert "db.sqlite3" in aside and "secret_key" not in aside  # there was no key file


def test_restore_into_an_empty_folder_from_a_kept_file_with_its_key(data, source, tmp_path):
    _insert(source, 2)
    backup = backup_take("round", source=source)
    key = tmp_path / "key-from-usb"
    key.write_text("the old laptop's key")
    target = tmp_path / "fresh" / "db.sqlite3"
    restored = backup_restore(
        backup.path, key_file=key, target=target, key_target=tmp_path / "fresh" / "secret_key"
    )
    assert len(_rows(target)) == 2
    assert restored.key_file.read_text() == "the old laptop's key"
    assert restored.moved_aside == []


def test_restore_refuses_what_is_not_a_whole_database(data, tmp_path):
    bad = tmp_path / "rummitab-20261126T120000Z-manual.sqlite3"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x01" * 4000)
    target = tmp_path / "db.sqlite3"
    with pytest.raises(BackupError, match=r"not a usable SQLite database|integrity"):
        backup_restore(bad, target=target, key_target=tmp_path / "secret_key")
    assert not target.exists()
    with pytest.raises(BackupError, match="There is no file"):
        backup_restore(tmp_path / "missing.zip", target=target)


def test_the_download_holds_the_database_and_the_key(data, source, tmp_path):
    _insert(source, 4)
    backup = backup_take("manual", source=source)
    archive = tmp_path / "download.zip"
    with open(archive, "wb") as out:
        backup_archive(backup, out)
    with zipfile.ZipFile(archive) as zipped:
        assert sorted(zipped.namelist()) == ["rummitab.sqlite3", "secret_key"]
        assert zipped.read("secret_key") == (data / "secret_key").read_bytes()
        assert zipped.read("rummitab.sqlite3") == backup.path.read_bytes()


def test_the_commands_explain_themselves_without_sqlite(monkeypatch, tmp_path):
    monkeypatch.setattr(backups, "database_file", lambda alias="default": None)
    with pytest.raises(CommandError, match="pg_dump"):
        call_command("backup")
    with pytest.raises(CommandError, match="pg_restore"):
        call_command("restore_backup", str(tmp_path / "x.zip"))


# --- settings -------------------------------------------------------------------------


def _settings_run(code: str, **env: str) -> subprocess.CompletedProcess:
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATA_DIR", "BACKUP_DIR", "SECRET_KEY_FILE", "BACKUP_KEEP"}
    }
    environment.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_backups_live_beside_the_sqlite_database_and_keep_at_least_one(tmp_path):
    show = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DATA_DIR, s.SECRET_KEY_FILE, s.BACKUP_DIR, sep='\\n')"
    )
    run = _settings_run(show, DATABASE_URL=f"sqlite:///{tmp_path}/club/db.sqlite3")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [
        str(tmp_path / "club"),
        str(tmp_path / "club" / "secret_key"),
        str(tmp_path / "club" / "backups"),
    ]
    run = _settings_run("import django; django.setup()", BACKUP_KEEP="0")
    assert run.returncode != 0
    assert "BACKUP_KEEP must be at least 1" in run.stderr
