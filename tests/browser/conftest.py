"""Browser tests: Playwright drives Debian's chromium against pytest-django's live server.

They skip when /usr/bin/chromium is missing, unless REQUIRE_SERVICES=1 (CI), which makes
that a failure. Playwright's own browser download is never used.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TIMEOUT_MS = 10_000


def _need_chromium() -> None:
    if CHROMIUM.exists():
        return
    message = f"{CHROMIUM} is not installed"
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"{message}, and REQUIRE_SERVICES=1 forbids skipping", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """Chromium for the tests of one module. Playwright's sync API runs an asyncio loop
    in this thread, so Django, which would refuse ORM calls beside a running loop, is told
    to allow them — only while the browser runs: the variable must not leak into other
    tests (`manage.py check --deploy` rightly rejects it)."""
    _need_chromium()
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser, live_server):
    """`new_page()` -> a page in a fresh browser context (own cookies) on the live server."""
    contexts = []

    def make():
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": 412, "height": 900}
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def sign_in(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/).*$"))
