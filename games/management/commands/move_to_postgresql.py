"""`manage.py move_to_postgresql --to postgres://user@host/db [--from club.sqlite3]`: copy
the whole club database (accounts, clubs, members, seasons, tournaments with every result
version and its history, ratings, ...) from SQLite into an empty PostgreSQL database, then
check the copy. Exits non-zero, having said why, when the target is not PostgreSQL or not
empty, when the source is not migrated, or when the copy differs from the source.

Steps (`games.services.moving` says how and why):
1. the target: PostgreSQL, reachable, no rows in any of the project's tables; migrated here
   when it is not (a database just made with `createdb` is what it expects);
2. the copy: every table, ids kept, in one transaction, the sequences reset after it;
3. the check: two child processes, side by side, one with the source and one with the
   target as their database (the project's services read the default database, as the
   site does), each print a fingerprint of theirs: every table's row count and a digest
   of its values, and the standings — each tournament's stored snapshot and a fresh
   recompute, each stage, each season, each club's ratings — computed by the project's
   own services, whatever a recompute stored undone. The two must be equal.

`--check-only` runs step 3 alone against a target moved before. `--fingerprint` is the
child processes' part: it prints the fingerprint of the configured database as JSON.
Stop the site (and its workers) before moving: a result entered during the move would be
in one database and not the other (the check would say so).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from games.services.moving import (
    DEFAULT_BATCH,
    Copied,
    MoveError,
    copy_all,
    database_add,
    database_label,
    fingerprint,
    fingerprints_compare,
    same_database,
    source_check,
    tables_compare,
    target_check,
    target_prepare,
    untracked_tables,
)

SOURCE, TARGET = "move_source", "move_target"
KINDS = (
    ("tournaments", "tournaments"),
    ("stages", "stages"),
    ("seasons", "season tables"),
    ("ratings", "clubs' ratings"),
)


class Command(BaseCommand):
    help = "Copy the whole database from SQLite into an empty PostgreSQL database, and check it."

    def add_arguments(self, parser):
        parser.add_argument("--to", dest="target", help="the target: postgres://user@host/name")
        parser.add_argument(
            "--from",
            dest="source",
            help="a SQLite file to move (default: the configured database)",
        )
        parser.add_argument(
            "--batch-size",
            type=int,
            default=DEFAULT_BATCH,
            help=f"rows read from the source at a time (default {DEFAULT_BATCH})",
        )
        parser.add_argument(
            "--check-only", action="store_true", help="only compare a copy made before"
        )
        parser.add_argument(
            "--fingerprint",
            action="store_true",
            help="print the configured database's fingerprint as JSON (the check's part)",
        )

    def handle(self, *args, target=None, source=None, batch_size=DEFAULT_BATCH, **options):
        if options["fingerprint"]:
            self.stdout.write(json.dumps(fingerprint()))
            return
        if not target:
            raise CommandError("Name the target: --to postgres://user@host/name")
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1.")
        try:
            self.move(target, source, batch_size, options["check_only"])
        except MoveError as error:
            raise CommandError(str(error)) from None

    def move(self, url: str, path: str | None, size: int, check_only: bool) -> None:
        started = time.perf_counter()
        database_add(TARGET, url)
        source, source_url = self.source(path)
        if same_database(source, TARGET):
            raise MoveError("The source and the target are the same database.")
        target_check(TARGET)
        source_check(source)
        self.stdout.write(f"From {database_label(source)}\nTo   {database_label(TARGET)}")
        for table in untracked_tables(source):
            self.stdout.write(f"  not copied: table {table} belongs to no installed app")
        if not check_only:
            step = time.perf_counter()
            target_prepare(TARGET)
            self.stdout.write(
                f"Target ready (migrated, empty) in {time.perf_counter() - step:.2f} s"
            )
            copied = copy_all(source, TARGET, size, self.progress)
            rows = sum(c.rows for c in copied)
            seconds = sum(c.seconds for c in copied)
            empty = sum(1 for c in copied if not c.rows)
            self.stdout.write(
                f"Copied {rows:,} rows of {len(copied)} tables ({empty} empty) in "
                f"{seconds:.2f} s ({rows / max(seconds, 1e-6):,.0f} rows/s), "
                "sequences reset, committed."
            )
        self.check_copy(source_url, url)
        self.stdout.write(
            self.style.SUCCESS(
                f"The copy is equal to the source. {time.perf_counter() - started:.1f} s in all."
            )
        )

    def source(self, path: str | None) -> tuple[str, str | None]:
        """The source alias, and the DATABASE_URL that names it for a child process (None:
        the configured database, which a child process reads by itself)."""
        if path is None:
            return DEFAULT_DB_ALIAS, None
        file = Path(path).resolve()
        # SQLite would create an empty database for a name that is not there.
        if not file.is_file():
            raise MoveError(f"No SQLite database at {file}.")
        url = f"sqlite:///{file}"
        database_add(SOURCE, url)
        return SOURCE, url

    def progress(self, copied: Copied) -> None:
        if copied.rows:
            self.stdout.write(
                f"  {copied.table:<40} {copied.rows:>10,} rows {copied.seconds:8.2f} s"
            )

    def check_copy(self, source_url: str | None, target_url: str) -> None:
        step = time.perf_counter()
        # Side by side: each child reads and recomputes its own database.
        children = [self.fingerprint(source_url), self.fingerprint(target_url)]
        source_print, target_print = (self.collect(child) for child in children)
        checks = tables_compare(source_print["tables"], target_print["tables"])
        different = [c for c in checks if not c.equal]
        for check in different:
            what = (
                f"{check.source_rows:,} rows in the source, {check.target_rows:,} in the copy"
                if check.source_rows != check.target_rows
                else f"{check.source_rows:,} rows, but their values differ"
            )
            self.stdout.write(self.style.ERROR(f"  {check.table}: {what}"))
        rows = sum(c.source_rows for c in checks)
        self.stdout.write(
            f"Tables: {len(checks) - len(different)} of {len(checks)} equal "
            f"({rows:,} rows, counts and values)"
        )
        compared, equal, differences = fingerprints_compare(source_print, target_print)
        for line in differences:
            self.stdout.write(self.style.ERROR(f"  {line}"))
        counts = ", ".join(f"{len(source_print[kind])} {label}" for kind, label in KINDS)
        self.stdout.write(
            f"Standings: {equal} of {compared} equal ({counts}; stored and recomputed)"
        )
        self.stdout.write(f"Checked in {time.perf_counter() - step:.2f} s")
        if different or differences:
            raise MoveError(
                f"The copy differs from the source: {len(different)} tables and "
                f"{len(differences)} standings (listed above)."
            )

    def fingerprint(self, database_url: str | None) -> subprocess.Popen:
        """A child process that prints the fingerprint of the database at `database_url`
        (None: the configured one) as JSON."""
        env = dict(os.environ)
        if database_url is not None:
            env["DATABASE_URL"] = database_url
        # The child computes and undoes; it must not count page generations or queue jobs
        # on the site's Redis.
        env.update(REDIS_URL="", CELERY_BROKER_URL="", CACHE_URL="")
        manage = Path(settings.BASE_DIR) / "manage.py"
        return subprocess.Popen(
            [sys.executable, str(manage), "move_to_postgresql", "--fingerprint", "--skip-checks"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def collect(self, child: subprocess.Popen) -> dict:
        out, err = child.communicate()
        if child.returncode != 0:
            raise MoveError(f"Computing the standings failed:\n{err.strip()}")
        # The last line: anything a library prints at start-up comes before.
        return json.loads(out.strip().splitlines()[-1])
