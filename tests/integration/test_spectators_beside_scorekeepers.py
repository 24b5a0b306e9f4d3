"""Phones polling the standings beside scorekeepers entering results, on a real gunicorn
as production runs it (workers of several threads: docs/operations/production.md).

A result waits while a tournament-level write holds its tournament's row lock
(games.services.locks), so the scorekeepers' requests queue in the database meanwhile
(before results shared that lock, they also queued behind one another). With one thread
per worker each of them held a whole worker while it waited, and the phones' polls —
answered from the cache in a millisecond — waited behind them. With threads, a worker
whose threads wait on the database answers the polls on another one.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
import redis
from django.db import connection, transaction

from config.tokens import token_issue
from games.models import Game
from tests.factories import make_tournament, open_round
from tests.games.helpers import rummikub_racks, seated
from tests.integration.conftest import ROOT, worker_environment
from tournaments.models import Tournament

pytestmark = pytest.mark.integration


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str, timeout: float, **headers: str) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def post_result(base: str, token: str, game: Game, answers: list) -> None:
    body = {
        "based_on": 0,
        "end": "rummikub",
        "winner": seated(game)[0],
        "racks": rummikub_racks(game, "R4 B10 K2", "J 7", "O3"),
    }
    request = urllib.request.Request(
        f"{base}/api/v1/games/{game.pk}/results/",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            answers.append(answer.status)
    except urllib.error.HTTPError as error:
        answers.append(error.code)


def waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


@pytest.fixture
def final(postgres, redis_url, alice, bob):
    tournament = make_tournament(alice, name="Spectators Final", players=16, scorekeepers=[bob])
    games = list(
        Game.objects.filter(table__round=open_round(tournament, alice), number=1).order_by(
            "table__number"
        )
    )
    # Pages kept by an earlier run under this slug belong to another database.
    shared = redis.Redis.from_url(redis_url)
    for key in shared.scan_iter(match=f"*pages:{tournament.slug}:*"):
        shared.delete(key)
    return tournament, games, token_issue(user=bob).key


@pytest.fixture
def gunicorn(redis_url, tmp_path):
    """`gunicorn(threads)`: the site on one worker of that many threads; its base URL."""
    started: list[subprocess.Popen] = []

    def start(threads: int) -> str:
        port = free_port()
        env = worker_environment(
            redis_url,
            DEBUG="0",
            SECRET_KEY="test-only-not-a-secret",
            ALLOWED_HOSTS="127.0.0.1",
            SECURE_SSL_REDIRECT="0",
            API_THROTTLE_USER="100000/minute",
        )
        env["CELERY_BROKER_URL"] = ""  # the recomputes on the web worker's job thread
        log = (tmp_path / f"gunicorn-{threads}.log").open("w")
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers=1",
             f"--threads={threads}", f"--bind=127.0.0.1:{port}", "--timeout=60"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        started.append(process)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                get(f"{base}/health/", timeout=2)
                return base
            except OSError:
                time.sleep(0.2)
        raise RuntimeError((tmp_path / f"gunicorn-{threads}.log").read_text()[-2000:])

    yield start
    for process in started:
        # The whole group, workers with their database connections included.
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def poll_while_the_scorekeepers_wait(base: str, tournament, games, token, timeout: float):
    """Hold the tournament's row lock, as a tournament-level write does, while three scorekeepers
    send theirs; poll the kept fragment meanwhile. (poll status or None, seconds, the
    scorekeepers' answers)."""
    live = f"{base}/t/{tournament.slug}/standings/live/"
    status, headers, _ = get(live, timeout=30)
    assert status == 200
    # Until the page stands (the registrations' recompute may still move it once).
    deadline = time.monotonic() + 15
    while get(live, 30, **{"If-None-Match": headers["ETag"]})[0] != 304:
        assert time.monotonic() < deadline, "the fragment never answered 304"
        time.sleep(0.3)
        status, headers, _ = get(live, timeout=30)
    answers: list[int] = []
    senders = [
        threading.Thread(target=post_result, args=(base, token, game, answers))
        for game in games[:3]
    ]
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        for sender in senders:
            sender.start()
        deadline = time.monotonic() + 20
        while waiting_on_locks() < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert waiting_on_locks() >= 1, "no result ever waited on the lock"
        started = time.monotonic()
        try:
            polled = get(live, timeout=timeout, **{"If-None-Match": headers["ETag"]})[0]
        except (TimeoutError, OSError):
            polled = None
        seconds = time.monotonic() - started
        assert not answers, "a result was stored while its tournament was locked"
    for sender in senders:
        sender.join(timeout=60)
    return polled, seconds, answers


def test_a_poll_is_answered_while_the_scorekeepers_wait_on_their_tournament(final, gunicorn):
    tournament, games, token = final
    base = gunicorn(threads=4)
    polled, seconds, answers = poll_while_the_scorekeepers_wait(
        base, tournament, games, token, timeout=10
    )
    assert polled == 304 and seconds < 2, (polled, seconds)
    assert answers == [201, 201, 201]  # and the results went in once the lock was free


def test_with_one_thread_a_waiting_scorekeeper_holds_the_poll_back(final, gunicorn):
    """What the threads are for: one worker of one thread, its only thread waiting on the
    tournament's lock, leaves the poll unanswered until the lock is free."""
    tournament, games, token = final
    base = gunicorn(threads=1)
    polled, seconds, answers = poll_while_the_scorekeepers_wait(
        base, tournament, games, token, timeout=1.5
    )
    assert polled is None, (polled, seconds)
    assert sorted(answers) == [201, 201, 201]
