"""The Content-Security-Policy (django-csp, config/settings.py): every answer carries it,
and it allows no inline script or style — so the templates must have none.
tests/browser/test_csp.py checks the pages in a real browser."""

# ruff: noqa: F811 — the tests take fixtures of tests/web.py, imported below, as arguments.

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web import as_user, club  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
UNSAFE = ("'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*", "data:", "http:", "https:")


def policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


def effective(directives: dict[str, list[str]], name: str) -> list[str]:
    """What a browser applies for script-src or style-src: the directive, or default-src."""
    return directives.get(name, directives["default-src"])


@pytest.mark.parametrize(
    ("who", "path"),
    [
        ("anon", "/"),
        ("anon", "/t/{slug}/"),
        ("anon", "/accounts/login/"),
        ("anon", "/no/such/page/"),
        ("anon", "/api/v1/docs/"),
        ("alice", "/t/{slug}/edit/"),
        ("bob", "/t/{slug}/rounds/1/tables/1/"),
        ("mallory", "/t/{slug}/edit/"),
    ],
)
def test_every_page_forbids_inline_script_and_style(as_user, club, who, path):
    response = as_user(who).get(path.format(slug=club.slug))
    directives = policy(response)
    for name in ("script-src", "style-src"):
        sources = effective(directives, name)
        assert "'self'" in sources
        assert not set(sources) & set(UNSAFE), (name, sources)
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"]


def template_files() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


def test_the_templates_are_found():
    names = {path.relative_to(TEMPLATES).as_posix() for path in template_files()}
    assert {"base.html", "games/timer.html", "games/sheets.html", "500.html"} <= names


@pytest.mark.parametrize(
    "path", template_files(), ids=lambda p: p.relative_to(TEMPLATES).as_posix()
)
def test_templates_have_no_inline_script_or_style(path):
    source = path.read_text()
    # Template comments may talk about <style>; only what reaches the browser counts. A
    # {# comment #} ends on its own line, or it is no comment but text of the page.
    for line in source.splitlines():
        assert "#}" in line.partition("{#")[2] or "{#" not in line, line
    source = re.sub(r"{#.*?#}", "", source)
    source = re.sub(r"{% comment %}.*?{% endcomment %}", "", source, flags=re.S)
    for tag in re.findall(r"<script\b[^>]*>", source):
        # A file, or data for one (json_script); never code in the page.
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"<style\b", source)
    assert not re.search(r"\son[a-z]+\s*=", source), "an inline event handler"
    assert not re.search(r"\sstyle\s*=", source), "an inline style attribute"
    assert "javascript:" not in source
