"""The table page's offline queue treats a 503 (the database away for a moment:
config/errors.py) like a lost connection: the entry stays on the phone,
"waiting to send", and is sent again after the answer's Retry-After — once."""

from __future__ import annotations

import re

import pytest
from django.test import RequestFactory
from playwright.sync_api import expect

from config.errors import service_unavailable
from games.models import Result
from tests.browser.test_table_side import RETRY_WAIT_MS, fill_game_1, table_page  # noqa: F401
from tests.factories import make_tournament, open_round
from tournaments.services.table_links import table_links_issue
from tournaments.table_links import token_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_503_keeps_the_entry_queued_and_it_is_sent_again(table_page):  # noqa: F811
    page = table_page
    url = page.url
    answered = []

    def database_away_once(route):
        if route.request.method != "POST" or answered:
            route.continue_()
            return
        answered.append(503)  # as config.errors answers while the database restarts
        route.fulfill(
            status=503,
            headers={"Retry-After": "1", "Content-Type": "text/html; charset=utf-8"},
            body="<h1>Back in a moment</h1>",
        )

    page.route(lambda address: address.split("?")[0] == url, database_away_once)
    fill_game_1(page)
    page.locator("#game-1").get_by_role("button", name="Save game 1").click()
    expect(page.locator("#outbox")).to_contain_text("waiting to send")
    assert answered == [503]
    assert page.evaluate("JSON.parse(localStorage.getItem('rummitab-outbox')).length") == 1
    assert Result.objects.count() == 0
    # The retry goes through (the route now passes it to the server): saved, once.
    expect(page.get_by_text("Game 1: version 1 saved and confirmed.")).to_be_visible(
        timeout=RETRY_WAIT_MS
    )
    assert page.evaluate("localStorage.getItem('rummitab-outbox')") is None
    assert Result.objects.count() == 1
    page.screenshot(path="/tmp/sec_503_retry.png")


def test_the_503_page_and_a_table_links_403_page_at_phone_size(new_page, alice, live_server):
    """The pages this change made, as a phone shows them (screenshots in /tmp)."""
    tournament = make_tournament(alice, players=4, name="Phone Open")
    open_round(tournament, alice)
    link = table_links_issue(by=alice, round_=tournament.rounds.get(), table_numbers=[1])[1]
    page = new_page()
    page.goto(f"/t/{tournament.slug}/rounds/1/tables/1/link/{token_for(link)}/")
    page.goto("/new-club/")
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    expect(page.get_by_text("scorekeeper of table 1 in round 1 only")).to_be_visible()
    page.screenshot(path="/tmp/sec_403_link.png")
    page.get_by_role("link", name="Table 1 · round 1").click()
    expect(page).to_have_url(re.compile(r"/rounds/1/tables/1/$"))
    # 503.html as config.errors renders it (no request), shown with the site's styles.
    page.set_content(service_unavailable(RequestFactory().get("/")).content.decode())
    expect(page.get_by_role("heading", name="Back in a moment")).to_be_visible()
    page.screenshot(path="/tmp/sec_503_page.png")
