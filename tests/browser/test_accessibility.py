"""Accessibility of the main pages, checked by axe-core in a real browser: no `serious` or
`critical` violation on a phone (412x900) in light and in dark mode, nor on a desktop.

axe is vendored (static/vendor/axe.min.js, see static/vendor/README) and loaded from the
live server as a static file: the Content-Security-Policy allows scripts from the site
itself only, so an inline copy (Playwright's `add_script_tag(path=...)`) would be refused.
"""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.standings import standings_recompute
from tests.browser.conftest import TIMEOUT_MS, sign_in
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.services.clubs import club_create, member_create
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db(transaction=True)

SERIOUS = ("serious", "critical")

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ")),
  }));
}"""

VARIANTS = {
    "phone-light": ({"width": 412, "height": 900}, "light"),
    "phone-dark": ({"width": 412, "height": 900}, "dark"),
    "desktop-light": ({"width": 1280, "height": 800}, "light"),
    "desktop-dark": ({"width": 1280, "height": 800}, "dark"),
}


@pytest.fixture
def event(alice, bob):
    """A running tournament (round 2 open, round 1 played), a finished one, and a club."""
    running = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(running, alice)
    for game in Game.objects.filter(table__round__tournament=running):
        enter_rummikub(game, bob)
    open_round(running, alice)
    game = Game.objects.filter(table__round__tournament=running, table__round__number=2).first()
    enter_rummikub(game, bob)
    standings_recompute(tournament_id=running.pk)

    finished = make_tournament(alice, name="Autumn Cup", players=8)
    open_round(finished, alice)
    for game in Game.objects.filter(table__round__tournament=finished):
        enter_rummikub(game, alice)
    standings_recompute(tournament_id=finished.pk)
    tournament_update(tournament=finished, by=alice, status="finished")

    club = club_create(by=alice, name="Haifa Joker")
    member_create(club=club, by=alice, name="Player 1")
    return running, finished, club


def _pages(running, finished, club) -> list[tuple[str, str | None]]:
    """(path, who is signed in) of every page checked."""
    t = f"/t/{running.slug}/"
    return [
        ("/", None),
        (t, None),
        (f"/t/{finished.slug}/", None),
        (t + "rounds/1/", None),
        (t + "players/1/", None),
        (f"/clubs/{club.slug}/", None),
        (t + "projector/", None),
        (t + "rounds/2/tables/2/", "bob"),
        (t + "rounds/2/sheets/", "bob"),
        (t + "checkin/", "bob"),
        (t + "staff/", "alice"),
        ("/", "alice"),
    ]


def _violations(page, path: str) -> list[dict]:
    page.goto(path)
    page.add_script_tag(url="/static/vendor/axe.min.js")
    found = page.evaluate(RUN_AXE)
    return [dict(v, page=path) for v in found if v["impact"] in SERIOUS]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_main_pages_have_no_serious_accessibility_violations(
    browser, live_server, event, variant
):
    viewport, scheme = VARIANTS[variant]
    passwords = {"alice": "alice-pass-123", "bob": "bob-pass-123"}
    pages = {}
    problems: list[dict] = []
    checked = 0
    try:
        for path, who in _pages(*event):
            if who not in pages:
                context = browser.new_context(
                    base_url=live_server.url, viewport=viewport, color_scheme=scheme
                )
                context.set_default_timeout(TIMEOUT_MS)
                pages[who] = context.new_page()
                if who:
                    sign_in(pages[who], who, passwords[who])
            page = pages[who]
            problems += _violations(page, path)
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
                scheme == "dark"
            )
            checked += 1
    finally:
        for page in pages.values():
            page.context.close()
    assert checked == len(_pages(*event))
    assert problems == [], "\n".join(
        f"{p['page']}: {p['impact']} {p['id']} ({p['help']}) at {p['nodes']}" for p in problems
    )
