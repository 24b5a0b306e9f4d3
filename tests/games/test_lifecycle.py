"""A finished tournament is locked: every write its status forbids answers a `Conflict`
on `status` and stores nothing; staff and settings still change; reopening (status
running) unlocks it; status goes back to upcoming only while there is no round. Pages and
the API show the refusal."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, Penalty, Result, Seat
from games.services.results import penalty_record, penalty_void, result_confirm, result_submit
from games.services.rounds import round_open, seat_swap
from scoring.errors import Conflict, RuleError
from tests.api import rows
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, rummikub_racks, seated
from tests.web import text
from tournaments.lifecycle import FINISHED_MESSAGE
from tournaments.models import Player, StaffMember, Tournament
from tournaments.services.players import player_register, player_update, players_import_csv
from tournaments.services.tournaments import staff_add, tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob, carol):
    """Club Open, round 1 played in part (a confirmed result, a pending one, a penalty),
    then finished by alice."""
    tournament = make_tournament(
        alice, scorekeepers=[bob, carol], players=8, results_need_confirmation=True
    )
    round_ = open_round(tournament, alice)
    games = list(Game.objects.filter(table__round=round_).order_by("table__number", "number"))
    result_confirm(result=enter_rummikub(games[0], bob), by=carol)
    enter_rummikub(games[1], bob)  # left waiting for confirmation
    penalty_record(game=games[0], by=bob, player=seated(games[0])[1], kind="timeout")
    tournament_update(tournament=tournament, by=alice, status="finished")
    return tournament


def _games(tournament):
    return list(
        Game.objects.filter(table__round__tournament=tournament).order_by(
            "table__round__number", "table__number", "number"
        )
    )


# Each write the status forbids, as (name, call(tournament, people)).
WRITES = {
    "result_submit": lambda t, p: result_submit(
        game=_games(t)[2],
        by=p["bob"],
        based_on=0,
        end="rummikub",
        racks=rummikub_racks(_games(t)[2], "R4", "B5", "K6"),
        winner=seated(_games(t)[2])[0],
    ),
    "result_confirm": lambda t, p: result_confirm(
        result=Result.objects.get(game=_games(t)[1], status="submitted"), by=p["carol"]
    ),
    "penalty_record": lambda t, p: penalty_record(
        game=_games(t)[0], by=p["bob"], player=seated(_games(t)[0])[2], kind="sanction", points=5
    ),
    "penalty_void": lambda t, p: penalty_void(penalty=Penalty.objects.get(), by=p["bob"]),
    "player_register": lambda t, p: player_register(tournament=t, by=p["alice"], name="Late"),
    "player_update": lambda t, p: player_update(
        player=t.players.get(number=1), by=p["alice"], status="withdrawn"
    ),
    "players_import_csv": lambda t, p: players_import_csv(
        tournament=t, by=p["alice"], data="name,club,rating\nLate,,\n"
    ),
    "round_open": lambda t, p: round_open(
        tournament=t, by=p["alice"], method="random", open_anyway=True
    ),
    "seat_swap": lambda t, p: seat_swap(
        round_=t.rounds.get(),
        by=p["alice"],
        player_a=t.players.get(number=5).id,
        player_b=t.players.get(number=6).id,
    ),
}


@pytest.fixture
def people(alice, bob, carol):
    return {"alice": alice, "bob": bob, "carol": carol}


def _state(tournament):
    tournament.refresh_from_db()
    return (
        rows(),
        tournament.results_version,
        list(Result.objects.order_by("pk").values_list("status", flat=True)),
        list(Penalty.objects.values_list("voided", flat=True)),
        list(tournament.players.order_by("number").values_list("status", flat=True)),
        sorted(Seat.objects.values_list("table_id", "position", "player_id")),
    )


@pytest.mark.parametrize("write", sorted(WRITES))
def test_a_finished_tournament_refuses_the_write_and_stores_nothing(finished, people, write):
    before = _state(finished)
    with pytest.raises(Conflict) as caught:
        WRITES[write](finished, people)
    assert caught.value.path == ("status",)
    assert caught.value.message == FINISHED_MESSAGE
    assert "reopen" in caught.value.message
    assert _state(finished) == before


@pytest.mark.parametrize("write", sorted(WRITES))
def test_reopening_lets_the_write_through(finished, people, alice, write):
    tournament_update(tournament=finished, by=alice, status="running")
    before = _state(finished)
    WRITES[write](finished, people)
    assert _state(finished) != before


def test_the_permission_check_comes_before_the_status(finished, mallory):
    with pytest.raises(PermissionDenied):
        player_register(tournament=finished, by=mallory, name="Late")


def test_staff_and_settings_still_change_in_a_finished_tournament(finished, alice, mallory):
    staff_add(tournament=finished, by=alice, username="mallory", role="scorekeeper")
    tournament_update(tournament=finished, by=alice, name="Club Open 2026", public=False)
    finished.refresh_from_db()
    assert (finished.name, finished.public) == ("Club Open 2026", False)
    assert finished.status == "finished"
    assert StaffMember.objects.filter(tournament=finished, user=mallory).exists()


def test_status_goes_back_to_upcoming_only_while_there_is_no_round(alice, finished):
    empty = make_tournament(alice, name="Spring Cup")
    tournament_update(tournament=empty, by=alice, status="running")
    tournament_update(tournament=empty, by=alice, status="upcoming")
    assert Tournament.objects.get(pk=empty.pk).status == "upcoming"
    with pytest.raises(RuleError) as caught:
        tournament_update(tournament=finished, by=alice, status="upcoming")
    assert caught.value.path == ("status",)
    assert "upcoming" in caught.value.message
    assert Tournament.objects.get(pk=finished.pk).status == "finished"


def test_the_finish_seen_is_the_locked_row_not_a_stale_copy(alice):
    """A caller holding a copy read before the finish is still refused."""
    tournament = make_tournament(alice, players=4)
    stale = Tournament.objects.get(pk=tournament.pk)
    tournament_update(tournament=tournament, by=alice, status="finished")
    assert stale.status == "upcoming"
    with pytest.raises(Conflict):
        player_register(tournament=stale, by=alice, name="Late")
    assert not Player.objects.filter(name="Late").exists()


# --- presentation -------------------------------------------------------------------------


def test_api_answers_409_naming_status(finished, bob):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=bob).key}")
    game = _games(finished)[2]
    before = rows()
    response = client.post(
        f"/api/v1/games/{game.id}/penalties/",
        {"player": seated(game)[0], "kind": "timeout"},
        format="json",
    )
    assert response.status_code == 409, response.json()
    assert response.json() == {"status": [FINISHED_MESSAGE]}
    assert rows() == before


def test_page_shows_the_refusal_on_the_form(finished, alice):
    client = Client()
    client.force_login(alice)
    before = rows()
    response = client.post(f"/t/{finished.slug}/players/", {"name": "Late", "club": ""})
    assert response.status_code == 200
    assert "reopen it (status running)" in text(response)
    assert rows() == before
