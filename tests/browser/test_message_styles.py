"""Messages in a real browser at 412x900: a note to heed ("Note: there is already a player
named …") is styled as a warning (the --warn colours), not as the green of a success."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import sign_in
from tests.factories import make_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _border(locator) -> str:
    return locator.evaluate("element => getComputedStyle(element).borderInlineStartColor")


def test_a_same_name_note_is_a_warning_not_a_success(new_page, alice):
    tournament = make_tournament(alice, players=4)
    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(f"/t/{tournament.slug}/players/")
    page.get_by_label("Name", exact=True).fill("Player 2")
    page.get_by_role("button", name="Register").click()
    success = page.locator("ul.messages li.success")
    note = page.locator("ul.messages li.warning")
    expect(success).to_contain_text("registered as #5")
    expect(note).to_contain_text("Note: there is already a player named Player 2 (#2).")
    warn = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--warn')")
    assert _border(note) != _border(success)
    assert _border(note) == page.evaluate(
        """colour => { const probe = document.createElement("i");
        probe.style.color = colour; document.body.append(probe);
        const value = getComputedStyle(probe).color; probe.remove(); return value; }""",
        warn.strip(),
    )
