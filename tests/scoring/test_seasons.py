"""Tests of scoring.seasons: season totals by sum, best N of M and places, with caps."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import RuleError
from scoring.seasons import (
    Finish,
    SeasonRule,
    check_rule,
    contribution,
    season_standings,
)

# Three evenings of a league (member: (rank, score)).
EVENINGS = [
    [Finish(1, 1, 80), Finish(2, 2, 10), Finish(3, 3, -90)],
    [Finish(2, 1, 50), Finish(3, 2, 20), Finish(1, 3, -70)],
    [Finish(3, 1, 40), Finish(1, 2, 30), Finish(4, 3, -70)],
]


def totals(rows):
    return {row.member: (row.rank, row.total) for row in rows}


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # sum: 1 = 80-70+30 = 40, 2 = 10+50 = 60, 3 = -90+20+40 = -30, 4 = -70
        (SeasonRule("sum"), {2: (1, 60), 1: (2, 40), 3: (3, -30), 4: (4, -70)}),
        # best 2: 1 = 80+30, 2 = 50+10, 3 = 40+20, 4 = -70
        (SeasonRule("best", best=2), {1: (1, 110), 2: (2, 60), 3: (3, 60), 4: (4, -70)}),
        # places 25/20/16: 1 = 25+16+20, 2 = 20+25, 3 = 16+20+25, 4 = 16
        (SeasonRule("places"), {1: (1, 61), 3: (1, 61), 2: (3, 45), 4: (4, 16)}),
        # sum capped at 50 a night: 1 = 50-50+30, 2 = 10+50, 3 = -50+20+40, 4 = -50
        (SeasonRule("sum", cap=50), {2: (1, 60), 1: (2, 30), 3: (3, 10), 4: (4, -50)}),
    ],
)
def test_season_rules(rule, expected):
    assert totals(season_standings(EVENINGS, rule)) == expected


def test_ties_go_to_the_best_single_night_then_to_fewer_nights():
    # best 2: members 2 and 3 both total 60; 2's best night is 50, 3's 40 -> 2 ahead.
    rows = season_standings(EVENINGS, SeasonRule("best", best=2))
    assert [r.member for r in rows] == [1, 2, 3, 4]
    # places: members 1 and 3 total 61 with a best of 25 each over 3 nights: shared rank.
    rows = season_standings(EVENINGS, SeasonRule("places"))
    assert [(r.member, r.rank) for r in rows][:2] == [(1, 1), (3, 1)]
    # the same total from fewer nights ranks ahead
    rows = season_standings(
        [[Finish(1, 1, 30), Finish(2, 2, 10)], [Finish(2, 1, 20)]], SeasonRule()
    )
    assert [(r.member, r.rank) for r in rows] == [(1, 1), (2, 2)]


def test_best_marks_what_counted_and_prefers_earlier_nights_on_equal_values():
    events = [[Finish(1, 1, 10)], [Finish(1, 1, 10)], [Finish(1, 1, 5)]]
    (row,) = season_standings(events, SeasonRule("best", best=1))
    assert [c.counted for c in row.contributions] == [True, False, False]
    assert row.total == 10 and row.events == 3


def test_places_beyond_the_table_earn_nothing():
    assert contribution(Finish(1, 16, 0), SeasonRule("places")) == 0
    assert contribution(Finish(1, 2, 0), SeasonRule("places", place_points=(3, 1))) == 1


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"rule": "average"}, ("rule",)),
        ({"rule": "best"}, ("best",)),
        ({"rule": "best", "best": 0}, ("best",)),
        ({"rule": "sum", "best": 3}, ("best",)),
        ({"rule": "places", "place_points": [10, 12]}, ("place_points",)),
        ({"rule": "places", "place_points": []}, ("place_points",)),
        ({"rule": "places", "place_points": [3, -1]}, ("place_points",)),
        ({"cap": 0}, ("cap",)),
        ({"cap": "50"}, ("cap",)),
    ],
)
def test_bad_rules_name_the_field(values, field):
    with pytest.raises(RuleError) as caught:
        check_rule(values)
    assert caught.value.path == field


def test_a_good_rule():
    assert check_rule({"rule": "best", "best": 6, "cap": 80}) == SeasonRule("best", 6, cap=80)


evenings = st.lists(
    st.lists(st.integers(-100, 100), min_size=1, max_size=6), min_size=1, max_size=6
)


def as_events(score_lists):
    events = []
    for scores in score_lists:
        ordered = sorted(scores, reverse=True)
        events.append([Finish(m, ordered.index(s) + 1, s) for m, s in enumerate(scores, start=1)])
    return events


@given(evenings, st.integers(1, 6))
def test_best_n_never_exceeds_the_sum_of_positives_and_equals_sum_when_n_covers_all(scores, n):
    events = as_events(scores)
    best = {r.member: r for r in season_standings(events, SeasonRule("best", best=n))}
    plain = {r.member: r for r in season_standings(events, SeasonRule("sum"))}
    for member, row in best.items():
        values = sorted((c.value for c in row.contributions), reverse=True)
        assert row.total == sum(values[:n])
        if n >= row.events:
            assert row.total == plain[member].total


@given(evenings, st.integers(1, 120))
def test_cap_bounds_every_contribution_and_ranks_are_ordered(scores, cap):
    rows = season_standings(as_events(scores), SeasonRule("sum", cap=cap))
    for row in rows:
        assert all(-cap <= c.value <= cap for c in row.contributions)
    assert [r.total for r in rows] == sorted((r.total for r in rows), reverse=True)
    assert rows[0].rank == 1


# --- best N games ----------------------------------------------------------------------


def test_best_games_counts_the_highest_games_of_the_season():
    from scoring.seasons import Finish, SeasonRule, season_standings

    events = [
        [Finish(1, 1, 40, (30, 10, 0)), Finish(2, 2, 20, (20, 0, 0))],
        [Finish(1, 2, 5, (5, 0)), Finish(2, 1, 50, (25, 25))],
    ]
    rows = season_standings(events, SeasonRule("best_games", 3))
    by_member = {row.member: row for row in rows}
    assert by_member[2].total == 70 and by_member[1].total == 45  # 25+25+20 / 30+10+5
    assert [c.value for c in by_member[1].contributions] == [40, 5]
    assert [c.counted for c in by_member[2].contributions] == [True, True]
    assert rows[0].member == 2


def test_best_games_refuses_a_cap_and_needs_n():
    from scoring.errors import RuleError
    from scoring.seasons import check_rule

    for rule, field in (({"rule": "best_games", "best": 5, "cap": 60}, "cap"),
                        ({"rule": "best_games"}, "best")):  # fmt: skip
        with pytest.raises(RuleError) as caught:
            check_rule(rule)
        assert caught.value.path == (field,)


@given(
    st.lists(st.lists(st.integers(-50, 120), max_size=6), min_size=1, max_size=5),
    st.integers(1, 12),
)
def test_best_games_total_is_the_sum_of_the_n_largest(games_per_event, best):
    from scoring.seasons import Finish, SeasonRule, season_standings

    events = [[Finish(1, 1, sum(g), tuple(g))] for g in games_per_event]
    (row,) = season_standings(events, SeasonRule("best_games", best))
    every = sorted((s for g in games_per_event for s in g), reverse=True)
    assert row.total == sum(every[:best])
    assert sum(c.value for c in row.contributions if c.counted) == row.total
