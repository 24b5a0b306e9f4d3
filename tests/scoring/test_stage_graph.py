"""Tests of scoring.stage_graph (rank ranges, by table with best losers, feeds filled in
order, carry rounding) and scoring.seating.seeded (alternating and snake)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.seating import table_sizes
from scoring.seating.seeded import seat_seeded
from scoring.stage_graph import Feed, by_table, carry, feed, rank_range
from scoring.stages import Ranked


def field_of(ranks: list[int]) -> list[Ranked]:
    return [Ranked(player=i + 1, rank=r, score=100 - r) for i, r in enumerate(ranks)]


# --- carry rounding --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "mode", "rounding", "carried"),
    [
        (7, "half", "toward_zero", 3),
        (-7, "half", "toward_zero", -3),
        (7, "half", "half_up", 4),  # the Japanese association's 7 -> 4
        (-7, "half", "half_up", -3),  # a negative half goes up too: toward the higher score
        (8, "half", "half_up", 4),
        (-8, "half", "half_up", -4),
        (0, "half", "half_up", 0),
        (1, "half", "half_up", 1),
        (-1, "half", "half_up", 0),
        (7, "all", "half_up", 7),
        (7, "none", "half_up", 0),
    ],
)
def test_carry_rounds_as_said(value, mode, rounding, carried):
    assert carry(value, mode, rounding) == carried


def test_an_unknown_rounding_is_refused():
    with pytest.raises(RuleError) as caught:
        carry(7, "half", "banker")
    assert caught.value.path == ("carry_rounding",)


@given(st.integers(-10_000, 10_000))
def test_half_up_is_never_below_toward_zero_and_differs_only_on_odd_positive(value):
    up, zero = carry(value, "half", "half_up"), carry(value, "half", "toward_zero")
    assert up >= zero
    assert (up != zero) == (value > 0 and value % 2 == 1)
    assert abs(2 * up - value) <= 1  # a half, rounded by at most half a point


# --- rank ranges -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "first", "last", "entrants", "tied"),
    [
        (list(range(1, 17)), 1, 8, tuple(range(1, 9)), False),
        (list(range(1, 17)), 9, 16, tuple(range(9, 17)), False),
        (list(range(1, 11)), 9, 16, (9, 10), False),  # past the end: who is there
        ([1, 2, 3, 4, 5, 6, 7, 8, 8, 10], 1, 8, None, True),  # 8th shared: one by lot
    ],
)
def test_rank_range(ranks, first, last, entrants, tied):
    result = rank_range(field_of(ranks), first, last, lot_seed="t")
    if entrants is not None:
        assert result.entrants == entrants
    assert len(result.entrants) == min(last, len(ranks)) - first + 1
    assert (result.tie is not None) == tied


def test_a_range_that_finds_nobody_is_refused():
    with pytest.raises(RuleError) as caught:
        rank_range(field_of([1, 2, 3]), 5, 8)
    assert caught.value.path == ("rank_from",)


@given(
    st.lists(st.integers(1, 6), min_size=2, max_size=30).map(sorted),
    st.integers(1, 30),
    st.text(max_size=5),
)
def test_two_ranges_split_the_field_without_overlap(ranks, split, seed):
    """1..k and k+1..n take every player once, whatever ties straddle the line."""
    field = field_of(ranks)
    split = min(split, len(field) - 1)
    a = rank_range(field, 1, split, seed).entrants
    b = rank_range(field, split + 1, len(field), seed).entrants
    assert not set(a) & set(b)
    assert sorted(a + b) == [r.player for r in field]
    # nobody in B ranks better than anybody in A
    rank = {r.player: r.rank for r in field}
    assert max(rank[p] for p in a) <= min(rank[p] for p in b)


# --- by table --------------------------------------------------------------------------


def test_table_winners_and_best_losers():
    # 11 players at tables of 4, 4, 3; ranks are the player ids (1 best).
    field = field_of(list(range(1, 12)))
    tables = [[1, 5, 9, 11], [2, 6, 10, 4], [3, 7, 8]]
    result = by_table(field, tables, 1, 2)
    assert result.table_winners == (1, 2, 3)
    assert result.entrants == (1, 2, 3, 4, 5)  # 4 and 5: the best losers


def test_top_two_per_table_skips_a_withdrawn_player():
    field = [r for r in field_of(list(range(1, 9))) if r.player != 1]  # 1 withdrew
    tables = [[1, 3, 5, 7], [2, 4, 6, 8]]
    result = by_table(field, tables, 2, 0)
    assert result.entrants == (2, 3, 4, 5)


@given(
    st.integers(4, 40).flatmap(
        lambda n: st.tuples(
            st.just(n), st.permutations(list(range(1, n + 1))), st.integers(1, 2), st.integers(0, 5)
        )
    )
)
def test_every_table_sends_its_best_and_losers_come_from_the_rest(args):
    n, order, per_table, losers = args
    field = field_of(list(range(1, n + 1)))
    sizes = table_sizes(n, 4)
    tables, at = [], 0
    for size in sizes:
        tables.append(list(order[at : at + size]))
        at += size
    result = by_table(field, tables, per_table, losers)
    for table in tables:
        best = sorted(table)[:per_table]
        assert set(best) <= set(result.entrants)
    assert len(result.entrants) == min(n, len(result.table_winners) + losers)
    others = sorted(set(range(1, n + 1)) - set(result.table_winners))
    assert set(result.entrants) - set(result.table_winners) == set(others[:losers])


# --- feeds -----------------------------------------------------------------------------


def test_an_a_and_a_b_final_after_one_qualification():
    field = field_of(list(range(1, 21)))
    a, b = feed(field, [Feed(2, "ranks", first=1, last=8), Feed(3, "ranks", first=9, last=16)])
    assert a.entrants == tuple(range(1, 9)) and b.entrants == tuple(range(9, 17))


def test_an_open_final_and_a_juniors_final_take_each_player_once():
    field = field_of(list(range(1, 21)))
    juniors = frozenset({3, 7, 12, 15, 18, 20})
    open_final, junior_final = feed(
        field, [Feed(2, "top", top=8), Feed(3, "top", top=4, members=juniors)]
    )
    assert open_final.entrants == tuple(range(1, 9))
    assert junior_final.entrants == (12, 15, 18, 20)  # 3 and 7 play the open final


def test_a_division_entry_takes_all_of_its_players_and_manual_takes_nobody():
    field = field_of(list(range(1, 9)))
    whole, by_hand = feed(
        field, [Feed(2, "division", members=frozenset({2, 4, 6})), Feed(3, "manual")]
    )
    assert whole.entrants == (2, 4, 6) and by_hand.entrants == ()


@given(st.integers(2, 40), st.lists(st.integers(1, 12), min_size=1, max_size=4))
def test_feeds_never_share_a_player(n, tops):
    field = field_of(list(range(1, n + 1)))
    results = []
    taken = 0
    feeds = []
    for key, top in enumerate(tops, start=2):
        if taken + top > n:
            break
        feeds.append(Feed(key, "top", top=top))
        taken += top
    results = feed(field, feeds)
    players = [p for r in results for p in r.entrants]
    assert len(players) == len(set(players)) == taken


# --- seeded seating --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "method", "tables"),
    [
        (8, "alternating", [(1, 3, 5, 7), (2, 4, 6, 8)]),  # the Belgian semi-finals
        (8, "snake", [(1, 4, 5, 8), (2, 3, 6, 7)]),
        (12, "snake", [(1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10)]),
        (7, "alternating", [(1, 3, 5, 7), (2, 4, 6)]),
        # Tables of 4 and 3: a full table is skipped, the deal goes on to the next.
        (7, "snake", [(1, 4, 5, 7), (2, 3, 6)]),
    ],
)
def test_seeded_deals(n, method, tables):
    assert seat_seeded(list(range(1, n + 1)), 4, method) == tables


@given(st.integers(2, 60), st.sampled_from(["alternating", "snake"]), st.integers(2, 4))
def test_seeded_seats_everyone_once_at_the_draws_table_sizes(n, method, size):
    seated = seat_seeded(list(range(1, n + 1)), size, method)
    assert sorted(p for t in seated for p in t) == list(range(1, n + 1))
    assert [len(t) for t in seated] == table_sizes(n, size)
    # the best seeds are spread: seeds 1..t sit at t different tables
    firsts = [t[0] for t in seated]
    assert sorted(firsts) == list(range(1, len(seated) + 1))
    assert all(list(t) == sorted(t) for t in seated)  # best seed in seat 1
