"""Divisions in a real browser, on a phone (412x900): the standings page's division
chips wrap on the first screen, and picking one shows only its players, ranked 1..n,
and keeps showing only them when the table is polled again."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services.standings import standings_recompute
from tests.browser.conftest import sign_in
from tests.browser.test_accessibility import RUN_AXE, SERIOUS
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.services.divisions import division_create, division_members_set
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db(transaction=True)

JUNIORS = (2, 3, 6, 8)


@pytest.fixture
def divided(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament, number=1):
        enter_rummikub(game, bob)
    juniors = division_create(tournament=tournament, by=alice, name="Juniors ≤ 14")
    division_create(tournament=tournament, by=alice, name="Seniors 60+")
    division_create(tournament=tournament, by=alice, name="Beginners")
    ids = tournament.players.filter(number__in=JUNIORS).values_list("pk", flat=True)
    division_members_set(division=juniors, by=alice, player_ids=list(ids))
    standings_recompute(tournament_id=tournament.pk)
    return tournament


def shown_numbers(page) -> list[int]:
    cells = page.locator("#standings tbody td.who .muted").all_inner_texts()
    return [int(re.match(r"#(\d+)", cell).group(1)) for cell in cells]


def test_picking_a_division_on_a_phone_shows_only_its_players(new_page, divided):
    page = new_page()
    page.goto(f"/t/{divided.slug}/")
    chips = page.get_by_role("navigation", name="Divisions")
    expect(chips.get_by_role("link", name="Everyone")).to_have_attribute("aria-current", "page")
    assert sorted(shown_numbers(page)) == list(range(1, 9))
    # Compact: every chip on the first screen, inside the phone's width (they wrap).
    for chip in chips.get_by_role("link").all():
        box = chip.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 412
        assert box["y"] + box["height"] <= 900
    page.screenshot(path="/tmp/divisions-412-everyone.png", full_page=True)

    chips.get_by_role("link", name="Juniors ≤ 14").click()
    page.wait_for_url(re.compile(r"\?division=juniors-14$"))
    expect(page.get_by_role("heading", name="Standings — Juniors ≤ 14")).to_be_visible()
    expect(chips.get_by_role("link", name="Juniors ≤ 14")).to_have_attribute("aria-current", "page")
    assert sorted(shown_numbers(page)) == sorted(JUNIORS)
    ranks = page.locator("#standings tbody td.rank").all_inner_texts()
    assert int(ranks[0].split()[0]) == 1
    page.screenshot(path="/tmp/divisions-412-juniors.png", full_page=True)

    # The next poll (a new table after a recompute, or a 304) keeps the division.
    with page.expect_response(lambda r: "/standings/live/?division=juniors-14" in r.url):
        pass
    assert sorted(shown_numbers(page)) == sorted(JUNIORS)


def test_the_division_pages_have_no_serious_accessibility_violations(new_page, divided, alice):
    tournament_update(tournament=divided, by=alice, status="finished")  # the prize section
    t = f"/t/{divided.slug}/"
    problems: list[dict] = []
    anonymous = new_page()
    for path in (t, t + "?division=juniors-14", t + "?division=nope"):
        anonymous.goto(path)
        anonymous.add_script_tag(url="/static/vendor/axe.min.js")
        problems += [v for v in anonymous.evaluate(RUN_AXE) if v["impact"] in SERIOUS]
    anonymous.goto(t + "?division=juniors-14")  # a division's own table: no prize section
    expect(anonymous.get_by_role("heading", name="Division prizes")).to_have_count(0)
    organiser = new_page()
    sign_in(organiser, "alice", "alice-pass-123")
    for path in (t + "divisions/", t + "divisions/juniors-14/"):
        organiser.goto(path)
        organiser.add_script_tag(url="/static/vendor/axe.min.js")
        problems += [v for v in organiser.evaluate(RUN_AXE) if v["impact"] in SERIOUS]
    organiser.goto(t)
    expect(organiser.get_by_role("heading", name="Division prizes")).to_be_visible()
    organiser.screenshot(path="/tmp/divisions-412-prizes.png", full_page=True)
    assert problems == []
