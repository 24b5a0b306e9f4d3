"""The language switcher (config/language.py) and the chrome it sits in: the cookie it
sets, where it goes back to, <html lang dir> of every page, the switcher's links."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client


def switch(client: Client, code: str, next_: str | None = "/"):
    query = {} if next_ is None else {"next": next_}
    return client.get(f"/language/{code}/", query)


@pytest.mark.django_db
@pytest.mark.parametrize("code", [code for code, _ in settings.LANGUAGES])
def test_a_language_sets_the_cookie_and_goes_back(code):
    client = Client()
    answer = switch(client, code, "/t/some-event/standings/?page=2")
    assert answer.status_code == 302
    assert answer["Location"] == "/t/some-event/standings/?page=2"
    cookie = answer.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == code
    assert int(cookie["max-age"]) == settings.LANGUAGE_COOKIE_AGE
    assert cookie["samesite"] == "Lax" and cookie["httponly"]
    # Never kept by a cache: it sets a cookie.
    assert "no-cache" in answer["Cache-Control"] and "private" in answer["Cache-Control"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/path",
        "javascript:alert(1)",
        "http://testserver.evil.example/",
        "",
        None,
    ],
)
def test_next_outside_the_site_goes_home_instead(target):
    answer = switch(Client(), "nl", target)
    assert answer.status_code == 302
    assert answer["Location"] == "/"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "nl"


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["fr", "xx", "EN", "nl-nl"])
def test_an_unknown_language_is_404_and_sets_nothing(code):
    answer = switch(Client(), code)
    assert answer.status_code == 404
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies


@pytest.mark.django_db
def test_only_get_and_head_are_answered():
    assert Client().post("/language/nl/?next=/").status_code == 405


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("code", "direction"), [("en", "ltr"), ("nl", "ltr"), ("de", "ltr"), ("he", "rtl")]
)
def test_the_page_says_its_language_and_direction(code, direction):
    client = Client()
    switch(client, code)
    page = client.get("/").content.decode()
    assert f'<html lang="{code}" dir="{direction}">' in page


@pytest.mark.django_db
def test_the_switcher_names_each_language_in_its_own_words_and_marks_the_current():
    client = Client()
    switch(client, "nl")
    page = client.get("/t/none/?x=1").content.decode()  # a 404 page has the chrome too
    links = re.findall(r'<a href="/language/(\w+)/\?next=([^"]*)"[^>]*>([^<]+)</a>', page)
    assert [(code, name) for code, _, name in links] == [
        ("en", "English"),
        ("nl", "Nederlands"),
        ("de", "Deutsch"),
        ("pl", "Polski"),
        ("he", "עברית"),
    ]
    assert {target for _, target, _ in links} == {"/t/none/%3Fx%3D1"}
    current = re.findall(r'<a href="/language/(\w+)/[^"]*"[^>]*aria-current="true"', page)
    assert current == ["nl"]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "expected"), [("en", "Not found."), ("nl", "Niet gevonden.")])
def test_the_apis_errors_speak_the_readers_language(language, expected):
    answer = Client().get("/api/v1/no-such-thing/", HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 404
    assert answer.json() == {"detail": expected}
