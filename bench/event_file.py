"""Benchmark: exporting a tournament as an event file and importing it back.

    DATABASE_URL=sqlite:///:memory: python -m bench.event_file
    python -m bench.event_file --players 200 --rounds 7
    python -m bench.event_file --quick        # 16 x 2: that it runs, not how fast

Builds a tournament (tables of 4, one game per seat, every game confirmed; the builder of
`bench.standings`) in a throw-away test database, then prints the milliseconds of one
export (including its standings recompute), the file's size, the milliseconds of one
import (schema validation, reference checks and the bulk inserts), the milliseconds the
validation alone takes (run once more on its own), and the ratio import / export. It
checks that the copy's standings are the original's, row for row. Target at 200 x 7
(some 1,400 results, 5,600 racks) on a quiet machine: export under 1 s, import under 3 s
(the schema is checked by jsonschema-rs, compiled once); the file some 1.5 MiB, under
`EVENT_FILE_REQUEST_BYTES` (4 MiB: larger files are imported by a background job) and
the `EVENT_FILE_MAX_BYTES` import limit (16 MiB).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from bench.standings import build  # noqa: E402
from games.services.event_file.check import event_file_problems  # noqa: E402
from games.services.event_file.export import event_file_export  # noqa: E402
from games.services.event_file.load import event_file_import  # noqa: E402
from games.services.standings import standings_recompute  # noqa: E402
from tournaments import jobs  # noqa: E402


def rows_of(tournament_id: int) -> list[tuple]:
    snapshot = standings_recompute(tournament_id=tournament_id)
    return [(r["rank"], r["player"]["number"], r["metrics"]) for r in snapshot.rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="16 players x 2 rounds")
    args = parser.parse_args()
    if args.quick:
        args.players, args.rounds = 16, 2
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    try:
        original = build(args.players, args.rounds)
        importer = get_user_model().objects.create_user("importer", password="x-pass-123")

        started = time.perf_counter()
        text = json.dumps(event_file_export(original))
        export_ms = (time.perf_counter() - started) * 1000

        document = json.loads(text)
        started = time.perf_counter()
        problems = event_file_problems(document)
        check_ms = (time.perf_counter() - started) * 1000
        assert problems == [], problems[:3]
        started = time.perf_counter()
        copy = event_file_import(by=importer, document=document, slug="bench-copy")
        import_ms = (time.perf_counter() - started) * 1000

        same = rows_of(copy.pk) == rows_of(original.pk)
        print(f"{args.players} players x {args.rounds} rounds, file {len(text) / 2**20:.1f} MiB")
        print(
            f"export {export_ms:,.0f} ms; import {import_ms:,.0f} ms "
            f"(validation alone {check_ms:,.0f} ms); import/export {import_ms / export_ms:.2f}"
        )
        print(f"same standings after the round trip: {same}")
        # The import's recompute runs on the job thread, possibly a moment later (a
        # recompute is put off while another is running): done before the drop.
        jobs.wait_idle(60, within=60)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
