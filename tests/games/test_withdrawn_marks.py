"""A withdrawn player is marked wherever they are listed, and never numbered as if ranked:
the standings page and the projector's standings give them a dash ("not ranked:
withdrawn" for screen readers) and the "withdrawn" marker, not the place after the last
active player; the projector's tables slide marks them at their table."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.services.withdrawals import player_withdraw
from tests.html import html_text
from tests.web import text
from tournaments.models import Player
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def withdrawn(played, alice):
    """Club Open (8 players, game 1 of each table entered) with #3 withdrawn, playing on."""
    leaver = Player.objects.get(tournament=played, number=3)
    player_withdraw(player=leaver, by=alice, unplayed="plays_on")
    return leaver


def _row_of(page: str, name: str) -> str:
    rows = re.findall(r"<tr\b.*?</tr>", page, flags=re.S)
    return next(row for row in rows if f">{name}</a>" in row or f"{name} <small>" in row)


def _rank_cell(row: str) -> str:
    return re.search(r'<td class="num rank">(.*?)</td>', row, flags=re.S).group(1)


def test_the_standings_give_a_withdrawn_player_no_place_number(client, played, withdrawn):
    page = text(client.get(reverse("standings-live", args=[played.slug])))
    rank = _rank_cell(_row_of(page, withdrawn.name))
    assert "8" not in rank  # listed last, but not "8"
    assert '<span aria-hidden="true">\u2013</span>' in rank  # an en dash
    assert "not ranked: withdrawn" in rank
    assert "· withdrawn" in html_text(_row_of(page, withdrawn.name))
    assert _rank_cell(_row_of(page, "Player 1")).strip().startswith(("1", "2", "3"))


def test_the_projector_marks_a_withdrawn_player_at_their_table_and_in_the_standings(
    client, played, withdrawn
):
    page = text(client.get(reverse("projector-live", args=[played.slug])))
    tables = page[page.index('data-slide="tables"') :]
    seat = re.search(rf"<li[^>]*>{withdrawn.name}\s+<small>(.*?)</small>", tables, re.S)
    assert html_text(seat.group(1)) == f"#{withdrawn.number} · withdrawn"
    assert "· withdrawn" not in html_text(tables.replace(seat.group(0), ""))
    standings = page[: page.index('data-slide="tables"')]
    assert "not ranked: withdrawn" in _rank_cell(_row_of(standings, withdrawn.name))


def test_the_stage_page_gives_a_withdrawn_player_no_place_number(client, played, withdrawn, alice):
    stage_create(tournament=played, by=alice, name="Qualification")  # owns round 1
    page = text(client.get(reverse("stage-detail", args=[played.slug, 1])))
    row = _row_of(page, withdrawn.name)
    assert "not ranked: withdrawn" in row and "· withdrawn" in html_text(row)
