"""Benchmarks: `python -m bench.<name>`, each printing its figures (docs/design/tests.md).

Every bench has a `--quick` mode (small sizes, no target judged) that the test suite runs
(tests/test_benches.py), so that none can rot unnoticed.

BENCH_DATABASE_READY=1 — the configured database (DATABASE_URL) is already migrated and
the bench's own (the test suite hands each bench a copy of one migrated SQLite file):
a bench that makes a throw-away test database (`create_test_db`) uses it as it is
instead, and leaves dropping it to whoever made it. Migrating costs some 10 s of CPU,
more than most quick runs themselves.
"""

from __future__ import annotations

import os

if os.environ.get("BENCH_DATABASE_READY") == "1":
    from django.db.backends.base.creation import BaseDatabaseCreation

    def _ready(self, *args, **kwargs):  # the database as configured, already migrated
        return self.connection.settings_dict["NAME"]

    def _kept(self, *args, **kwargs):  # not ours to drop
        return None

    BaseDatabaseCreation.create_test_db = _ready  # type: ignore[method-assign]
    BaseDatabaseCreation.destroy_test_db = _kept  # type: ignore[method-assign]
