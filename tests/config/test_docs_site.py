"""The help pages at /docs/ (config/docs_site.py): the MkDocs build served by the app,
with a Content-Security-Policy that allows exactly the theme's inline scripts."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest
from django.test import Client

# One xdist worker runs every test of the built help pages: MkDocs builds them once
# (`built_docs`, a session fixture, is made once per worker).
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("built_docs")]


@pytest.fixture
def docs(settings, built_docs):
    settings.DOCS_ROOT = built_docs
    return Client()


def inline_script_hashes(html: bytes) -> set[str]:
    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
        for attrs, body in re.findall(rb"<script([^>]*)>(.*?)</script>", html, re.DOTALL)
        if b"src=" not in attrs and b"json" not in attrs
    }


def test_the_docs_answer_at_docs_with_every_section(docs):
    response = docs.get("/docs/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = b"".join(response.streaming_content).decode()
    assert "<title>Rummitab</title>" in page
    for section in ("first-tournament/", "guide/", "rules/", "api/", "operations/", "design/"):
        assert f'href="{section}"' in page
    rules = docs.get("/docs/rules/scoring/")
    assert rules.status_code == 200
    assert "Worked examples" in b"".join(rules.streaming_content).decode()


def test_assets_search_index_and_screenshots_are_served(docs, built_docs):
    css = next((built_docs / "assets" / "stylesheets").glob("main.*.min.css")).name
    assert docs.get(f"/docs/assets/stylesheets/{css}").status_code == 200
    index = docs.get("/docs/search/search_index.json")
    assert index.status_code == 200
    assert index["Content-Type"] == "application/json"
    assert docs.get("/docs/img/01-sign-in.png")["Content-Type"] == "image/png"


def test_a_folder_without_its_slash_is_redirected_and_unknown_paths_are_404(docs):
    response = docs.get("/docs/rules")
    assert response.status_code == 302
    assert response["Location"] == "/docs/rules/"
    assert docs.get("/docs/no-such-page/").status_code == 404
    assert docs.get("/docs/../config/settings.py").status_code == 404
    assert docs.get("/docs/%2e%2e/%2e%2e/manage.py").status_code == 404


def test_the_policy_allows_exactly_the_pages_inline_scripts(docs, built_docs):
    response = docs.get("/docs/guide/")
    html = (built_docs / "guide" / "index.html").read_bytes()
    hashes = inline_script_hashes(html)
    assert hashes  # the Material theme has inline scripts; each one is allowed by hash
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    assert set(policy["script-src"].split()) == {"'self'", *hashes}
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'"


def test_without_a_build_docs_is_a_404_that_says_how_to_build(settings, tmp_path):
    settings.DOCS_ROOT = tmp_path / "not-built"
    response = Client().get("/docs/")
    assert response.status_code == 404
