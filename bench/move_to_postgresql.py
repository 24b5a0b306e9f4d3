"""Benchmark: moving a large club or federation database from SQLite to PostgreSQL.

    python -m bench.move_to_postgresql
    python -m bench.move_to_postgresql --quick   # 8 players, no demo: the test suite runs it
    python -m bench.move_to_postgresql --players 1000 --rounds 10 \\
        --server postgres://postgres@127.0.0.1:5432

In a temporary folder: migrates a new SQLite database, seeds the demo (`seed_demo`) and
adds one large tournament (the builder of `bench.standings`: tables of 4, one game per
seat, every game confirmed; 1,000 x 10 is 10,000 results and 40,000 racks), then makes a
new PostgreSQL database on the server (`rummitab_move_bench`, dropped afterwards) and runs
`manage.py move_to_postgresql` into it, printing the command's own figures (rows per
table and seconds, the copy's rows per second, the check's seconds) and the wall time of
each step. Every step is a child process, as a club would run them.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dj_database_url
import psycopg

ROOT = Path(__file__).resolve().parent.parent
BUILD = "from bench.standings import build; build({players}, {rounds})"


def step(label: str, args: list[str], database_url: str, show: bool = False) -> float:
    env = dict(os.environ, DATABASE_URL=database_url, REDIS_URL="", CELERY_BROKER_URL="")
    env["CACHE_URL"] = ""
    started = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if show or done.returncode:
        print(done.stdout, end="")
    if done.returncode:
        print(done.stderr, file=sys.stderr)
        raise SystemExit(f"{label} failed")
    print(f"{label}: {seconds:.1f} s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--name", default="rummitab_move_bench")
    parser.add_argument("--quick", action="store_true", help="8 players x 1 round, no demo (CI)")
    args = parser.parse_args()
    if args.quick:
        args.players, args.rounds = 8, 1

    manage = [sys.executable, str(ROOT / "manage.py")]
    server = dj_database_url.parse(f"{args.server.rstrip('/')}/postgres")
    admin = {
        "host": server["HOST"] or None,
        "port": server["PORT"] or None,
        "user": server["USER"] or None,
        "password": server["PASSWORD"] or None,
        "dbname": "postgres",
        "autocommit": True,
    }
    target = f"{args.server.rstrip('/')}/{args.name}"
    with tempfile.TemporaryDirectory() as folder:
        source = f"sqlite:///{Path(folder) / 'club.sqlite3'}"
        ready = os.environ.get("DATABASE_URL", "")
        if os.environ.get("BENCH_DATABASE_READY") == "1" and ready.startswith("sqlite:///"):
            # A migrated copy handed over (bench/__init__.py): no need to migrate again.
            shutil.copyfile(ready.removeprefix("sqlite:///"), Path(folder) / "club.sqlite3")
        else:
            step("migrate (SQLite)", [*manage, "migrate", "--no-input"], source)
        if not args.quick:
            step("seed_demo", [*manage, "seed_demo"], source)
        build = BUILD.format(players=args.players, rounds=args.rounds)
        step(
            f"a tournament of {args.players} players x {args.rounds} rounds",
            [sys.executable, "-c", build],
            source,
        )
        with psycopg.connect(**admin) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{args.name}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{args.name}"')
        try:
            step(
                "move_to_postgresql", [*manage, "move_to_postgresql", "--to", target], source, True
            )
        finally:
            with psycopg.connect(**admin) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{args.name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
