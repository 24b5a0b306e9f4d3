"""Benchmark: one CSV import of players against a raw insert of the same rows.

    python -m bench.players_import --rows 5000
    python -m bench.players_import --rows 20000 --repeats 1
    python -m bench.players_import --quick     # 50 rows, once: the test suite runs it

Imports a `name,club,rating` CSV of `--rows` rows into a fresh tournament of the
configured database — use PostgreSQL: `DATABASE_URL=postgres://postgres@127.0.0.1:5432/
rummitab` — with `players_import_csv` (validation, numbering under the tournament row lock,
history rows), and inserts the same rows raw (`executemany`, and `COPY` on PostgreSQL: no
validation, no history). Prints the median and minimum of each, their ratio and the number
of SQL queries of one import; beside each, the CPU time of this process (the rest is the
database, and waiting for a busy machine). The import's row limit (`CSV_IMPORT_MAX_ROWS`)
is lifted to `--rows` for the run. Target at 5,000 rows: the import under 2 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.rules import PRESETS  # noqa: E402
from tournaments.models import Player, Tournament  # noqa: E402
from tournaments.services.players import players_import_csv  # noqa: E402

SLUG = "bench-import"
FIRST = ("Ada", "Bruno", "Chloé", "Dawid", "Eitan", "Fatima", "Gösta", "Hana", "Iñigo", "Jun")
LAST = ("Peretz", "Nowak", "Lefèvre", "Øster", "Sánchez", "Kowalski", "Müller", "Rossi")
CLUBS = ("Haifa RC", "Kraków Tiles", "Lyon Rummi", "", "Malmö 14")


def sample_rows(count: int, seed: int = 1) -> list[tuple[str, str, int | None]]:
    rng = random.Random(seed)
    return [
        (
            f"{rng.choice(FIRST)} {rng.choice(LAST)} {n}",
            rng.choice(CLUBS),
            rng.choice((None, rng.randint(800, 2400))),
        )
        for n in range(1, count + 1)
    ]


def as_csv(rows: list[tuple[str, str, int | None]]) -> bytes:
    lines = ["name,club,rating"]
    lines += [f"{name},{club},{'' if rating is None else rating}" for name, club, rating in rows]
    return ("\n".join(lines) + "\n").encode()


def drop() -> None:
    """Remove the benchmark's tournaments and the history rows of their players."""
    ids = list(Tournament.objects.filter(slug__startswith=SLUG).values_list("pk", flat=True))
    Player.history.filter(tournament_id__in=ids).delete()
    Tournament.objects.filter(pk__in=ids).delete()


def fresh_tournament(run: int) -> Tournament:
    return Tournament.objects.create(
        slug=f"{SLUG}-{run}",
        name=f"{SLUG} {run}",
        rules=PRESETS["standard"].as_dict(),
        ranking=["games_won", "score"],
    )


def raw_executemany(tournament: Tournament, rows: list[tuple[str, str, int | None]]) -> None:
    now = timezone.now()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO tournaments_player "
            "(tournament_id, number, name, club, rating, status, already_qualified, "
            "registered_at) VALUES (%s, %s, %s, %s, %s, 'active', false, %s)",
            [(tournament.pk, n, *row, now) for n, row in enumerate(rows, start=1)],
        )


def raw_copy(tournament: Tournament, rows: list[tuple[str, str, int | None]]) -> None:
    now = timezone.now()
    with (
        transaction.atomic(),
        connection.cursor() as cursor,
        cursor.cursor.copy(
            "COPY tournaments_player "
            "(tournament_id, number, name, club, rating, status, already_qualified, "
            "registered_at) FROM STDIN"
        ) as copy,
    ):
        for n, row in enumerate(rows, start=1):
            copy.write_row((tournament.pk, n, *row, "active", False, now))


# This process's CPU milliseconds of the last `timed` runs: the part of the wall time
# that is Python (parsing, checking, building the rows), not waiting for the database.
CPU: list[float] = []


def timed(fn, repeats: int) -> list[float]:
    """Wall milliseconds of `repeats` runs, each into a fresh tournament."""
    runs = []
    CPU.clear()
    for run in range(repeats):
        tournament = fresh_tournament(run)
        started, cpu = time.perf_counter(), time.process_time()
        fn(tournament)
        runs.append((time.perf_counter() - started) * 1000)
        CPU.append((time.process_time() - cpu) * 1000)
        drop()
    return runs


def line(label: str, runs: list[float]) -> None:
    print(
        f"{label:<28} median {statistics.median(runs):9.1f} ms  (min {min(runs):.1f}; "
        f"CPU of this process {statistics.median(CPU):.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="50 rows, once (CI)")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.repeats = 50, 1
    settings.CSV_IMPORT_MAX_ROWS = max(args.rows, getattr(settings, "CSV_IMPORT_MAX_ROWS", 0))

    drop()
    user, _ = get_user_model().objects.get_or_create(
        username="bench", defaults={"is_superuser": True}
    )
    if not user.is_superuser:
        user.is_superuser = True
        user.save()
    rows = sample_rows(args.rows)
    data = as_csv(rows)
    print(f"database: {connection.vendor}; {args.rows} rows, {len(data) / 1024:.0f} KiB of CSV")

    def imported(tournament: Tournament) -> None:
        players_import_csv(tournament=tournament, by=user, data=data)

    baselines = {"raw executemany": lambda t: raw_executemany(t, rows)}
    if connection.vendor == "postgresql":
        baselines["raw COPY"] = lambda t: raw_copy(t, rows)
    baseline_runs = {}
    for label, fn in baselines.items():
        timed(fn, 1)  # warm
        baseline_runs[label] = timed(fn, args.repeats)
        line(label, baseline_runs[label])
    import_runs = timed(imported, args.repeats)
    line("players_import_csv", import_runs)
    for label, runs in baseline_runs.items():
        ratio = statistics.median(import_runs) / statistics.median(runs)
        print(
            f"  ratio import / {label}: {ratio:.1f}"
            f"  (of the minimums: {min(import_runs) / min(runs):.1f})"
        )
    # Counted by a wrapper, not the query log: that log keeps only the last 9,000.
    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    tournament = fresh_tournament(0)
    with connection.execute_wrapper(count):
        imported(tournament)
    print(f"  queries per import: {len(queries)}")
    history = Player.history.filter(tournament_id=tournament.pk, history_user=user).count()
    print(f"  history rows written with the user: {history} of {args.rows}")
    drop()


if __name__ == "__main__":
    main()
