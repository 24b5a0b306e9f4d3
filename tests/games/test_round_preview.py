"""Opening a round in two steps and uneven tables said out loud
(point 9), at the service: `round_draw` previews and saves nothing, `round_open` commits
exactly a previewed draw, and refuses over missing results unless told to open anyway."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from games.models import Game, Seat, Table
from games.services.draw import RoundConflict, round_draw
from games.services.gaps import round_results_missing
from games.services.rounds import round_cancel, round_open
from scoring.errors import Conflict, RuleError
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Player, Round, SeatingPlan
from tournaments.services.players import player_register

pytestmark = pytest.mark.django_db


def counts() -> tuple[int, int, int, int, int]:
    return (
        Round.objects.count(),
        Table.objects.count(),
        Seat.objects.count(),
        Game.objects.count(),
        SeatingPlan.objects.count(),
    )


def seated(round_: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("position").values_list("player_id", flat=True))
        for t in round_.tables.order_by("number")
    ]


@pytest.fixture
def fourteen(alice, bob):
    return make_tournament(alice, scorekeepers=[bob], players=14, rounds_planned=3)


@pytest.mark.parametrize("method", ["random", "swiss", "plan"])
def test_a_preview_saves_nothing(fourteen, alice, method):
    before = counts()
    preview = round_draw(tournament=fourteen, by=alice, method=method, seed=5)
    assert counts() == before
    assert preview.number == 1 and preview.method == method and preview.seed == 5
    assert sorted(p for t in preview.tables for p in t) == sorted(
        fourteen.players.values_list("id", flat=True)
    )


def test_fourteen_players_sit_at_two_tables_of_four_and_two_of_three(fourteen, alice):
    preview = round_draw(tournament=fourteen, by=alice, method="random", seed=1)
    assert [len(t) for t in preview.tables] == [4, 4, 3, 3]
    assert preview.games == [4, 4, 3, 3]
    assert preview.table_sizes == "2 tables of 4 and 2 tables of 3; tables of 3 play 3 games."
    assert preview.uneven
    # Game n is started by seat ((n-1) mod seats) + 1.
    assert preview.starters(2) == preview.tables[2]
    assert preview.starters(0) == preview.tables[0]


def test_the_same_seed_previews_and_opens_the_same_draw(fourteen, alice):
    preview = round_draw(tournament=fourteen, by=alice, method="random", seed=77)
    again = round_draw(tournament=fourteen, by=alice, method="random", seed=77)
    other = round_draw(tournament=fourteen, by=alice, method="random", seed=78)
    assert preview.tables == again.tables
    assert other.tables != preview.tables
    round_ = round_open(
        tournament=fourteen,
        by=alice,
        method="random",
        tables=preview.tables,
        seed=preview.seed,
        number=preview.number,
    )
    assert seated(round_) == preview.tables
    assert (round_.method, round_.seed) == ("random", 77)
    assert round_.quality == preview.quality


def test_a_preview_swapped_by_hand_is_opened_as_swapped(fourteen, alice):
    preview = round_draw(tournament=fourteen, by=alice, method="random", seed=3)
    tables = [list(t) for t in preview.tables]
    tables[0][0], tables[3][2] = tables[3][2], tables[0][0]
    measured = round_draw(
        tournament=fourteen, by=alice, method="random", seed=3, tables=tables, number=1
    )
    assert measured.tables == tables
    round_ = round_open(tournament=fourteen, by=alice, method="random", tables=tables, seed=3,
                        number=1)  # fmt: skip
    assert seated(round_) == tables


def test_a_planned_preview_stores_its_schedule_only_when_opened(fourteen, alice):
    preview = round_draw(tournament=fourteen, by=alice, method="plan", seed=9)
    assert not SeatingPlan.objects.exists()
    round_open(tournament=fourteen, by=alice, method="plan", tables=preview.tables, seed=9,
               number=1)  # fmt: skip
    assert SeatingPlan.objects.get().rounds[0] == preview.tables


def test_a_stale_preview_is_refused_and_nothing_is_saved(fourteen, alice):
    preview = round_draw(tournament=fourteen, by=alice, method="random", seed=2)
    open_round(fourteen, alice)  # someone else opened round 1 meanwhile
    before = counts()
    with pytest.raises(RoundConflict) as refused:
        round_open(tournament=fourteen, by=alice, method="random", tables=preview.tables,
                   seed=2, number=1, open_anyway=True)  # fmt: skip
    assert refused.value.path == ("number",)
    assert "round 1 is already open" in refused.value.message
    assert counts() == before


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda t, extra: [t[0], t[1], t[2], t[3][:-1]], "not seated"),
        (lambda t, extra: [t[0], t[1], t[2], [*t[3], extra, 999999]], "unknown player 999999"),
        (lambda t, extra: [t[0], t[1], t[2], [*t[3][:-1], t[0][0]]], "seated twice"),
        (lambda t, extra: [[*t[0], *t[1]], t[2], t[3]], "seats 8 players"),
        (lambda t, extra: "tables", "list the tables"),
    ],
)
def test_committed_tables_must_seat_exactly_the_players_to_seat(fourteen, alice, change,
                                                                 needle):  # fmt: skip
    preview = round_draw(tournament=fourteen, by=alice, method="random", seed=4)
    # A player registered after the preview must be seated too (the last table has room).
    late = player_register(tournament=fourteen, by=alice, name="Late Lena")
    tables = change([list(t) for t in preview.tables], late.id)
    before = counts()
    with pytest.raises(RuleError) as refused:
        round_open(tournament=fourteen, by=alice, method="random", tables=tables, seed=4,
                   number=1)  # fmt: skip
    assert {error.path for error in refused.value.flatten()} == {("tables",)}
    assert needle in str(refused.value)
    assert counts() == before


def test_a_withdrawn_player_in_committed_tables_is_refused(fourteen, alice):
    preview = round_draw(tournament=fourteen, by=alice, method="random", seed=4)
    Player.objects.filter(pk=preview.tables[0][0]).update(status="withdrawn")
    with pytest.raises(RuleError, match="has withdrawn"):
        round_open(tournament=fourteen, by=alice, method="random", tables=preview.tables,
                   seed=4, number=1)  # fmt: skip
    assert not Round.objects.exists()


def test_drawn_tables_without_a_seed_or_number_are_refused(fourteen, alice):
    preview = round_draw(tournament=fourteen, by=alice, method="random", seed=4)
    with pytest.raises(RuleError, match="previewed draw with its seed") as refused:
        round_open(tournament=fourteen, by=alice, method="random", tables=preview.tables,
                   number=1)  # fmt: skip
    assert refused.value.path == ("tables",)
    with pytest.raises(RuleError, match="its round number") as refused:
        round_open(tournament=fourteen, by=alice, method="random", tables=preview.tables, seed=4)
    assert refused.value.path == ("number",)
    assert not Round.objects.exists()


def test_missing_results_are_warned_and_need_open_anyway(alice, bob):
    club = make_tournament(alice, scorekeepers=[bob], players=16)
    round1 = open_round(club, alice)  # four tables of four, four games each
    games = Game.objects.filter(table__round=round1)
    for game in games.filter(table__number__in=(1, 3)):
        enter_rummikub(game, bob)
    for game in games.filter(table__number=2, number__lte=3):
        enter_rummikub(game, bob)
    club.results_need_confirmation = True
    club.save()
    enter_rummikub(games.get(table__number=4, number=1), bob)  # waits for confirmation

    gaps = round_results_missing(club, 2)
    assert [gap.sentence for gap in gaps] == [
        "round 1: 4 games missing at tables 2 and 4; 1 game waiting for confirmation at table 4"
    ]
    preview = round_draw(tournament=club, by=alice, method="random", seed=1)
    assert preview.needs_open_anyway and preview.warnings == [gaps[0].sentence]

    before = counts()
    with pytest.raises(Conflict) as refused:
        round_open(tournament=club, by=alice, method="random", tables=preview.tables, seed=1,
                   number=2)  # fmt: skip
    assert refused.value.path == ("open_anyway",)
    assert "round 1: 4 games missing at tables 2 and 4" in refused.value.message
    assert refused.value.details["missing_results"] == [gaps[0].sentence]
    assert counts() == before
    with pytest.raises(RuleError, match="true or false"):
        round_open(tournament=club, by=alice, method="random", open_anyway="yes")

    round2 = round_open(tournament=club, by=alice, method="random", tables=preview.tables,
                        seed=1, number=2, open_anyway=True)  # fmt: skip
    assert seated(round2) == preview.tables


def test_a_cancelled_round_can_be_previewed_and_opened_again(fourteen, alice):
    first = round_open(tournament=fourteen, by=alice, method="random", seed=1)
    round_cancel(round_=first, by=alice)
    preview = round_draw(tournament=fourteen, by=alice, method="random", seed=1, number=1)
    again = round_open(tournament=fourteen, by=alice, method="random", tables=preview.tables,
                       seed=1, number=1)  # fmt: skip
    assert again.number == 1 and seated(again) == preview.tables


def test_only_organisers_preview(fourteen, bob):
    with pytest.raises(PermissionDenied):
        round_draw(tournament=fourteen, by=bob, method="random")


def test_a_swiss_preview_says_its_rank_spread(alice, bob):
    club = make_tournament(alice, scorekeepers=[bob], players=8, ranking=["score"])
    round1 = open_round(club, alice)
    for game in Game.objects.filter(table__round=round1):
        enter_rummikub(game, bob)
    preview = round_draw(tournament=club, by=alice, method="swiss", seed=1)
    assert "rank_spread" in preview.quality
    assert any("standings" in sentence for sentence in preview.quality_words)


@pytest.mark.parametrize("players", [8, 64])
def test_a_preview_costs_a_fixed_number_of_queries(alice, bob, players,
                                                   django_assert_max_num_queries):  # fmt: skip
    club = make_tournament(alice, scorekeepers=[bob], players=players)
    open_round(club, alice)
    open_round(club, alice)
    # However many players: permission, rounds, players, history, clubs, missing results.
    with django_assert_max_num_queries(10):
        preview = round_draw(tournament=club, by=alice, method="random", seed=1)
    assert preview.number == 3 and len(preview.gaps) == 2
