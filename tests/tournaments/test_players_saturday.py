"""Players as a club Saturday needs them: delete one entered by mistake (never seated), a
warning on a name already registered, withdrawn players after the active ones in the
standings. The service and the pages (the API: tests/tournaments/api/test_players.py)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from games.models import Game, Seat
from games.services.rounds import round_cancel
from games.services.standings import standings_recompute
from scoring.errors import Conflict
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.web import text
from tournaments.models import Player, Tournament
from tournaments.services.players import (
    player_delete,
    player_register,
    player_update,
)
from tournaments.words import same_name_warning

pytestmark = pytest.mark.django_db


@pytest.fixture
def late(club, alice):
    """Club Open (round 1 open, 8 players seated) with a ninth player, never seated."""
    return player_register(tournament=club, by=alice, name="Late Larry")


# --- (a) delete a player never seated -------------------------------------------------


def test_delete_a_player_never_seated(club, late, alice):
    before, pk = club.results_version, late.pk
    player_delete(player=late, by=alice)
    assert not Player.objects.filter(pk=pk).exists()
    assert Player.history.filter(id=pk, history_type="-").get().history_user == alice
    club.refresh_from_db()
    assert club.results_version == before + 1  # the standings lose their row


def test_a_seated_player_is_kept(club, alice):
    player = club.players.get(number=3)
    with pytest.raises(Conflict) as refused:
        player_delete(player=player, by=alice)
    assert refused.value.path == ("player",)
    assert refused.value.message == (
        "#3 Player 3 has played or been seated in round 1; withdraw instead."
    )
    assert Player.objects.filter(pk=player.pk).exists()
    assert Seat.objects.filter(player=player).count() == 1


def test_a_player_who_played_is_kept(club, alice):
    game = Game.objects.get(table__round__tournament=club, table__number=1, number=1)
    enter_rummikub(game, alice)
    with pytest.raises(Conflict, match="round 1"):
        player_delete(player=club.players.get(number=1), by=alice)
    assert club.players.count() == 8


def test_a_player_seated_only_in_a_cancelled_round_can_go(alice):
    tournament = make_tournament(alice, players=4)
    round_cancel(round_=open_round(tournament, alice), by=alice)
    player_delete(player=tournament.players.get(number=4), by=alice)
    assert list(tournament.players.values_list("number", flat=True).order_by("number")) == [
        1,
        2,
        3,
    ]


@pytest.mark.parametrize("who", ["mallory", "bob"])
def test_only_organisers_delete(club, late, who, request):
    with pytest.raises(PermissionDenied):
        player_delete(player=late, by=request.getfixturevalue(who))
    assert Player.objects.filter(pk=late.pk).exists()


def test_a_finished_tournament_keeps_its_players(club, late, alice):
    Tournament.objects.filter(pk=club.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(Conflict):
        player_delete(player=late, by=alice)
    assert Player.objects.filter(pk=late.pk).exists()


def test_delete_page_confirms_then_deletes(club, late, as_user):
    alice = as_user("alice")
    listing = text(alice.get(reverse("tournament-players", args=[club.slug])))
    url = reverse("player-delete", args=[club.slug, late.number])
    assert url in listing
    confirm = alice.get(url)
    assert confirm.status_code == 200
    assert "Delete #9 Late Larry?" in text(confirm)
    assert reverse("tournament-players", args=[club.slug]) in text(confirm)  # the way back
    assert Player.objects.filter(pk=late.pk).exists()  # a GET deletes nothing
    done = alice.post(url, follow=True)
    assert done.redirect_chain[-1][0] == reverse("tournament-players", args=[club.slug])
    assert "#9 Late Larry is deleted." in text(done)
    assert not Player.objects.filter(pk=late.pk).exists()


def test_delete_page_refusal_says_why(club, as_user):
    url = reverse("player-delete", args=[club.slug, 2])
    done = as_user("alice").post(url, follow=True)
    assert "#2 Player 2 has played or been seated in round 1; withdraw instead." in text(done)
    assert club.players.filter(number=2).exists()


def test_delete_page_is_for_organisers(club, late, as_user):
    url = reverse("player-delete", args=[club.slug, late.number])
    assert as_user("bob").get(url).status_code == 403
    assert as_user("bob").post(url).status_code == 403
    assert Player.objects.filter(pk=late.pk).exists()


# --- (b) a warning on a name already registered ------------------------------------------


def test_same_name_warning(club, alice):
    assert same_name_warning(club.players.get(number=1)) is None
    twin = player_register(tournament=club, by=alice, name=" player 4 ")
    assert same_name_warning(twin) == "there is already a player named player 4 (#4)"
    renamed = player_update(player=club.players.get(number=5), by=alice, name="Player 4")
    assert same_name_warning(renamed) == "there is already a player named Player 4 (#4, #9)"


def test_register_page_warns_but_saves(club, as_user):
    done = as_user("alice").post(
        reverse("tournament-players", args=[club.slug]), {"name": "Player 4"}, follow=True
    )
    page = text(done)
    assert "Player 4 registered as #9." in page
    assert "Note: there is already a player named Player 4 (#4)." in page
    assert club.players.filter(name="Player 4").count() == 2


def test_register_page_no_warning_for_a_new_name(club, as_user):
    done = as_user("alice").post(
        reverse("tournament-players", args=[club.slug]), {"name": "Zed"}, follow=True
    )
    assert "Zed registered as #9." in text(done)
    assert "there is already a player named" not in text(done)


# --- (c) withdrawn players after the active ones -------------------------------------------


def test_withdrawn_leader_is_listed_after_the_active_players(club, alice):
    # Game 1 at table 1: seat 1 (#1) wins; #1 then withdraws.
    game = Game.objects.get(table__round__tournament=club, table__number=1, number=1)
    enter_rummikub(game, alice)
    leader = club.players.get(number=1)
    assert standings_recompute(tournament_id=club.pk).rows[0]["player"]["id"] == leader.pk
    player_update(player=leader, by=alice, status="withdrawn")
    rows = standings_recompute(tournament_id=club.pk).rows
    assert [row["player"]["status"] for row in rows] == ["active"] * 7 + ["withdrawn"]
    assert rows[-1]["player"]["id"] == leader.pk
    assert rows[-1]["rank"] == 8  # numbered on after the seven active players
    assert all(isinstance(row["rank"], int) and row["rank"] <= 7 for row in rows[:7])
    assert rows[0]["rank"] == 1
