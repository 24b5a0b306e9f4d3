"""Screenshots of the pages walk-a changed (not part of the suite)."""
import pytest
from games.models import Game
from games.services.results import penalty_record
from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db(transaction=True)
OUT = "/tmp/walka_shots/"


def test_shots(browser, live_server, alice, bob):
    t = make_tournament(alice, scorekeepers=[bob], players=8, name="Saturday Open")
    stage_create(tournament=t, by=alice, name="Qualification", rounds_planned=3)
    stage_create(tournament=t, by=alice, name="Final", kind="final", cut_top=4)
    r = open_round(t, alice)
    games = list(Game.objects.filter(table__round=r).order_by("table__number", "number"))
    enter_rummikub(games[0], bob)
    for w, h, tag in ((412, 900, "phone"), (1280, 800, "laptop")):
        ctx = browser.new_context(base_url=live_server.url, viewport={"width": w, "height": h})
        page = ctx.new_page()
        sign_in(page, "alice", "alice-pass-123")
        page.goto(f"/t/{t.slug}/edit/")
        page.screenshot(path=f"{OUT}settings-{tag}.png", full_page=True)
        page.get_by_text("Override single rule options").click()
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.screenshot(path=f"{OUT}settings-open-bottom-{tag}.png")
        page.goto(f"/t/{t.slug}/stages/1/")
        page.screenshot(path=f"{OUT}stage-{tag}.png", full_page=True)
        page.goto(f"/t/{t.slug}/rounds/1/tables/1/?game=2")
        page.get_by_role("button", name="Tiles of Player").nth(1).click() if False else None
        page.screenshot(path=f"{OUT}table-{tag}.png")
        ctx.close()
