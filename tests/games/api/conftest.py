"""API tests share the fixtures of tests/api.py."""

from tests.api import (  # noqa: F401
    _api_settings,
    client_for,
    dave,
    game,
    people,
    round1,
    tournament,
)
