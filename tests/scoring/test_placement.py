"""Tests of scoring.placement: finishing order with its ties, placement points at tables
of 2, 3 and 4, first places, the organiser's table checked; and the two standings
metrics built on them (placement_points, first_places)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.placement import (
    DEFAULT_PLACEMENT_POINTS,
    GameFinish,
    PlaceCount,
    as_stored,
    check_placement_points,
    finishing_places,
    placement_from_counts,
    placement_points,
    placement_totals,
)
from scoring.standings import GameLine, compute_standings

from .helpers import rule_error


@pytest.mark.parametrize(
    ("scores", "winners", "places", "points"),
    [
        # table of 4, one winner, all different: 4/3/1/0
        ({1: 18, 2: -5, 3: -10, 4: -3}, {1}, {1: 1, 4: 2, 2: 3, 3: 4}, {1: 4, 4: 3, 2: 1, 3: 0}),
        # two losers tied for second share it (3 each), the last is fourth
        ({1: 20, 2: -5, 3: -5, 4: -10}, {1}, {1: 1, 2: 2, 3: 2, 4: 4}, {1: 4, 2: 3, 3: 3, 4: 0}),
        # three tied winners of a pool-exhausted game (docs/rules/scoring.md example 3): all first
        ({1: 8, 2: 8, 3: 8, 4: -8}, {1, 2, 3}, {1: 1, 2: 1, 3: 1, 4: 4}, {1: 4, 2: 4, 3: 4, 4: 0}),
        # a sanctioned winner below a loser's score is still first
        ({1: -12, 2: -5, 3: -10, 4: -3}, {1}, {1: 1, 4: 2, 2: 3, 3: 4}, {1: 4, 4: 3, 2: 1, 3: 0}),
        # table of 3: 4/2/0, losers tied for second
        ({1: 10, 2: -5, 3: -5}, {1}, {1: 1, 2: 2, 3: 2}, {1: 4, 2: 2, 3: 2}),
        ({1: 10, 2: -3, 3: -7}, {1}, {1: 1, 2: 2, 3: 3}, {1: 4, 2: 2, 3: 0}),
        # table of 2: 4/0; two tied winners both first
        ({1: 7, 2: -7}, {1}, {1: 1, 2: 2}, {1: 4, 2: 0}),
        ({1: 0, 2: 0}, {1, 2}, {1: 1, 2: 1}, {1: 4, 2: 4}),
    ],
)
def test_finishing_order_and_points_by_table_size_with_ties(scores, winners, places, points):
    assert {p: place for p, (place, _) in finishing_places(scores, winners).items()} == places
    assert placement_points(scores, winners=winners) == points


@pytest.mark.parametrize(
    ("scores", "winners", "firsts"),
    [
        ({1: 18, 2: -5, 3: -13}, {1}, {1: 1, 2: 0, 3: 0}),
        ({1: 8, 2: 8, 3: -8}, {1, 2}, {1: 0, 2: 0, 3: 0}),  # shared: no one won outright
        ({1: 1, 2: 0}, set(), {1: 0, 2: 0}),  # no winner recorded: no first place
        ({1: 10, 2: -5, 3: -5}, {1}, {1: 1, 2: 0, 3: 0}),
    ],
)
def test_first_places_count_games_won_outright(scores, winners, firsts):
    totals = placement_totals([GameFinish(scores, frozenset(winners))])
    assert totals.firsts == firsts


def test_a_substitute_seat_takes_its_place_but_earns_its_player_nothing():
    game = GameFinish({1: 12, 2: -4, 3: -8}, frozenset({1}), left_out=frozenset({2}))
    totals = placement_totals([game])
    assert totals.points == {1: 4, 3: 0}  # 3 is third, not second
    assert 2 not in totals.firsts


def test_an_organisers_table_replaces_the_default_for_its_sizes():
    table = check_placement_points({"4": [5, 3, 2, 0]})
    assert table == {**DEFAULT_PLACEMENT_POINTS, 4: (5, 3, 2, 0)}
    assert placement_points({1: 9, 2: 1, 3: -4, 4: -6}, table, {1}) == {1: 5, 2: 3, 3: 2, 4: 0}
    assert as_stored(table) == {"2": [4, 0], "3": [4, 2, 0], "4": [5, 3, 2, 0]}
    assert check_placement_points(as_stored(table)) == table


@pytest.mark.parametrize(
    ("table", "path", "words"),
    [
        ([4, 3, 1, 0], ("placement_points",), "object of table size"),
        ({"four": [4, 3, 1, 0]}, ("placement_points", "four"), "2 to 4"),
        ({"1": [4]}, ("placement_points", "1"), "2 to 4"),
        ({"4": "4 3 1 0"}, ("placement_points", "4"), "list of points"),
        ({"4": [4, 3, 1]}, ("placement_points", "4"), "needs 4 places, not 3"),
        ({"3": [4, 2.5, 0]}, ("placement_points", "3"), "whole number"),
        ({"3": [4, True, 0]}, ("placement_points", "3"), "whole number"),
        ({"2": [4, -1]}, ("placement_points", "2"), "from 0 to 1000"),
        ({"2": [1001, 0]}, ("placement_points", "2"), "from 0 to 1000"),
        ({"3": [4, 0, 2]}, ("placement_points", "3"), "fewer points"),
    ],
)
def test_bad_placement_tables_name_the_size(table, path, words):
    with rule_error(path, words):
        check_placement_points(table)


def test_the_field_path_can_sit_inside_the_rules():
    with rule_error(("rules", "placement_points", "4"), "needs 4 places"):
        check_placement_points({4: [1]}, ("rules", "placement_points"))


# --- properties ----------------------------------------------------------------------------


@st.composite
def games(draw):
    """One game: 2-4 seats, small scores (ties likely), one winner or several tied ones."""
    seats = draw(st.integers(2, 4))
    players = list(range(1, seats + 1))
    scores = {p: draw(st.integers(-5, 5)) for p in players}
    winners = draw(st.sets(st.sampled_from(players), min_size=1, max_size=seats - 1))
    return scores, frozenset(winners)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_without_ties_a_tables_points_add_up_to_its_row(game):
    scores, winners = game
    placed = finishing_places(scores, winners)
    points = placement_points(scores, winners=winners)
    row = DEFAULT_PLACEMENT_POINTS[len(scores)]
    if not any(shared for _place, shared in placed.values()):
        assert sorted(points.values(), reverse=True) == list(row)
    else:  # a shared place gives each the better place's points: never less than the row
        assert sum(points.values()) >= sum(row)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_places_follow_winners_then_scores(game):
    scores, winners = game
    placed = finishing_places(scores, winners)
    for p, (place, _) in placed.items():
        # a place is one more than the players strictly ahead of you
        ahead = sum(
            (q in winners and p not in winners)
            or (q not in winners and p not in winners and scores[q] > scores[p])
            for q in scores
        )
        assert place == 1 + ahead
    assert all(placed[w][0] == 1 for w in winners)


@st.composite
def tournaments(draw):
    """A few rounds of full tables; each game one or more winners, scores arbitrary."""
    players = list(range(1, draw(st.integers(2, 9)) + 1))
    lines, game, table = [], 0, 0
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(players))
        start = 0
        while len(order) - start >= 2:
            size = draw(st.integers(2, min(4, len(order) - start)))
            seated, start, table = order[start : start + size], start + size, table + 1
            for _ in range(draw(st.integers(0, 3))):
                game += 1
                winners = draw(st.sets(st.sampled_from(seated), min_size=1, max_size=size - 1))
                for p in seated:
                    score = draw(st.integers(-6, 6))
                    lines.append(GameLine(p, rnd, table, game, score, 0, p in winners, False))
    return players, lines


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_first_places_never_exceed_games_won_and_points_stay_in_bounds(tournament):
    players, lines = tournament
    rows = compute_standings(
        players=players,
        lines=lines,
        penalties={},
        ranking=["placement_points", "first_places", "score"],
        lot_seed="p",
    )
    for row in rows:
        m = row.metrics
        assert 0 <= m["first_places"] <= m["games_won"]
        assert 0 <= m["placement_points"] <= 4 * m["games_played"]
        # every game won earns place 1's 4 points at least
        assert m["placement_points"] >= 4 * m["games_won"]
    ranked = [(row.metrics["placement_points"], row.metrics["first_places"]) for row in rows]
    assert ranked == sorted(ranked, reverse=True)


def test_placement_ranks_a_small_event():
    # Round 1, one table of 4: 1 wins (4), 2 and 3 tie for second (3 each), 4 last (0).
    # Round 1, game 2: 2 wins (4), 1 second (3), 3 third (1), 4 last (0).
    lines = [
        GameLine(1, 1, 1, 1, 20, 0, True, True),
        GameLine(2, 1, 1, 1, -5, 5, False, False),
        GameLine(3, 1, 1, 1, -5, 5, False, False),
        GameLine(4, 1, 1, 1, -10, 10, False, False),
        GameLine(2, 1, 1, 2, 15, 0, True, True),
        GameLine(1, 1, 1, 2, -2, 2, False, False),
        GameLine(3, 1, 1, 2, -4, 4, False, False),
        GameLine(4, 1, 1, 2, -9, 9, False, False),
    ]
    rows = compute_standings(
        players=[1, 2, 3, 4],
        lines=lines,
        penalties={},
        ranking=["placement_points", "first_places"],
        lot_seed="x",
    )
    got = [
        (r.rank, r.player, r.metrics["placement_points"], r.metrics["first_places"]) for r in rows
    ]
    assert got == [(1, 1, 7, 1), (1, 2, 7, 1), (3, 3, 4, 0), (4, 4, 0, 0)]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games(), max_size=8))
def test_counting_places_sums_like_whole_games(played):
    """What the recompute's SQL sends (games counted by place) sums as the games do."""
    finishes = [GameFinish(scores, winners) for scores, winners in played]
    counted: dict[tuple, int] = {}
    for game in finishes:
        for player, (place, shared) in finishing_places(game.scores, game.winners).items():
            key = (player, len(game.scores), place, shared, player in game.winners)
            counted[key] = counted.get(key, 0) + 1
    counts = [PlaceCount(*key, games) for key, games in counted.items()]
    assert placement_from_counts(counts) == placement_totals(finishes)


def test_a_place_beyond_the_table_is_a_programming_error():
    with pytest.raises(ValueError, match="place 5 at a table of 4"):
        placement_from_counts([PlaceCount(1, 4, 5, False, False, 1)])
