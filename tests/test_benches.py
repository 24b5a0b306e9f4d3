"""Every bench (bench/*.py) runs in its quick mode, so that none can rot unnoticed.

Each one is found by listing bench/ (a bench added later is covered without a change
here), run as `python -m bench.<name> --quick` in a child process, as a person runs it,
and must exit 0 and print its summary. Quick mode is small sizes with no target judged:
the figures are not checked, only that the bench still works against today's code.

Every bench gets a copy of one SQLite database migrated once for the session
(`BENCH_DATABASE_READY`, bench/__init__.py): migrating costs more than the quick runs.
They run with the local-memory cache and no broker (REDIS_URL and CELERY_BROKER_URL
empty), so none empties the suite's Redis. A bench that collects the static files
(bench.final_day serves pages with DEBUG off) collects them into a folder of the session,
not the repository's staticfiles/, and without the compressed copies (COMPRESS_STATIC=0, as
the club server): compressing them takes a minute of CPU, and no bench measures it.
bench.move_to_postgresql needs the PostgreSQL server of DATABASE_URL, and bench.load Debian's
`wrk`: each is skipped without it (failed under REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.config.club_server import free_port
from tests.conftest import _need

# One xdist worker runs every bench: the migrated SQLite database is made once.
pytestmark = pytest.mark.xdist_group("benches")

ROOT = Path(__file__).resolve().parent.parent
BENCHES = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if not p.stem.startswith("_"))

# bench/_*.py are helpers of the benches (bench/_corrections.py), not benches.
# The benches that cannot run here, and why. Keep this list short: a bench left out can rot.
EXCLUDED = {
    # A fresh clone of the repository and an install of every dependency: minutes, and
    # the package registries.
    "first_start": "a fresh clone and install",
    # Already run in its quick mode, on both databases, by the club server's tests
    # (tests/config/test_club_server.py), which give it the migrated template it needs.
    "submit_latency": "run by tests/config/test_club_server.py",
}

# A line (or part of one) each bench prints when it has run to the end. A bench not
# named here must still exit 0 and print something.
SUMMARY = {
    "backup": "MB: backup",
    "big_body": "-> 413",
    "circuit": "one event finishing, ranking recomputed",
    "event_file": "same standings after the round trip: True",
    "final_day": "last result → public standings current",
    "load": "targets: page",
    "move_to_postgresql": "move_to_postgresql:",
    "players_import": "queries per import",
    "ratings": "update after new games, per game",
    "seating": "0 reached",
    "sheets_pdf": "tables -> request",
    "standings": "queries per recompute",
    "standings_page": "fragment, paged:",
}


@pytest.fixture(scope="session")
def migrated(tmp_path_factory) -> Path:
    """One SQLite database migrated for every bench of the session."""
    path = tmp_path_factory.mktemp("bench") / "migrated.sqlite3"
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{path}", REDIS_URL="", CELERY_BROKER_URL="")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v0"],
        cwd=ROOT, env=env, check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    return path


@pytest.fixture(scope="session")
def static_root(tmp_path_factory) -> Path:
    """The folder the benches collect static files into (collected once, then kept)."""
    return tmp_path_factory.mktemp("bench-static")


@pytest.mark.parametrize("name", [name for name in BENCHES if name not in EXCLUDED])
def test_the_bench_runs_in_its_quick_mode(name, migrated, static_root, tmp_path):
    database = tmp_path / "bench.sqlite3"
    shutil.copyfile(migrated, database)
    env = dict(
        os.environ,
        DATABASE_URL=f"sqlite:///{database}",
        BENCH_DATABASE_READY="1",
        REDIS_URL="",
        CELERY_BROKER_URL="",
        STATIC_ROOT=str(static_root),
        COMPRESS_STATIC="0",
    )
    args = ["--quick"]
    if name == "load":
        # Debian's `wrk` drives its gunicorn (.ci/run installs it); a port of its own.
        if not shutil.which("wrk"):
            _need("wrk (apt-get install wrk)")
        args += ["--port", str(free_port())]
    if name == "move_to_postgresql":
        server = os.environ.get("DATABASE_URL", "")
        if not server.startswith("postgres"):
            _need("PostgreSQL (DATABASE_URL)")
        base, _, own = server.rpartition("/")
        args += ["--server", base, "--name", f"{own}_move_bench"]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    seconds = time.perf_counter() - started
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    assert done.stdout.strip(), f"bench.{name} printed nothing"
    assert SUMMARY.get(name, "") in done.stdout, done.stdout[-2000:]
    print(f"bench.{name} --quick: {seconds:.1f} s")


def test_every_exclusion_names_a_bench_or_one_on_its_way():
    """An exclusion outliving its bench would hide a new one of the same name."""
    assert set(EXCLUDED) - set(BENCHES) <= {"first_start"}
    assert set(SUMMARY) <= set(BENCHES)
