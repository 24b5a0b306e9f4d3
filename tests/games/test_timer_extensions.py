"""The timer's other buttons and time extensions: undo of a mistaken timeout (voided,
kept in the history), extensions counted per player and game (service, database check,
the timer's button, the API), and shown on the timer and the table page."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import MAX_EXTENSIONS, Extension, Penalty
from games.services.extensions import extension_add, extension_set
from scoring.errors import RuleError
from tests.games.helpers import seated
from tests.games.test_views import game_of, table_url
from tests.html import html_text
from tests.web import text

pytestmark = pytest.mark.django_db


def timer_url(tournament, name: str, game: int = 1) -> str:
    return reverse(
        name,
        kwargs={"slug": tournament.slug, "round_number": 1, "table_number": 1, "game_number": game},
    )


# --- undo -----------------------------------------------------------------------------------


def test_a_mistaken_timeout_is_undone_from_the_timer(as_user, club):
    player = seated(game_of(club))[2]
    recorded = as_user("bob").post(
        timer_url(club, "timeout-record"), {"player": player}, HTTP_HX_REQUEST="true"
    )
    penalty = Penalty.objects.get()
    assert f'data-penalty="{penalty.pk}"' in recorded.content.decode()
    undone = as_user("bob").post(
        timer_url(club, "timeout-undo"), {"penalty": penalty.pk}, HTTP_HX_REQUEST="true"
    )
    assert "Undone: timeout for Player 3, draws 1." in text(undone)
    assert 'data-kind="undo"' in undone.content.decode()
    penalty.refresh_from_db()
    assert penalty.voided and penalty.voided_by.username == "bob"
    # Twice: refused, said so; the penalty stays one voided row.
    again = as_user("bob").post(
        timer_url(club, "timeout-undo"), {"penalty": penalty.pk}, HTTP_HX_REQUEST="true"
    )
    assert "Not undone: this penalty is already void." in text(again)
    assert Penalty.objects.count() == 1


def test_undo_only_voids_a_timeout_of_this_game(as_user, club, bob):
    from games.services.results import penalty_record

    game = game_of(club)
    sanction = penalty_record(game=game, by=bob, player=seated(game)[0], kind="sanction", points=5)
    other = penalty_record(game=game_of(club, 2), by=bob, player=seated(game)[0], kind="timeout")
    for penalty in (sanction, other):
        answer = as_user("bob").post(timer_url(club, "timeout-undo"), {"penalty": penalty.pk})
        assert answer.status_code == 404
    assert not Penalty.objects.filter(voided=True).exists()
    assert as_user("mallory").post(
        timer_url(club, "timeout-undo"), {"penalty": other.pk}
    ).status_code in (403, 404)


# --- extensions: service and database -------------------------------------------------------


def test_extensions_are_counted_per_player_and_game(club, bob):
    game = game_of(club)
    player = seated(game)[1]
    assert extension_add(game=game, by=bob, player=player).used == 1
    assert extension_add(game=game, by=bob, player=player).used == 2
    assert extension_add(game=game, by=bob, player=player, step=-1).used == 1
    assert extension_add(game=game_of(club, 2), by=bob, player=player).used == 1
    assert Extension.objects.get(game=game, player_id=player).used == 1
    assert Extension.objects.count() == 2
    assert Extension.history.count() == 4  # every change is in the history


def test_extensions_are_bounded(club, bob):
    game = game_of(club)
    player = seated(game)[1]
    extension_set(game=game, by=bob, player=player, used=MAX_EXTENSIONS)
    with pytest.raises(RuleError) as limit:
        extension_add(game=game, by=bob, player=player)
    assert limit.value.message == f"Player 2 has had all {MAX_EXTENSIONS} extensions of this game."
    for bad in (-1, MAX_EXTENSIONS + 1, "2", True):
        with pytest.raises(RuleError) as error:
            extension_set(game=game, by=bob, player=player, used=bad)
        assert error.value.path == ("used",)
    with pytest.raises(IntegrityError), transaction.atomic():
        Extension.objects.filter(game=game).update(used=MAX_EXTENSIONS + 1)
    assert Extension.objects.get().used == MAX_EXTENSIONS


def test_extensions_need_a_seated_player_and_a_scorekeeper(club, bob, mallory):
    game = game_of(club)
    stranger = seated(game_of(club, 1, table=2))[0]
    with pytest.raises(RuleError) as error:
        extension_set(game=game, by=bob, player=stranger, used=1)
    assert error.value.path == ("player",)
    with pytest.raises(PermissionDenied):
        extension_set(game=game, by=mallory, player=seated(game)[0], used=1)
    assert not Extension.objects.exists()


# --- extensions: the timer, the table page, the API ------------------------------------------


def test_the_timer_button_records_an_extension_and_the_pages_show_it(as_user, club):
    player = seated(game_of(club))[0]
    answer = as_user("bob").post(
        timer_url(club, "extension-record"), {"player": player}, HTTP_HX_REQUEST="true"
    )
    assert f"Extension taken: Player 1 has used 1 of {MAX_EXTENSIONS} in game 1." in text(answer)
    assert 'data-used="1"' in answer.content.decode()
    timer = reverse("table-timer", kwargs={"slug": club.slug, "round_number": 1, "table_number": 1})
    page = as_user("bob").get(timer).content.decode()
    assert f'data-extensions-of="{player}">1<' in page
    assert "Time extensions: Player 1 1" in html_text(text(as_user("bob").get(table_url(club))))


def test_the_api_sets_and_shows_extensions(club, bob, mallory):
    game = game_of(club)
    player = seated(game)[3]
    client = APIClient()
    client.force_authenticate(bob)
    url = f"/api/v1/games/{game.id}/extensions/"
    answer = client.put(url, {"player": player, "used": 2}, format="json")
    assert answer.status_code == 200 and answer.json() == {"player": player, "used": 2}
    detail = client.get(f"/api/v1/games/{game.id}/").json()
    assert detail["extensions"] == [{"player": player, "used": 2}]
    bad = client.put(url, {"player": player, "used": 11}, format="json")
    assert bad.status_code == 400 and "used" in bad.json()
    client.force_authenticate(mallory)
    assert client.put(url, {"player": player, "used": 0}, format="json").status_code == 403
    assert Extension.objects.get().used == 2
