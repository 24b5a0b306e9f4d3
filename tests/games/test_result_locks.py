"""Results at different tables of one tournament are stored side by side, while a
tournament-level write and a result still exclude each other (`games.services.locks`), on
real PostgreSQL and real threads; and what a result runs inside its transaction, the
tournament row's UPDATE last."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import OperationalError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Result
from games.services.locks import lock_game, lock_tournament
from games.services.results import result_submit
from games.services.rounds import round_cancel
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, rummikub_racks, seated
from tests.threads import at_once
from tournaments.services.tournaments import tournament_update

# Long enough for a write that does not wait to finish on a busy machine; a write that
# waits for a lock is still waiting after it.
BLOCKED = 1.5


class Held:
    """A transaction on a thread of its own: `hold` runs (taking its locks), then it waits
    until `release`, runs `then` and commits. `outcome` is what `then` returned or raised."""

    def __init__(self, hold: Callable[[], object], then: Callable[[], object] = lambda: None):
        self.held, self.released = threading.Event(), threading.Event()
        self.outcome: object = None

        def run() -> None:
            try:
                with transaction.atomic():
                    hold()
                    self.held.set()
                    assert self.released.wait(timeout=60)
                    self.outcome = then()
            except Exception as error:
                self.outcome = error
            finally:
                self.held.set()
                connection.close()

        self.thread = threading.Thread(target=run)
        self.thread.start()
        assert self.held.wait(timeout=30)

    def release(self) -> object:
        self.released.set()
        self.thread.join(timeout=60)
        assert not self.thread.is_alive(), "the held transaction never finished"
        return self.outcome


def on_thread(call: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    outcome: list[object] = [None]

    def run() -> None:
        try:
            outcome[0] = call()
        except Exception as error:
            outcome[0] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def _games(tournament, alice):
    round_ = open_round(tournament, alice)
    return round_, [table.games.get(number=1) for table in round_.tables.order_by("number")]


@pytest.mark.django_db(transaction=True)
def test_a_result_at_another_table_is_stored_while_one_is_in_flight(postgres, alice, bob):
    """Table 1's result holds its locks (as while it is validated, scored and stored); the
    result of table 2 is stored and committed meanwhile, without waiting for any lock."""
    tournament = make_tournament(alice, players=8, scorekeepers=[bob])
    _, (first, second) = _games(tournament, alice)
    enter_rummikub(first, bob)  # the rules are frozen: both entries are corrections
    tournament.refresh_from_db()
    version = tournament.results_version
    in_flight = Held(lambda: lock_game(first.pk), lambda: enter_rummikub(first, bob, based_on=1))
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:  # fails at once rather than waiting
                cursor.execute("SET LOCAL lock_timeout = '5s'")
            stored = enter_rummikub(second, bob)
        assert Result.objects.filter(pk=stored.pk).exists()
        assert not Result.objects.filter(game=first, version=2).exists()
    finally:
        landed = in_flight.release()
    assert isinstance(landed, Result), landed
    assert landed.version == 2
    tournament.refresh_from_db()
    assert tournament.results_version == version + 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write", ["rules", "round_cancel"])
def test_a_tournament_level_write_waits_for_a_result_in_flight(postgres, alice, write):
    """A rules change (or cancelling the round) started while the first result is in
    flight waits for it, then sees it: the change is refused, the result stands."""
    tournament = make_tournament(alice, players=8)
    round_, (game, _) = _games(tournament, alice)
    in_flight = Held(lambda: lock_game(game.pk), lambda: enter_rummikub(game, alice))
    changes = {
        "rules": lambda: tournament_update(
            tournament=tournament, by=alice, rules={"win_bonus": 50}
        ),
        "round_cancel": lambda: round_cancel(round_=round_, by=alice),
    }
    try:
        thread, outcome = on_thread(changes[write])
        thread.join(timeout=BLOCKED)
        assert thread.is_alive(), f"{write} did not wait for the result: {outcome[0]!r}"
    finally:
        landed = in_flight.release()
    thread.join(timeout=30)
    assert isinstance(landed, Result), landed
    assert isinstance(outcome[0], RuleError), outcome[0]
    tournament.refresh_from_db()
    assert tournament.first_result_at is not None
    assert tournament.rules.get("win_bonus", 0) == 0
    assert tournament.rounds.filter(pk=round_.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_result_waits_for_a_tournament_level_write_in_flight(postgres, alice, bob):
    tournament = make_tournament(alice, players=8, scorekeepers=[bob])
    _, (game, _) = _games(tournament, alice)
    racks = rummikub_racks(game, "R4 B10 K2", "J 7", "O3")
    winner = seated(game)[0]
    in_flight = Held(
        lambda: lock_tournament(tournament.pk),
        lambda: tournament_update(tournament=tournament, by=alice, rules={"win_bonus": 50}),
    )
    try:
        thread, outcome = on_thread(
            lambda: result_submit(
                game=game.pk, by=bob, based_on=0, end="rummikub", winner=winner, racks=racks
            )
        )
        thread.join(timeout=BLOCKED)
        assert thread.is_alive(), f"the result did not wait: {outcome[0]!r}"
    finally:
        changed = in_flight.release()
    thread.join(timeout=30)
    assert not isinstance(changed, Exception), changed
    result = outcome[0]
    assert isinstance(result, Result), result
    # Scored under the rules the change committed before it.
    winner_rack = result.racks.get(winner=True)
    losers = sum(rack.points for rack in result.racks.filter(winner=False))
    assert winner_rack.score == losers + 50


@pytest.mark.django_db(transaction=True)
def test_first_results_at_every_table_at_once_all_land(postgres, alice, bob):
    """Eight tables' first results at the same moment, five times over: none deadlocks or
    is lost, each is counted once, and the tournament's first result is marked once."""
    for trial in range(5):
        tournament = make_tournament(alice, name=f"Open {trial}", players=32, scorekeepers=[bob])
        _, games = _games(tournament, alice)
        tournament.refresh_from_db()
        version = tournament.results_version
        outcomes = at_once(*[lambda game=game: enter_rummikub(game, bob) for game in games])
        assert all(isinstance(o, Result) for o in outcomes), f"trial {trial}: {outcomes}"
        assert not any(isinstance(o, OperationalError) for o in outcomes)
        tournament.refresh_from_db()
        assert tournament.results_version == version + len(games)
        moments = set(Result.objects.filter(game__in=games).values_list("confirmed_at", flat=True))
        assert tournament.first_result_at in moments, f"trial {trial}"


@pytest.mark.django_db
def test_a_result_runs_ten_statements_and_counts_itself_last(alice, bob):
    """Inside its transaction: the locks (tournament, table, game), the version, the seats,
    the older versions, the result and its history row, the racks, then the tournament
    row's UPDATE — last, since from there to the commit other tables' results wait."""
    tournament = make_tournament(alice, players=8, scorekeepers=[bob])
    _, (first, second) = _games(tournament, alice)
    enter_rummikub(first, bob)
    racks = rummikub_racks(second, "R4 B10 K2", "J 7", "O3")
    winner = seated(second)[0]
    # Inside an outer block: the commit's callbacks (the standings) wait for it.
    with transaction.atomic(), CaptureQueriesContext(connection) as captured:
        result_submit(
            game=second.pk, by=bob, based_on=0, end="rummikub", winner=winner, racks=racks
        )
    statements = [
        q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"].upper()
    ]
    assert len(statements) <= 10, "\n".join(statements)
    assert statements[-1].startswith("UPDATE") and "results_version" in statements[-1]
