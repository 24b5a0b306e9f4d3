"""The finals in a real browser on a 412x900 phone: a qualification of 8 closed from its
page into a race-to-2 final of 4; the final's rounds opened from "Open next round" (the
preview says which game of the race it is); results entered until the race is decided;
the final standings page shows the champion first; the final's projector page updates
by itself after a result; opening another round is refused, saying why."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.games.test_finals import enter_win
from tournaments.models import Player, Round, StageEntry
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db(transaction=True)


def _open_final_round(page, slug, game):
    page.goto(f"/t/{slug}/rounds/new/")
    page.get_by_label("Seating method").select_option("random")
    page.get_by_role("button", name=re.compile("Preview round")).click()
    expect(page.locator("#draw-stage")).to_contain_text(
        f"First to 2 wins: game {game} of at most 3"
    )
    page.get_by_role("button", name=re.compile(r"^Open round")).click()
    expect(page.locator("#round-stage")).to_contain_text(f"game {game} of at most 3")
    return Round.objects.order_by("-number").first()


def test_qualification_then_a_race_final_to_the_champion(new_page, alice):
    tournament = make_tournament(alice, players=8, games_per_table=1, name="Race Open")
    stage_create(tournament=tournament, by=alice, name="Qualification")
    stage_create(
        tournament=tournament,
        by=alice,
        name="Final",
        kind="final",
        cut_top=4,
        race_target=2,
        race_cap=3,
    )
    for game in Game.objects.filter(table__round=open_round(tournament, alice)):
        enter_rummikub(game, alice)

    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(f"/t/{tournament.slug}/stages/1/")
    page.get_by_role("button", name="Close Qualification and commit this cut").click()
    expect(page.get_by_role("heading", name="Final standings")).to_be_visible()
    entrants = list(StageEntry.objects.filter(stage__number=2).values_list("player", flat=True))
    champion = Player.objects.get(pk=entrants[-1])

    # The venue's screen: the final's projector, in its own browser context.
    screen = new_page()
    screen.goto(f"/t/{tournament.slug}/stages/2/projector/")
    expect(screen.locator(".final-status")).to_have_text("Game 1 is next.")

    first = _open_final_round(page, tournament.slug, 1)
    enter_win(Game.objects.get(table__round=first), alice, champion.pk)
    # No reload: the projector polls and shows the result within a few seconds.
    expect(screen.locator(".final-status")).to_have_text("Game 2 is next.", timeout=15_000)
    expect(screen.locator(".final-table tbody tr").first).to_contain_text(champion.name)

    second = _open_final_round(page, tournament.slug, 2)
    enter_win(Game.objects.get(table__round=second), alice, champion.pk)

    page.goto(f"/t/{tournament.slug}/stages/2/")
    expect(page.locator(".race-words")).to_have_text(
        f"\u2068{champion.name}\u2069 is the champion: 2 wins in game 2."
    )
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text(champion.name)
    expect(rows.first.locator("td").first).to_have_text("1")
    expect(page.get_by_role("list", name="Stages")).to_contain_text("Decided")
    expect(screen.locator(".final-status")).to_contain_text("is the champion", timeout=15_000)

    # The race is over: another round is refused, saying why, and nothing is opened.
    rounds = Round.objects.count()
    page.goto(f"/t/{tournament.slug}/rounds/new/")
    page.get_by_label("Seating method").select_option("random")
    page.get_by_role("button", name=re.compile("Preview round")).click()
    expect(page.get_by_text(re.compile("is decided"))).to_be_visible()
    assert Round.objects.count() == rounds
