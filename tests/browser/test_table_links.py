"""Table links in a real browser at 412 x 900: a phone with no account opens the QR's
address, lands on its table's entry page and enters a game; the same phone cannot open
another table or round (403 page); a revoked link or a finished round shows a clear page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import Result
from tests.factories import make_tournament, open_round
from tournaments.models import Round
from tournaments.services.table_links import table_links_issue, table_links_revoke
from tournaments.services.tournaments import tournament_update
from tournaments.table_links import token_for

pytestmark = pytest.mark.django_db(transaction=True)


def link_path(tournament, link) -> str:
    return reverse(
        "table-link",
        kwargs={
            "slug": tournament.slug,
            "round_number": link.round.number,
            "table_number": link.table_number,
            "token": token_for(link),
        },
    )


def test_a_phone_without_an_account_scores_its_table_through_the_link(new_page, alice, settings):
    tournament = make_tournament(alice, players=8, name="Friday Open")
    round_ = open_round(tournament, alice)
    links = table_links_issue(by=alice, round_=round_, table_numbers=[1, 2])

    phone = new_page()
    phone.goto(link_path(tournament, links[1]))
    expect(phone).to_have_url(re.compile(r"/t/friday-open/rounds/1/tables/1/$"))
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Table 1")
    game1 = phone.locator("#game-1")
    game1.get_by_label("Rummikub (a rack emptied)").check()
    game1.get_by_label("Winner").select_option(label="Player 1 (seat 1)")
    game1.get_by_label("Player 2 — tiles").fill("R4 B10 K2")
    game1.get_by_label("Player 3 — tiles").fill("J 7")
    game1.get_by_label("Player 4 — tiles").fill("O3")
    game1.get_by_role("button", name="Save game 1").click()
    expect(phone.get_by_text("Game 1: version 1 saved")).to_be_visible()
    result = Result.objects.get(game__table__number=1, game__number=1)
    assert result.submitted_by == links[1].user
    phone.screenshot(path="/tmp/tablelinks-entry.png", full_page=False)

    # Another table, another round: a 403 page that says what the phone may open.
    response = phone.goto("/t/friday-open/rounds/1/tables/2/")
    assert response.status == 403
    expect(phone.locator("main")).to_contain_text("table 1 in round 1 only")
    response = phone.goto(link_path(tournament, links[1]).replace("/tables/1/", "/tables/2/"))
    assert response.status == 403
    expect(phone.get_by_role("heading", level=1)).to_have_text("This link is for another table")

    # Revoked: the printed link shows a clear page, in a fresh context too.
    table_links_revoke(by=alice, round_=round_, table_number=1)
    fresh = new_page()
    response = fresh.goto(link_path(tournament, links[1]))
    assert response.status == 410
    expect(fresh.get_by_role("heading", level=1)).to_have_text("This table link was revoked")

    # The round ends with the tournament: table 2's link is over.
    tournament_update(tournament=tournament, by=alice, status="finished")
    ended = new_page()
    response = ended.goto(link_path(tournament, links[2]))
    assert response.status == 410
    expect(ended.get_by_role("heading", level=1)).to_have_text("Round 1 is over")
    expect(ended.locator("main")).to_contain_text("the tournament is finished")
    ended.screenshot(path="/tmp/tablelinks-ended.png")


def test_a_link_of_an_earlier_round_does_not_open_the_next_one(new_page, alice):
    tournament = make_tournament(alice, players=4, name="Two Rounds")
    first = open_round(tournament, alice)
    link = table_links_issue(by=alice, round_=first, table_numbers=[1])[1]
    phone = new_page()
    phone.goto(link_path(tournament, link))
    expect(phone).to_have_url(re.compile(r"/rounds/1/tables/1/$"))
    open_round(tournament, alice)
    assert Round.objects.filter(tournament=tournament).count() == 2
    # Signed out with round 1: the phone is sent back to its link, which says why.
    response = phone.goto("/t/two-rounds/rounds/1/tables/1/")
    assert response.status == 410
    expect(phone).to_have_url(re.compile(r"/rounds/1/tables/1/link/"))
    expect(phone.get_by_role("heading", level=1)).to_have_text("Round 1 is over")
    expect(phone.locator("main")).to_contain_text("round 2 has been opened")
