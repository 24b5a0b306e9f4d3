"""On a 412x900 phone, the organiser's pages of the second event-day walk:

* settings once results are in: the locked fields are disabled with the reason, the note
  says what may still change, and a locked value cannot be chosen;
* the ranking picked from named metrics by keyboard, the panel showing a wrong choice's
  error (never the preset's ranking in its place);
* a stage's close button disabled, with what is missing beside it, before any click;
* after voiding a penalty, the "voided" message is on screen where the page lands.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Penalty
from games.services.results import penalty_record
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Stage
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_locked_settings_and_the_ranking_picker(new_page, alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8, name="Locked Open")
    game = Game.objects.filter(table__round=open_round(tournament, alice)).first()
    enter_rummikub(game, bob)

    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(f"/t/{tournament.slug}/edit/")
    expect(page.locator("#settings-locked")).to_contain_text("are locked")
    expect(page.locator("#settings-locked")).to_contain_text("Still open: the name")
    players = page.get_by_label("Players per table")
    expect(players).to_be_disabled()
    expect(players).to_have_accessible_description(re.compile("^Locked: results have been entered"))
    expect(page.get_by_role("radio", name=re.compile("^Mind Sports Olympiad"))).to_be_disabled()
    expect(page.get_by_label("Rounds planned")).to_be_enabled()
    expect(page.get_by_label("Name", exact=True)).to_be_enabled()

    # The ranking by keyboard: focus place 1, choose a metric with the arrow keys.
    place1 = page.get_by_role("combobox", name="Ranking, Place 1")
    place2 = page.get_by_role("combobox", name="Ranking, Place 2")
    place2.select_option("games_won")  # now both places hold "Games won": refused
    panel = page.locator("#rules-panel")
    expect(panel).to_contain_text("(as chosen — not valid yet, see above)")
    expect(panel.locator(".errors")).to_contain_text("games_won")
    expect(panel).not_to_contain_text("(the preset's)")
    place2.select_option("score")
    place1.focus()
    page.keyboard.press("ArrowDown")  # Games won → Rummikubs (the next named metric)
    expect(place1).to_have_value("rummikubs")
    expect(panel).to_contain_text("1. Rummikubs (higher is better), 2. Score (higher is better)")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("Settings saved.")).to_be_visible()
    tournament.refresh_from_db()
    assert tournament.ranking == ["rummikubs", "score"]
    assert tournament.table_size == 4


def test_the_close_button_says_what_is_missing(new_page, alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8, games_per_table=1)
    stage_create(tournament=tournament, by=alice, name="Qualification", rounds_planned=2)
    stage_create(tournament=tournament, by=alice, name="Final", kind="final", cut_top=4)
    games = list(
        Game.objects.filter(table__round=open_round(tournament, alice)).order_by("table__number")
    )
    enter_rummikub(games[0], bob)

    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(f"/t/{tournament.slug}/stages/1/")
    expect(page.get_by_role("list", name="Stages")).to_contain_text("round 1 of 2")
    close = page.get_by_role("button", name="Close Qualification and commit this cut")
    expect(close).to_be_disabled()
    expect(close).to_have_accessible_description(re.compile("1 game missing at table 2"))
    blockers = page.locator("#close-blockers")
    expect(blockers).to_be_visible()
    assert blockers.bounding_box()["y"] < close.bounding_box()["y"]  # said before the button
    enter_rummikub(games[1], bob)
    page.reload()
    expect(close).to_be_enabled()
    close.click()
    expect(page.locator(".messages")).to_contain_text("4 players go on to Final")
    assert Stage.objects.get(tournament=tournament, number=1).status == "closed"


def test_the_voided_message_is_where_the_page_lands(new_page, alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=4, games_per_table=4)
    open_round(tournament, alice)
    games = list(Game.objects.filter(table__round__tournament=tournament).order_by("number"))
    for game in games[:2]:
        enter_rummikub(game, bob)
    third = games[2]
    player = third.table.seats.get(position=2).player
    penalty_record(game=third, by=bob, player=player.pk, kind="timeout")

    page = new_page()
    sign_in(page, "bob", "bob-pass-123")
    page.goto(f"/t/{tournament.slug}/rounds/1/tables/1/?game=3")
    page.get_by_role("button", name=f"Void this penalty of {player.name}").click()
    message = page.get_by_text(re.compile(r"Game 3: timeout for .* voided\."))
    expect(message).to_be_visible()
    expect(message).to_be_in_viewport()
    assert page.evaluate("location.hash") == "#game-3-penalties"
    assert page.locator("main > .messages").count() == 0  # not at the top, off-screen
    assert Penalty.objects.get().voided
