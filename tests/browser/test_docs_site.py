"""The help pages at /docs/ in chromium, under the site's Content-Security-Policy: no
violation at all, and what the theme's scripts do still works — the search (a web
worker fetching the index) and the light/dark switch. The footer of every site page
leads there."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import sign_in

# The worker of tests/config/test_docs_site.py runs these too: the help pages built once.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("built_docs")]

WATCH = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(event.effectiveDirective + " " + event.blockedURI);
}, true);
"""


@pytest.fixture
def watched(new_page, settings, built_docs):
    settings.DOCS_ROOT = built_docs
    page = new_page()
    violations: list[str] = []
    errors: list[str] = []
    page.context.expose_function("reportCspViolation", lambda text: violations.append(text))
    page.context.add_init_script(WATCH)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, violations, errors


def test_the_help_pages_work_under_the_policy(watched):
    page, violations, errors = watched
    page.goto("/")
    page.get_by_role("contentinfo").get_by_role("link", name="Help").click()
    expect(page).to_have_url(re.compile(r"/docs/$"))
    expect(page.get_by_role("heading", level=1, name="Rummitab")).to_be_visible()

    # The search: a web worker loads the index and answers as one types.
    page.goto("/docs/rules/")
    page.locator("label[for='__search']:visible").first.click()
    page.locator("input.md-search__input").press_sequentially("joker penalty", delay=30)
    expect(page.locator(".md-search-result__item").first).to_be_visible()

    # The palette switch (an inline script reads the choice back on the next page).
    page.goto("/docs/guide/")
    scheme = page.locator("body").get_attribute("data-md-color-scheme")
    page.locator("label.md-header__button[for^='__palette']:visible").first.click()
    expect(page.locator("body")).not_to_have_attribute("data-md-color-scheme", scheme or "")
    page.goto("/docs/api/")
    expect(page.locator("body")).not_to_have_attribute("data-md-color-scheme", scheme or "")

    assert violations == []
    assert [e for e in errors if "Content Security Policy" in e or "Refused" in e] == []
    assert errors == []


def test_a_form_links_to_the_page_that_explains_it(watched, alice):
    page, violations, _ = watched
    sign_in(page, "alice", "alice-pass-123")
    page.goto("/new/")
    page.get_by_role("link", name="The rules, every option and preset").click()
    expect(page.get_by_role("heading", level=1, name="Options and presets")).to_be_visible()
    assert violations == []
