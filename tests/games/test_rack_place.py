"""Each rack's stored finish in its game (`RackEntry.place`, `place_shared`, `seats`):
what the services store, what the migration fills in for results stored before it, and
what the database refuses.

The place is checked against the rules as `scoring.placement` states them, worked out
here apart from the engine: the winners share place 1; a loser's place is the number of
winners plus the losers with a higher game score, plus one (equal scores share the better
place); a place is shared when another seat of the game has it.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from games.models import RackEntry, Result
from games.services.results import result_submit
from games.services.withdrawals import game_forfeit
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, seated

pytestmark = pytest.mark.django_db

COLOURS = "RBKO"  # one colour per seat: no tile is drawn more often than the set holds


@pytest.fixture
def game(alice, bob):
    t = make_tournament(alice, players=4, scorekeepers=[bob])
    return open_round(t, alice).tables.get().games.get(number=1)


def expected(racks: list[tuple[int, int, bool]]) -> dict[int, tuple[int, bool, int]]:
    """(player, score, winner) of every rack of a result -> (place, shared, seats)."""
    winners = sum(1 for _, _, won in racks if won)
    places = {
        player: 1 if won else winners + sum(1 for _, s, w in racks if not w and s > score) + 1
        for player, score, won in racks
    }
    return {
        player: (place, list(places.values()).count(place) > 1, len(racks))
        for player, place in places.items()
    }


def stored(result: Result) -> tuple[dict, dict]:
    racks = list(result.racks.values_list("player", "score", "winner", "place", "place_shared",
                                          "seats"))  # fmt: skip
    return (
        {p: (place, shared, seats) for p, _, _, place, shared, seats in racks},
        expected([(p, score, won) for p, score, won, *_ in racks]),
    )


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    end=st.sampled_from(["rummikub", "pool_exhausted"]),
    values=st.lists(st.integers(1, 3), min_size=4, max_size=4),
)
def test_a_stored_result_stores_each_racks_place_as_the_rules_say(game, bob, end, values):
    """Small rack values, so that equal scores (shared places, tied winners of a pool
    end) are everywhere."""
    p = seated(game)
    racks = [{"player": p[i], "tiles": f"{COLOURS[i]}{v}"} for i, v in enumerate(values)]
    winner = None
    if end == "rummikub":
        racks[0]["tiles"] = ""
        winner = p[0]
    try:
        result = result_submit(
            game=game,
            by=bob,
            based_on=game.results.count(),
            end=end,
            winner=winner,
            racks=racks,
        )
    except RuleError:
        reject()
    got, want = stored(result)
    assert got == want


def test_a_forfeited_game_stores_its_places(game, alice):
    """The present seats share the pot and place 1 (the default rule shares it); the
    absent seat comes last."""
    p = seated(game)
    result = game_forfeit(game=game, by=alice, player=p[3], based_on=0)
    got, want = stored(result)
    assert got == want
    assert got[p[3]][0] == 4


def test_the_database_refuses_a_rack_without_its_place_or_out_of_its_seats(game, bob):
    result = enter_rummikub(game, bob)
    rack = result.racks.exclude(winner=True).first()
    assert rack is not None
    for change in ({"place": None}, {"place": 5}, {"place": 0}):
        with pytest.raises(IntegrityError), transaction.atomic():
            RackEntry.objects.filter(pk=rack.pk).update(**change)
    winner = result.racks.get(winner=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        RackEntry.objects.filter(pk=winner.pk).update(place=2)


BEFORE = [("games", "0008_standings_rows_as_json")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_in_the_places_the_services_store(alice, bob):
    """Results stored with their places, the places taken away (the migrations back), and
    put back by the migration (forwards): the same places, shared and tied ones too."""
    t = make_tournament(alice, players=8, scorekeepers=[bob])
    games = list(open_round(t, alice).tables.get(number=1).games.order_by("number"))
    enter_rummikub(games[0], bob, "R4", "B4", "K9")  # two losers share place 2
    enter_rummikub(games[0], bob, "R4", "B5", "K9", based_on=1)  # a correction
    p = seated(games[1])
    result_submit(
        game=games[1],
        by=bob,
        based_on=0,
        end="pool_exhausted",
        racks=[{"player": p[i], "tiles": f"{COLOURS[i]}{v}"} for i, v in enumerate([2, 2, 5, 7])],
    )  # two winners share place 1
    game_forfeit(game=games[2], by=alice, player=p[2], based_on=0)
    racks = RackEntry.objects.filter(result__game__table__round__tournament=t)
    fields = ("pk", "place", "place_shared", "seats")
    kept = sorted(racks.values_list(*fields))
    assert len(kept) == 16
    assert {(place, shared) for _, place, shared, _ in kept} >= {(1, True), (2, True)}

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    with connection.cursor() as cursor:
        columns = {c.name for c in connection.introspection.get_table_description(
            cursor, RackEntry._meta.db_table)}  # fmt: skip
    assert "place" not in columns
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes("games"))

    assert sorted(racks.values_list(*fields)) == kept
