"""Every kind of page under the Content-Security-Policy, in chromium: no violation at all,
and the features that need JavaScript still work — the live rack value, the turn timer,
the standings that poll, the rules panel, the print button.

Violations are caught twice: the `securitypolicyviolation` events of each page (reported
to the test through an exposed function) and chromium's console errors about the policy.
The last test proves that this watch sees a violation when there is one.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WATCH = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation({
    page: location.pathname,
    directive: event.effectiveDirective,
    blocked: event.blockedURI,
    sample: event.sample,
  });
}, true);
"""


class Watch:
    """A browser page that records every CSP violation and console error about it."""

    def __init__(self, new_page, who: str | None = None, password: str | None = None):
        self.violations: list[dict] = []
        self.console: list[str] = []
        self.page = new_page()
        self.page.context.expose_function("reportCspViolation", self._violation)
        self.page.context.add_init_script(WATCH)
        self.page.on("console", self._console)
        if who:
            sign_in(self.page, who, password)

    def _violation(self, report: dict) -> None:
        self.violations.append(report)

    def _console(self, message) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self.console.append(message.text)

    def visit(self, path: str, status: int = 200):
        """Open a page: the expected status, the policy in force, no inline script."""
        response = self.page.goto(path)
        assert response is not None
        assert response.status == status, (path, response.status)
        policy = response.headers.get("content-security-policy", "")
        script_src = re.search(r"script-src ([^;]*)", policy)
        assert script_src, (path, policy)
        assert script_src.group(1).split() == ["'self'"], (path, policy)
        assert "unsafe-inline" not in policy, (path, policy)
        return response

    def assert_clean(self) -> None:
        self.page.wait_for_timeout(300)  # violation reports arrive asynchronously
        assert self.violations == []
        assert self.console == []


@pytest.fixture
def tournament(alice, bob) -> Tournament:
    """8 players at two tables, game 1 of each table entered: a chart, standings, sheets."""
    tournament = make_tournament(alice, scorekeepers=[bob], players=8, name="Policy Open")
    open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament, number=1):
        enter_rummikub(game, bob, "R4 B10", "K2", "J")
    tournament.refresh_from_db()
    return tournament


def test_public_pages_and_live_standings(new_page, tournament, bob):
    watch = Watch(new_page)
    page = watch.page
    slug = tournament.slug
    watch.visit("/")
    expect(page.get_by_role("link", name="Policy Open")).to_be_visible()

    # The standings poll (htmx) and swap in a newer version without a reload.
    watch.visit(f"/t/{slug}/")
    expect(page.locator("#standings")).to_contain_text(f"(version {tournament.results_version})")
    page.evaluate("window.notReloaded = true")
    with page.expect_response(re.compile(r"/standings/live/$")) as polled:
        pass
    # Nothing changed since the page was rendered: the poll sends its ETag and gets a 304.
    assert polled.value.status == 304
    game = Game.objects.get(table__round__tournament=tournament, table__number=1, number=2)
    enter_rummikub(game, bob)
    tournament.refresh_from_db()
    expect(page.locator("#standings")).to_contain_text(
        f"(version {tournament.results_version})", timeout=15_000
    )
    assert page.evaluate("window.notReloaded") is True

    watch.visit(f"/t/{slug}/rounds/1/?q=Player+6")
    expect(page.locator("#found")).to_contain_text("table 2")
    # The search box keeps its width beside the button (a class now, not a style=).
    box, button = page.get_by_label("Find my table"), page.get_by_role("button", name="Find")
    assert box.bounding_box()["width"] > 2 * button.bounding_box()["width"]

    watch.visit(f"/t/{slug}/players/2/")
    expect(page.locator("svg.chart polyline")).to_be_visible()
    watch.visit("/accounts/login/")
    watch.visit("/no/such/page/", status=404)
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()

    # The API docs: Swagger UI starts from its own script file and lists the API.
    watch.visit("/api/v1/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Rummitab API")
    expect(page.locator(".opblock").first).to_be_visible()
    watch.assert_clean()


def test_organiser_pages(new_page, tournament, alice):
    watch = Watch(new_page, "alice", "alice-pass-123")
    page = watch.page
    slug = tournament.slug
    # The rules panel follows the form (htmx GET on change).
    watch.visit("/new/")
    page.get_by_role("radio", name=re.compile("^Mind Sports Olympiad")).check()
    expect(page.locator('#rules-panel [data-option="joker_penalty"]')).to_have_text("50")
    for path in ("edit/", "staff/", "players/", "rounds/new/", "missing/", "confirm/"):
        watch.visit(f"/t/{slug}/{path}")
    watch.visit("/accounts/password_change/")

    # The print button works from its script file.
    page.add_init_script("window.print = () => { window.printed = (window.printed || 0) + 1; };")
    watch.visit(f"/t/{slug}/rounds/1/sheets/")
    expect(page.locator("section.sheet .qr svg").first).to_be_visible()
    page.get_by_role("button", name="Print 2 sheets").click()
    assert page.evaluate("window.printed") == 1
    watch.assert_clean()


def test_scorekeeper_pages_rack_value_and_timer(new_page, tournament, bob):
    watch = Watch(new_page, "bob", "bob-pass-123")
    page = watch.page
    slug = tournament.slug
    # The live rack value (htmx GET as one types).
    watch.visit(f"/t/{slug}/rounds/1/tables/1/?game=2")
    game2 = page.locator("#game-2")
    game2.get_by_label("Player 2 — tiles").fill("R4 B10 K2")
    expect(page.locator("#g2-r2-value")).to_have_text("= 16 points (3 tiles)")

    # The turn timer (timer.js) counts down, and a timeout is recorded (htmx POST).
    page.clock.install()
    watch.visit(f"/t/{slug}/rounds/1/tables/1/timer/")
    expect(page.locator("#timer-clock")).to_have_text("2:00")
    page.get_by_role("button", name="Start turn").click()
    expect(page.locator("#timer-turn")).to_have_text(re.compile(r"^Turn: Player \d"))
    page.clock.run_for(3000)
    expect(page.locator("#timer-clock")).to_have_text("1:57")
    page.clock.run_for(120_000)
    expect(page.locator("#timer-clock")).to_have_text("Time!")
    page.get_by_role("button", name=re.compile("Record timeout for")).click()
    expect(page.locator("#timer-status")).to_contain_text("Recorded: timeout")
    watch.assert_clean()


def test_error_pages_and_admin(new_page, tournament, mallory, root):
    watch = Watch(new_page, "mallory", "mallory-pass-123")
    watch.visit(f"/t/{tournament.slug}/edit/", status=403)
    expect(watch.page.get_by_role("heading", name="Not allowed")).to_be_visible()
    watch.visit("/t/no-such-tournament/", status=404)
    watch.assert_clean()

    admin = Watch(new_page, "root", "root-pass-123")
    for path in (
        "/admin/",
        "/admin/tournaments/tournament/",
        f"/admin/tournaments/tournament/{tournament.pk}/change/",
        f"/admin/tournaments/tournament/{tournament.pk}/history/",
    ):
        admin.visit(path)
    admin.assert_clean()


def test_the_watch_sees_a_violation(new_page, tournament):
    """An inline script and an inline style slipped into a page are blocked and reported."""
    watch = Watch(new_page)
    watch.visit(f"/t/{tournament.slug}/")
    watch.page.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.inlineRan = true";
            document.body.appendChild(script);
            document.querySelector("h1").setAttribute("style", "color: red");
        }"""
    )
    expect(watch.page.locator("h1")).to_be_visible()
    watch.page.wait_for_timeout(300)
    assert watch.page.evaluate("window.inlineRan") is None
    assert {v["directive"] for v in watch.violations} == {"script-src-elem", "style-src-attr"}
    assert watch.console
