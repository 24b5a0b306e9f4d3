"""The seating engine's wishes beside the history: clubs kept apart (same-club pairs) and
players with a fixed table (a mobility need)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.seating import (
    SAME_CLUB_LIGHT,
    SAME_CLUB_OFF,
    SeatingError,
    place_fixed,
    quality,
    seat_random,
    seat_swiss,
    table_sizes,
)

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_club_pairs(tables, clubs) -> int:
    return sum(
        1
        for t in tables
        for a, b in itertools.combinations(t, 2)
        if clubs.get(a) and clubs.get(a) == clubs.get(b)
    )


# --------------------------------------------------------------------------- quality


@pytest.mark.parametrize(
    ("tables", "clubs", "expected"),
    [
        ([(1, 2), (3, 4)], {1: "A", 2: "A", 3: "A", 4: "B"}, 1),
        ([(1, 2, 3, 4)], {1: "A", 2: "A", 3: "A", 4: "A"}, 6),
        ([(1, 2, 3, 4)], {1: "A", 2: "B", 3: "C", 4: "D"}, 0),
        # A blank club is nobody's club; players missing from `clubs` likewise.
        ([(1, 2, 3)], {1: "", 2: ""}, 0),
    ],
)
def test_quality_counts_same_club_pairs(tables, clubs, expected) -> None:
    assert quality(tables, [], clubs=clubs)["same_club_pairs"] == expected


def test_quality_without_clubs_has_no_club_figure() -> None:
    assert "same_club_pairs" not in quality([(1, 2)])


# --------------------------------------------------------------------------- clubs apart


@pytest.mark.parametrize("seed", range(5))
def test_round_one_of_64_from_8_clubs_of_8_has_no_same_club_table(seed: int) -> None:
    players = list(range(1, 65))
    clubs = {p: f"club {(p - 1) // 8}" for p in players}
    seating = seat_random(players, [], 4, seed, clubs=clubs)
    assert seating.quality["same_club_pairs"] == 0
    assert seating.quality["repeat_pairs"] == 0


@st.composite
def clubbed_field(draw):
    """Players in k clubs, none bigger than the number of tables (so 0 is reachable),
    some without a club."""
    table_size = draw(st.sampled_from([3, 4]))
    n = draw(st.integers(4, 60))
    tables = len(table_sizes(n, table_size))
    players = [5 * i + 3 for i in range(n)]
    rng = random.Random(draw(st.integers(0, 2**32)))
    order = list(players)
    rng.shuffle(order)
    clubs: dict[int, str] = {}
    club = 0
    while order:
        size = rng.randint(1, tables)
        for p in order[:size]:
            clubs[p] = f"club {club}" if size > 1 else ""
        order, club = order[size:], club + 1
    return players, table_size, clubs


@FAST
@given(clubbed_field(), st.integers(0, 2**31))
def test_clubs_no_bigger_than_the_tables_reach_zero_in_round_one(case, seed) -> None:
    players, table_size, clubs = case
    seating = seat_random(players, [], table_size, seed, clubs=clubs)
    assert seating.quality["same_club_pairs"] == 0
    assert same_club_pairs(seating.tables, clubs) == 0


def test_off_only_counts_and_seats_as_without_clubs() -> None:
    players = list(range(1, 33))
    clubs = {p: f"c{p % 4}" for p in players}
    plain = seat_random(players, [], 4, 7)
    off = seat_random(players, [], 4, 7, clubs=clubs, same_club_mode=SAME_CLUB_OFF)
    assert off.tables == plain.tables
    assert off.quality["same_club_pairs"] == same_club_pairs(off.tables, clubs)


def test_light_weight_never_buys_a_repeat() -> None:
    # 16 players, 4 clubs of 4; round 1 seated each club at one table. Round 2 with the
    # light weight: no repeat (every table mixes), and so no club pair either.
    players = list(range(1, 17))
    clubs = {p: f"c{(p - 1) // 4}" for p in players}
    history = [[(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)]]
    seating = seat_random(players, history, 4, 3, clubs=clubs, same_club_mode=SAME_CLUB_LIGHT)
    assert seating.quality["repeat_pairs"] == 0
    assert seating.quality["same_club_pairs"] == 0


def test_light_weight_prefers_mixed_clubs_when_repeats_are_equal() -> None:
    # Round 2 of 16 in 2 clubs of 8: no repeat is possible either way, and each table of
    # 4 from 2 clubs has at least 2 same-club pairs; light keeps it at the minimum.
    players = list(range(1, 17))
    clubs = {p: "A" if p <= 8 else "B" for p in players}
    history = [[(1, 9, 2, 10), (3, 11, 4, 12), (5, 13, 6, 14), (7, 15, 8, 16)]]
    seating = seat_random(players, history, 4, 5, clubs=clubs, same_club_mode=SAME_CLUB_LIGHT)
    assert seating.quality["repeat_pairs"] == 0
    assert seating.quality["same_club_pairs"] == 8


def test_unknown_same_club_mode_is_refused() -> None:
    with pytest.raises(SeatingError) as caught:
        seat_random([1, 2, 3, 4], same_club_mode="sometimes")
    assert caught.value.field == "same_club"


def test_swiss_round_one_keeps_clubs_apart() -> None:
    players = list(range(1, 33))
    clubs = {p: f"c{(p - 1) // 4}" for p in players}  # the rating order is club by club
    seating = seat_swiss(players, [], 4, 0, clubs=clubs)
    assert seating.quality["same_club_pairs"] == 0
    assert seat_swiss(players, [], 4, 0).quality["repeat_pairs"] == 0


# --------------------------------------------------------------------------- fixed tables


@st.composite
def fixed_field(draw):
    table_size = draw(st.sampled_from([2, 3, 4]))
    n = draw(st.integers(2, 80))
    players = [7 * i + 1 for i in range(n)]
    sizes = table_sizes(n, table_size)
    rng = random.Random(draw(st.integers(0, 2**32)))
    fixed: dict[int, int] = {}
    room = list(sizes)
    for p in rng.sample(players, draw(st.integers(0, min(n, 6)))):
        table = rng.randrange(len(sizes))
        if room[table]:
            room[table] -= 1
            fixed[p] = table + 1
    history = [[tuple(players[i : i + 2]) for i in range(0, n - 1, 2)]]
    return players, table_size, fixed, history


@FAST
@given(fixed_field(), st.integers(0, 2**31))
def test_random_seats_fixed_players_at_their_table(case, seed) -> None:
    players, table_size, fixed, history = case
    seating = seat_random(players, history, table_size, seed, fixed=fixed)
    assert sorted(p for t in seating.tables for p in t) == sorted(players)
    assert sorted(map(len, seating.tables), reverse=True) == table_sizes(len(players), table_size)
    for p, table in fixed.items():
        assert p in seating.tables[table - 1]


@FAST
@given(fixed_field(), st.integers(0, 2**31))
def test_swiss_seats_fixed_players_at_their_table(case, seed) -> None:
    players, table_size, fixed, history = case
    seating = seat_swiss(players, history, table_size, seed, fixed=fixed)
    assert sorted(p for t in seating.tables for p in t) == sorted(players)
    for p, table in fixed.items():
        assert p in seating.tables[table - 1]


def test_fixed_player_keeps_the_table_round_after_round() -> None:
    players = list(range(1, 21))
    history: list = []
    for r in range(5):
        seating = seat_random(players, history, 4, r, fixed={7: 2})
        assert 7 in seating.tables[1]
        history.append(seating.tables)


@pytest.mark.parametrize(
    ("fixed", "message"),
    [
        ({1: 3}, "player 1 is fixed to table 3, but this round has 2 tables"),
        ({1: 0}, "player 1 is fixed to table 0"),
        ({1: 1, 2: 1, 3: 1, 4: 1, 5: 1}, "more players are fixed to table 1 than its 4 seats"),
    ],
)
def test_fixed_tables_that_cannot_be_met_are_refused(fixed, message) -> None:
    with pytest.raises(SeatingError) as caught:
        seat_random(range(1, 9), [], 4, 0, fixed=fixed)
    assert caught.value.field == "fixed_table"
    assert message in caught.value.message


def test_place_fixed_moves_tables_and_players() -> None:
    tables = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    # 5 to table 1 (its table becomes table 1); 9 and 1 both to table 3: 1 joins 9.
    placed = place_fixed(tables, {5: 1, 9: 3, 1: 3})
    assert 5 in placed[0] and {1, 9} <= set(placed[2])
    assert sorted(p for t in placed for p in t) == list(range(1, 10))
    assert place_fixed(tables, {}) == [list(t) for t in tables]
