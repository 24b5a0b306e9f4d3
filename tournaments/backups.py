"""Backups of the SQLite database, and restoring one (docs/operations/backups.md).

A club laptop keeps the whole site in one SQLite file. While a server runs, a copy of it
is taken every BACKUP_INTERVAL_SECONDS, and soon after a round is opened or a stage is
closed; the newest BACKUP_KEEP copies are kept in BACKUP_DIR. On PostgreSQL nothing here
runs: backing that database up (pg_dump) is its operator's job, and the pages say so.

Terms:
* backup — a copy of the whole database taken with SQLite's online backup API
  (`sqlite3.Connection.backup`, in one step): a consistent snapshot of what was committed
  when it started, taken while scorekeepers go on writing (a file copy could catch a
  half-written page, or miss the WAL). It is written to a temporary file, checked with
  ``PRAGMA integrity_check``, switched to the rollback journal (one self-contained file)
  and only then renamed into place, so a file named like a backup is always a whole one.
* backup name — ``rummitab-<UTC time>-<trigger>.sqlite3``, e.g.
  ``rummitab-20261126T013000Z-round.sqlite3``: sorting the names sorts by time.
* trigger — why a backup was taken: `interval` (the server's timer), `round` (a round
  was opened), `stage` (a stage was closed), `manual` (the page's "Back up now" or
  ``manage.py backup``).
* kept key — the file SECRET_KEY_FILE holds the key that signs the printed table links
  (and sessions). A database restored without it is whole, but every printed sheet stops
  working. So BACKUP_DIR holds a copy of it (``secret_key``, refreshed by each backup),
  and a backup downloaded from the site is a zip of the database and the key. Both hold
  password hashes and the key, so only superusers may download them.
* server lock — a lock (``flock``) on BACKUP_DIR/.server.lock, held by the one process of
  a running server that takes the timed backups: it keeps several server processes from
  each taking them, and tells ``restore_backup`` that a server is running. The operating
  system drops it when the process ends, however it ends.

Decisions where the issue was silent:
* An interval backup is skipped when the database files have not changed since the last
  backup this process took (same sizes and modification times): a laptop left running
  overnight does not push the useful backups out of the kept ones with identical copies.
  A round, stage or manual backup is always taken.
* Retention: the newest BACKUP_KEEP of each trigger (`_prune`), not of all together.
* Backups after a round is opened or a stage closed run in a short-lived daemon thread
  started when the transaction commits (`backup_after_commit`), so the organiser's
  request never waits for one; `run_in_background` is the one place to hand them to a
  job queue instead.
* Restoring moves what it replaces aside (``<name>.replaced-<UTC time>``: the database,
  its -wal and -shm files, the key file), never deletes it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sqlite3
import tempfile
import threading
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, cast

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from filelock import FileLock, Timeout

logger = logging.getLogger(__name__)

TRIGGERS = ("interval", "round", "stage", "manual")
NAME = re.compile(r"^rummitab-(\d{8}T\d{6}Z)(?:-(\d+))?-([a-z]+)\.sqlite3$")
STAMP = "%Y%m%dT%H%M%SZ"
KEY_NAME = "secret_key"
LOCK_NAME = ".server.lock"
# Inside a downloaded zip.
ZIP_DATABASE = "rummitab.sqlite3"
ZIP_KEY = KEY_NAME

# One backup at a time in this process (the timer, a round's thread, the page's button).
_taking = threading.Lock()
_pending: set[threading.Thread] = set()
_paused = 0  # backups_paused() depth
_last_fingerprint: dict[Path, tuple] = {}
_server_locks: dict[Path, FileLock] = {}  # held by this process, per BACKUP_DIR


class BackupError(Exception):
    """A backup or a restore that cannot be done; the message says why, for a person."""


@dataclass(frozen=True)
class Backup:
    path: Path
    taken_at: datetime
    trigger: str
    size: int

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def age_seconds(self) -> float:
        return (datetime.now(UTC) - self.taken_at).total_seconds()


def database_file(alias: str = DEFAULT_DB_ALIAS) -> Path | None:
    """The SQLite database file of `alias`, or None when it is not SQLite on disk (then
    there is nothing for this module to do)."""
    config = connections[alias].settings_dict
    if config["ENGINE"] != "django.db.backends.sqlite3":
        return None
    name = str(config["NAME"])
    if not name or name == ":memory:" or "mode=memory" in name:
        return None
    return Path(name).resolve()


def backups_list(directory: Path | None = None) -> list[Backup]:
    """The kept backups, newest first."""
    directory = Path(directory or settings.BACKUP_DIR)
    if not directory.is_dir():
        return []
    found = [_backup_at(path) for path in directory.iterdir() if NAME.match(path.name)]
    return sorted((b for b in found if b is not None), key=_taken_order, reverse=True)


def _taken_order(backup: Backup) -> tuple[datetime, int]:
    """When it was taken, then its counter within that second (none: the first)."""
    named = cast(re.Match[str], NAME.match(backup.name))  # listed only when the name matches
    return backup.taken_at, int(named[2] or 1)


def _backup_at(path: Path) -> Backup | None:
    match = NAME.match(path.name)
    if match is None or not path.is_file():
        return None
    taken = datetime.strptime(match[1], STAMP).replace(tzinfo=UTC)
    return Backup(path, taken, match[3], path.stat().st_size)


def backup_named(name: str) -> Backup | None:
    """The kept backup called `name` (a bare file name, nothing else), or None."""
    return next((b for b in backups_list() if b.name == name), None)


def _fingerprint(source: Path) -> tuple:
    parts = []
    for path in (source, Path(f"{source}-wal")):
        with contextlib.suppress(FileNotFoundError):
            stat = path.stat()
            parts.append((path.name, stat.st_size, stat.st_mtime_ns))
    return tuple(parts)


def _check(path: Path) -> None:
    """Raise BackupError unless `path` is a whole SQLite database."""
    try:
        with contextlib.closing(sqlite3.connect(path)) as db:
            answer = [row[0] for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path.name} is not a usable SQLite database: {error}") from error
    if answer != ["ok"]:
        raise BackupError(f"{path.name} failed its integrity check: {'; '.join(answer[:5])}")


def _free_name(directory: Path, now: datetime, trigger: str) -> Path:
    stamp = now.astimezone(UTC).strftime(STAMP)
    path = directory / f"rummitab-{stamp}-{trigger}.sqlite3"
    count = 1
    while path.exists():  # two backups in one second: a counter keeps both
        count += 1
        path = directory / f"rummitab-{stamp}-{count}-{trigger}.sqlite3"
    return path


def _keep_key(directory: Path) -> None:
    """Refresh the copy of the key file beside the backups (owner-only)."""
    key = Path(settings.SECRET_KEY_FILE)
    if not key.is_file():
        return
    copy = directory / KEY_NAME
    if copy.is_file() and copy.read_bytes() == key.read_bytes():
        return
    partial = directory / f".{KEY_NAME}.partial"
    partial.write_bytes(key.read_bytes())
    with contextlib.suppress(OSError):
        partial.chmod(0o600)
    partial.replace(copy)


def backup_take(
    trigger: str,
    *,
    source: Path | None = None,
    only_if_changed: bool = False,
    now: datetime | None = None,
) -> Backup | None:
    """Take a backup of `source` (the site's database) into BACKUP_DIR, keep the key's
    copy, and delete all but the newest BACKUP_KEEP. None when there is nothing to back
    up (not SQLite), or, with `only_if_changed`, nothing changed since this process's
    last backup. BackupError when it fails; nothing half-written is left behind."""
    if trigger not in TRIGGERS:
        raise ValueError(f"unknown trigger {trigger!r}")
    source = source or database_file()
    if source is None:
        return None
    if not source.is_file():
        raise BackupError(f"There is no database at {source} to back up.")
    directory = Path(settings.BACKUP_DIR)
    with _taking:
        fingerprint = _fingerprint(source)
        if only_if_changed and _last_fingerprint.get(source) == fingerprint:
            return None
        directory.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):  # a USB stick's FAT has no modes: still back up
            directory.chmod(0o700)  # password hashes and the key: the owner's eyes only
        path = _free_name(directory, now or datetime.now(UTC), trigger)
        handle, partial_name = tempfile.mkstemp(dir=directory, prefix=".", suffix=".partial")
        os.close(handle)
        partial = Path(partial_name)
        try:
            _copy(source, partial)
            _check(partial)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
        _last_fingerprint[source] = fingerprint
        _keep_key(directory)
        _prune(directory)
    logger.info("Backup taken: %s", path)
    return _backup_at(path)


def _copy(source: Path, target: Path) -> None:
    """The online backup: one step, so it is one consistent snapshot (stepping through
    pages would start again after every write, and might never finish during a busy
    round). Readers never block writers in WAL mode; in rollback-journal mode writers
    wait (busy timeout) for the few milliseconds the copy takes."""
    try:
        with (
            contextlib.closing(sqlite3.connect(source, timeout=30)) as src,
            contextlib.closing(sqlite3.connect(target)) as dst,
        ):
            src.backup(dst)
            # One self-contained file: not in WAL mode, so no -wal beside it is needed.
            dst.execute("PRAGMA journal_mode=DELETE")
            dst.commit()
    except sqlite3.Error as error:
        raise BackupError(f"The backup of {source} failed: {error}") from error
    with open(target, "rb") as written:
        os.fsync(written.fileno())


def _prune(directory: Path) -> None:
    """Keep the newest BACKUP_KEEP backups of each trigger: a stream of one kind (a night
    of timed ones, a "Back up now" pressed again and again by any organiser) never pushes
    out the backups taken as the last rounds opened."""
    seen: dict[str, int] = {}
    for backup in backups_list(directory):
        seen[backup.trigger] = seen.get(backup.trigger, 0) + 1
        if seen[backup.trigger] > settings.BACKUP_KEEP:
            backup.path.unlink(missing_ok=True)


@dataclass(frozen=True)
class BackupStatus:
    """What the Backups page shows."""

    enabled: bool  # the database is an SQLite file (else: the operator's pg_dump)
    backups: list[Backup]  # newest first
    interval: int
    keep: int
    key_kept: bool  # the key is in SECRET_KEY_FILE (copied beside the backups, zipped)

    @property
    def interval_minutes(self) -> int:
        return -(-self.interval // 60) if self.interval > 0 else 0

    @property
    def latest(self) -> Backup | None:
        return self.backups[0] if self.backups else None


def backups_status() -> BackupStatus:
    directory = Path(settings.BACKUP_DIR)
    return BackupStatus(
        enabled=database_file() is not None,
        backups=backups_list(directory),
        interval=settings.BACKUP_INTERVAL_SECONDS,
        keep=settings.BACKUP_KEEP,
        key_kept=Path(settings.SECRET_KEY_FILE).is_file(),
    )


# --- in the background ---------------------------------------------------------------


def run_in_background(job: Callable[[], object], name: str) -> None:
    """Run `job` after the response, never in the request. A short-lived daemon thread
    for now; the one place to switch to the in-process job queue when it lands."""
    thread = threading.Thread(target=_logged(job), name=name, daemon=True)
    _pending.add(thread)
    thread.start()


def _logged(job: Callable[[], object]) -> Callable[[], None]:
    def run() -> None:
        try:
            job()
        except Exception:  # a failed backup must be seen in the log, not kill anything
            logger.exception("Backup failed")
        finally:
            _pending.discard(threading.current_thread())

    return run


@contextlib.contextmanager
def backups_paused() -> Iterator[None]:
    """No backup on a round opened or a stage closed while inside: a command that opens
    many rounds at once (the demo seed) would otherwise take a backup for each."""
    global _paused
    _paused += 1
    try:
        yield
    finally:
        _paused -= 1


def backup_after_commit(trigger: str) -> None:
    """Back up in the background once the caller's transaction commits (a round opened,
    a stage closed). Nothing on PostgreSQL; nothing if the transaction rolls back."""
    if database_file() is None or _paused:
        return
    transaction.on_commit(lambda: run_in_background(lambda: backup_take(trigger), "backup"))


def backups_wait(timeout: float = 30) -> None:
    """Wait for the backups running in the background (tests, and a clean shutdown)."""
    for thread in list(_pending):
        thread.join(timeout)


def _hold_server_lock(directory: Path) -> bool:
    """Take the server lock for this process, unless another process holds it."""
    if directory in _server_locks:
        return True
    directory.mkdir(parents=True, exist_ok=True)
    # filelock: flock on Linux and Mac, msvcrt's lock on Windows (club laptops run all three).
    lock = FileLock(directory / LOCK_NAME, thread_local=False)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return False
    _server_locks[directory] = lock
    return True


def _release_server_lock(directory: Path) -> None:
    lock = _server_locks.pop(directory, None)
    if lock is not None:
        lock.release()


def server_running(directory: Path | None = None) -> bool:
    """Whether some process holds the server lock of `directory` (BACKUP_DIR)."""
    path = Path(directory or settings.BACKUP_DIR) / LOCK_NAME
    if not path.is_file():
        return False
    probe = FileLock(path, thread_local=False, is_singleton=False)
    try:
        probe.acquire(timeout=0)
    except Timeout:
        return True
    probe.release()
    return False


def start_backup_thread(interval: int | None = None) -> threading.Thread | None:
    """Start the timed backups in this server process: every `interval` seconds
    (BACKUP_INTERVAL_SECONDS) one backup, skipped when nothing changed. Called once per
    server process (config/wsgi.py); only the process that holds the server lock takes
    them, the others try again each interval (so one takes over if it stops). None on
    PostgreSQL or with an interval of 0."""
    interval = settings.BACKUP_INTERVAL_SECONDS if interval is None else interval
    if database_file() is None or interval <= 0:
        return None
    directory = Path(settings.BACKUP_DIR)
    stop = threading.Event()

    def loop() -> None:
        while True:
            if _hold_server_lock(directory):
                try:
                    backup_take("interval", only_if_changed=True)
                except Exception:
                    logger.exception("Timed backup failed")
            if stop.wait(interval):
                _release_server_lock(directory)
                return

    thread = threading.Thread(target=loop, name="backups", daemon=True)
    thread.stop = stop  # type: ignore[attr-defined]  # tests stop it
    thread.start()
    return thread


# --- the download ---------------------------------------------------------------------


def backup_archive(backup: Backup, into: IO[bytes]) -> None:
    """Write the zip a superuser downloads: the database and the key file, the two things
    a restore on another laptop needs (``restore_backup <zip>``)."""
    with zipfile.ZipFile(into, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.write(backup.path, ZIP_DATABASE)
        key = Path(settings.SECRET_KEY_FILE)
        if key.is_file():
            archive.write(key, ZIP_KEY)


# --- restoring ------------------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    database: Path
    key_file: Path | None  # where the key went; None: no key came with the backup
    moved_aside: list[Path]


def _has_data(path: Path) -> bool:
    """Whether the database at `path` holds anything worth keeping: a user account or a
    tournament (a freshly migrated one does not)."""
    if not path.is_file() or path.stat().st_size == 0:
        return False
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            for table in ("auth_user", "tournaments_tournament"):
                with contextlib.suppress(sqlite3.OperationalError):  # no such table
                    if db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone():
                        return True
    except sqlite3.DatabaseError:
        return True  # not a database we can read: not ours to overwrite quietly
    return False


def _in_use(path: Path) -> bool:
    """Whether another connection is writing (or holds a lock on) the database now."""
    if not path.is_file():
        return False
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=0.5)) as db:
            db.execute("BEGIN EXCLUSIVE")
            db.rollback()
    except sqlite3.OperationalError:
        return True
    return False


@contextlib.contextmanager
def _unpacked(archive: Path, key_file: Path | None) -> Iterator[tuple[Path, Path | None]]:
    """(database, key file) of a backup: a kept ``.sqlite3`` (its key: `key_file`, else
    the ``secret_key`` beside it) or a downloaded zip (the key inside, unless `key_file`)."""
    if not archive.is_file():
        raise BackupError(f"There is no file {archive}.")
    if not zipfile.is_zipfile(archive):
        beside = archive.parent / KEY_NAME
        yield archive, key_file or (beside if beside.is_file() else None)
        return
    with tempfile.TemporaryDirectory() as folder, zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
        if ZIP_DATABASE not in names:
            raise BackupError(f"{archive.name} holds no {ZIP_DATABASE}: not a Rummitab backup.")
        database = Path(zipped.extract(ZIP_DATABASE, folder))
        if key_file is None and ZIP_KEY in names:
            key_file = Path(zipped.extract(ZIP_KEY, folder))
        yield database, key_file


def _aside(path: Path, stamp: str, moved: list[Path]) -> None:
    if path.exists():
        target = path.with_name(f"{path.name}.replaced-{stamp}")
        path.replace(target)
        moved.append(target)


def backup_restore(
    archive: Path,
    *,
    key_file: Path | None = None,
    force: bool = False,
    target: Path | None = None,
    key_target: Path | None = None,
) -> Restored:
    """Make the backup `archive` the site's database (`target`, the configured SQLite
    file) and its key the site's key file (`key_target`, SECRET_KEY_FILE).

    Refused (BackupError) while a server runs, when the backup is not a whole database,
    and, without `force`, when the database there already holds accounts or
    tournaments. What is replaced is moved aside, not deleted."""
    target = target or database_file()
    if target is None:
        raise BackupError(
            "The site's database is not SQLite: restore a PostgreSQL dump with pg_restore."
        )
    key_target = Path(key_target or settings.SECRET_KEY_FILE)
    if server_running() or _in_use(target):
        raise BackupError(
            "The server seems to be running (it holds the database). Stop it, then restore."
        )
    if _has_data(target) and not force:
        raise BackupError(
            f"{target} already holds accounts or tournaments. Restore with --force to "
            "replace it (it is kept beside, renamed .replaced-<time>)."
        )
    with _unpacked(Path(archive), key_file) as (database, key):
        _check(database)
        if key is not None and not key.is_file():
            raise BackupError(f"There is no key file {key}.")
        stamp = datetime.now(UTC).strftime(STAMP)
        moved: list[Path] = []
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial")
        shutil.copyfile(database, partial)
        # A -wal left from the replaced database would be replayed into the restored one.
        for path in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
            _aside(path, stamp, moved)
        partial.replace(target)
        if key is not None:
            if not (key_target.is_file() and key_target.read_bytes() == key.read_bytes()):
                _aside(key_target, stamp, moved)
                key_target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(key, key_target)
            key_target.chmod(0o600)
    return Restored(target, key_target if key is not None else None, moved)
