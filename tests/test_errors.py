"""Errors: JSON `{"detail": ...}` for everything under /api/, whatever the client accepts;
the site's own HTML pages (header, a way back to the tournaments) everywhere else; and a
500 page that renders with no request and no database (config/errors.py).
"""

# ruff: noqa: F811 — the tests take fixtures of tests/web.py, imported below, as arguments.

from __future__ import annotations

import re

import pytest
from django.template import loader
from django.test import Client

from config import errors
from tests.web import as_user, club  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

HTML = "text/html"
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.fixture
def failing(settings):
    """The site plus views that fail on purpose (tests/error_urls.py); a client that gets
    the error answer instead of the exception."""
    settings.ROOT_URLCONF = "tests.error_urls"
    client = Client()
    client.raise_request_exception = False
    return client


def json_detail(response, status: int) -> str:
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    body = response.json()
    assert isinstance(body.get("detail"), str) and body["detail"], body
    return body["detail"]


def site_page(response, status: int) -> str:
    """An HTML error page of the site: the header with the home link, a way back."""
    assert response.status_code == status
    assert response["Content-Type"].startswith(HTML)
    page = response.content.decode()
    assert '<header class="site' in page
    assert re.search(r'<a class="brand" href="/">(<img [^>]*>)?Rummitab</a>', page)
    assert 'href="/">All tournaments</a>' in page
    assert 'href="/static/css/site.css"' in page
    return page


# --- under /api/: JSON -------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/api/v1/whatever", "/api/v1/whatever/", "/api/v2/", "/api/", "/api", "/api/v1/games/x/"],
)
@pytest.mark.parametrize("accept", ["application/json", BROWSER_ACCEPT])
def test_unknown_api_address_is_a_json_404(client, path, accept):
    assert json_detail(client.get(path, HTTP_ACCEPT=accept), 404) == "Not found."


@pytest.mark.parametrize(
    ("path", "accept"),
    [
        ("/api/v1/tournaments/", "application/json"),
        ("/api/v1/tournaments/", BROWSER_ACCEPT),
        # These answered in their own format before: YAML, and an HTML template's text.
        ("/api/v1/schema/", "application/json"),
        ("/api/v1/schema/", BROWSER_ACCEPT),
        ("/api/v1/docs/", BROWSER_ACCEPT),
    ],
)
def test_wrong_method_on_an_api_view_is_a_json_405(as_user, path, accept):
    response = as_user("alice").put(path, HTTP_ACCEPT=accept)
    assert json_detail(response, 405) == 'Method "PUT" not allowed.'
    assert "GET" in response["Allow"]


def test_api_errors_are_json_even_for_a_browser(as_user, club):
    """A browser asks for HTML first; an error of the API still answers JSON, never the
    browsable API's page."""
    missing = as_user("anon").get("/api/v1/tournaments/nope/", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert json_detail(missing, 404) == "No such tournament."
    created = as_user("anon").post("/api/v1/tournaments/", {}, HTTP_ACCEPT=BROWSER_ACCEPT)
    assert json_detail(created, 401) == "Authentication credentials were not provided."
    bad = as_user("alice").post(
        f"/api/v1/tournaments/{club.slug}/players/",
        {"name": ""},
        content_type="application/json",
        HTTP_ACCEPT=BROWSER_ACCEPT,
    )
    assert bad.status_code == 400
    assert bad["Content-Type"].startswith("application/json")
    assert "name" in bad.json()


@pytest.mark.parametrize("path", ["/api/v1/broken/", "/api/v1/broken-plain/"])
def test_a_bug_under_api_is_a_json_500(failing, path):
    response = failing.get(path, HTTP_ACCEPT=BROWSER_ACCEPT)
    assert json_detail(response, 500) == "A server error occurred."
    assert b"a bug in" not in response.content  # no detail of the error leaks


def test_permission_denied_and_bad_requests_under_api_are_json(failing):
    assert json_detail(failing.get("/api/v1/forbidden/"), 403)
    assert json_detail(failing.get("/api/v1/suspicious/"), 400) == "Bad request."


# --- the site: HTML pages ------------------------------------------------------------------


def test_unknown_page_is_the_sites_404_page(as_user):
    response = as_user("anon").get("/no/such/page/")
    page = site_page(response, 404)
    assert "<h1>Page not found</h1>" in page
    assert "/no/such/page/" in page
    assert 'href="/accounts/login/?next=' in page  # a private tournament needs signing in


def test_an_address_that_only_starts_like_the_api_is_a_page(as_user):
    assert "<h1>Page not found</h1>" in site_page(as_user("anon").get("/apiary/"), 404)


def test_404_page_escapes_the_address(as_user):
    page = site_page(as_user("anon").get("/t/%3Cb%3Ebold%3C/b%3E/x/"), 404)
    assert "<b>bold" not in page


def test_unknown_tournament_shows_the_404_page_to_a_signed_in_user(as_user):
    page = site_page(as_user("mallory").get("/t/no-such-tournament/"), 404)
    assert "Sign out (mallory)" in page
    assert "Sign in</a>" not in page


def test_a_page_without_the_role_is_the_sites_403_page(as_user, club):
    page = site_page(as_user("mallory").get(f"/t/{club.slug}/edit/"), 403)
    assert "<h1>Not allowed</h1>" in page
    assert "signed in as <strong>mallory</strong>" in page


def test_a_bug_in_a_page_is_the_sites_500_page(failing):
    page = site_page(failing.get("/broken/"), 500)
    assert "<h1>Something went wrong</h1>" in page
    assert "a bug in" not in page
    # Rendered without the request: no account links that would need the user.
    assert "Sign in" not in page and "Sign out" not in page


def test_permission_denied_and_bad_request_pages(failing):
    assert "<h1>Not allowed</h1>" in site_page(failing.get("/forbidden/"), 403)
    assert "<h1>Bad request</h1>" in site_page(failing.get("/suspicious/"), 400)


def test_a_form_without_its_csrf_token_gets_the_sites_page(client):
    strict = Client(enforce_csrf_checks=True)
    page = site_page(strict.post("/accounts/login/", {"username": "a", "password": "b"}), 403)
    assert "<h1>The form has expired</h1>" in page


@pytest.mark.django_db(databases=[])
def test_500_page_renders_without_request_or_database():
    """Django renders 500.html with no context at all, perhaps because the database is
    down; without the django_db mark any query here would fail the test."""
    page = loader.get_template("500.html").render()
    assert "<h1>Something went wrong</h1>" in page
    assert re.search(r'<a class="brand" href="/">(<img [^>]*>)?Rummitab</a>', page)
    assert "Sign in" not in page


def test_500_answers_plain_html_when_even_the_template_fails(failing, monkeypatch):
    def broken_template(*args, **kwargs):
        raise RuntimeError("500.html is broken too")

    monkeypatch.setattr(errors.defaults, "server_error", broken_template)
    response = failing.get("/broken/")
    assert response.status_code == 500
    assert b"<h1>Something went wrong</h1>" in response.content
    assert b'<a href="/">All tournaments</a>' in response.content
