"""The organiser's round page and the projector at the size of a national final: what they
read does not grow with the round (counts and series scores summed by the database, one
page of tables, the seat swap by start number), and what they show fits a screen."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config import page_cache
from games.forms.rounds import SWAP_CHOICES_UP_TO
from games.models import Game, Seat
from games.selectors.games import racks_scored
from games.selectors.rounds import TABLES_PER_PAGE, round_progress
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.web import text


@pytest.fixture(autouse=True)
def _no_local_window(settings):
    settings.PAGE_CACHE_LOCAL_SECONDS = 0


def _round_with(alice, bob, players: int, capture):
    """A tournament of `players` in tables of four, round 1 open, game 1 of the first two
    tables entered (as committed: the standings stored)."""
    with capture(execute=True):
        tournament = make_tournament(
            alice, name=f"Final {players}", scorekeepers=[bob], players=players
        )
        round_ = open_round(tournament, alice)
        for game in Game.objects.filter(table__round=round_, number=1, table__number__lte=2):
            enter_rummikub(game, bob)
    return tournament


def _queries(client, address: str) -> int:
    cache.clear()
    page_cache._entries.clear()
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(address)
    assert answer.status_code == 200
    return len(queries)


def test_the_round_page_and_projector_read_as_much_for_100_players_as_for_8(
    client, alice, bob, django_capture_on_commit_callbacks
):
    small = _round_with(alice, bob, 8, django_capture_on_commit_callbacks)
    large = _round_with(alice, bob, 100, django_capture_on_commit_callbacks)
    client.force_login(alice)
    for name, kwargs in (("round-detail", {"round_number": 1}), ("projector-live", {})):
        counts = [
            _queries(client, reverse(name, kwargs={"slug": t.slug, **kwargs}))
            for t in (small, large)
        ]
        # Only the seat swap's choices differ: the small round lists its seats (one query),
        # the large one asks for start numbers.
        assert counts[1] <= counts[0], (name, counts)
        assert counts[1] <= 20, (name, counts)


def test_a_large_round_is_shown_a_page_of_tables_at_a_time_with_its_counts(
    client, alice, bob, django_capture_on_commit_callbacks
):
    tournament = _round_with(alice, bob, 100, django_capture_on_commit_callbacks)
    client.force_login(alice)
    address = reverse("round-detail", kwargs={"slug": tournament.slug, "round_number": 1})
    first = text(client.get(address))
    shown = re.findall(r'id="table-(\d+)"', first)
    assert shown == [str(n) for n in range(1, TABLES_PER_PAGE + 1)]
    assert "0 of 25 tables finished · 2 of 100 games entered." in first
    assert 'id="round-waiting"' in first
    second = text(client.get(address + "?page=2"))
    assert re.findall(r'id="table-(\d+)"', second) == [str(n) for n in range(21, 26)]
    # "Find my table" shows the page of the table found.
    found = text(client.get(address + "?q=%2399"))
    assert 'id="table-25"' in found and 'id="table-1"' not in found
    assert "?page=2#table-25" in found


def test_the_series_summed_by_the_database_is_the_racks_after_sanctions(
    client, alice, bob, django_capture_on_commit_callbacks
):
    tournament = _round_with(alice, bob, 8, django_capture_on_commit_callbacks)
    client.force_login(alice)
    page = client.get(reverse("round-detail", kwargs={"slug": tournament.slug, "round_number": 1}))
    for rack in racks_scored().filter(result__game__table__round__tournament=tournament):
        seat = Seat.objects.get(player=rack.player)
        row = re.search(
            rf'<tr[^>]*>\s*<td>{seat.position}</td>\s*<td><a href="[^"]*/players/'
            rf'{rack.player.number}/".*?<td class="num">(-?\d*)</td>',
            text(page),
            re.S,
        )
        assert row is not None and int(row.group(1)) == rack.net_score
    progress = round_progress(tournament.rounds.get())
    assert (progress.tables, progress.games, progress.entered) == (2, 8, 2)
    assert progress.waiting == [1, 2] and progress.unstarted == 0


def test_a_large_round_swaps_seats_by_start_number(
    client, alice, bob, django_capture_on_commit_callbacks
):
    tournament = _round_with(alice, bob, 100, django_capture_on_commit_callbacks)
    assert tournament.players.count() > SWAP_CHOICES_UP_TO
    client.force_login(alice)
    address = reverse("round-detail", kwargs={"slug": tournament.slug, "round_number": 1})
    page = text(client.get(address))
    assert 'name="player_a"' in page and "<option" not in page.split('id="swap-title"')[1]
    swap = reverse("seat-swap", kwargs={"slug": tournament.slug, "round_number": 1})
    refused = client.post(swap, {"player_a": "97", "player_b": "500"})
    assert "No player has start number 500." in text(refused)
    before = {
        s.player.number: s.table.number for s in Seat.objects.select_related("player", "table")
    }
    answer = client.post(swap, {"player_a": "97", "player_b": "93"})
    assert answer.status_code == 302
    after = {
        s.player.number: s.table.number for s in Seat.objects.select_related("player", "table")
    }
    assert (after[97], after[93]) == (before[93], before[97]) == (24, 25)
