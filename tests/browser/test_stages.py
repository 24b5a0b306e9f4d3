"""A small event through two stages in a real browser on a 412x900 phone: a
qualification of 8 players, the organiser closes it from the cut's preview, and the final
of the top 4 (scores reset) shows its standings with the final's winner first."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services.rounds import round_open
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Player, StageEntry
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db(transaction=True)


def _play(round_, alice):
    for game in Game.objects.filter(table__round=round_):
        enter_rummikub(game, alice)


def test_qualification_then_final_of_the_top_four(new_page, alice):
    tournament = make_tournament(alice, players=8, games_per_table=1, name="Two Stage Open")
    stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(tournament=tournament, by=alice, name="Final", kind="final", cut_top=4)
    _play(open_round(tournament, alice), alice)

    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(f"/t/{tournament.slug}/")
    timeline = page.get_by_role("list", name="Stages")
    expect(timeline).to_contain_text("Running")
    timeline.get_by_role("link", name="1. Qualification").click()
    expect(page.get_by_role("heading", name="Go on (4)")).to_be_visible()
    expect(page.get_by_role("heading", name="Out (4)")).to_be_visible()
    assert not StageEntry.objects.exists()
    page.get_by_role("button", name="Close Qualification and commit this cut").click()

    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("4 players go on to Final")
    entrants = list(
        StageEntry.objects.order_by("seed_rank", "player").values_list("player", flat=True)
    )
    final = round_open(tournament=tournament, by=alice, method="manual", tables=[entrants])
    _play(final, alice)

    page.reload()
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(4)
    winner = Player.objects.get(pk=entrants[0])  # seat 1 went out in the final's one game
    expect(rows.first).to_contain_text(winner.name)
    expect(rows.first.locator("td").first).to_have_text("1")
    expect(page.get_by_role("list", name="Stages")).to_contain_text(re.compile("Done"))
