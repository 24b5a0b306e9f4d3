"""Every write service refuses, by itself, whoever may not do it — whatever calls it (an API
view, a page, a command, a task). Called directly here, with no view in between: a
stranger is refused everything, a scorekeeper everything but results and penalties, and
nothing is written when a call is refused.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from games.models import Penalty, Result, Seat
from games.services.draw import round_draw
from games.services.results import penalty_record, penalty_void, result_confirm, result_submit
from games.services.rounds import round_cancel, round_open, seat_swap
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, rummikub_racks, seated
from tournaments.models import Player, Round, StaffInvitation, StaffMember, Tournament
from tournaments.services.players import (
    player_delete,
    player_register,
    player_update,
    players_import_csv,
)
from tournaments.services.staff import (
    staff_account_create,
    staff_invitation_revoke,
    staff_invite,
    staff_remove,
    staff_role_change,
)
from tournaments.services.tournaments import (
    staff_add,
    tournament_create,
    tournament_delete,
    tournament_update,
)


@pytest.fixture
def club(alice, bob):
    """Alice organises, Bob keeps score; round 1 is open, game 1 of table 1 entered
    and a penalty recorded in it (to confirm or void)."""
    tournament = make_tournament(
        alice, scorekeepers=[bob], players=8, results_need_confirmation=True
    )
    round_ = open_round(tournament, alice)
    game = round_.tables.get(number=1).games.get(number=1)
    enter_rummikub(game, alice)
    penalty_record(game=game, by=alice, player=seated(game)[1], kind="timeout")
    staff_invite(tournament=tournament, by=alice, role="scorekeeper")
    return tournament


def _game(t: Tournament):
    return t.rounds.get(number=1).tables.get(number=1).games.get(number=2)


# Each write service, called as `who` would call it. Names say what is attempted.
WRITES = {
    "tournament_update": lambda t, who: tournament_update(tournament=t, by=who, name="Mine"),
    "tournament_delete": lambda t, who: tournament_delete(tournament=t, by=who),
    "staff_add": lambda t, who: staff_add(
        tournament=t, by=who, username=who.username or "x", role="organiser"
    ),
    "staff_account_create": lambda t, who: staff_account_create(
        tournament=t, by=who, username="newcomer", role="organiser"
    ),
    "staff_role_change": lambda t, who: staff_role_change(
        member=t.staff.get(role="scorekeeper"), by=who, role="organiser"
    ),
    "staff_remove": lambda t, who: staff_remove(member=t.staff.get(role="scorekeeper"), by=who),
    "staff_invite": lambda t, who: staff_invite(tournament=t, by=who, role="organiser"),
    "staff_invitation_revoke": lambda t, who: staff_invitation_revoke(
        invitation=t.staff_invitations.get(), by=who
    ),
    "player_register": lambda t, who: player_register(tournament=t, by=who, name="Eve"),
    "player_update": lambda t, who: player_update(
        player=t.players.get(number=1), by=who, status="withdrawn"
    ),
    "player_delete": lambda t, who: player_delete(player=t.players.get(number=8), by=who),
    "players_import_csv": lambda t, who: players_import_csv(
        tournament=t, by=who, data="name\nEve\n"
    ),
    "round_open": lambda t, who: round_open(
        tournament=t, by=who, method="random", open_anyway=True
    ),
    "round_draw": lambda t, who: round_draw(tournament=t, by=who, method="random"),
    "round_cancel": lambda t, who: round_cancel(round_=t.rounds.get(number=1), by=who),
    "seat_swap": lambda t, who: seat_swap(
        round_=t.rounds.get(number=1),
        by=who,
        player_a=t.players.get(number=5).pk,
        player_b=t.players.get(number=6).pk,
    ),
    "result_submit": lambda t, who: result_submit(
        game=_game(t),
        by=who,
        based_on=0,
        end="rummikub",
        winner=seated(_game(t))[0],
        racks=rummikub_racks(_game(t), "R4", "R5", "R6"),
    ),
    "result_confirm": lambda t, who: result_confirm(
        result=Result.objects.get(game__table__round__tournament=t, status="submitted"), by=who
    ),
    "penalty_record": lambda t, who: penalty_record(
        game=_game(t), by=who, player=seated(_game(t))[0], kind="timeout"
    ),
    "penalty_void": lambda t, who: penalty_void(
        penalty=Penalty.objects.get(game__table__round__tournament=t), by=who
    ),
}
SCOREKEEPERS_MAY = {"result_submit", "result_confirm", "penalty_record", "penalty_void"}


def _state(t: Tournament) -> tuple:
    """Everything a refused write could have touched."""
    t.refresh_from_db()
    return (
        t.name,
        t.results_version,
        sorted(StaffMember.objects.filter(tournament=t).values_list("user_id", "role")),
        list(StaffInvitation.objects.filter(tournament=t).values_list("role", "revoked_at")),
        list(Player.objects.filter(tournament=t).values_list("name", "status")),
        Round.objects.filter(tournament=t).count(),
        list(Seat.objects.filter(round__tournament=t).values_list("player_id", "table_id")),
        list(Result.objects.filter(game__table__round__tournament=t).values_list("status")),
        list(Penalty.objects.filter(game__table__round__tournament=t).values_list("voided")),
    )


@pytest.mark.parametrize("write", sorted(WRITES))
@pytest.mark.parametrize("who", ["mallory", "anonymous"])
def test_a_stranger_is_refused_every_write(club, mallory, write, who):
    person = mallory if who == "mallory" else AnonymousUser()
    before = _state(club)
    with pytest.raises(PermissionDenied):
        WRITES[write](club, person)
    assert _state(club) == before


@pytest.mark.parametrize("write", sorted(set(WRITES) - SCOREKEEPERS_MAY))
def test_a_scorekeeper_is_refused_what_only_organisers_may_do(club, bob, write):
    before = _state(club)
    with pytest.raises(PermissionDenied, match="organisers"):
        WRITES[write](club, bob)
    assert _state(club) == before


@pytest.mark.parametrize("write", sorted(SCOREKEEPERS_MAY))
def test_a_scorekeeper_may_enter_results_and_penalties(club, bob, write):
    WRITES[write](club, bob)  # no PermissionDenied: a scorekeeper's own work


def test_an_organiser_of_another_tournament_is_a_stranger_here(club, mallory):
    make_tournament(mallory, name="Mallory's own")
    with pytest.raises(PermissionDenied):
        tournament_update(tournament=club, by=mallory, name="Taken over")


def test_creating_a_tournament_needs_a_signed_in_user(db):
    with pytest.raises(PermissionDenied):
        tournament_create(by=AnonymousUser(), name="Nobody's")
    assert not Tournament.objects.exists()
