"""New tournament from a format on a 412x900 phone: the catalogue fits the screen (no
sideways scroll), a format is picked, and the A/B-style stage graph it creates shows in
the tournament's timeline; the stage form offers the graph's fields."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import sign_in
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_format_picked_on_a_phone(new_page, alice, tmp_path):
    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto("/new/")
    page.get_by_role("link", name="Start from a format").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New tournament from a format")
    wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not wide, "the catalogue scrolls sideways on a phone"
    page.get_by_role("radio", name="Belgian open").check()
    page.get_by_label("Name", exact=True).fill("Open 2026")
    page.screenshot(path=str(tmp_path / "formats.png"), full_page=True)
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator(".messages")).to_contain_text("Open 2026 is created from the format")
    tournament = Tournament.objects.get(name="Open 2026")
    assert tournament.stages.count() == 3
    page.goto(f"/t/{tournament.slug}/")
    timeline = page.get_by_role("list", name="Stages")
    expect(timeline).to_contain_text("Semi-finals")
    page.goto(f"/t/{tournament.slug}/stages/new/")
    expect(page.get_by_label("Who goes on")).to_be_visible()
    expect(page.get_by_label("Seating of its rounds")).to_be_visible()
    wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not wide, "the stage form scrolls sideways on a phone"
