"""The engine's translation hook routes through whatever translator is installed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scoring import i18n
from scoring.errors import MAX_LISTED_ERRORS, RuleError, as_error_dict


@pytest.fixture
def fake_translator() -> Iterator[None]:
    before = (i18n._translate, i18n._translate_plural)
    i18n.install(
        lambda message: f"<{message}>",
        lambda singular, plural, count: f"<{singular if count == 1 else plural}|{count}>",
    )
    try:
        yield
    finally:
        i18n.install(*before)


def test_messages_go_through_the_installed_translator(fake_translator: None) -> None:
    assert i18n._("{player} appears twice").format(player="Ann") == "<Ann appears twice>"
    assert i18n.ngettext("one {n}", "many {n}", 3) == "<many {n}|3>"
    assert i18n.gettext_noop("Points") == "Points"


def test_the_more_problems_line_is_translated(fake_translator: None) -> None:
    errors = [RuleError(("x",), "bad") for _ in range(MAX_LISTED_ERRORS + 2)]
    shaped = as_error_dict(errors)
    assert shaped["non_field_errors"][-1] == "<… and 2 more problems not listed here.|2>"


def test_without_a_translator_the_more_problems_line_stays_english() -> None:
    errors = [RuleError(("x",), "bad") for _ in range(MAX_LISTED_ERRORS + 1)]
    assert as_error_dict(errors)["non_field_errors"][-1] == (
        "… and 1 more problem not listed here."
    )
