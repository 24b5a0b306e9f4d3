"""Placement points and first places in the standings recompute: the finishing order of
every confirmed game, by the tournament's placement table, within the query bound."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.standings import standings_recompute
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db

RANKING = ["placement_points", "first_places", "score"]


def _play(alice, **rules):
    """8 players, 2 tables of 4, every game entered: seat 1 goes out; seats 2, 3, 4 hold
    16, 37 and 3 points, so seat 4 is second, seat 2 third, seat 3 last."""
    tournament = make_tournament(alice, name="City Cup", players=8, ranking=RANKING, **rules)
    open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament, number=1):
        enter_rummikub(game, alice)
    return tournament


def _by_number(snapshot):
    return {row["player"]["number"]: row for row in snapshot.rows}


def test_placement_points_and_first_places_from_the_finishing_order(
    alice, django_assert_max_num_queries
):
    tournament = _play(alice)
    # tournament, players, placements, sums, insert + id: one more than without placement
    with django_assert_max_num_queries(6):
        snapshot = standings_recompute(tournament_id=tournament.pk)
    rows = _by_number(snapshot)
    got = {
        n: (r["metrics"]["placement_points"], r["metrics"]["first_places"]) for n, r in rows.items()
    }
    # table 1 seats 1-4, table 2 seats 5-8: 4/3/1/0 by seat 1, 4, 2, 3
    assert got == {
        1: (4, 1),
        4: (3, 0),
        2: (1, 0),
        3: (0, 0),
        5: (4, 1),
        8: (3, 0),
        6: (1, 0),
        7: (0, 0),
    }
    assert [row["rank"] for row in snapshot.rows] == [1, 1, 3, 3, 5, 5, 7, 7]


def test_the_tournaments_own_placement_table_counts(alice):
    tournament = _play(alice, rules={"placement_points": {"4": [10, 5, 2, 0]}})
    rows = _by_number(standings_recompute(tournament_id=tournament.pk))
    assert [rows[n]["metrics"]["placement_points"] for n in (1, 4, 2, 3)] == [10, 5, 2, 0]


def test_without_placement_in_the_ranking_the_rows_do_not_carry_it(alice):
    tournament = make_tournament(alice, name="Plain", players=4)
    open_round(tournament, alice)
    enter_rummikub(Game.objects.get(table__round__tournament=tournament, number=1), alice)
    snapshot = standings_recompute(tournament_id=tournament.pk)
    assert "placement_points" not in snapshot.rows[0]["metrics"]
