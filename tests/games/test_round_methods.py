"""Opening rounds with drawn seatings: random, swiss and a stored plan."""

from __future__ import annotations

import pytest

from games.services.rounds import round_open
from games.services.seating import round_history
from scoring.errors import RuleError
from tests.factories import make_tournament
from tests.games.helpers import enter_rummikub
from tournaments.models import Player, SeatingPlan
from tournaments.services.players import player_register, player_update

pytestmark = pytest.mark.django_db


def seating(round_) -> list[list[int]]:
    return [
        list(table.seats.order_by("position").values_list("player_id", flat=True))
        for table in round_.tables.order_by("number")
    ]


def test_random_rounds_avoid_repeats_and_store_their_seed(alice):
    t = make_tournament(alice, players=16)
    rounds = [
        round_open(tournament=t, by=alice, method="random", open_anyway=True) for _ in range(3)
    ]
    for round_ in rounds:
        assert round_.method == "random" and round_.seed is not None
        assert round_.quality["repeat_pairs"] == 0
        assert sorted(p for table in seating(round_) for p in table) == sorted(
            t.players.values_list("id", flat=True)
        )


def test_random_seating_is_reproducible_from_the_seed(alice):
    first = make_tournament(alice, name="A", players=10)
    second = make_tournament(alice, name="B", players=10)
    a = round_open(tournament=first, by=alice, method="random", seed=42)
    b = round_open(tournament=second, by=alice, method="random", seed=42)
    offset = min(second.players.values_list("id", flat=True)) - min(
        first.players.values_list("id", flat=True)
    )
    assert [[p + offset for p in table] for table in seating(a)] == seating(b)
    assert [len(table) for table in seating(a)] == [4, 3, 3]


def test_swiss_seats_the_leaders_together(alice, bob):
    t = make_tournament(alice, players=8, scorekeepers=[bob], ranking=["score"])
    first = round_open(tournament=t, by=alice, method="random", seed=1)
    # The seat-1 player of each table wins every game of their series (enter_rummikub
    # makes seat 1 the winner), so they lead the standings; they have not met yet.
    for table in first.tables.all():
        for game in table.games.all():
            enter_rummikub(game, bob, "R9 R10", "B9 B10", "K9 K10")
    second = round_open(tournament=t, by=alice, method="swiss")
    leaders = {table.seats.get(position=1).player_id for table in first.tables.all()}
    assert leaders <= set(seating(second)[0])
    assert second.method == "swiss" and "rank_spread" in second.quality
    spreads = second.quality["rank_spreads"]
    assert len(spreads) == 2 and max(spreads) == second.quality["rank_spread"]


def test_plan_is_made_once_and_used_round_by_round(alice):
    t = make_tournament(alice, players=16, rounds_planned=5)
    rounds = [
        round_open(tournament=t, by=alice, method="plan", seed=7, open_anyway=True)
        for _ in range(5)
    ]
    plan = SeatingPlan.objects.get(tournament=t)
    assert plan.first_round == 1 and len(plan.rounds) == 5
    assert [seating(r) for r in rounds] == plan.rounds
    assert all(r.quality["repeat_pairs"] == 0 for r in rounds)
    assert max(r.quality["max_meetings"] for r in rounds) == 1
    with pytest.raises(RuleError, match="planned rounds"):
        round_open(tournament=t, by=alice, method="plan", open_anyway=True)


def test_plan_is_made_again_after_a_withdrawal(alice):
    t = make_tournament(alice, players=17, rounds_planned=3)
    round_open(tournament=t, by=alice, method="plan", seed=3)
    leaver = Player.objects.filter(tournament=t).order_by("number").first()
    player_update(player=leaver, by=alice, status="withdrawn")
    second = round_open(tournament=t, by=alice, method="plan", seed=3, open_anyway=True)
    plan = SeatingPlan.objects.get(tournament=t)
    assert plan.first_round == 2 and len(plan.rounds) == 2
    assert leaver.id not in {p for table in seating(second) for p in table}
    assert len(round_history(t, before=3)) == 2


def test_a_late_entry_is_seated_by_random(alice):
    t = make_tournament(alice, players=8)
    round_open(tournament=t, by=alice, method="random")
    late = player_register(tournament=t, by=alice, name="Late Lena")
    second = round_open(tournament=t, by=alice, method="random", open_anyway=True)
    assert late.id in {p for table in seating(second) for p in table}
    assert [len(table) for table in seating(second)] == [3, 3, 3]


@pytest.mark.parametrize(
    ("method", "options", "needle"),
    [
        ("plan", {}, "rounds_planned"),
        ("random", {"tables": [[1, 2]]}, "draws the tables"),
        ("random", {"seed": -1}, "between"),
        ("lottery", {}, "lottery"),
    ],
)
def test_bad_round_requests_are_refused(alice, method, options, needle):
    t = make_tournament(alice, players=6)
    with pytest.raises(RuleError, match=needle):
        round_open(tournament=t, by=alice, method=method, **options)
    assert t.rounds.count() == 0
