"""The engine's words reach the pages in the reader's language: the standings columns'
names and abbreviations (`scoring.standings.METRICS`, kept in English) are translated when
a page shows them, through the translator the Django side installs (`scoring.i18n`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import reverse
from django.utils.translation import gettext, ngettext

from scoring import i18n
from tests.html import assert_in_html
from tests.web import text


@pytest.fixture
def marked() -> Iterator[None]:
    """A translator that shows what went through it: "Score" -> "<Score>"."""
    i18n.install(lambda message: f"<{message}>", ngettext)
    try:
        yield
    finally:
        i18n.install(gettext, ngettext)


def test_the_standings_columns_are_shown_translated(client, played, marked) -> None:
    page = text(client.get(reverse("standings-live", kwargs={"slug": played.slug})))
    assert '<abbr title="&lt;Score&gt;">&lt;Pts&gt;</abbr>' in page
    # The readable label a phone shows beside each value, not the abbreviation.
    assert_in_html('<span class="cell-label" aria-hidden="true">&lt;Score&gt; </span>', page)


def test_without_a_translation_the_columns_stay_english(client, played) -> None:
    page = text(client.get(reverse("standings-live", kwargs={"slug": played.slug})))
    assert '<abbr title="Score">Pts</abbr>' in page
