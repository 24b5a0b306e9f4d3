"""The games admin never lets the standings drift: results, rack entries, rounds, tables,
games and seats are view-only; a penalty is only voided, through `penalty_void`, which
bumps the results version so the recomputed standings follow."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Penalty, Result, Seat, Table
from games.services.results import penalty_record, penalty_void
from games.services.standings import standings_for_read, standings_recompute
from tests.games.helpers import seated
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(as_user):
    return as_user("root")


@pytest.fixture
def sanction(played, bob) -> Penalty:
    """Ten points off seat 2 of table 1 in game 1, with the standings up to date."""
    game = Game.objects.get(table__round__tournament=played, table__number=1, number=1)
    penalty = penalty_record(game=game, by=bob, player=seated(game)[1], kind="sanction", points=10)
    standings_recompute(tournament_id=played.pk)
    return penalty


def score_of(tournament, player_id: int) -> int:
    snapshot, stale = standings_for_read(tournament)
    assert not stale
    return next(r["metrics"]["score"] for r in snapshot.rows if r["player"]["id"] == player_id)


# Committed for real, so the recompute runs on commit as it does after a real request.
@pytest.mark.django_db(transaction=True)
def test_voiding_a_sanction_in_the_admin_reaches_the_standings(admin, played, sanction):
    before = score_of(played, sanction.player_id)
    played.refresh_from_db()
    version = played.results_version
    response = admin.post(
        reverse("admin:games_penalty_changelist"),
        {"action": "void", "_selected_action": [sanction.pk]},
    )
    assert response.status_code == 302
    sanction.refresh_from_db()
    played.refresh_from_db()
    assert sanction.voided and sanction.voided_by.username == "root"
    assert played.results_version == version + 1
    snapshot, stale = standings_for_read(played)
    assert (snapshot.computed_version, stale) == (played.results_version, False)
    assert score_of(played, sanction.player_id) == before + 10


def test_voiding_an_already_void_penalty_says_so_and_changes_nothing(
    admin, played, sanction, alice
):
    penalty_void(penalty=sanction, by=alice)
    played.refresh_from_db()
    response = admin.post(
        reverse("admin:games_penalty_changelist"),
        {"action": "void", "_selected_action": [sanction.pk]},
        follow=True,
    )
    assert "already void" in response.content.decode()
    assert played.results_version == type(played).objects.get(pk=played.pk).results_version


def test_a_sanction_cannot_be_edited_in_the_admin(admin, played, sanction):
    url = reverse("admin:games_penalty_change", args=[sanction.pk])
    data = {
        "game": sanction.game_id,
        "player": sanction.player_id,
        "kind": "sanction",
        "tiles_drawn": 0,
        "points": 3,
        "note": "",
        "recorded_by": sanction.recorded_by_id,
    }
    assert admin.post(url, data).status_code == 403
    assert admin.post(url.replace("change", "delete"), {"post": "yes"}).status_code == 403
    sanction.refresh_from_db()
    assert (sanction.points, sanction.voided) == (10, False)


def test_a_void_cannot_be_undone_by_reverting_the_history(admin, played, sanction, alice):
    # simple_history's revert form checks only that the user may view the penalty.
    first = sanction.history.earliest()
    penalty_void(penalty=sanction, by=alice)
    url = reverse("admin:games_penalty_simple_history", args=[sanction.pk, first.history_id])
    data = {
        "game": sanction.game_id,
        "player": sanction.player_id,
        "kind": "sanction",
        "tiles_drawn": 0,
        "points": 10,
        "note": "",
        "recorded_by": sanction.recorded_by_id,
        "voided": "",
    }
    assert admin.post(url, data).status_code == 403
    sanction.refresh_from_db()
    assert sanction.voided


def test_a_result_cannot_be_deleted_in_the_admin(admin, played):
    result = Result.objects.filter(game__table__round__tournament=played).first()
    url = reverse("admin:games_result_delete", args=[result.pk])
    assert admin.post(url, {"post": "yes"}).status_code == 403
    assert Result.objects.filter(pk=result.pk).exists()


@pytest.mark.parametrize("model", [Round, Table, Game, Seat])
def test_the_structure_of_a_round_is_view_only(admin, played, model):
    obj = model.objects.first()
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert admin.get(reverse(f"{name}_change", args=[obj.pk])).status_code == 200
    assert admin.post(reverse(f"{name}_change", args=[obj.pk]), {}).status_code == 403
    assert admin.post(reverse(f"{name}_delete", args=[obj.pk]), {"post": "yes"}).status_code == 403
    assert admin.get(reverse(f"{name}_add")).status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()
