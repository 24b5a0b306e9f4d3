"""Benchmark: what an online SQLite backup costs while scorekeepers write.

    python -m bench.backup [--mb 20 100]
    python -m bench.backup --quick        # 1 MB, what the test suite runs

For each size, builds a throw-away WAL-mode SQLite database of about that many MB in a
temporary folder, starts a writer that commits one small transaction after another (a
scorekeeper saving a result, as fast as it can), and takes three backups with
`tournaments.backups.backup_take` (online copy, integrity check, rename). Prints the
seconds per backup (median of three) and the writer's commits: its slowest one during
the backups, and how many it made meanwhile. Target: a club database (a few MB to a few
tens of MB) backs up in well under a second and no save waits noticeably for it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.conf import settings  # noqa: E402

from tournaments.backups import backup_take  # noqa: E402

ROW = "x" * 900  # about one page per row


def build(path: Path, mb: int) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE entry (id INTEGER PRIMARY KEY, body TEXT)")
        rows = mb * 1024 * 1024 // 1000
        db.executemany("INSERT INTO entry (body) VALUES (?)", ((ROW,) for _ in range(rows)))
        db.commit()


def measure(mb: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "db.sqlite3"
        settings.BACKUP_DIR = Path(folder) / "backups"
        build(source, mb)
        stop = threading.Event()
        waits: list[float] = []

        def write() -> None:
            with contextlib.closing(sqlite3.connect(source, timeout=20)) as db:
                while not stop.is_set():
                    started = time.perf_counter()
                    db.execute("INSERT INTO entry (body) VALUES ('result')")
                    db.commit()
                    waits.append(time.perf_counter() - started)

        writer = threading.Thread(target=write)
        writer.start()
        seconds = []
        try:
            for _ in range(3):
                started = time.perf_counter()
                backup_take("manual", source=source)
                seconds.append(time.perf_counter() - started)
        finally:
            stop.set()
            writer.join()
        size = source.stat().st_size / 1e6
        print(
            f"{size:6.1f} MB: backup {statistics.median(seconds):.2f} s (median of 3); "
            f"writer: {len(waits)} commits meanwhile, slowest {max(waits) * 1000:.0f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--quick", action="store_true", help="1 MB (CI)")
    args = parser.parse_args()
    for mb in [1] if args.quick else args.mb:
        measure(mb)


if __name__ == "__main__":
    main()
