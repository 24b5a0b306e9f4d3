"""The language switcher in a real browser: a page changes to Dutch, to Hebrew (right to
left, the layout mirrored) and back to English; an anonymous page kept in the shared cache
is never served to another browser in the wrong language."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation
from playwright.sync_api import expect

from games.models import Game
from tests.browser.conftest import TIMEOUT_MS
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub

pytestmark = pytest.mark.django_db(transaction=True)

DUTCH_CATALOG = Path(settings.LOCALE_PATHS[0]) / "nl" / "LC_MESSAGES" / "django.mo"


@pytest.fixture
def running(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament, number=1):
        enter_rummikub(game, bob)
    return tournament


@pytest.fixture
def context_for(browser, live_server):
    """`context_for(locale)` -> a fresh browser (own cookies) whose Accept-Language is
    `locale`'s."""
    contexts = []

    def make(locale: str = "en-US", width: int = 1280, height: int = 800):
        context = browser.new_context(
            base_url=live_server.url, locale=locale, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def _translated(catalog: Path, msgid: str) -> bool:
    """Whether the catalog holds a translation of `msgid` (no context)."""
    entry = polib.pofile(str(catalog)).find(msgid)
    return bool(entry and entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags)


def pick(page, name: str) -> None:
    """Open the header's language menu and follow one language's link."""
    page.locator(".lang-switch > summary").click()
    page.locator(".lang-menu").get_by_role("link", name=name, exact=True).click()


def x_of(locator) -> float:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2


@pytest.mark.parametrize("width", [412, 1280])
def test_the_switcher_changes_the_page_to_dutch_then_hebrew_then_english(
    context_for, running, width
):
    page = context_for(width=width, height=900 if width == 412 else 800).new_page()
    page.goto(f"/t/{running.slug}/")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "en")
    expect(html).to_have_attribute("dir", "ltr")
    brand = page.locator("header.site .brand")
    assert x_of(brand) < width / 2  # the site's name at the left

    pick(page, "Nederlands")
    page.wait_for_url(f"**/t/{running.slug}/")
    expect(html).to_have_attribute("lang", "nl")
    expect(page.locator('.lang-menu a[aria-current="true"]')).to_have_text("Nederlands")
    # The tab's word as the Dutch catalog has it (the catalogs come from the translation
    # step; once they hold the word, it must be Dutch on the page).
    with translation.override("nl"):
        standings = translation.gettext("Standings")
    expect(page.locator("nav.tabs .tab-row > li").first).to_have_text(standings)
    if DUTCH_CATALOG.exists() and _translated(DUTCH_CATALOG.with_suffix(".po"), "Standings"):
        assert standings != "Standings"

    pick(page, "עברית")
    expect(html).to_have_attribute("lang", "he")
    expect(html).to_have_attribute("dir", "rtl")
    expect(page.locator('.lang-menu a[aria-current="true"]')).to_have_text("עברית")
    # Mirrored: the site's name at the right, the tournament's first tab right of its second.
    assert x_of(brand) > width / 2
    tabs = page.locator("nav.tabs .tab-row > li")
    assert x_of(tabs.nth(0)) > x_of(tabs.nth(1))
    assert page.evaluate("getComputedStyle(document.querySelector('main h1')).direction") == "rtl"

    pick(page, "English")
    expect(html).to_have_attribute("lang", "en")
    expect(html).to_have_attribute("dir", "ltr")
    assert x_of(brand) < width / 2
    assert x_of(tabs.nth(0)) < x_of(tabs.nth(1))


def test_the_switcher_works_without_javascript(browser, live_server, running):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(f"/t/{running.slug}/")
        pick(page, "Deutsch")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        assert page.url.endswith(f"/t/{running.slug}/")
    finally:
        context.close()


def test_a_kept_anonymous_page_is_never_served_in_another_language(context_for, running):
    address = f"/t/{running.slug}/standings/live/"
    page_address = f"/t/{running.slug}/"
    dutch = context_for("nl-NL").new_page()
    dutch.goto(page_address)  # rendered in Dutch and kept for the next Dutch reader
    expect(dutch.locator("html")).to_have_attribute("lang", "nl")

    english = context_for("en-GB").new_page()
    english.goto(page_address)
    expect(english.locator("html")).to_have_attribute("lang", "en")

    hebrew = context_for("he-IL").new_page()
    hebrew.goto(page_address)
    expect(hebrew.locator("html")).to_have_attribute("dir", "rtl")

    # The live fragment: the same address, one kept answer and one ETag per language,
    # asked for as htmx asks (the browser's own Accept-Language, the ETag it was given).
    tags = {}
    for name, page in (("nl", dutch), ("en", english), ("he", hebrew)):
        status, etag, language = fetch(page, address)
        assert (status, language) == (200, name)
        tags[name] = etag
    assert len(set(tags.values())) == 3
    # The Dutch ETag sent by the English reader earns no 304: the English page comes back.
    assert fetch(english, address, tags["nl"]) == (200, tags["en"], "en")
    assert fetch(dutch, address, tags["nl"])[0] == 304


def fetch(page, address: str, etag: str | None = None) -> tuple[int, str, str]:
    """(status, ETag, Content-Language) of a GET the page's own script makes."""
    return tuple(
        page.evaluate(
            """async ([address, etag]) => {
                const headers = etag ? {"If-None-Match": etag} : {};
                const answer = await fetch(address, {headers, cache: "no-store"});
                return [answer.status, answer.headers.get("ETag"),
                        answer.headers.get("Content-Language")];
            }""",
            [address, etag],
        )
    )
