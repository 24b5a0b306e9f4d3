"""Fixtures of the page tests (tests/web.py): a running tournament and signed-in clients."""

from tests.web import as_user, club, played  # noqa: F401 (fixtures)
