"""Checks every write service runs on what it is given, before anything is saved.

Each check raises a `RuleError` naming the field and the problem, or returns the value
as it will be stored. Lengths come from the model fields themselves (`max_length_of`), so
a limit is stated once, in the model.

Not checked here: permissions (`tournaments.permissions.require`) and the rules of the
game (`scoring`).

Messages are translated when raised (`gettext`), in the language of the request that
sent the bad value.
"""

from __future__ import annotations

from typing import Any, Literal, cast, overload

from django.db import models
from django.utils.translation import gettext as _

from scoring.errors import Path, RuleError

from ..permissions import SignedIn, User


def max_length_of(model: type[models.Model], field: str) -> int:
    """The `max_length` of a model's text field: the one place a length limit lives."""
    length = cast(models.Field, model._meta.get_field(field)).max_length  # a column
    assert length is not None, f"{model.__name__}.{field} has no max_length"
    return length


def text(field: str | Path, value: object, *, max_length: int, required: bool = True) -> str:
    """Stripped text of at most `max_length` characters (empty only if not `required`)."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RuleError(field, _("must be text."))
    value = value.strip()
    if "\x00" in value:
        # No database column takes NUL characters (PostgreSQL refuses them outright).
        raise RuleError(field, _("must not contain NUL characters."))
    if required and not value:
        raise RuleError(field, _("is required."))
    if len(value) > max_length:
        raise RuleError(
            field,
            _("is %(length)s characters long; at most %(limit)s allowed.")
            % {"length": len(value), "limit": max_length},
        )
    return value


@overload
def whole_number_between(
    field: str | Path, value: object, *, low: int, high: int, nullable: Literal[False]
) -> int: ...
@overload
def whole_number_between(
    field: str | Path, value: object, *, low: int, high: int, nullable: bool
) -> int | None: ...
def whole_number_between(
    field: str | Path, value: object, *, low: int, high: int, nullable: bool
) -> int | None:
    """An int (never a bool, never text) within [low, high]; None only if `nullable`."""
    if value is None:
        if nullable:
            return None
        raise RuleError(field, _("is required."))
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field, _("must be a whole number, not %(value)s.") % {"value": repr(value)})
    if not low <= value <= high:
        raise RuleError(
            field,
            _("must be between %(low)s and %(high)s; got %(value)s.")
            % {"low": low, "high": high, "value": value},
        )
    return value


def choice(field: str | Path, value: object, choices: type[models.TextChoices]) -> str:
    """One of the values of a `TextChoices`."""
    allowed = [c.value for c in choices]
    if value not in allowed:
        raise RuleError(
            field,
            _("%(value)s is not one of %(allowed)s.")
            % {"value": repr(value), "allowed": ", ".join(allowed)},
        )
    return str(value)


def collect(errors: list[RuleError], check: Any, *args: Any, **kwargs: Any) -> Any:
    """Run one check; keep its error (all of them, for a nested one) instead of raising,
    so a service can report every problem of its input at once."""
    try:
        return check(*args, **kwargs)
    except RuleError as error:
        errors.extend(error.flatten())
        return None


def stamp_history_user(instance: Any, by: User) -> Any:
    """Tell django-simple-history who makes this change (API calls bypass its middleware)."""
    user = signed_in_or_none(by)
    if user is not None:
        instance._history_user = user
    return instance


def signed_in_or_none(by: User | None) -> SignedIn | None:
    """The user to store as `created_by` and the like: nobody for the anonymous visitor."""
    if by is None or not by.is_authenticated:
        return None
    return by
