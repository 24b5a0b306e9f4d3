"""Moving a club from the laptop's SQLite to PostgreSQL (`manage.py move_to_postgresql`).

End to end on the seeded demo, as a club would do it: the source is a SQLite file
migrated and seeded (`seed_demo`) in a child process, then changed as the club changes it
(corrections of a result through the services and through the API with a token signed
in for, a sign-in to the pages, a failed sign-in that django-axes records); the target is
a PostgreSQL database the test makes and drops, on the server of the `postgres` fixture
(so it fails rather than skips in CI). The command runs in a child process with the
SQLite file as its configured database. Neither database is the test database.

What is checked beyond the command's own check: every table's row count read back with
plain SQLite and psycopg; every stored standings snapshot, the result versions of the
corrected game, password hashes and the stamps `auto_now` would have rewritten; then that
the site works on the copy (a new account, club, member and result version get new ids
past the copied ones), that the check sees a difference, and that a move is refused
into the now used target, and stopped, leaving nothing behind, by a value PostgreSQL
refuses.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]

# The club's own changes after the demo was seeded: two corrections of one game of the
# running league (one through the services, one through the API with a token), a sign-in
# to the pages (a session) and a failed one (django-axes' record). Prints what it did.
CHANGES = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import reverse
from games.models import Result
from games.services.results import result_submit

setup_test_environment()
keeper = get_user_model().objects.get(username="demo-scorekeeper")
keeper.set_password("keeper-pass-123")
keeper.save()
league = "demo-winter-league"
first = Result.objects.filter(
    status="confirmed", game__table__round__tournament__slug=league
).order_by("pk").first()
def racks(result, extra):
    shown = []
    for rack in result.racks.order_by("player_id"):
        if rack.winner:
            shown.append({"player": rack.player_id, "tiles": ""})
        else:
            shown.append({"player": rack.player_id, "points": rack.points + extra,
                          "tile_count": rack.tile_count + 1, "jokers": rack.jokers})
    return shown
winner = first.racks.get(winner=True).player_id
result_submit(game=first.game_id, by=keeper, based_on=first.version, end=first.end,
              winner=winner, racks=racks(first, 5))
client = Client()
token = client.post("/api/v1/auth/token/",
                    {"username": "demo-scorekeeper", "password": "keeper-pass-123"},
                    content_type="application/json").json()["token"]
second = Result.objects.get(game=first.game_id, status="confirmed")
answer = client.post(f"/api/v1/games/{first.game_id}/results/",
                     {"based_on": second.version, "end": "rummikub", "winner": winner,
                      "racks": racks(second, 3)},
                     content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}")
assert answer.status_code == 201, answer.status_code
signed_in = client.post(
    reverse("login"), {"username": "demo-scorekeeper", "password": "keeper-pass-123"}
)
assert signed_in.status_code == 302, signed_in.status_code
Client().post(reverse("login"), {"username": "demo-scorekeeper", "password": "wrong"})
print(json.dumps({"game": first.game_id, "versions": answer.json()["version"]}))
"""

# On the copy, as the site would: new rows in tables whose ids were copied.
AFTER = """
import json
from django.contrib.auth import get_user_model
from games.models import Result
from games.services.results import result_submit
from tournaments.services.clubs import club_create, member_create

user = get_user_model().objects.create_user("after-the-move", password="after-pass-123")
club = club_create(by=user, name="Moved Club")
member = member_create(club=club, by=user, name="New Member")
keeper = get_user_model().objects.get(username="demo-scorekeeper")
game = {game}
current = Result.objects.get(game=game, status="confirmed")
result = result_submit(
    game=game, by=keeper, based_on=current.version, end=current.end,
    winner=current.racks.get(winner=True).player_id,
    racks=[{{"player": r.player_id, "tiles": r.tiles}} if r.tiles is not None else
           {{"player": r.player_id, "points": r.points, "tile_count": r.tile_count,
             "jokers": r.jokers}} for r in current.racks.all()],
)
print(json.dumps({{"auth_user": user.pk, "tournaments_club": club.pk,
                  "tournaments_member": member.pk, "games_result": result.pk,
                  "games_historicalresult": result.history.latest().history_id}}))
"""


def run(*args: str, database_url: str, check: bool = True) -> subprocess.CompletedProcess:
    """`manage.py <args>` in a child process with its own database and no Redis (nothing
    it does may reach the test's broker or cache)."""
    env = dict(os.environ, DATABASE_URL=database_url, REDIS_URL="", CELERY_BROKER_URL="")
    env["CACHE_URL"] = ""
    # The system checks are the test suite's business, and cost seconds per child.
    # seed_demo runs no system checks at all (requires_system_checks = []).
    skip = ["--skip-checks"] if args[0] == "move_to_postgresql" else []
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args, *skip],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if check:
        assert done.returncode == 0, f"{args[0]} failed:\n{done.stdout}\n{done.stderr}"
    return done


def last_json(done: subprocess.CompletedProcess) -> dict:
    return json.loads(done.stdout.strip().splitlines()[-1])


@contextmanager
def new_database(connection):
    """A PostgreSQL database of its own beside the test database (same server), dropped
    afterwards; its name starts with the configured database's name."""
    settings = connection.settings_dict
    name = f"{settings['NAME'].removeprefix('test_')}_moved_{uuid.uuid4().hex[:8]}"
    server = {
        "host": settings["HOST"] or None,
        "port": settings["PORT"] or None,
        "user": settings["USER"] or None,
        "password": settings["PASSWORD"] or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    user = settings["USER"] or "postgres"
    password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
    host, port = settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    try:
        yield f"postgres://{user}{password}@{host}:{port}/{name}", server | {"dbname": name}
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def sqlite_tables(db: sqlite3.Connection) -> list[str]:
    names = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    return [n for (n,) in names if n not in ("sqlite_sequence", "django_migrations")]


def sqlite_time(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_the_seeded_demo_moves_with_every_version_and_equal_standings(postgres, tmp_path):
    source = tmp_path / "club.sqlite3"
    source_url = f"sqlite:///{source}"
    run("migrate", "--no-input", database_url=source_url)
    run("seed_demo", database_url=source_url)
    changed = last_json(run("shell", "-c", CHANGES, database_url=source_url))
    assert changed["versions"] == 3  # the seeded entry and two corrections

    with new_database(postgres) as (target_url, target_server):
        # A value SQLite let through and PostgreSQL refuses (SQLite does not enforce a
        # max_length): the move stops naming the table, and leaves the target empty.
        spoilt = tmp_path / "spoilt.sqlite3"
        shutil.copy(source, spoilt)
        with sqlite3.connect(spoilt) as db:
            db.execute("UPDATE tournaments_member SET name = ? WHERE id = 1", ("x" * 300,))
        refused = run(
            "move_to_postgresql",
            "--to",
            target_url,
            database_url=f"sqlite:///{spoilt}",
            check=False,
        )
        assert refused.returncode != 0
        assert "Copying tournaments_member failed, so nothing was copied" in refused.stderr

        started = time.perf_counter()
        moved = run("move_to_postgresql", "--to", target_url, database_url=source_url)
        seconds = time.perf_counter() - started
        print(f"\nmove of the seeded demo: {seconds:.1f} s\n{moved.stdout}")
        assert "The copy is equal to the source." in moved.stdout
        equal, tables = re.search(r"Tables: (\d+) of (\d+) equal", moved.stdout).groups()
        assert equal == tables
        equal, compared = re.search(r"Standings: (\d+) of (\d+) equal", moved.stdout).groups()
        assert equal == compared and int(compared) >= 7 + 1 + 1  # tournaments, a season, a club

        lite = sqlite3.connect(source)
        with psycopg.connect(**target_server) as pg:
            # Every table, counted by the databases themselves.
            for table in sqlite_tables(lite):
                (rows,) = lite.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()
                (copied,) = pg.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()
                assert (table, copied) == (table, rows)
            for table in ("games_historicalresult", "authtoken_token", "django_session"):
                (rows,) = lite.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()
                assert rows > 0, f"the demo should have given {table} rows"
            (attempts,) = lite.execute("SELECT COUNT(*) FROM axes_accessattempt").fetchone()
            assert attempts == 1

            # Every stored standings snapshot, row for row.
            query = "SELECT id, tournament_id, computed_version, rows FROM games_standings"
            stored = {r[0]: (r[1], r[2], json.loads(r[3])) for r in lite.execute(query)}
            assert len(stored) >= 7
            assert {r[0]: (r[1], r[2], r[3]) for r in pg.execute(query)} == stored

            # The corrected game: three versions with their statuses and stamps, and the
            # history of each.
            query = (
                "SELECT id, version, status, submitted_at, submitted_by_id FROM games_result "
                "WHERE game_id = %s ORDER BY version"
            )
            versions = lite.execute(query.replace("%s", "?"), (changed["game"],)).fetchall()
            assert [v[2] for v in versions] == ["superseded", "superseded", "confirmed"]
            versions = [(i, n, s, sqlite_time(at), by) for i, n, s, at, by in versions]
            assert pg.execute(query, (changed["game"],)).fetchall() == versions
            query = (
                "SELECT history_id, id, version, status, history_type "
                "FROM games_historicalresult WHERE game_id = %s ORDER BY history_id"
            )
            history = lite.execute(query.replace("%s", "?"), (changed["game"],)).fetchall()
            assert len(history) > len(versions)  # supersessions are history too
            assert pg.execute(query, (changed["game"],)).fetchall() == history

            # Password hashes and stamps that `auto_now` would have set to the move's time.
            query = "SELECT username, password, date_joined FROM auth_user ORDER BY id"
            users = [(u, p, sqlite_time(at)) for u, p, at in lite.execute(query)]
            assert pg.execute(query).fetchall() == users
            query = "SELECT id, created_at, updated_at FROM tournaments_tournament ORDER BY id"
            stamps = [(i, sqlite_time(c), sqlite_time(u)) for i, c, u in lite.execute(query)]
            assert pg.execute(query).fetchall() == stamps

            largest = {
                table: lite.execute(f'SELECT MAX("{key}") FROM "{table}"').fetchone()[0]
                for table, key in (
                    ("auth_user", "id"),
                    ("tournaments_club", "id"),
                    ("tournaments_member", "id"),
                    ("games_result", "id"),
                    ("games_historicalresult", "history_id"),
                )
            }

        # The site works on the copy: new rows take ids past the copied ones.
        created = last_json(
            run("shell", "-c", AFTER.format(game=changed["game"]), database_url=target_url)
        )
        assert all(created[table] > largest[table] for table in largest), (created, largest)

        # The check sees the difference the site's new rows make.
        differs = run(
            "move_to_postgresql",
            "--check-only",
            "--to",
            target_url,
            database_url=source_url,
            check=False,
        )
        assert differs.returncode != 0
        assert "The copy differs from the source" in differs.stderr
        users = re.search(r"auth_user: (\d+) rows in the source, (\d+) in the copy", differs.stdout)
        assert users and int(users[2]) == int(users[1]) + 1
        # The new result version: another results version, snapshot and recompute.
        assert re.search(r"tournaments demo-winter-league: .*fresh differ", differs.stdout)

        # A second move into the now used target is refused, and changes nothing.
        again = run(
            "move_to_postgresql",
            "--from",
            str(source),
            "--to",
            target_url,
            database_url=f"sqlite:///{tmp_path / 'unused.sqlite3'}",
            check=False,
        )
        assert again.returncode != 0
        assert "is not empty" in again.stderr
        with psycopg.connect(**target_server) as pg:
            (users,) = pg.execute("SELECT COUNT(*) FROM auth_user").fetchone()
        (before,) = sqlite3.connect(source).execute("SELECT COUNT(*) FROM auth_user").fetchone()
        assert users == before + 1  # the account made after the move, nothing else


def test_a_target_that_is_not_postgresql_is_refused(tmp_path):
    """Refused before anything is read or written: no PostgreSQL server needed."""
    source = tmp_path / "club.sqlite3"
    sqlite3.connect(source).close()  # an (empty) SQLite database is there
    target = tmp_path / "target.sqlite3"
    refused = run(
        "move_to_postgresql",
        "--to",
        f"sqlite:///{target}",
        database_url=f"sqlite:///{source}",
        check=False,
    )
    assert refused.returncode != 0
    assert "The target must be a PostgreSQL database" in refused.stderr
    assert not target.exists()
