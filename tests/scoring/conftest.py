"""The pure engine's tests stay off the database, as the engine does.

Two guards keep them so by construction: the import contract "The engine's tests are
pure Python" (pyproject.toml: no module of tests.scoring imports Django, a framework or
an app), and this conftest, which fails any test here that asks for the database the
way pytest-django offers it without an import (the `django_db` mark, or a fixture that
stands on the database: `db`, `transactional_db`, `live_server` and every fixture built
on them, such as `alice` or `club`). A test that needs the database tests the apps: it
belongs in tests/games/ or tests/tournaments/.
"""

from __future__ import annotations

import pytest

DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


def pytest_runtest_setup(item: pytest.Item) -> None:
    asks = DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    if item.get_closest_marker("django_db") or asks:
        pytest.fail(
            f"{item.nodeid} uses the database ({', '.join(sorted(asks)) or 'django_db'}): "
            "the engine's tests are database-free; move it beside the app it tests",
            pytrace=False,
        )
