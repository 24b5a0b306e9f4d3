"""The 409 of a delete that rows still refer to counts them as whole phrases ("4 seats"),
each a plural of the reader's language, never a count put before a model's one plural
name (Polish: 1 miejsce, 2 miejsca, 5 miejsc)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import models
from django.db.models import ProtectedError

from config import api


class _Meta:
    def __init__(self, label, plural):
        self.label, self.verbose_name_plural = label, plural


class _Row:
    def __init__(self, label, plural="rows"):
        self._meta = _Meta(label, plural)


def _protected(*rows):
    return ProtectedError("protected", set(rows))


def test_every_model_a_protect_key_points_from_has_its_phrase():
    protecting = {
        model._meta.label
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if getattr(field, "remote_field", None) is not None
        and getattr(field.remote_field, "on_delete", None) is models.PROTECT
        and not model._meta.label.split(".")[1].startswith("Historical")
    }
    assert protecting  # the walk found the keys
    assert protecting <= set(api.BLOCKER_COUNTS), protecting - set(api.BLOCKER_COUNTS)


@pytest.mark.parametrize(
    ("rows", "shown"),
    [
        ([_Row("games.Seat")], "1 seat"),
        ([_Row("games.Seat"), _Row("games.Seat")], "2 seats"),
        ([_Row("games.Penalty"), _Row("games.Seat")], "1 penalty, 1 seat"),
        ([_Row("x.Plan", "seating plans")], "seating plans (1)"),
    ],
)
def test_the_counts_in_english(rows, shown):
    message = api.protected_message(_protected(*rows))
    assert message == f"cannot delete it while other records refer to it: {shown}."


def test_each_count_takes_the_plural_form_of_its_number(monkeypatch):
    # A Polish-like catalog: the form depends on the number, not on one-or-many.
    def polish(singular, plural, n):
        assert (singular, plural) == ("%(count)d seat", "%(count)d seats")
        if n == 1:
            return "%(count)d miejsce"
        if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
            return "%(count)d miejsca"
        return "%(count)d miejsc"

    monkeypatch.setattr(api, "ngettext", polish)
    shown = {n: api.blocker_count("games.Seat", "seats", n) for n in (1, 2, 5, 22)}
    assert shown == {1: "1 miejsce", 2: "2 miejsca", 5: "5 miejsc", 22: "22 miejsca"}
