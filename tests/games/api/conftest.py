"""API tests share the fixtures of tests/api.py (and the page tests those of tests/web.py)."""

from tests.api import (  # noqa: F401
    _api_settings,
    client_for,
    dave,
    game,
    people,
    round1,
    tournament,
)
from tests.web import as_user  # noqa: F401
