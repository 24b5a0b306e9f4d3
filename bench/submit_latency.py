"""Benchmark: result submission latency on the club server, SQLite next to PostgreSQL.

    python -m bench.submit_latency            # 10 scorekeepers, 20 s per database
    python -m bench.submit_latency --quick    # 3 s per database (the test suite runs it)

Starts the club server of `make lan` (`python -m config.lan`: waitress, DEBUG off, jobs
in-process) on a loopback port, once over a fresh SQLite file and once over PostgreSQL,
each seeded alike: a tournament of 10 tables in a running round, one scorekeeper per table
with an API token (tests/config/club_server.py). Then the scorekeepers submit a
correction of their game at the same instant, again and again, for the given time: the
load of the 10-scorekeeper test. Prints per database the submissions, the failures,
submissions per second, p50 and p99 latency, and the ratios of SQLite against
PostgreSQL measured in the same run (the baseline). A failure is any answer but 201.

PostgreSQL: `--postgres URL` (default postgres://postgres@127.0.0.1:5432/
rummitab_bench_submit, made if missing, emptied before seeding). Without a PostgreSQL
that answers, only SQLite is measured. Both databases are migrated once and then kept
(the SQLite template in `--work`, default <temp>/rummitab-bench-submit), so a second
run does not migrate again.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

import psycopg

from tests.config.club_server import (
    ClubServer,
    Submission,
    environment,
    load_seed,
    manage,
    scorekeepers_at_once,
)

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/rummitab_bench_submit"
WORK = Path(tempfile.gettempdir()) / "rummitab-bench-submit"  # --work


def _postgres(url: str) -> bool:
    """Whether PostgreSQL answers at `url`, creating the database if only it is missing."""
    base, _, name = url.rpartition("/")
    try:
        psycopg.connect(url, connect_timeout=2).close()
        return True
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error):
            return False
    try:
        with psycopg.connect(base + "/postgres", autocommit=True, connect_timeout=2) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return True
    except psycopg.Error:
        return False


def prepare(database_url: str, folder: Path, static_root: Path) -> None:
    """Migrate (a no-op once done), empty, seed — in one process, as Django starts slowly
    on a busy machine; the seed's answers land in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    env = environment(database_url, static_root, DATA_DIR=str(folder))
    script = (
        "from django.core.management import call_command; "
        "from tests.config.club_seed import seed; "
        "call_command('migrate', verbosity=0); "
        "call_command('flush', interactive=False, verbosity=0); "
        f"seed({str(folder)!r})"
    )
    manage(env, "shell", "-c", script)


def sqlite_club(work: Path, static_root: Path) -> tuple[str, Path]:
    """A fresh SQLite club folder, its file copied from a template kept between runs (a
    new SQLite file takes tens of seconds to migrate)."""
    folder = work / "sqlite"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    template = work / "template.sqlite3"
    if template.exists():
        shutil.copyfile(template, folder / "db.sqlite3")
    url = f"sqlite:///{folder / 'db.sqlite3'}"
    prepare(url, folder, static_root)
    if not template.exists():
        shutil.copyfile(folder / "db.sqlite3", template)
    return url, folder


def measure(
    name: str, database_url: str, folder: Path, static_root: Path, seconds: float
) -> list[Submission]:
    # Off SQLite the server wants its key from the environment (config/settings.py): the
    # one the seed made in the folder.
    key = {} if database_url.startswith("sqlite") else {"SECRET_KEY": secret(folder)}
    with ClubServer(folder, static_root, database_url, **key) as server:
        tables = load_seed(folder)["tables"]
        warm = scorekeepers_at_once(server.base, tables, min(2.0, seconds))
        print(f"  {name}: {len(tables)} scorekeepers for {seconds:.0f} s ...", flush=True)
        return scorekeepers_at_once(server.base, tables, seconds, after=warm)


def secret(folder: Path) -> str:
    return (folder / "secret_key").read_text().strip()


def figures(outcomes: list[Submission], seconds: float) -> dict[str, float]:
    latencies = sorted(o.seconds * 1000 for o in outcomes)
    return {
        "submissions": len(outcomes),
        "failed": sum(o.status != 201 for o in outcomes),
        "per_s": len(outcomes) / seconds,
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
    }


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--quick", action="store_true", help="3 s per database")
    parser.add_argument("--postgres", default=DEFAULT_PG)
    parser.add_argument("--work", type=Path, default=WORK, help="folder for the files")
    args = parser.parse_args(argv)
    seconds = 3.0 if args.quick else args.seconds
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    static_root = work / "static"

    runs: dict[str, dict[str, float]] = {}
    if _postgres(args.postgres):
        folder = work / "postgres"
        shutil.rmtree(folder, ignore_errors=True)
        prepare(args.postgres, folder, static_root)
        outcomes = measure("PostgreSQL", args.postgres, folder, static_root, seconds)
        runs["PostgreSQL"] = figures(outcomes, seconds)
    else:
        print(f"  PostgreSQL does not answer at {args.postgres}: SQLite only")
    url, folder = sqlite_club(work, static_root)
    runs["SQLite"] = figures(measure("SQLite", url, folder, static_root, seconds), seconds)

    base = runs.get("PostgreSQL")
    print(
        f"club server (waitress, 8 threads), 10 scorekeepers submitting at once, "
        f"{seconds:.0f} s per database"
    )
    header = f"  {'':<11} {'entries':>8} {'failed':>7} {'per s':>7} {'p50 ms':>8} {'p99 ms':>8}"
    print(header + ("  p50, p99 of PostgreSQL" if base else ""))
    for name, row in runs.items():
        line = (
            f"  {name:<11} {row['submissions']:8.0f} {row['failed']:7.0f} {row['per_s']:7.1f} "
            f"{row['p50']:8.0f} {row['p99']:8.0f}"
        )
        if base:
            line += f"  {row['p50'] / base['p50']:5.0%}, {row['p99'] / base['p99']:5.0%}"
        print(line)
    return runs


if __name__ == "__main__":
    main()
