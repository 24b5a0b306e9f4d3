"""Standings computed by a real Celery worker on Redis, from results stored in PostgreSQL."""

from __future__ import annotations

import os
import signal
import time

import pytest
from rest_framework.test import APIClient

from games.models import Game, Standings
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, rummikub_racks, seated
from tests.integration.conftest import Worker, wait_for, worker_environment
from tournaments.events import COALESCE_SECONDS
from tournaments.models import Tournament

pytestmark = pytest.mark.integration


def current(tournament: Tournament) -> bool:
    tournament.refresh_from_db()
    return Standings.objects.filter(
        tournament=tournament, computed_version=tournament.results_version
    ).exists()


def test_results_through_the_api_reach_the_standings_within_10_seconds(worker, alice, bob):
    tournament = make_tournament(alice, players=8, scorekeepers=[bob])
    games = list(Game.objects.filter(table__round=open_round(tournament, alice)))
    client = APIClient()
    client.force_authenticate(bob)
    for game in games[:3]:
        response = client.post(
            f"/api/v1/games/{game.pk}/results/",
            {
                "based_on": 0,
                "end": "rummikub",
                "winner": seated(game)[0],
                "racks": rummikub_racks(game, "R4 B10 K2", "J 7", "O3"),
            },
            format="json",
        )
        assert response.status_code == 201, response.content
        reached, seconds = wait_for(lambda: current(tournament), timeout=10)
        assert reached, f"standings still at an older version after {seconds:.1f}s"
    snapshot = Standings.objects.get(
        tournament=tournament, computed_version=tournament.results_version
    )
    assert sum(row["metrics"]["games_played"] for row in snapshot.rows) == 3 * 4


def test_a_burst_of_50_results_is_folded_into_few_recomputes(worker, alice, bob, capsys):
    # 52 players at 13 tables of 4, four games each: 52 games, 50 of them entered at once.
    tournament = make_tournament(alice, players=52, scorekeepers=[bob])
    games = list(Game.objects.filter(table__round=open_round(tournament, alice))[:50])
    reached, _ = wait_for(lambda: current(tournament), timeout=10)  # the registrations
    before = Standings.objects.filter(tournament=tournament).count()

    started = time.monotonic()
    for game in games:
        enter_rummikub(game, bob)
    entered = time.monotonic() - started
    reached, seconds = wait_for(lambda: current(tournament), timeout=20)
    assert reached, "standings never reached the final version"
    recomputes = Standings.objects.filter(tournament=tournament).count() - before
    # A recompute starts at least COALESCE_SECONDS after the result that asked for it
    # and folds in every result stored by then: on a quiet machine the 50 results take
    # about a second, and fewer than one recompute per three results is ample; on a
    # loaded one (CI) they may take ten, and still no more than one recompute starts per
    # COALESCE_SECONDS of the burst and its tail.
    bound = max(50 / 3, 1 + (entered + seconds) / COALESCE_SECONDS)
    assert recomputes < bound, f"{recomputes} recomputes for 50 results in {entered:.1f}s"
    with capsys.disabled():
        print(
            f"\nburst: 50 results in {entered:.2f}s → "
            f"{recomputes} recomputes; final version reached {seconds:.2f}s after the last"
        )


def test_a_worker_killed_mid_recompute_still_ends_right(live_jobs, alice, bob, tmp_path):
    marks = tmp_path / "recompute-pids"
    marks.touch()
    env = worker_environment(live_jobs, RUMMITAB_SLOW_MARKS=str(marks))
    tournament = make_tournament(alice, players=4, scorekeepers=[bob])
    game = open_round(tournament, alice).tables.get().games.get(number=1)
    Standings.objects.filter(tournament=tournament).delete()

    slow = Worker("tests.integration.slow_worker", env, tmp_path / "worker.log")
    try:
        enter_rummikub(game, bob)
        started, _ = wait_for(lambda: marks.read_text().split(), timeout=10)
        assert started, "the recompute never started"
        os.kill(int(started[0]), signal.SIGKILL)  # the pool process running the task

        # acks_late + reject_on_worker_lost: the task goes back to the queue and runs again.
        reached, _ = wait_for(lambda: current(tournament), timeout=30)
        assert reached, (tmp_path / "worker.log").read_text()[-3000:]
        runs = marks.read_text().split()
        assert len(runs) >= 2 and runs[1] != runs[0]
        assert Standings.objects.filter(tournament=tournament).count() == 1
    finally:
        slow.stop()
