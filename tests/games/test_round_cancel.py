"""round_cancel: the last round goes, before anything of it is played, and its number is
free again — the service and the pages (the API: tests/games/api/test_round_cancel.py)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from games.models import Game, Seat, Table
from games.services.results import penalty_record
from games.services.rounds import round_cancel, round_open
from scoring.errors import Conflict
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, seated
from tests.web import text
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(alice, bob):
    """Eight players, alice organises, bob keeps score; rounds 1 and 2 are open."""
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    open_round(tournament, alice)
    return tournament


def counts(tournament: Tournament) -> tuple[int, int, int, int]:
    return (
        tournament.rounds.count(),
        Table.objects.filter(round__tournament=tournament).count(),
        Seat.objects.filter(round__tournament=tournament).count(),
        Game.objects.filter(table__round__tournament=tournament).count(),
    )


def game_of(tournament: Tournament, round_number: int, table: int) -> Game:
    return Game.objects.get(
        table__round__tournament=tournament,
        table__round__number=round_number,
        table__number=table,
        number=1,
    )


# --- service -------------------------------------------------------------------------


def test_cancel_deletes_the_round_and_frees_its_number(club, alice):
    round2 = club.rounds.get(number=2)
    round_cancel(round_=round2, by=alice)
    assert counts(club) == (1, 2, 8, 8)
    history = Seat.history.filter(history_change_reason="round 2 cancelled")
    assert history.count() == 8
    assert {row.history_user for row in history} == {alice}
    assert {row.history_type for row in history} == {"-"}
    again = round_open(tournament=club, by=alice, method="random", seed=7, open_anyway=True)
    assert again.number == 2


def test_cancelling_the_only_round_makes_the_tournament_upcoming_again(alice):
    tournament = make_tournament(alice, players=4)
    round_cancel(round_=open_round(tournament, alice), by=alice)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.UPCOMING
    assert counts(tournament) == (0, 0, 0, 0)


@pytest.mark.parametrize("who", ["mallory", "bob"])
def test_a_stranger_or_scorekeeper_is_refused(club, who, request):
    with pytest.raises(PermissionDenied):
        round_cancel(round_=club.rounds.get(number=2), by=request.getfixturevalue(who))
    assert counts(club) == (2, 4, 16, 16)


def test_a_round_with_an_unconfirmed_result_is_kept(alice, bob):
    tournament = make_tournament(
        alice, scorekeepers=[bob], players=8, results_need_confirmation=True
    )
    open_round(tournament, alice)
    enter_rummikub(game_of(tournament, 1, 2), bob)
    with pytest.raises(Conflict) as refused:
        round_cancel(round_=tournament.rounds.get(number=1), by=alice)
    assert refused.value.path == ("round",)
    assert refused.value.message == "round 1 has results at table 2; it cannot be cancelled."
    assert counts(tournament) == (1, 2, 8, 8)


def test_results_at_two_tables_are_both_named(club, alice):
    for table in (1, 2):
        enter_rummikub(game_of(club, 2, table), alice)
    with pytest.raises(Conflict, match="round 2 has results at tables 1 and 2; it cannot"):
        round_cancel(round_=club.rounds.get(number=2), by=alice)
    assert counts(club) == (2, 4, 16, 16)


def test_a_round_with_only_a_penalty_is_kept(club, alice):
    game = game_of(club, 2, 1)
    penalty_record(game=game, by=alice, player=seated(game)[0], kind="timeout")
    with pytest.raises(Conflict, match="round 2 has penalties at table 1"):
        round_cancel(round_=club.rounds.get(number=2), by=alice)
    assert counts(club) == (2, 4, 16, 16)


def test_only_the_last_round_can_be_cancelled(club, alice):
    with pytest.raises(Conflict, match=r"round 1 is not the last round \(round 2 is\); only the"):
        round_cancel(round_=club.rounds.get(number=1), by=alice)
    assert counts(club) == (2, 4, 16, 16)


def test_a_round_cancelled_already_is_a_conflict(club, alice):
    round2 = club.rounds.get(number=2)
    round_cancel(round_=round2, by=alice)
    with pytest.raises(Conflict, match="cancelled already"):
        round_cancel(round_=round2, by=alice)


def test_a_finished_tournament_refuses(club, alice):
    Tournament.objects.filter(pk=club.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(Conflict):
        round_cancel(round_=club.rounds.get(number=2), by=alice)
    assert counts(club) == (2, 4, 16, 16)


def test_a_planned_round_is_seated_as_planned_when_opened_again(alice):
    tournament = make_tournament(alice, players=8, rounds_planned=3)
    round_open(tournament=tournament, by=alice, method="plan", seed=5)
    round2 = round_open(tournament=tournament, by=alice, method="plan", open_anyway=True)

    def tables(round_: Round) -> list[list[int]]:
        return [
            list(t.seats.order_by("position").values_list("player_id", flat=True))
            for t in round_.tables.order_by("number")
        ]

    planned = tables(round2)
    round_cancel(round_=round2, by=alice)
    again = round_open(tournament=tournament, by=alice, method="plan", open_anyway=True)
    assert again.number == 2
    assert tables(again) == planned


# --- pages ---------------------------------------------------------------------------


def page(tournament: Tournament, number: int) -> str:
    return reverse("round-cancel", args=[tournament.slug, number])


def test_the_round_page_offers_cancel_on_the_last_round_only(club, as_user):
    alice = as_user("alice")
    last = text(alice.get(reverse("round-detail", args=[club.slug, 2])))
    assert page(club, 2) in last
    assert page(club, 1) not in text(alice.get(reverse("round-detail", args=[club.slug, 1])))
    bob = text(as_user("bob").get(reverse("round-detail", args=[club.slug, 2])))
    assert page(club, 2) not in bob


def test_confirmation_then_cancel(club, as_user):
    alice = as_user("alice")
    confirm = alice.get(page(club, 2))
    assert confirm.status_code == 200
    assert "Cancel round 2? Its tables and seats go; no result exists yet." in text(confirm)
    assert reverse("round-detail", args=[club.slug, 2]) in text(confirm)  # the way back
    assert counts(club) == (2, 4, 16, 16)  # a GET changes nothing
    done = alice.post(page(club, 2), follow=True)
    assert done.redirect_chain[-1][0] == reverse("tournament-detail", args=[club.slug])
    assert "Round 2 is cancelled." in text(done)
    assert counts(club) == (1, 2, 8, 8)


def test_a_refused_cancel_says_why(club, as_user, alice):
    enter_rummikub(game_of(club, 2, 2), alice)
    done = as_user("alice").post(page(club, 2), follow=True)
    assert done.redirect_chain[-1][0] == reverse("round-detail", args=[club.slug, 2])
    assert "Round 2 has results at table 2; it cannot be cancelled." in text(done)
    assert counts(club) == (2, 4, 16, 16)


def test_a_scorekeeper_cannot_reach_the_page(club, as_user):
    assert as_user("bob").get(page(club, 2)).status_code == 403
    assert as_user("bob").post(page(club, 2)).status_code == 403
    assert counts(club) == (2, 4, 16, 16)


def test_the_confirmation_page_says_why_a_played_round_cannot_be_cancelled(club, as_user, alice):
    """Asked before the button is offered: never "no result exists yet" over a played
    round."""
    enter_rummikub(game_of(club, 2, 1), alice)
    confirm = text(as_user("alice").get(page(club, 2)))
    assert "Round 2 has results at table 1; it cannot be cancelled." in confirm
    assert "no result exists yet" not in confirm
    assert 'action="' + page(club, 2) + '"' not in confirm  # no cancel button
