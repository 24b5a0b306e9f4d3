"""Two scorekeepers submit the same game's result at the same moment, 50 times over, on
real PostgreSQL: every time exactly one entry lands and the other is told it is stale;
nothing is ever half-written."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from games.models import RackEntry, Result
from games.services.results import ResultConflict
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

REPEATS = 50


@pytest.mark.django_db(transaction=True)
def test_simultaneous_submissions_one_wins_the_other_conflicts(postgres, alice, bob, capsys):
    tournament = make_tournament(alice, players=4, scorekeepers=[bob])
    game = open_round(tournament, alice).tables.get().games.get(number=1)
    racks = [("R4 B10 K2", "J 7", "O3"), ("R1", "R2", "R3")]
    outcomes: list[list[object]] = []
    started = time.perf_counter()

    for attempt in range(REPEATS):
        barrier = threading.Barrier(2)
        outcome: list[object] = [None, None]

        def submit(slot: int, user, attempt=attempt, barrier=barrier, outcome=outcome):
            try:
                barrier.wait(timeout=10)
                result = enter_rummikub(game, user, *racks[slot], based_on=attempt)
                outcome[slot] = result.version
            except ResultConflict as conflict:
                outcome[slot] = conflict
            except Exception as error:
                outcome[slot] = error
            finally:
                connection.close()

        threads = [threading.Thread(target=submit, args=(i, u)) for i, u in enumerate((alice, bob))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
        outcomes.append(outcome)

        winners = [o for o in outcome if isinstance(o, int)]
        conflicts = [o for o in outcome if isinstance(o, ResultConflict)]
        assert winners == [attempt + 1], f"attempt {attempt}: {outcome}"
        assert len(conflicts) == 1, f"attempt {attempt}: {outcome}"
        assert conflicts[0].current_version == attempt + 1

    elapsed = time.perf_counter() - started
    versions = list(Result.objects.filter(game=game).values_list("version", flat=True))
    assert versions == list(range(1, REPEATS + 1))
    assert Result.objects.filter(game=game, status="confirmed").count() == 1
    assert RackEntry.objects.filter(result__game=game).count() == REPEATS * 4
    tournament.refresh_from_db()
    # players (4) + results: one bump per landed entry, none for the refused ones.
    assert tournament.results_version == 4 + REPEATS
    with capsys.disabled():
        print(
            f"\nrace: {REPEATS} attempts, {REPEATS} landed, {REPEATS} conflicts, "
            f"0 half-written, {elapsed:.2f}s"
        )
