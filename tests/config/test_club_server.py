"""The club server of `make lan` (`python -m config.lan`: waitress, DEBUG off, SQLite) as a
real subprocess on a loopback port, over a fresh migrated SQLite database seeded with a
tournament of 10 tables (tests/config/club_server.py):

* 10 scorekeepers submitting at the same instant for `SECONDS` (10 s in the suite, where
  every round of 10 at once is as good a test as the next; `CLUB_FLOOD_SECONDS=30` for the
  figure docs/operations/club-laptop.md states): no request fails, and every entry is
  stored exactly once (its version and idempotency key, read from the file);
* a long job holding SQLite's write lock for a few seconds (an import, a recompute) makes
  a submission wait, not fail;
* a table link signed with the repository's old development key is refused; the key
  file is made on the first start (mode 0600, never printed) and kept over a restart,
  so a link that worked before the restart works after it;
* a page that does not exist is the site's own 404 page; static files are served
  (whitenoise) with their hashed names;
* the submission benchmark (bench/submit_latency.py) runs in its quick mode.

No PostgreSQL or Redis needed: these run wherever `make test` runs.
"""

from __future__ import annotations

import http.client
import os
import shutil
import sqlite3
import stat
import statistics
import threading
import time
from pathlib import Path

import pytest
from django.core import signing

from bench import submit_latency
from tests.config.club_server import (
    ClubServer,
    Submission,
    club_folder,
    copy_club,
    load_seed,
    scorekeepers_at_once,
    submit,
)
from tournaments.table_links import SALT

# One xdist worker runs this module's tests: the migrated, seeded club folder and its
# server are made once.
pytestmark = pytest.mark.xdist_group("club_server")

# The key config/settings.py signed with while DEBUG was on, until this change: printed in
# the repository's history, so anyone could sign table links with it.

OLD_DEVELOPMENT_KEY = "dev-only-insecure-key-rummitab-do-not-use-in-production"
SECONDS = float(os.environ.get("CLUB_FLOOD_SECONDS", "10"))


@pytest.fixture(scope="module")
def static_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("static")


@pytest.fixture(scope="module")
def template(tmp_path_factory, static_root) -> Path:
    return club_folder(tmp_path_factory.mktemp("club") / "template", static_root)


@pytest.fixture(scope="module")
def server(template, static_root, tmp_path_factory):
    folder = copy_club(template, tmp_path_factory.mktemp("shared") / "club")
    with ClubServer(folder, static_root) as running:
        yield running


def get(base: str, path: str) -> tuple[int, dict[str, str], bytes]:
    """GET without following redirects."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def stored(folder: Path) -> dict[int, list[tuple[int, str]]]:
    """(version, idempotency key) of every stored result, by game, read from the file."""
    with sqlite3.connect(f"file:{folder / 'db.sqlite3'}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT game_id, version, idempotency_key FROM games_result ORDER BY game_id, version"
        ).fetchall()
    by_game: dict[int, list[tuple[int, str]]] = {}
    for game, version, key in rows:
        by_game.setdefault(game, []).append((version, key))
    return by_game


def latest_version(folder: Path, game: int) -> int:
    return max((version for version, _ in stored(folder).get(game, [])), default=0)


def test_ten_scorekeepers_at_the_same_instant_lose_nothing(server):
    tables = load_seed(server.folder)["tables"]
    assert len(tables) == 10
    before = stored(server.folder)
    outcomes = scorekeepers_at_once(server.base, tables, SECONDS)

    failed = [(o.table, o.status) for o in outcomes if o.status != 201]
    latencies = sorted(o.seconds for o in outcomes)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(
        f"\n{len(outcomes)} submissions by 10 scorekeepers at once over {SECONDS} s: "
        f"{len(failed)} failed; p50 {statistics.median(latencies) * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms"
    )
    assert failed == []
    assert len(outcomes) >= 10 * 3, "the scorekeepers barely got to submit"
    after = stored(server.folder)
    for table in tables:
        mine: list[Submission] = [o for o in outcomes if o.table == table["table"]]
        rows = after.get(table["game"], [])[len(before.get(table["game"], [])) :]
        # One stored version per answered submission, in order, each with its own key.
        assert [version for version, _ in rows] == [o.version for o in mine]
        assert [key for _, key in rows] == [o.key for o in mine]
        assert [o.version for o in mine] == list(range(1, len(mine) + 1))


def test_a_submission_waits_for_a_long_job_holding_the_write_lock(server):
    table = load_seed(server.folder)["tables"][0]
    based_on = latest_version(server.folder, table["game"])
    host, port = server.base.removeprefix("http://").split(":")
    outcome: list[Submission] = []
    # Another connection takes the write lock as an import or a standings recompute does,
    # and keeps it for 3 seconds.
    job = sqlite3.connect(server.folder / "db.sqlite3", isolation_level=None, timeout=30)
    job.execute("BEGIN IMMEDIATE")
    job.execute("UPDATE tournaments_tournament SET name = name")
    try:
        scorekeeper = threading.Thread(
            target=lambda: outcome.append(
                submit(
                    http.client.HTTPConnection(host, int(port), timeout=60), table, based_on, "k"
                )
            )
        )
        scorekeeper.start()
        time.sleep(3)
        assert scorekeeper.is_alive(), "the submission did not wait for the write lock"
    finally:
        job.execute("COMMIT")
        job.close()
    scorekeeper.join(timeout=60)
    assert outcome and outcome[0].status == 201, outcome
    assert outcome[0].seconds >= 2.5  # it waited, then saved
    assert latest_version(server.folder, table["game"]) == based_on + 1


def test_a_table_link_signed_with_the_old_development_key_is_refused(server):
    table = load_seed(server.folder)["tables"][1]
    genuine = table["link"]
    forged_token = signing.Signer(key=OLD_DEVELOPMENT_KEY, salt=SALT).sign_object(
        [table["link_id"], table["link_version"]]
    )
    forged = genuine.rsplit("/link/", 1)[0] + f"/link/{forged_token}/"
    status, _, body = get(server.base, forged)
    assert status == 403
    assert b"This table link is not valid" in body
    status, headers, _ = get(server.base, genuine)
    assert status == 302 and "/tables/2/" in headers["Location"]


def test_a_missing_page_is_the_sites_own_404_and_static_files_are_served(server):
    status, _, body = get(server.base, "/no-such-page/")
    assert status == 404
    assert b"Page not found" in body and b"Rummitab" in body
    assert b"URLconf" not in body and b"DEBUG = True" not in body  # not Django's page
    status, _, page = get(server.base, "/")
    stylesheet = page.split(b'href="/static/css/site.', 1)[1].split(b'"', 1)[0]
    status, headers, _ = get(server.base, "/static/css/site." + stylesheet.decode())
    assert status == 200
    assert "immutable" in headers["Cache-Control"]  # a hashed name, cached for ever


def link_signed_with(key_file: Path, table: dict) -> str:
    token = signing.Signer(key=key_file.read_text().strip(), salt=SALT).sign_object(
        [table["link_id"], table["link_version"]]
    )
    return table["link"].rsplit("/link/", 1)[0] + f"/link/{token}/"


def test_the_key_file_is_made_on_the_first_start_and_kept_over_a_restart(
    template, static_root, tmp_path
):
    folder = copy_club(template, tmp_path / "club")
    key_file = folder / "secret_key"
    key_file.unlink()  # a club folder that never had a key
    table = load_seed(folder)["tables"][2]

    with ClubServer(folder, static_root) as first:
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        key = key_file.read_text().strip()
        assert len(key) >= 50
        link = link_signed_with(key_file, table)
        assert get(first.base, link)[0] == 302
        # Links printed under another key (the template's) are not valid here.
        assert get(first.base, table["link"])[0] == 403
    with ClubServer(folder, static_root) as second:
        assert key_file.read_text().strip() == key
        assert get(second.base, link)[0] == 302  # the sheet printed before the restart
    for log in folder.glob("server-*.log"):
        assert key not in log.read_text()  # never printed


def test_the_submission_benchmark_runs_in_its_quick_mode(template, tmp_path, capsys):
    """bench/submit_latency.py --quick, so it cannot rot: both databases when PostgreSQL
    answers (each run of the suite on a database of its own), else SQLite alone."""
    database = os.environ.get("DATABASE_URL", "")
    postgres = (
        f"{database}_submit_bench" if database.startswith("postgres") else submit_latency.DEFAULT_PG
    )
    work = tmp_path / "bench"
    work.mkdir()
    shutil.copyfile(template / "db.sqlite3", work / "template.sqlite3")  # already migrated
    runs = submit_latency.main(["--quick", "--work", str(work), "--postgres", postgres])
    printed = capsys.readouterr().out
    assert "SQLite" in runs and "p99 ms" in printed
    for name, row in runs.items():
        assert row["failed"] == 0, name
        assert row["submissions"] >= 10 and row["p99"] >= row["p50"] > 0, name
