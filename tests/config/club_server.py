"""The club server of `make lan` (`python -m config.lan`) as a subprocess, for the tests and
the benchmark that need a real server (not the test client): real threads, real
connections, a real SQLite file.

Terms:
* club folder — a temporary folder holding `db.sqlite3` and the `secret_key` file beside
  it (the default `DATA_DIR`), as on a club laptop. `club_folder()` makes one: migrated
  once, then seeded with a tournament of 10 tables whose first round is running, 10
  scorekeepers with API tokens, and the round's table links. `seed()` writes what the
  tests need (tokens, game ids, seated players, table-link paths) to `seed.json`.
* template — migrating a fresh SQLite database takes tens of seconds on a busy machine,
  so a session makes one club folder and copies it for each server (the copy carries
  the key file, as a restored backup would).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Variables of the developer's shell that would change what the club server does.
CLEARED = {
    "DEBUG",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
    "DATA_DIR",
    "PUBLIC_BASE_URL",
    "ALLOWED_HOSTS",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "DJANGO_SETTINGS_MODULE",
    "PORT",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(database_url: str, static_root: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(
        DATABASE_URL=database_url,
        STATIC_ROOT=str(static_root),
        LAN_ADDRESS="127.0.0.1",
        PYTHONPATH=str(ROOT),
        # Ten scorekeepers hammering for half a minute are not the abuse the API's
        # throttles are for.
        API_THROTTLE_USER="1000000/minute",
        **extra,
    )
    return env


def manage(env: dict[str, str], *args: str) -> None:
    run = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


def club_folder(folder: Path, static_root: Path, database_url: str = "") -> Path:
    """A migrated, seeded club folder (see the module's docstring); its database is the
    SQLite file in it unless `database_url` names another (an empty one)."""
    folder.mkdir(parents=True, exist_ok=True)
    env = environment(database_url or f"sqlite:///{folder / 'db.sqlite3'}", static_root)
    env["DATA_DIR"] = str(folder)
    manage(env, "migrate", "--no-input")
    manage(env, "shell", "-c", f"from tests.config.club_seed import seed; seed({str(folder)!r})")
    return folder


def copy_club(template: Path, folder: Path) -> Path:
    """The template's database and key file in a folder of their own."""
    shutil.copytree(template, folder)
    return folder


def result_body(table: dict, based_on: int) -> dict:
    """Seat 1 went out; the others hold a few tiles."""
    winner, *losers = table["players"]
    tiles = ["R4 B10 K2", "J 7", "O3"]
    return {
        "based_on": based_on,
        "end": "rummikub",
        "winner": winner,
        "racks": [{"player": winner, "tiles": ""}]
        + [{"player": p, "tiles": t} for p, t in zip(losers, tiles, strict=False)],
    }


class ClubServer:
    """`python -m config.lan` on a free loopback port over `folder`'s database."""

    def __init__(self, folder: Path, static_root: Path, database_url: str = "", **extra: str):
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"server-{self.port}.log"
        env = environment(
            database_url or f"sqlite:///{folder / 'db.sqlite3'}", static_root, **extra
        )
        if database_url:  # the key file stays in the folder whatever the database
            env["DATA_DIR"] = str(folder)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "config.lan",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.wait_ready()

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"club server exited: {self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.base + "/", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"club server not ready: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def __enter__(self) -> ClubServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def load_seed(folder: Path) -> dict:
    return json.loads((folder / "seed.json").read_text())


@dataclass
class Submission:
    """One result submission as its scorekeeper saw it; status 0: no answer at all."""

    table: int
    key: str
    status: int
    seconds: float
    version: int | None


def submit(
    connection: http.client.HTTPConnection, table: dict, based_on: int, key: str
) -> Submission:
    body = json.dumps(result_body(table, based_on))
    headers = {
        "Authorization": f"Token {table['token']}",
        "Content-Type": "application/json",
        "Idempotency-Key": key,
    }
    started = time.perf_counter()
    try:
        connection.request("POST", f"/api/v1/games/{table['game']}/results/", body, headers)
        answer = connection.getresponse()
        data = answer.read()
        status = answer.status
    except (OSError, http.client.HTTPException):
        connection.close()  # reconnects on the next request
        status, data = 0, b""
    seconds = time.perf_counter() - started
    version = json.loads(data)["version"] if status == 201 else None
    return Submission(table["table"], key, status, seconds, version)


def scorekeepers_at_once(
    base: str, tables: list[dict], seconds: float, after: list[Submission] = ()
) -> list[Submission]:
    """Every table's scorekeeper (a thread with its own connection) submits a correction
    of their game at the same instant, again and again, for `seconds`; each entry is
    based on the version the previous one stored (the first on the last version stored
    by `after`, an earlier run) and carries a key of its own."""
    start = {o.table: o.version for o in after if o.version}
    host, port = base.removeprefix("http://").split(":")
    deadline = time.monotonic() + seconds
    stop = threading.Event()

    def time_up() -> None:  # run by one thread each time all of them meet
        if time.monotonic() >= deadline:
            stop.set()

    barrier = threading.Barrier(len(tables), action=time_up)
    outcomes: list[list[Submission]] = [[] for _ in tables]

    def keep_score(slot: int, table: dict) -> None:
        connection = http.client.HTTPConnection(host, int(port), timeout=120)
        based_on = start.get(table["table"], 0)
        while True:
            barrier.wait(timeout=180)
            if stop.is_set():
                break
            done = submit(connection, table, based_on, uuid.uuid4().hex)
            outcomes[slot].append(done)
            based_on = done.version or based_on
        connection.close()

    threads = [threading.Thread(target=keep_score, args=pair) for pair in enumerate(tables)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 300)
    assert not any(thread.is_alive() for thread in threads), "a scorekeeper never finished"
    return [done for slot in outcomes for done in slot]
