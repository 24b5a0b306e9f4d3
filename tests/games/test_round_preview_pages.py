"""The round preview pages: the first step previews and saves nothing; the preview page
re-draws, swaps two players in its draw, warns of missing results and opens exactly the
draw it shows, "open anyway" ticked."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from games.models import Game, Seat, Table
from tests.factories import make_tournament
from tests.games.helpers import enter_rummikub
from tests.web import field_errors, hidden_fields, text
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def address(tournament) -> str:
    return reverse("round-open", kwargs={"slug": tournament.slug})


def counts() -> tuple[int, int, int]:
    return Round.objects.count(), Table.objects.count(), Seat.objects.count()


def seated(round_: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("position").values_list("player_id", flat=True))
        for t in round_.tables.order_by("number")
    ]


@pytest.fixture
def fourteen(alice, bob):
    return make_tournament(alice, scorekeepers=[bob], players=14)


def test_the_preview_shows_the_draw_and_saves_nothing(as_user, fourteen):
    page = text(as_user("alice").post(address(fourteen), {"method": "random", "number": 1}))
    assert counts() == (0, 0, 0)
    assert "preview of round 1" in page
    assert "2 tables of 4 and 2 tables of 3; tables of 3 play 3 games." in page
    # The advice says the ranking in use is by totals and what to change it to; it
    # does not read as if the per-game ranking were already the tournament's.
    assert "this tournament ranks by totals" in page
    words = html.unescape(page)
    assert "ranking in its settings to score per game or games won per game" in words
    assert "(the tournament's ranking)" not in words
    assert "Nobody meets an earlier opponent again." in page
    assert f"Seating: {Round.Method.RANDOM.label} · seed" in page  # words, not the key
    assert "Open round 1" in page and "Draw again (new seed)" in page
    assert "missing-results" not in page
    carried = hidden_fields(page)
    assert [len(t) for t in json.loads(carried["draw"])] == [4, 4, 3, 3]
    assert carried["method"] == "random" and carried["number"] == "1"


def test_redraw_swap_and_open_exactly_what_is_shown(as_user, fourteen):
    client = as_user("alice")
    first = hidden_fields(text(client.post(address(fourteen), {"method": "random"})))
    redrawn = hidden_fields(text(client.post(address(fourteen), {**first, "action": "redraw"})))
    assert redrawn["seed"] != first["seed"] and redrawn["draw"] != first["draw"]

    tables = json.loads(redrawn["draw"])
    a, b = tables[0][0], tables[3][1]
    swap = {**redrawn, "action": "swap", "player_a": a, "player_b": b}
    swapped = hidden_fields(text(client.post(address(fourteen), swap)))
    tables[0][0], tables[3][1] = b, a
    assert json.loads(swapped["draw"]) == tables and swapped["seed"] == redrawn["seed"]
    assert counts() == (0, 0, 0)

    response = client.post(address(fourteen), {**swapped, "action": "open"})
    assert response["Location"] == reverse(
        "round-detail", kwargs={"slug": fourteen.slug, "round_number": 1}
    )
    round_ = Round.objects.get()
    assert seated(round_) == tables and str(round_.seed) == redrawn["seed"]


def test_a_swap_needs_two_players(as_user, fourteen):
    client = as_user("alice")
    carried = hidden_fields(text(client.post(address(fourteen), {"method": "random"})))
    page = text(client.post(address(fourteen), {**carried, "action": "swap", "player_a": ""}))
    assert field_errors(page, "id_player_a") == ["Choose a player."]
    assert hidden_fields(page)["draw"] == carried["draw"]


def test_missing_results_are_warned_and_need_open_anyway(as_user, club, bob):
    for game in Game.objects.filter(table__round__tournament=club, table__number=1):
        enter_rummikub(game, bob)
    client = as_user("alice")
    page = text(client.post(address(club), {"method": "random"}))
    assert "Round 1: 4 games missing at table 2." in page
    carried = hidden_fields(page)
    before = counts()
    refused = text(client.post(address(club), {**carried, "action": "open"}))
    assert "round 1: 4 games missing at table 2" in " ".join(
        field_errors(refused, "id_open_anyway")
    )
    assert counts() == before
    assert hidden_fields(refused)["draw"] == carried["draw"]
    opened = client.post(address(club), {**carried, "action": "open", "open_anyway": "on"})
    assert opened.status_code == 302
    assert seated(club.rounds.get(number=2)) == json.loads(carried["draw"])


def test_a_damaged_draw_goes_back_to_the_first_step(as_user, fourteen):
    client = as_user("alice")
    carried = hidden_fields(text(client.post(address(fourteen), {"method": "random"})))
    response = client.post(address(fourteen), {**carried, "draw": "[[1, 2", "action": "open"})
    assert response["Location"] == address(fourteen)
    assert counts() == (0, 0, 0)


def test_a_stale_preview_shows_the_round_opened_meanwhile(as_user, fourteen):
    client = as_user("alice")
    carried = hidden_fields(text(client.post(address(fourteen), {"method": "random"})))
    client.post(address(fourteen), {**carried, "action": "open"})
    again = client.post(address(fourteen), {**carried, "action": "open"})
    assert again["Location"].endswith("/rounds/1/")
    assert counts()[0] == 1
