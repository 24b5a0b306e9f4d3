"""The sheets page on a phone (412x900) in Chromium: "PDF of the round" starts the job,
the page shows its progress bar without reloading (htmx polling, no inline script),
then the download link, which downloads the PDF. The job runs on the live server's
job thread, as on a club laptop without a broker."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.conftest import sign_in
from tests.factories import make_tournament, open_round

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("SCREENSHOT_DIR")


def test_the_round_pdf_shows_its_progress_then_downloads(new_page, alice, settings, tmp_path):
    settings.JOBS_INLINE = False
    settings.EXPORT_DIR = tmp_path / "exports"
    tournament = make_tournament(alice, players=24)  # 6 tables
    open_round(tournament, alice)
    page = new_page()
    sign_in(page, "alice", "alice-pass-123")
    page.goto(reverse("round-sheets", kwargs={"slug": tournament.slug, "round_number": 1}))
    page.get_by_role("button", name="PDF of the round (6 sheets)").click()
    status = page.locator(".export-job")
    expect(status.locator("progress")).to_be_visible()
    if SHOTS:
        page.locator("#round-pdf").scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/sheets-job-progress.png")
    link = page.get_by_role("link", name="Download")
    expect(link).to_be_visible(timeout=180_000)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/sheets-job-done.png")
    with page.expect_download() as download:
        link.click()
    data = Path(download.value.path()).read_bytes()
    assert len(PdfReader(io.BytesIO(data)).pages) == 6
