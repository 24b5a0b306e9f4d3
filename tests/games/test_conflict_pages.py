"""Pages facing a state that blocks them: a second click on "open round" shows the round
the first opened; a delete blocked by protected rows or a deadlock shows a 409 page, not a
500. And the lock order of the writes that used to take rows in another order."""

from __future__ import annotations

import psycopg
import pytest
from django.contrib.messages import get_messages
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.services import draw as draw_services
from games.services import rounds as round_services
from games.services.results import penalty_record, penalty_void
from tests.web import hidden_fields, text
from tournaments.services.players import player_update

pytestmark = pytest.mark.django_db


def test_the_open_round_form_names_the_round_it_opens(as_user, club):
    page = text(as_user("alice").get(reverse("round-open", kwargs={"slug": club.slug})))
    assert 'name="number" value="2"' in page
    assert "Preview round 2" in page


def test_a_second_click_on_open_round_shows_the_open_round(as_user, club):
    client = as_user("alice")
    address = reverse("round-open", kwargs={"slug": club.slug})
    preview = hidden_fields(text(client.post(address, {"method": "random", "number": 2})))
    assert preview["number"] == "2"
    click = {**preview, "action": "open", "open_anyway": "on"}
    first = client.post(address, click)
    second = client.post(address, click)
    round_two = reverse("round-detail", kwargs={"slug": club.slug, "round_number": 2})
    assert first["Location"] == round_two
    assert second["Location"] == round_two
    assert list(club.rounds.values_list("number", flat=True).order_by("number")) == [1, 2]
    shown = [str(m) for m in get_messages(second.wsgi_request)]
    assert "Round 2 is already open; nothing new was opened." in shown


def test_a_protected_delete_on_a_page_is_a_409_page(as_user, club, monkeypatch):
    def delete_a_seated_player(**kwargs):
        club.players.order_by("number").first().delete()

    monkeypatch.setattr(round_services, "seat_swap", delete_a_seated_player)
    one, eight = club.players.get(number=1), club.players.get(number=8)
    response = as_user("alice").post(
        reverse("seat-swap", kwargs={"slug": club.slug, "round_number": 1}),
        {"player_a": one.pk, "player_b": eight.pk},
    )
    assert response.status_code == 409
    assert "Cannot delete it while other records refer to it: 1 seat." in text(response)
    assert club.players.count() == 8


def test_a_deadlock_on_a_page_is_a_409_page(as_user, club, monkeypatch):
    def deadlocked(**kwargs):
        try:
            raise psycopg.errors.DeadlockDetected("deadlock detected")
        except psycopg.Error as error:
            raise OperationalError("deadlock detected") from error

    monkeypatch.setattr(draw_services, "round_draw", deadlocked)
    response = as_user("alice").post(
        reverse("round-open", kwargs={"slug": club.slug}), {"method": "random"}
    )
    assert response.status_code == 409
    assert "try again" in text(response)


def _need_row_locks() -> None:
    # SQLite locks the whole database and ignores select_for_update: no statement to see.
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; SQLite ignores SELECT ... FOR UPDATE")


def _first_lock(queries: list[dict]) -> str:
    """The first statement that locks or writes a row."""
    for query in queries:
        sql = query["sql"]
        if " FOR " in sql or sql.startswith(("UPDATE", "DELETE", "INSERT")):
            return sql
    return ""


def _locks(queries: list[dict]) -> list[str]:
    """What each row-locking statement locks, in order: "table MODE"."""
    modes = ("FOR KEY SHARE", "FOR NO KEY UPDATE", "FOR UPDATE")
    found = []
    for query in queries:
        sql = query["sql"]
        mode = next((mode for mode in modes if mode in sql), None)
        if mode is not None:
            found.append(f"{sql.split(' FROM ')[1].split()[0].strip(chr(34))} {mode}")
    return found


def test_voiding_a_penalty_locks_the_tournament_row_first(club, alice):
    _need_row_locks()
    game = club.rounds.get().tables.get(number=1).games.get(number=1)
    penalty = penalty_record(
        game=game, by=alice, player=game.table.seats.first().player_id, kind="timeout"
    )
    with CaptureQueriesContext(connection) as captured:
        penalty_void(penalty=penalty, by=alice)
    first = _first_lock(captured.captured_queries)
    assert first.startswith('SELECT "tournaments_tournament"'), first
    # A table-level write: the tournament shared, then its table, game and penalty.
    assert _locks(captured.captured_queries) == [
        "tournaments_tournament FOR KEY SHARE",
        "games_table FOR NO KEY UPDATE",
        "games_game FOR UPDATE",
        "games_penalty FOR UPDATE",
    ]


def test_changing_a_player_locks_the_tournament_row_first(club, alice):
    _need_row_locks()
    player = club.players.get(number=1)
    with CaptureQueriesContext(connection) as captured:
        player_update(player=player, by=alice, status="withdrawn")
    first = _first_lock(captured.captured_queries)
    assert first.startswith('SELECT "tournaments_tournament"'), first
    assert "FOR UPDATE" in first
