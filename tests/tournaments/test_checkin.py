"""Check-in and the draw's wishes, through the services: who is present for a round, that
opening it seats the present players only, clubs kept apart, fixed tables — and bad input
refused with the field named and nothing saved."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from games.models import Seat
from games.services.rounds import round_cancel, round_open
from scoring.errors import Conflict, RuleError
from tests.factories import make_tournament, open_round
from tournaments.models import Absence, Player, Tournament
from tournaments.selectors import checkin_list, players_to_seat
from tournaments.services.checkin import checkin_everyone, checkin_set
from tournaments.services.players import player_register, player_update
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_open(alice, bob):
    return make_tournament(alice, scorekeepers=[bob], players=8)


def players(tournament) -> list[Player]:
    return list(tournament.players.order_by("number"))


def seated_ids(round_) -> set[int]:
    return set(Seat.objects.filter(round=round_).values_list("player_id", flat=True))


def test_everyone_is_present_by_default(club_open):
    rows = checkin_list(club_open, 1)
    assert [row.present for row in rows] == [True] * 8
    assert players_to_seat(club_open, 1).count() == 8


def test_absent_for_one_round_then_back(club_open, alice, bob):
    ada = players(club_open)[0]
    # A scorekeeper may check players in or out at the door.
    marked = checkin_set(tournament=club_open, by=bob, round_number=1, player=ada.pk, present=False)
    assert marked is False
    assert ada not in players_to_seat(club_open, 1)
    round1 = round_open(tournament=club_open, by=alice, method="random", seed=3)
    assert ada.pk not in seated_ids(round1)
    assert len(seated_ids(round1)) == 7
    # Round 2: nobody marked her absent, so she is seated again.
    round2 = round_open(tournament=club_open, by=alice, method="random", seed=4, open_anyway=True)
    assert ada.pk in seated_ids(round2)
    assert len(seated_ids(round2)) == 8


def test_marking_twice_is_harmless_and_present_deletes_the_absence(club_open, alice):
    ada = players(club_open)[0]
    for _ in range(2):
        checkin_set(tournament=club_open, by=alice, round_number=2, player=ada.pk, present=False)
    assert Absence.objects.count() == 1
    checkin_set(tournament=club_open, by=alice, round_number=2, player=ada.pk, present=True)
    assert Absence.objects.count() == 0
    # History keeps who checked her out and in again.
    assert Absence.history.count() == 2


def test_everyone_present_in_one_action(club_open, alice):
    for player in players(club_open)[:3]:
        checkin_set(tournament=club_open, by=alice, round_number=1, player=player, present=False)
    checkin_set(
        tournament=club_open, by=alice, round_number=2, player=players(club_open)[0], present=False
    )
    assert checkin_everyone(tournament=club_open, by=alice, round_number=1) == 3
    assert players_to_seat(club_open, 1).count() == 8
    # Round 2's absence is another round's business.
    assert Absence.objects.filter(round_number=2).count() == 1


@pytest.mark.parametrize(
    ("round_number", "player", "present", "field", "error"),
    [
        (2, "withdrawn", False, "player", RuleError),
        (2, "withdrawn", True, "player", RuleError),
        (2, 999_999, False, "player", RuleError),
        (2, "1", False, "player", RuleError),
        (2, "first", "no", "present", RuleError),
        (0, "first", False, "round", RuleError),
        ("two", "first", False, "round", RuleError),
        (1, "played", False, "round", Conflict),  # round 1 is open already
    ],
)
def test_bad_checkin_is_refused_and_nothing_saved(
    club_open, alice, round_number, player, present, field, error
):
    first, second = players(club_open)[:2]
    open_round(club_open, alice)
    player_update(player=second, by=alice, status="withdrawn")
    chosen = {"withdrawn": second.pk, "first": first.pk, "played": first.pk}.get(player, player)
    with pytest.raises(error) as caught:
        checkin_set(
            tournament=club_open,
            by=alice,
            round_number=round_number if player != "played" else 1,
            player=chosen,
            present=present,
        )
    assert caught.value.path[0] == field
    assert Absence.objects.count() == 0


def test_a_withdrawn_player_is_named_not_numbered_by_id(club_open, alice):
    second = players(club_open)[1]
    player_update(player=second, by=alice, status="withdrawn")
    with pytest.raises(RuleError) as caught:
        checkin_set(tournament=club_open, by=alice, round_number=1, player=second.pk, present=True)
    assert caught.value.message.startswith("#2 Player 2 has withdrawn")


def test_open_round_check_in_is_closed_everyone_too(club_open, alice):
    open_round(club_open, alice)
    with pytest.raises(Conflict) as caught:
        checkin_everyone(tournament=club_open, by=alice, round_number=1)
    assert "round 1 is already open" in caught.value.message


def test_a_cancelled_round_keeps_its_check_in(club_open, alice):
    ada = players(club_open)[0]
    checkin_set(tournament=club_open, by=alice, round_number=1, player=ada, present=False)
    round1 = round_open(tournament=club_open, by=alice, method="random", seed=1)
    round_cancel(round_=round1, by=alice)
    again = round_open(tournament=club_open, by=alice, method="random", seed=1)
    assert ada.pk not in seated_ids(again)


def test_strangers_may_not_check_in(club_open, mallory):
    with pytest.raises(PermissionDenied):
        checkin_everyone(tournament=club_open, by=mallory, round_number=1)


def test_finished_tournament_check_in_is_refused(club_open, alice):
    tournament_update(tournament=club_open, by=alice, status="finished")
    with pytest.raises(Conflict) as caught:
        checkin_everyone(tournament=club_open, by=alice, round_number=1)
    assert caught.value.path[0] == "status"


def test_manual_seating_must_leave_out_the_absent(club_open, alice):
    ps = players(club_open)
    checkin_set(tournament=club_open, by=alice, round_number=1, player=ps[7], present=False)
    ids = [p.pk for p in ps]
    with pytest.raises(RuleError) as caught:
        round_open(tournament=club_open, by=alice, method="manual", tables=[ids[:4], ids[4:8]])
    assert "checked in as absent" in str(caught.value)
    round_ = round_open(tournament=club_open, by=alice, method="manual", tables=[ids[:4], ids[4:7]])
    assert seated_ids(round_) == set(ids[:7])


def test_too_few_present_players_open_no_round(alice):
    tournament = make_tournament(alice, name="Small", players=2)
    checkin_set(
        tournament=tournament,
        by=alice,
        round_number=1,
        player=tournament.players.first(),
        present=False,
    )
    with pytest.raises(RuleError) as caught:
        round_open(tournament=tournament, by=alice, method="random")
    assert "present players" in caught.value.message
    assert not tournament.rounds.exists()


# --------------------------------------------------------------------------- clubs, tables


def make_clubs(alice, clubs: int, size: int, **options) -> Tournament:
    tournament = make_tournament(alice, name="Clubs", **options)
    for c in range(clubs):
        for n in range(size):
            player_register(tournament=tournament, by=alice, name=f"P{c}-{n}", club=f"Club {c}")
    return tournament


def test_round_one_keeps_clubs_apart_and_says_so(alice):
    tournament = make_clubs(alice, 4, 4)
    round_ = round_open(tournament=tournament, by=alice, method="random", seed=11)
    assert round_.quality["same_club_pairs"] == 0
    for table in round_.tables.all():
        clubs = list(table.seats.values_list("player__club", flat=True))
        assert len(set(clubs)) == len(clubs)


def test_club_avoidance_off_only_counts(alice):
    tournament = make_clubs(alice, 2, 8)
    tournament_update(tournament=tournament, by=alice, club_avoidance="off")
    apart = make_clubs(alice, 2, 8)
    offs = [round_open(tournament=tournament, by=alice, method="random", seed=1)]
    on = round_open(tournament=apart, by=alice, method="random", seed=1)
    # 16 players of 2 clubs at 4 tables of 4: at best 2 players of each club per table,
    # 2 pairs a table. Off, the draw does not look: over a few rounds it seats more.
    assert on.quality["same_club_pairs"] == 8
    offs += [
        round_open(tournament=tournament, by=alice, method="random", seed=s, open_anyway=True)
        for s in (2, 3)
    ]
    assert min(r.quality["same_club_pairs"] for r in offs) >= 8
    assert max(r.quality["same_club_pairs"] for r in offs) > 8


def test_bad_club_avoidance_is_refused(club_open, alice):
    with pytest.raises(RuleError) as caught:
        tournament_update(tournament=club_open, by=alice, club_avoidance="sometimes")
    assert caught.value.path[0] == "club_avoidance"
    club_open.refresh_from_db()
    assert club_open.club_avoidance == "weighted"


@pytest.mark.parametrize("method", ["random", "swiss", "plan"])
def test_fixed_table_every_round(alice, method):
    tournament = make_tournament(alice, name="Fixed", players=12, rounds_planned=3)
    ps = players(tournament)
    player_update(player=ps[5], by=alice, fixed_table=2)
    for number in (1, 2, 3):
        round_ = round_open(
            tournament=tournament, by=alice, method=method, seed=number, open_anyway=True
        )
        table = Seat.objects.get(round=round_, player=ps[5]).table
        assert table.number == 2, (method, number)


def test_fixed_table_the_round_does_not_have_is_named(alice):
    tournament = make_tournament(alice, name="Fixed", players=8)
    ada = players(tournament)[0]
    player_update(player=ada, by=alice, fixed_table=3)
    with pytest.raises(RuleError) as caught:
        round_open(tournament=tournament, by=alice, method="random")
    assert caught.value.path[0] == "fixed_table"
    assert caught.value.message.startswith("#1 Player 1: fixed to table 3, but round 1 seats 8")
    assert not tournament.rounds.exists()


@pytest.mark.parametrize("bad", [0, -1, 501, "2", 2.5, True])
def test_bad_fixed_table_is_refused(club_open, alice, bad):
    ada = players(club_open)[0]
    with pytest.raises(RuleError) as caught:
        player_update(player=ada, by=alice, fixed_table=bad)
    assert caught.value.path[0] == "fixed_table"
    ada.refresh_from_db()
    assert ada.fixed_table is None


def test_register_with_a_fixed_table(club_open, alice):
    player = player_register(tournament=club_open, by=alice, name="Wheels", fixed_table=1)
    assert player.fixed_table == 1
    player_update(player=player, by=alice, fixed_table=None)
    player.refresh_from_db()
    assert player.fixed_table is None
