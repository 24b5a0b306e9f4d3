"""Placement points and first places in the standings recompute: the finishing order of
every confirmed game, by the tournament's placement table, within the query bound."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.results import result_submit
from games.services.rounds import round_open
from games.services.stages import stage_close, stage_cut_preview, stage_rows
from games.services.standings import standings_recompute
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, seated
from tournaments.models import Stage
from tournaments.services.stages import stage_create
from tournaments.services.tournaments import tournament_update

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
    # tournament, players, the sums with the placement points beside them, the insert
    # returning its id: as many as without placement
    with django_assert_max_num_queries(4):
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


def test_a_stage_ranked_by_placement_points_stays_within_the_query_bound(
    alice, django_assert_max_num_queries
):
    """A final table of 4 ranked by placement points: only its own games count."""
    tournament = make_tournament(alice, name="Staged", players=8)
    qualification = stage_create(tournament=tournament, by=alice, name="Qualification")
    final = stage_create(
        tournament=tournament,
        by=alice,
        name="Final",
        kind="final",
        cut_top=4,
        ranking=["placement_points", "score"],
    )
    for game in Game.objects.filter(table__round=open_round(tournament, alice)):
        enter_rummikub(game, alice)
    entrants = [p.id for p in stage_cut_preview(qualification).entrants]
    stage_close(stage=qualification, by=alice, expected_entrants=entrants)
    round_ = round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    game = Game.objects.filter(table__round=round_).order_by("number").first()
    enter_rummikub(game, alice)
    final = Stage.objects.select_related("tournament").get(pk=final.pk)
    with django_assert_max_num_queries(8):
        rows = stage_rows(final)
    assert sorted(r.metrics["placement_points"] for r in rows) == [0, 1, 3, 4]


def test_a_substitutes_seat_takes_its_place_but_earns_its_player_nothing(alice):
    tournament = make_tournament(alice, name="Sub Cup", players=4, ranking=RANKING)
    round_ = open_round(tournament, alice)
    game = Game.objects.get(table__round=round_, number=1)
    players = seated(game)
    # seat 1 goes out; seats 2, 3, 4 hold 4, 10 and 2: places 1, 3, 4, 2 — seat 2 a substitute
    racks = [{"player": players[0], "tiles": ""}]
    racks += [
        {"player": p, "tiles": t} for p, t in zip(players[1:], ("R4", "B10", "K2"), strict=True)
    ]
    racks[1]["substitute"] = "Sam Sub"
    result_submit(game=game, by=alice, based_on=0, end="rummikub", winner=players[0], racks=racks)

    def points():
        snapshot = standings_recompute(tournament_id=tournament.pk)
        got = {row["player"]["id"]: row["metrics"]["placement_points"] for row in snapshot.rows}
        return [got[p] for p in players]

    assert points() == [4, 0, 0, 3]  # seat 3 stays fourth: the substitute finished third
    tournament_update(tournament=tournament, by=alice, credit_substitute_games=True)
    assert points() == [4, 1, 0, 3]
