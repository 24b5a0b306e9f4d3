"""Conditional polling and the projector in a real browser: the live standings fragment
answers 304 while nothing changes (and the table is left alone), then a 200 with the new
table once a result is entered; the projector cycles between its slides by itself."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services.rounds import round_clock_set
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament, number=1):
        enter_rummikub(game, bob)
    return tournament


def wait_for(page, condition, seconds: float) -> float:
    """Wait in Playwright (which delivers the page's events meanwhile) for `condition`."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if condition():
            return time.monotonic() - started
        page.wait_for_timeout(100)
    raise AssertionError(f"not within {seconds} s")


def test_the_live_fragment_answers_304_then_updates_after_a_result(new_page, running, bob):
    page = new_page()
    polls: list[tuple[int, str | None]] = []
    page.on(
        "response",
        lambda response: (
            "/standings/live/" in response.url
            and polls.append((response.status, response.request.headers.get("if-none-match")))
        ),
    )
    page.goto(f"/t/{running.slug}/")
    table = page.locator("#standings")
    expect(table).to_contain_text("(version")
    shown = table.inner_text()
    # Two polls (every 3 s) while nothing changes: each sends the ETag, each gets a 304.
    wait_for(page, lambda: len(polls) >= 2, 10)
    assert all(status == 304 for status, _ in polls), polls
    assert all(sent and sent.startswith('W/"') for _, sent in polls), polls
    assert table.inner_text() == shown  # a 304 swaps nothing in
    page.evaluate("document.getElementById('standings').dataset.marker = 'kept'")
    assert table.get_attribute("data-marker") == "kept"

    game = Game.objects.get(table__round__tournament=running, table__number=1, number=2)
    entered = time.monotonic()
    enter_rummikub(game, bob)
    running.refresh_from_db()
    version = running.results_version
    expect(table).to_contain_text(f"(version {version})", timeout=8_000)
    # The poll interval (3 s) plus the recompute: within 4 s of the entry.
    assert time.monotonic() - entered < 4.5
    assert any(status == 200 for status, _ in polls)
    assert table.get_attribute("data-marker") is None  # swapped for the new table
    # And the next polls are 304 again, with the new ETag.
    count = len(polls)
    wait_for(page, lambda: len(polls) > count, 6)
    assert polls[-1][0] == 304


def test_the_projector_cycles_between_its_slides(new_page, running, alice):
    round_clock_set(round_=running.rounds.get(number=1), by=alice, minutes=25)
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"/t/{running.slug}/projector/?cycle=1")
    seen = []

    def record() -> bool:
        slide = page.evaluate("document.body.dataset.slide")
        if slide and (not seen or seen[-1] != slide):
            seen.append(slide)
        return {"standings", "tables", "clock"} <= set(seen) and seen[-1] == "standings"

    wait_for(page, record, 8)
    assert seen[:3] == ["standings", "tables", "clock"]
    visible = page.locator("#projector-live .slide:not([hidden])")
    expect(visible).to_have_count(1)
    expect(page.locator(".big-clock")).to_have_text(re.compile(r"^2[45]:[0-5]\d$"))
