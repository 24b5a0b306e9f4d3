"""Planned schedules: known designs (social golfer counts) and plan_rounds."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.seating import Seating, SeatingError, designs, plan_rounds, table_sizes
from scoring.seating.groups import count_meetings, positions, swap_meetings
from scoring.seating.search import schedule_cost

FAST = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def repeats(schedule: list[Seating], history=()) -> int:
    """Meetings beyond the first of every pair over history + schedule."""
    met: dict[frozenset, int] = {}
    for seating in [*history, *(s.tables for s in schedule)]:
        for table in seating:
            for pair in itertools.combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    return sum(m - 1 for m in met.values())


def assert_rounds_valid(schedule: list[Seating], players, table_size: int) -> None:
    for seating in schedule:
        assert sorted(p for t in seating.tables for p in t) == sorted(players)
        assert sorted(map(len, seating.tables), reverse=True) == table_sizes(
            len(players), table_size
        )
        assert seating.method == "plan"


# --------------------------------------------------------------------------- the swap


@FAST
@given(st.integers(5, 30), st.integers(1, 4), st.randoms(use_true_random=False))
def test_swap_meetings_recounts_and_returns_the_cost_change(n, rounds, rnd) -> None:
    # The one swap every engine uses: meetings stay a true count of the schedule, and the
    # returned change is exactly the change in schedule cost.
    schedule = []
    for _ in range(rounds):
        order = list(range(n))
        rnd.shuffle(order)
        groups, start = [], 0
        for size in table_sizes(n, 4):
            groups.append(order[start : start + size])
            start += size
        schedule.append(groups)
    meetings = [[0] * n for _ in range(n)]
    for groups in schedule:
        count_meetings(meetings, groups)
    groups = schedule[-1]
    where = positions(groups, n)
    a = rnd.randrange(n)
    b = rnd.choice([p for p in range(n) if where[p] != where[a]])
    before = schedule_cost(meetings)
    delta = swap_meetings(groups, where, meetings, a, b)
    recounted = [[0] * n for _ in range(n)]
    for g in schedule:
        count_meetings(recounted, g)
    assert meetings == recounted
    assert schedule_cost(meetings) - before == delta
    assert where == positions(groups, n)
    assert sorted(p for g in groups for p in g) == list(range(n))


# --------------------------------------------------------------------------- designs


@pytest.mark.parametrize(
    ("n", "table_size", "rounds"),
    [
        (16, 4, 5),  # AG(2, 4)
        (64, 4, 21),  # AG(3, 4)
        (20, 4, 5),  # TD(4, 5)
        (24, 4, 7),  # 1-rotational, stored base round
        (28, 4, 9),  # 1-rotational, stored base round
        (32, 4, 10),  # published 8-4-10 schedule (the GF(2)^5 line spread gives 9)
        (36, 4, 9),  # TD(4, 9)
        (196, 4, 49),  # TD(4, 49)
        (19, 4, 5),  # TD(4, 5) less one player
        (15, 4, 5),  # AG(2, 4) less one player
        (9, 3, 4),  # AG(2, 3), Kirkman's 9 schoolgirls
        (27, 3, 13),  # AG(3, 3)
        (15, 3, 5),  # TD(3, 5)
        (10, 2, 9),  # circle method
    ],
)
def test_design_has_no_repeat(n: int, table_size: int, rounds: int) -> None:
    design = designs.design_rounds(n, table_size)
    assert len(design) == rounds
    met = set()
    for groups in design:
        assert sorted(p for g in groups for p in g) == list(range(n))
        assert sorted(map(len, groups), reverse=True) == table_sizes(n, table_size)
        for g in groups:
            for pair in itertools.combinations(sorted(g), 2):
                assert pair not in met
                met.add(pair)


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32, 49])
def test_finite_field_axioms(q: int) -> None:
    add, mul = designs.finite_field(q)
    for a in range(q):
        assert add[a][0] == a and mul[a][1] == a
        if a:
            assert sorted(mul[a]) == list(range(q))  # a has an inverse: no zero divisors
    triples = list(itertools.product(range(q), repeat=3))
    for a, b, c in random.Random(q).sample(triples, min(200, len(triples))):
        assert mul[a][add[b][c]] == add[mul[a][b]][mul[a][c]]


# --------------------------------------------------------------------------- social golfers


@pytest.mark.parametrize(("n", "rounds"), [(16, 5), (20, 5), (24, 7), (28, 9), (32, 9), (64, 21)])
def test_plan_reaches_the_social_golfer_counts(n: int, rounds: int) -> None:
    players = list(range(101, 101 + n))
    schedule = plan_rounds(players, rounds, 4, seed=7)
    assert len(schedule) == rounds
    assert_rounds_valid(schedule, players, 4)
    assert repeats(schedule) == 0
    assert all(s.quality["repeat_pairs"] == 0 for s in schedule)
    assert all(s.quality["max_meetings"] == 1 for s in schedule)


def test_binary_line_spread_gives_nine_rounds_for_thirty_two() -> None:
    rounds = designs.binary_spread_rounds(5)
    assert len(rounds) == 9
    pairs = [
        tuple(sorted(pair)) for r in rounds for g in r for pair in itertools.combinations(g, 2)
    ]
    assert len(pairs) == len(set(pairs))


def test_plan_reaches_ten_rounds_for_thirty_two() -> None:
    assert len(designs.published_rounds(32, 4)) == 10
    schedule = plan_rounds(range(32), 10, 4, seed=1)
    assert_rounds_valid(schedule, list(range(32)), 4)
    assert repeats(schedule) == 0


def test_plan_balances_starters() -> None:
    schedule = plan_rounds(range(16), 5, 4, seed=3)
    starts = {p: 0 for p in range(16)}
    for seating in schedule:
        for table in seating.tables:
            starts[table[0]] += 1
    assert max(starts.values()) - min(starts.values()) <= 2
    assert schedule[-1].quality["starter_balance"] <= 2


def test_plan_is_reproducible_and_seed_dependent() -> None:
    a = plan_rounds(range(20), 4, 4, seed=1)
    b = plan_rounds(list(reversed(range(20))), 4, 4, seed=1)
    c = plan_rounds(range(20), 4, 4, seed=2)
    assert [s.tables for s in a] == [s.tables for s in b]
    assert [s.tables for s in a] != [s.tables for s in c]


@FAST
@given(st.integers(16, 80), st.integers(1, 4), st.integers(0, 2**31))
def test_plan_reaches_zero_repeats_for_small_feasible_cases(n, rounds, seed) -> None:
    # At most 4 rounds with at least 16 players (4+ tables): far below the ⌊(n-1)/3⌋
    # bound, so repeat-free schedules exist; the plan must find one.
    schedule = plan_rounds(range(n), rounds, 4, seed)
    assert_rounds_valid(schedule, range(n), 4)
    assert repeats(schedule) == 0


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 60), st.sampled_from([2, 3, 4]), st.integers(0, 5), st.integers(0, 99))
def test_plan_seats_everyone_every_round(n, table_size, rounds, seed) -> None:
    # Small fields with many rounds must repeat; the search then runs to its patience.
    schedule = plan_rounds(range(n), rounds, table_size, seed)
    assert len(schedule) == rounds
    assert_rounds_valid(schedule, range(n), table_size)
    assert schedule == plan_rounds(range(n), rounds, table_size, seed)


def test_plan_keeps_repeats_low_past_the_bound() -> None:
    # 12 players, tables of 4: a second round without repeats is impossible (4 players
    # from 3 tables); the plan still seats everyone and keeps the damage small.
    schedule = plan_rounds(range(12), 3, 4, seed=0)
    assert_rounds_valid(schedule, range(12), 4)
    assert repeats(schedule) <= 12


def test_plan_refuses_bad_input() -> None:
    with pytest.raises(SeatingError):
        plan_rounds([1], 3)
    with pytest.raises(SeatingError):
        plan_rounds(range(8), -1)
    assert plan_rounds(range(8), 0) == []


# --------------------------------------------------------------------------- re-planning


def test_plan_after_a_withdrawal_keeps_clear_of_the_rounds_played() -> None:
    players = list(range(1, 17))
    played = [s.tables for s in plan_rounds(players, 5, 4, seed=3)[:2]]
    remaining = [p for p in players if p != 16]
    rest = plan_rounds(remaining, 3, 4, seed=5, history=played)
    assert_rounds_valid(rest, remaining, 4)
    assert repeats(rest, played) == 0
    assert rest[0].quality["repeat_pairs"] == 0


def test_plan_with_late_entries() -> None:
    players = list(range(1, 25))
    played = [s.tables for s in plan_rounds(players, 2, 4, seed=1)]
    now = [p for p in players if p not in (3, 9)] + [100, 101, 102, 103]
    rest = plan_rounds(now, 4, 4, seed=2, history=played)
    assert_rounds_valid(rest, now, 4)
    assert repeats(rest, played) == 0
    assert rest == plan_rounds(now, 4, 4, seed=2, history=played)
