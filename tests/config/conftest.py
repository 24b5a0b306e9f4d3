"""Each test counts throttles in a cache of its own (tests/api.py)."""

from tests.api import _api_settings  # noqa: F401
