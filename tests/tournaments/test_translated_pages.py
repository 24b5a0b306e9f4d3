"""The tournament pages speak the reader's language wherever their words come from: a
template, a model's choice label, a rule option's name from the engine, a service's
error. The catalogs are made by the translation step; here a few Dutch words are put into
the active catalog for one test, so the test does not depend on what is translated yet.

Terms: **planted** — a message added to the Dutch catalog for the length of a test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import trans_real

from tests.web import field_errors, text

PLANTED = {
    # A model choice label with its context (pgettext_lazy), as the home page groups by it.
    "tournament status\x04Running": "Bezig",
    "tournament status\x04Upcoming": "Gepland",
    "tournament status\x04Finished": "Afgelopen",
    # A rule option's name and help, marked in scoring/rules.py with gettext_noop.
    "Joker penalty": "Jokerboete",
    "Points charged for each joker left on a rack.": "Punten per joker op het rek.",
    # A template string and a service's error.
    "Resolved rules": "Uitgewerkte regels",
    "is required.": "is verplicht.",
}


@pytest.fixture
def dutch() -> Iterator[None]:
    catalog = trans_real.translation("nl")._catalog
    saved = {key: catalog[key] for key in PLANTED if key in catalog}
    for key, value in PLANTED.items():
        catalog[key] = value
    try:
        yield
    finally:
        # A Dutch request leaves Dutch active in this thread (LocaleMiddleware activates,
        # nothing deactivates): the next test must start in the default language.
        translation.deactivate()
        for key in PLANTED:
            if key in saved:
                catalog[key] = saved[key]
            else:
                # TranslationCatalog has no __delitem__: remove from its first dict.
                for part in catalog._catalogs:
                    part.pop(key, None)


def dutch_client(client: Client) -> Client:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    return client


@pytest.mark.django_db
def test_the_home_page_groups_by_status_in_the_readers_language(dutch, as_user, played):
    response = dutch_client(as_user("anon")).get("/")
    # Ordered by status (running first), whatever the label reads: a translated label
    # used to be looked up in an English list, a 500 in any other language.
    assert response.status_code == 200
    page = text(response)
    assert page.index("Bezig") < page.index("Afgelopen")


@pytest.mark.django_db
def test_the_rules_panel_names_options_in_the_readers_language(dutch, as_user):
    client = dutch_client(as_user("alice"))
    page = text(client.get("/new/"))
    assert "Uitgewerkte regels" in page
    assert "<td>Jokerboete</td>" in page
    assert 'title="Punten per joker op het rek."' in page
    assert "Jokerboete" in page.split('id="rules-panel"')[0]  # the override field's label


@pytest.mark.django_db
def test_a_service_error_comes_back_in_the_readers_language(dutch, as_user):
    client = dutch_client(as_user("alice"))
    page = text(client.post("/new/", {"name": "", "preset": "standard", "public": "on"}))
    assert field_errors(page, "id_name") == ["is verplicht."]


def test_without_a_language_the_words_stay_english(dutch):
    with translation.override("en"):
        assert translation.gettext("Joker penalty") == "Joker penalty"
