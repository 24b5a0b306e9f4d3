"""Staff without the Django admin, in a real browser on a phone-sized screen (412 x 900):
the organiser creates a scorekeeper account on the Staff page, the scorekeeper signs in
with the password shown once and opens a table's entry page; the organiser changes their
role, then removes them, and the scorekeeper's next request is refused."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tournaments.models import StaffMember

pytestmark = pytest.mark.django_db(transaction=True)


def test_organiser_creates_changes_and_removes_a_scorekeeper(new_page, alice):
    tournament = make_tournament(alice, players=8, name="Saturday Open")
    open_round(tournament, alice)
    table = f"/t/{tournament.slug}/rounds/1/tables/1/"

    organiser = new_page()
    sign_in(organiser, "alice", "alice-pass-123")
    organiser.goto(f"/t/{tournament.slug}/")
    organiser.get_by_role("link", name="Staff").click()
    account = organiser.locator(
        "section", has=organiser.get_by_role("heading", name="Create an account")
    )
    account.get_by_label("Username").fill("table1")
    account.get_by_label("Role").select_option("scorekeeper")
    account.get_by_role("button", name="Create account").click()
    expect(organiser.get_by_text("Account table1 created")).to_be_visible()
    password = organiser.locator("#created-password").inner_text()
    assert len(password) >= 12
    # The page fits the phone: nothing wider than the screen.
    assert organiser.evaluate("document.documentElement.scrollWidth") <= 412

    scorekeeper = new_page()
    sign_in(scorekeeper, "table1", password)
    answer = scorekeeper.goto(table)
    assert answer.status == 200
    expect(scorekeeper.locator("#game-1")).to_be_visible()

    # A new role: organiser, then back to scorekeeper.
    organiser.get_by_label("Role of table1").select_option("organiser")
    organiser.get_by_role("button", name="Change role of table1").click()
    expect(organiser.get_by_text("table1 is now Organiser.")).to_be_visible()
    scorekeeper.goto(f"/t/{tournament.slug}/")
    expect(scorekeeper.get_by_role("link", name="Staff")).to_be_visible()
    organiser.get_by_label("Role of table1").select_option("scorekeeper")
    organiser.get_by_role("button", name="Change role of table1").click()
    expect(organiser.get_by_text("table1 is now Scorekeeper.")).to_be_visible()
    assert StaffMember.objects.get(user__username="table1").role == "scorekeeper"

    # Removed: asked first, then gone; the scorekeeper's next request is refused.
    organiser.get_by_role("link", name="Remove table1").click()
    expect(organiser.get_by_text("Remove table1 (Scorekeeper) from the staff?")).to_be_visible()
    organiser.get_by_role("button", name="Remove table1").click()
    expect(organiser.get_by_text("table1 is no longer staff here.")).to_be_visible()
    expect(organiser.get_by_label("Role of table1")).to_have_count(0)
    assert scorekeeper.goto(table).status == 403
