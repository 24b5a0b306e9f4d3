"""seat_swap: two players of one round exchange seats until a result exists there."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from games.services.rounds import seat_swap
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db


@pytest.fixture
def round1(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    return open_round(tournament, alice)


def seat_of(round_, number: int) -> tuple[int, int]:
    seat = Seat.objects.select_related("table").get(round=round_, player__number=number)
    return seat.table.number, seat.position


def player(round_, number: int) -> int:
    return round_.tournament.players.get(number=number).pk


def test_swap_across_tables_keeps_history(round1, alice):
    seat_swap(round_=round1, by=alice, player_a=player(round1, 2), player_b=player(round1, 7))
    assert (seat_of(round1, 2), seat_of(round1, 7)) == ((2, 3), (1, 2))
    history = Seat.history.filter(history_change_reason="seat swap")
    assert sorted(history.values_list("history_type", flat=True)) == ["+", "+", "-", "-"]
    assert {row.history_user for row in history} == {alice}


def test_swap_at_one_table_changes_who_starts_which_game(round1, alice):
    seat_swap(round_=round1, by=alice, player_a=player(round1, 1), player_b=player(round1, 4))
    assert (seat_of(round1, 1), seat_of(round1, 4)) == ((1, 4), (1, 1))
    assert Seat.objects.filter(round=round1).count() == 8


def test_swap_recomputes_the_quality(alice):
    tournament = make_tournament(alice, players=8)
    open_round(tournament, alice)
    round2 = open_round(tournament, alice)  # the same tables again: 12 repeat pairs
    assert round2.quality["repeat_pairs"] == 12
    a, b = (tournament.players.get(number=n).pk for n in (1, 5))
    round2 = seat_swap(round_=round2, by=alice, player_a=a, player_b=b)
    assert round2.quality["repeat_pairs"] == 6
    round2.refresh_from_db()
    assert round2.quality["repeat_pairs"] == 6


@pytest.mark.parametrize(
    ("a", "b", "path", "needle"),
    [
        ("#1", "#1", ("player_b",), "two different"),
        ("#1", 999_999, ("player_b",), "no seat in round 1"),
        ("x", "#2", ("player_a",), "choose a player"),
        (None, True, ("player_a",), "choose a player"),
    ],
)
def test_swap_refuses_bad_players(round1, alice, a, b, path, needle):
    def pick(value):  # "#n": the id of start number n
        is_number = isinstance(value, str) and value.startswith("#")
        return player(round1, int(value[1:])) if is_number else value

    with pytest.raises(RuleError) as caught:
        seat_swap(round_=round1, by=alice, player_a=pick(a), player_b=pick(b))
    errors = caught.value.flatten()
    assert any(e.path == path and needle in e.message for e in errors)
    assert seat_of(round1, 1) == (1, 1)


def test_swap_is_refused_once_any_version_exists_at_either_table(round1, alice, bob):
    from tournaments.services.tournaments import tournament_update

    tournament_update(tournament=round1.tournament, by=alice, results_need_confirmation=True)
    game = Game.objects.get(table__round=round1, table__number=2, number=3)
    enter_rummikub(game, bob)  # only submitted, not confirmed: the series has begun anyway
    with pytest.raises(RuleError, match="already has a result"):
        seat_swap(round_=round1, by=alice, player_a=player(round1, 1), player_b=player(round1, 6))
    assert seat_of(round1, 6) == (2, 2)
    # Two players of the untouched table may still swap.
    seat_swap(round_=round1, by=alice, player_a=player(round1, 1), player_b=player(round1, 2))
