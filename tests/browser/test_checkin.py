"""Check-in in a real browser, on a phone-sized screen (412x900): the organiser marks one
player absent with the big toggle, opens the round, and everyone but that player is
seated. Then "everyone present" brings them back for the next round."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Seat
from tests.browser.conftest import sign_in
from tests.factories import make_tournament
from tournaments.models import Absence, Round

pytestmark = pytest.mark.django_db(transaction=True)


def test_check_in_one_absent_player_then_open_the_round(new_page, alice):
    tournament = make_tournament(alice, name="Saturday", players=9)
    absent = tournament.players.get(number=3)
    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(f"/t/{tournament.slug}/")
    page.get_by_role("link", name="Check-in").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("check-in, round 1")

    toggle = page.locator(f"#player-{absent.pk} button")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    # Big enough for a thumb, and the list fits the phone's width.
    box = toggle.bounding_box()
    assert box is not None and box["height"] >= 48 and box["width"] >= 300
    assert page.evaluate("document.documentElement.scrollWidth") <= 412
    toggle.click()
    toggle = page.locator(f"#player-{absent.pk} button")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_contain_text("Absent")
    expect(page.locator(".checkin-count")).to_contain_text("8 present · 1 absent")
    assert Absence.objects.filter(player=absent, round_number=1).exists()

    # From the check-in to opening the round: the absent player is listed, not seated.
    page.get_by_role("link", name="Open round 1").click()
    expect(page.get_by_text("Absent in round 1 (1)")).to_be_visible()
    page.get_by_label("Seating method").select_option("random")
    page.get_by_role("button", name="Preview round 1").click()
    page.get_by_role("button", name="Open round 1").click()
    expect(page.get_by_text("Round 1 is open.")).to_be_visible()
    round1 = Round.objects.get(tournament=tournament, number=1)
    seated = set(Seat.objects.filter(round=round1).values_list("player_id", flat=True))
    assert len(seated) == 8 and absent.pk not in seated

    # Round 2's check-in: everyone present again in one tap (nobody is absent yet, so the
    # button waits); round 1's check-in is closed.
    page.goto(f"/t/{tournament.slug}/checkin/1/")
    expect(page.get_by_text("its check-in is closed")).to_be_visible()
    page.goto(f"/t/{tournament.slug}/checkin/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("round 2")
    page.locator(f"#player-{absent.pk} button").click()
    expect(page.locator(".checkin-count")).to_contain_text("1 absent")
    page.get_by_role("button", name="Everyone present").click()
    expect(page.get_by_text("Everyone is present for round 2 (1 was absent).")).to_be_visible()
    expect(page.locator(f"#player-{absent.pk} button")).to_have_attribute("aria-pressed", "true")
