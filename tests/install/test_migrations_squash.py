"""The squashed migrations (tournaments 0001_squashed_0016, games 0001_squashed_0005).

Terms: the *old chain* is the migrations the squash `replaces` (kept on disk); the *old
leaf* is the last of them in each app. A database at the old leaf is one that ran the old
chain before the squash existed. The checks run `manage.py` in a subprocess on SQLite files
of their own (the site's default database), so the test database is never touched.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import migrations
from django.db.migrations.loader import MigrationLoader

# One xdist worker runs this module's tests (the module's migrated databases are made once).
pytestmark = pytest.mark.xdist_group("migrations_squash")

ROOT = Path(__file__).resolve().parents[2]
OLD_LEAVES = [
    ("tournaments", "0016_stage_division_restrict"),
    ("games", "0005_forfeit_absence_substitute"),
]
SQUASHES = [
    ("tournaments", "0001_squashed_0016_stage_division_restrict"),
    ("games", "0001_squashed_0005_forfeit_absence_substitute"),
]

# Migrates a database along the old chain only (the loader without replacements), and
# records no squash, as a database migrated before the squash existed.
MIGRATE_OLD_CHAIN = """
import django
django.setup()
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
executor = MigrationExecutor(connection)
executor.loader = MigrationLoader(connection, replace_migrations=False)
executor.check_replacements = lambda: None
ours = {"tournaments", "games"}
targets = %r + [key for key in executor.loader.graph.leaf_nodes() if key[0] not in ours]
executor.migrate(targets)
"""


def _manage(db: Path, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _schema(db: Path) -> dict[str, tuple]:
    """Each table's columns, indexes, foreign keys and named CHECK constraints, as sets
    (the order of columns differs between the two paths and does not matter)."""
    con = sqlite3.connect(db)
    try:
        tables = [
            row[0]
            for row in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' "
                "AND name NOT LIKE 'sqlite_%' AND name != 'django_migrations'"
            )
        ]
        out = {}
        for table in tables:
            columns = frozenset(tuple(r[1:]) for r in con.execute(f'PRAGMA table_info("{table}")'))
            indexes = set()
            for row in con.execute(f'PRAGMA index_list("{table}")'):
                name, unique, partial = row[1], row[2], row[4]
                cols = tuple(c[2] for c in con.execute(f'PRAGMA index_info("{name}")'))
                sql = con.execute("SELECT sql FROM sqlite_master WHERE name=?", (name,)).fetchone()
                indexes.add((unique, cols, partial, sql[0] if sql else None))
            fks = frozenset(
                tuple(r[2:]) for r in con.execute(f'PRAGMA foreign_key_list("{table}")')
            )
            create = con.execute("SELECT sql FROM sqlite_master WHERE name=?", (table,)).fetchone()
            checks = frozenset(
                part.strip().rstrip(")").strip()
                for part in create[0].split(", CONSTRAINT ")
                if re.match(r'"\w+" CHECK', part)
            )
            out[table] = (columns, frozenset(indexes), fks, checks)
        return out
    finally:
        con.close()


@pytest.fixture(scope="module")
def old_leaf_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("old") / "old.sqlite3"
    _manage(db, "-c", MIGRATE_OLD_CHAIN % (OLD_LEAVES,))
    return db


@pytest.fixture(scope="module")
def new_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("new") / "new.sqlite3"
    out = _manage(db, "manage.py", "migrate", "--no-input")
    # A new database runs the squashes, none of the old chain.
    assert "Applying tournaments.0001_squashed_0016_stage_division_restrict... OK" in out
    assert "Applying games.0001_squashed_0005_forfeit_absence_substitute... OK" in out
    assert "0002_seating_plan" not in out
    assert "0004_timer_idempotency_extensions" not in out
    return db


def test_a_new_database_runs_the_squashes_only(new_db):
    con = sqlite3.connect(new_db)
    applied = set(con.execute("SELECT app, name FROM django_migrations").fetchall())
    con.close()
    # Django records the squash and, as applied with it, each migration it replaces.
    assert set(SQUASHES) <= applied
    assert ("tournaments", "0016_stage_division_restrict") in applied


def test_a_database_at_the_old_leaf_upgrades_to_the_schema_of_a_new_one(old_leaf_db, new_db):
    """Nothing of the old chain or the squash runs again; migrations written after the
    squash (on the old leaf or on it) do; the schema is then the new database's."""
    con = sqlite3.connect(old_leaf_db)
    before = con.execute("SELECT app, name FROM django_migrations").fetchall()
    con.close()
    assert ("tournaments", "0016_stage_division_restrict") in before
    assert not any("squashed" in name for _, name in before)

    out = _manage(old_leaf_db, "manage.py", "migrate", "--no-input")

    ran = re.findall(r"Applying (\w+)\.(\w+)\.\.\.", out)
    for app, name in ran:
        assert "squashed" not in name, name
        assert (app, name) not in before, name
    con = sqlite3.connect(old_leaf_db)
    after = set(con.execute("SELECT app, name FROM django_migrations").fetchall())
    con.close()
    assert set(SQUASHES) <= after  # recorded as applied, so later ones follow them

    old, new = _schema(old_leaf_db), _schema(new_db)
    assert "tournaments_webhookdelivery" in new
    assert sum(len(parts[3]) for parts in new.values()) > 40  # the CHECKs were compared
    assert sorted(old) == sorted(new)
    for table in old:
        assert old[table] == new[table], table


class _LoaderWithNewMigrations(MigrationLoader):
    """The migrations on disk plus two written after the squash, as another branch
    writes them: depending on the old leaves by name."""

    def load_disk(self):
        super().load_disk()
        later = migrations.Migration("0017_later", "tournaments")
        later.dependencies = [("tournaments", "0016_stage_division_restrict")]
        games_later = migrations.Migration("0006_later", "games")
        games_later.dependencies = [
            ("games", "0005_forfeit_absence_substitute"),
            ("tournaments", "0017_later"),
        ]
        self.disk_migrations[("tournaments", "0017_later")] = later
        self.disk_migrations[("games", "0006_later")] = games_later


def test_a_migration_on_the_old_leaf_follows_the_squash():
    loader = _LoaderWithNewMigrations(None, ignore_no_migrations=True)

    plan = loader.graph.forwards_plan(("games", "0006_later"))

    assert ("tournaments", "0016_stage_division_restrict") not in loader.graph.nodes
    assert plan.index(SQUASHES[0]) < plan.index(("tournaments", "0017_later"))
    assert plan.index(SQUASHES[1]) < plan.index(("games", "0006_later"))
    assert set(loader.graph.leaf_nodes()) >= {
        ("tournaments", "0017_later"),
        ("games", "0006_later"),
    }
