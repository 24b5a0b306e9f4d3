"""Result and penalty services: versions, confirmation, conflicts, bad input, penalties."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from games.models import Penalty, RackEntry, Result, Standings
from games.services.results import (
    ResultConflict,
    penalty_record,
    penalty_void,
    result_confirm,
    result_submit,
)
from games.services.standings import standings_recompute
from scoring.errors import RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, rummikub_racks, seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    t = make_tournament(alice, players=4, scorekeepers=[bob])
    return open_round(t, alice).tables.get().games.get(number=1)


@pytest.fixture
def game3(alice, bob):
    """A table of three, as in docs/rules/scoring.md example 1."""
    t = make_tournament(alice, players=3, scorekeepers=[bob])
    return open_round(t, alice).tables.get().games.get(number=1)


def counts():
    return (Result.objects.count(), RackEntry.objects.count(), Penalty.objects.count())


def paths(error: RuleError) -> set[tuple]:
    return {e.path for e in error.flatten()}


def scores(result: Result) -> dict[int, int]:
    return dict(result.racks.values_list("player_id", "score"))


@pytest.mark.django_db(transaction=True)
def test_submit_scores_stores_and_confirms_at_once(game3, bob):
    p1, p2, p3 = seated(game3)
    tournament = game3.table.round.tournament
    version_before = tournament.results_version
    result = enter_rummikub(game3, bob, "R4 B10 K2", "J 7")
    assert (result.version, result.status, result.confirmed_by) == (1, "confirmed", bob)
    assert scores(result) == {p1: 53, p2: -16, p3: -37}
    rack = result.racks.get(player_id=p3)
    assert (rack.tiles, rack.points, rack.tile_count, rack.jokers, rack.charge) == (
        "7 J",
        37,
        2,
        1,
        37,
    )
    tournament.refresh_from_db()
    assert tournament.results_version == version_before + 1
    # Committed, so the standings were recomputed (in-process here) for the new version.
    snapshot = Standings.objects.get(
        tournament=tournament, computed_version=tournament.results_version
    )
    assert snapshot.rows[0]["player"]["id"] == p1


def test_racks_by_totals(game, bob):
    p = seated(game)
    result = result_submit(
        game=game,
        by=bob,
        based_on=0,
        end="rummikub",
        winner=p[1],
        racks=[
            {"player": p[0], "points": 23, "tile_count": 4},
            {"player": p[1], "points": 0, "tile_count": 0},
            {"player": p[2], "points": 35, "tile_count": 2, "jokers": 1},
            {"player": p[3], "tiles": "R1", "no_meld": "could_not"},
        ],
    )
    assert scores(result) == {p[0]: -23, p[1]: 59, p[2]: -35, p[3]: -1}
    assert result.racks.get(player_id=p[0]).tiles is None
    assert result.racks.get(player_id=p[3]).no_meld == "could_not"


def test_correction_is_a_new_version_and_supersedes(game, bob, alice):
    first = enter_rummikub(game, bob)
    second = enter_rummikub(game, alice, "R1", "R2", "R3", based_on=1)
    first.refresh_from_db()
    assert (first.status, second.status, second.version) == ("superseded", "confirmed", 2)
    assert scores(first) != scores(second)  # the old version stays readable as it was


def test_stale_based_on_is_a_conflict_naming_the_current_version(game, bob):
    enter_rummikub(game, bob)
    before = counts()
    with pytest.raises(ResultConflict) as caught:
        enter_rummikub(game, bob, "R1", "R2", "R3", based_on=0)
    assert caught.value.current_version == 1
    assert caught.value.path == ("based_on",)
    assert counts() == before


def test_double_entry_waits_for_a_second_person(alice, bob, carol):
    t = make_tournament(alice, players=4, scorekeepers=[bob, carol], results_need_confirmation=True)
    game = open_round(t, alice).tables.get().games.get(number=1)
    result = enter_rummikub(game, bob)
    t.refresh_from_db()
    assert (result.status, result.confirmed_by, t.results_version) == ("submitted", None, 4)
    with pytest.raises(PermissionDenied):
        result_confirm(result=result, by=bob)
    confirmed = result_confirm(result=result, by=carol)
    t.refresh_from_db()
    assert (confirmed.status, confirmed.confirmed_by, t.results_version) == ("confirmed", carol, 5)
    with pytest.raises(RuleError, match="only a submitted entry"):
        result_confirm(result=result, by=alice)


def test_organiser_may_confirm_own_entry_and_newer_entry_discards_pending(alice, bob):
    t = make_tournament(alice, players=4, scorekeepers=[bob], results_need_confirmation=True)
    game = open_round(t, alice).tables.get().games.get(number=1)
    pending = enter_rummikub(game, alice)
    newer = enter_rummikub(game, alice, "R1", "R2", "R3", based_on=1)
    pending.refresh_from_db()
    assert pending.status == "discarded"
    assert result_confirm(result=newer, by=alice).status == "confirmed"


def test_strangers_cannot_submit(game, mallory):
    with pytest.raises(PermissionDenied):
        enter_rummikub(game, mallory)
    assert counts() == (0, 0, 0)


def racks_with(game, index, **changes):
    racks = rummikub_racks(game, "R4 B10 K2", "J 7", "O3")
    racks[index] = {**racks[index], **changes}
    return racks


@pytest.mark.parametrize(
    ("build", "path", "needle"),
    [
        (lambda g, p: {"racks": racks_with(g, 1, player=99999)}, ("racks", 1, "player"), "99999"),
        (
            lambda g, p: {"racks": racks_with(g, 2, player=p[1])},
            ("racks", 2, "player"),
            "twice",
        ),
        (
            lambda g, p: {"racks": rummikub_racks(g, "R4", "J 7", "O3")[:3]},
            ("racks",),
            "no rack for seated player",
        ),
        (lambda g, p: {"racks": racks_with(g, 1, tiles="R4 X9")}, ("racks", 1, "tiles"), "X9"),
        (lambda g, p: {"racks": racks_with(g, 1, tiles="J J J")}, ("racks", 1, "tiles"), "joker"),
        (lambda g, p: {"racks": racks_with(g, 1, tiles="R5 R5 R5")}, ("racks", 1, "tiles"), "R5"),
        (lambda g, p: {"racks": racks_with(g, 0, tiles="R1")}, None, "empty"),
        (
            lambda g, p: {"racks": racks_with(g, 1, tiles=None, points=-4)},
            ("racks", 1, "points"),
            "negative",
        ),
        (
            lambda g, p: {"racks": racks_with(g, 1, tiles=None, points=900)},
            ("racks", 1, "points"),
            "900",
        ),
        (
            lambda g, p: {"racks": racks_with(g, 1, tiles="R4", points=4)},
            ("racks", 1, "points"),
            "both tiles and totals",
        ),
        (
            lambda g, p: {"racks": racks_with(g, 1, no_meld="maybe")},
            ("racks", 1, "no_meld"),
            "maybe",
        ),
        (lambda g, p: {"winner": 99999}, ("winner",), "99999"),
        (lambda g, p: {"end": "draw"}, ("end",), "draw"),
        (lambda g, p: {"based_on": -1}, ("based_on",), "version"),
        (lambda g, p: {"racks": []}, ("racks",), "rack"),
    ],
)
def test_bad_result_input_names_the_field_and_saves_nothing(game, bob, build, path, needle):
    players = seated(game)
    payload = {
        "based_on": 0,
        "end": "rummikub",
        "winner": players[0],
        "racks": rummikub_racks(game, "R4 B10 K2", "J 7", "O3"),
    }
    payload.update(build(game, players))
    version = game.table.round.tournament.results_version
    with pytest.raises(RuleError) as caught:
        result_submit(game=game, by=bob, **payload)
    if path is not None:
        assert path in paths(caught.value)
    assert needle in str(caught.value)
    assert counts() == (0, 0, 0)
    game.table.round.tournament.refresh_from_db()
    assert game.table.round.tournament.results_version == version


def test_two_empty_racks_in_a_rummikub_game_are_refused(game, bob):
    players = seated(game)
    with pytest.raises(RuleError):
        result_submit(
            game=game,
            by=bob,
            based_on=0,
            end="rummikub",
            winner=players[0],
            racks=rummikub_racks(game, "", "J 7", "O3"),
        )
    assert counts() == (0, 0, 0)


def test_pool_exhausted_computes_the_winner(game, bob):
    p = seated(game)
    result = result_submit(
        game=game,
        by=bob,
        based_on=0,
        end="pool_exhausted",
        racks=[
            {"player": p[0], "tiles": "R12"},
            {"player": p[1], "tiles": "B12"},
            {"player": p[2], "tiles": "K12"},
            {"player": p[3], "tiles": "O13 O7"},
        ],
    )
    assert scores(result) == {p[0]: 8, p[1]: 8, p[2]: 8, p[3]: -8}
    assert set(result.racks.filter(winner=True).values_list("player_id", flat=True)) == set(p[:3])


def test_pool_exhausted_with_a_given_winner_who_is_not_lowest(game, bob):
    p = seated(game)
    with pytest.raises(RuleError) as caught:
        result_submit(
            game=game,
            by=bob,
            based_on=0,
            end="pool_exhausted",
            winner=p[3],
            racks=[
                {"player": p[0], "tiles": "R2"},
                {"player": p[1], "tiles": "B12"},
                {"player": p[2], "tiles": "K12"},
                {"player": p[3], "tiles": "O13 O7"},
            ],
        )
    assert ("winner",) in paths(caught.value)
    assert counts() == (0, 0, 0)


def test_tile_count_required_when_rules_decide_by_tiles(alice, bob):
    t = make_tournament(alice, players=2, scorekeepers=[bob], preset="encyclopedia")
    game = open_round(t, alice).tables.get().games.get(number=1)
    p = seated(game)
    with pytest.raises(RuleError) as caught:
        result_submit(
            game=game,
            by=bob,
            based_on=0,
            end="pool_exhausted",
            racks=[{"player": p[0], "points": 20}, {"player": p[1], "tiles": "R5"}],
        )
    assert ("racks", 0, "tile_count") in paths(caught.value)


# --- penalties -----------------------------------------------------------------------------


def test_penalties_draw_tiles_from_the_rules(alice, bob):
    t = make_tournament(
        alice,
        players=4,
        scorekeepers=[bob],
        rules={"timeout_draw": 2, "failed_manipulation_draw": 4},
    )
    game = open_round(t, alice).tables.get().games.get(number=1)
    p = seated(game)
    timeout = penalty_record(game=game, by=bob, player=p[1], kind="timeout", note="3 min")
    failed = penalty_record(game=game, by=bob, player=p[2], kind="failed_manipulation")
    assert (timeout.tiles_drawn, timeout.points, timeout.recorded_by) == (2, 0, bob)
    assert failed.tiles_drawn == 4
    assert timeout.history.get().history_user == bob


def test_sanction_reduces_the_game_score_in_standings_and_void_restores_it(game, bob, alice):
    p = seated(game)
    enter_rummikub(game, bob)
    tournament = game.table.round.tournament

    def standing_score(player):
        snapshot = standings_recompute(tournament_id=tournament.pk)
        tournament.refresh_from_db()
        assert snapshot.computed_version == tournament.results_version
        row = next(r for r in snapshot.rows if r["player"]["id"] == player)
        return row["metrics"]["score"], row["metrics"]["penalties"]

    base = standing_score(p[0])[0]
    sanction = penalty_record(
        game=game, by=bob, player=p[0], kind="sanction", points=10, note="phone at the table"
    )
    assert standing_score(p[0]) == (base - 10, 1)
    penalty_void(penalty=sanction, by=alice)
    assert standing_score(p[0]) == (base, 0)
    sanction.refresh_from_db()
    assert sanction.voided and sanction.voided_by == alice
    with pytest.raises(RuleError, match="already void"):
        penalty_void(penalty=sanction, by=alice)


@pytest.mark.parametrize(
    ("fields", "path"),
    [
        ({"kind": "sanction"}, ("points",)),
        ({"kind": "sanction", "points": 0}, ("points",)),
        ({"kind": "timeout", "points": 5}, ("points",)),
        ({"kind": "yellow_card"}, ("kind",)),
        ({"kind": "timeout", "player": 99999}, ("player",)),
        ({"kind": "timeout", "note": "x" * 301}, ("note",)),
    ],
)
def test_bad_penalties_are_refused(game, bob, fields, path):
    fields = {"player": seated(game)[0], **fields}
    with pytest.raises(RuleError) as caught:
        penalty_record(game=game, by=bob, **fields)
    assert path in paths(caught.value)
    assert Penalty.objects.count() == 0


def test_strangers_cannot_record_or_void_penalties(game, bob, mallory):
    with pytest.raises(PermissionDenied):
        penalty_record(game=game, by=mallory, player=seated(game)[0], kind="timeout")
    penalty = penalty_record(game=game, by=bob, player=seated(game)[0], kind="timeout")
    with pytest.raises(PermissionDenied):
        penalty_void(penalty=penalty, by=mallory)


# --- constraints live in the database -------------------------------------------------------


def test_database_allows_one_confirmed_result_per_game(game, bob):
    result = enter_rummikub(game, bob)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(
            game=game,
            version=2,
            end="rummikub",
            status="confirmed",
            submitted_by=bob,
            confirmed_by=bob,
            confirmed_at=result.confirmed_at,
        )


def test_database_forbids_a_repeated_version(game, bob):
    enter_rummikub(game, bob)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(
            game=game, version=1, end="rummikub", status="submitted", submitted_by=bob
        )


def recomputes(callbacks) -> list:
    """The on-commit callbacks that enqueue a standings recompute."""
    return [c for c in callbacks if c.__qualname__ == "standings_changed.<locals>.enqueue"]


def test_one_transaction_enqueues_one_recompute(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        make_tournament(alice, players=6)
    assert len(recomputes(callbacks)) == 1
    # ...and the cached pages are dropped (`tournaments.events.pages_changed`).
    assert len(callbacks) > len(recomputes(callbacks))


def test_a_rolled_back_change_enqueues_nothing_and_blocks_nothing(
    alice, django_capture_on_commit_callbacks
):
    from tournaments.services.players import player_register

    t = make_tournament(alice)
    with django_capture_on_commit_callbacks() as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            player_register(tournament=t, by=alice, name="Ada")
            raise RuntimeError("the venue's wifi dropped")
        player_register(tournament=t, by=alice, name="Bram")
    assert len(recomputes(callbacks)) == 1
