"""Writes to one tournament at the same moment, on real PostgreSQL and real threads: they
queue behind the tournament row (`games.services.locks`), so none of them deadlocks or is
half-applied, and each pair ends as if one had come after the other."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from games.models import Game, Result, Seat
from games.services.draw import RoundConflict, round_draw
from games.services.results import result_submit
from games.services.rounds import round_open, seat_swap
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, rummikub_racks, seated
from tests.threads import at_once
from tournaments.services.tournaments import tournament_update

TRIALS = 14


def _no_database_errors(outcomes: list[object], trial: int) -> None:
    for outcome in outcomes:
        assert not isinstance(outcome, OperationalError), f"trial {trial}: {outcome!r}"
        assert not isinstance(outcome, Exception) or isinstance(outcome, RuleError), (
            f"trial {trial}: {outcome!r}"
        )


@pytest.mark.django_db(transaction=True)
def test_seat_swap_and_result_at_one_table_never_deadlock(postgres, alice, bob):
    """Each trial at its own table of one round: either the swap comes first (and the
    result, entered after it, is there too) or the result does (and the swap is refused)."""
    tournament = make_tournament(alice, players=4 * TRIALS, scorekeepers=[bob])
    round_ = open_round(tournament, alice)
    swapped = refused = 0
    for trial, table in enumerate(round_.tables.order_by("number")):
        game = table.games.get(number=1)
        players = seated(game)
        racks = rummikub_racks(game, "R4 B10 K2", "J 7", "O3")
        swap, result = at_once(
            lambda players=players: seat_swap(
                round_=round_, by=alice, player_a=players[1], player_b=players[2]
            ),
            lambda game=game, racks=racks, players=players: result_submit(
                game=game.pk, by=bob, based_on=0, end="rummikub", winner=players[0], racks=racks
            ),
        )
        _no_database_errors([swap, result], trial)
        assert isinstance(result, Result), f"trial {trial}: {result!r}"
        after = seated(game)
        if isinstance(swap, RuleError):
            refused += 1
            assert "already has a result" in swap.message
            assert after == players, f"trial {trial}: seats changed after a refused swap"
        else:
            swapped += 1
            assert after == [players[0], players[2], players[1], players[3]]
            # The swap committed before the result was entered (not after it landed).
            swap_time = table.seats.get(position=2).history.latest().history_date
            assert swap_time < Result.objects.get(pk=result.pk).submitted_at
        assert Result.objects.filter(game=game).count() == 1
    assert swapped + refused == TRIALS


@pytest.mark.django_db(transaction=True)
def test_rules_change_racing_the_first_result_never_scores_under_old_rules(postgres, alice):
    """A win bonus set at the same moment as the first result: either the bonus came first
    and the result carries it, or the result came first and the change is refused."""
    for trial in range(TRIALS):
        tournament = make_tournament(alice, name=f"Open {trial}", players=4)
        game = open_round(tournament, alice).tables.get().games.get(number=1)
        update, result = at_once(
            lambda t=tournament: tournament_update(tournament=t, by=alice, rules={"win_bonus": 50}),
            lambda game=game: enter_rummikub(game, alice),
        )
        _no_database_errors([update, result], trial)
        assert isinstance(result, Result), f"trial {trial}: {result!r}"
        tournament.refresh_from_db()
        bonus = tournament.rules["win_bonus"]
        if isinstance(update, RuleError):
            # Refused beside the option that would have changed (the form's field).
            assert update.path == ("rules", "win_bonus")
            assert bonus == 0, f"trial {trial}: refused, yet the rules changed"
        else:
            assert bonus == 50
        winner = result.racks.get(winner=True)
        losers = sum(rack.points for rack in result.racks.filter(winner=False))
        # The winner scores what the others hold (standard rules), plus the bonus in force.
        assert winner.score == losers + bonus, f"trial {trial}: scored under old rules"


@pytest.mark.django_db(transaction=True)
def test_three_clicks_on_open_round_open_one(postgres, alice):
    tournament = make_tournament(alice, players=8)
    open_round(tournament, alice)
    for expected in (2, 3, 4):
        outcomes = at_once(
            *[
                lambda expected=expected: round_open(
                    tournament=tournament,
                    by=alice,
                    method="random",
                    number=expected,
                    open_anyway=True,
                )
                for _ in range(3)
            ]
        )
        opened = [o for o in outcomes if not isinstance(o, Exception)]
        conflicts = [o for o in outcomes if isinstance(o, RoundConflict)]
        assert len(opened) == 1, outcomes
        assert len(conflicts) == 2, outcomes
        assert opened[0].number == expected
        assert all(c.last_round == expected and c.path == ("number",) for c in conflicts)
        assert list(tournament.rounds.values_list("number", flat=True).order_by("number")) == [
            *range(1, expected + 1)
        ]
    assert Game.objects.filter(table__round__tournament=tournament).count() == 4 * 2 * 4


@pytest.mark.django_db(transaction=True)
def test_a_preview_committed_twice_at_once_opens_one_round(postgres, alice):
    tournament = make_tournament(alice, players=14)
    preview = round_draw(tournament=tournament, by=alice, method="random", seed=8)
    commit = {"method": "random", "tables": preview.tables, "seed": 8, "number": 1}
    outcomes = at_once(
        *[lambda: round_open(tournament=tournament, by=alice, **commit) for _ in range(3)]
    )
    opened = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(opened) == 1, outcomes
    assert all(isinstance(o, RoundConflict) for o in outcomes if o not in opened), outcomes
    assert tournament.rounds.count() == 1
    assert Seat.objects.filter(round__tournament=tournament).count() == 14
