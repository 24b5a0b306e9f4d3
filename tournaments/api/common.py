"""What the API views of every app share: reading a request body, finding the tournament
a URL names (or a 404), and documenting answers in the OpenAPI schema.

Terms:
* visible — a tournament the user may see (`tournaments.selectors.tournaments_visible_to`);
  any other, public or not, is a 404, so a private tournament stays invisible.
* raw JSON field — a body field passed to the service exactly as sent: the service
  validates it and names what is wrong (never checked twice, here and there).
* messages — what a client reads in an error (a field's problem, a 404's detail) is in
  the request's language (`Accept-Language`); the keys, codes and shapes never change.
* strict input — every input serializer derives from `StrictInput` and declares its
  fields with the strict field classes below: an unknown key (at any nesting level) or a
  value of the wrong JSON type is a 400 naming the field, never silently dropped or
  coerced (`"tiles": 5` is not `"5"`, `"rating": "7"` is not 7, `true` is not 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import Http404
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from ..models import Tournament
from ..selectors import tournaments_visible_to


def valid(serializer_class: type[serializers.Serializer], data: Any, **kwargs: Any) -> dict:
    """The request body read by a strict input serializer; DRF's 400 when its shape is
    wrong (unknown keys and wrong types included)."""
    if not issubclass(serializer_class, StrictInput):
        raise TypeError(f"{serializer_class.__name__} is not a StrictInput")
    serializer = serializer_class(data=data, **kwargs)
    if not serializer.is_valid():
        raise serializers.ValidationError(_item_lists(serializer.errors))
    return dict(serializer.validated_data)


def _item_lists(detail: Any) -> Any:
    """The error shape for list items (docs/api/index.md#conventions), `{"racks": [{},
    {"tiles": [...]}]}`: DRF (3.16+) reports them as `{"racks": {1: {...}}}`, keyed by
    index."""
    if isinstance(detail, dict):
        if detail and all(isinstance(key, int) for key in detail):
            return [_item_lists(detail.get(index, {})) for index in range(max(detail) + 1)]
        return {key: _item_lists(value) for key, value in detail.items()}
    return detail


# --- strict input ---------------------------------------------------------------------


class StrictInput(serializers.Serializer):
    """An input serializer that refuses keys it does not declare, next to the errors of
    the keys it does (nested serializers derive from it too, so every level is checked).
    Declaring a field of a lenient class (DRF's own `CharField`, ...) fails at import."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, field in cls._declared_fields.items():
            inner = field.child if isinstance(field, serializers.ListSerializer) else field
            if not isinstance(inner, STRICT_FIELDS):
                raise TypeError(f"{cls.__name__}.{name}: use a strict field, not {inner!r}")

    def to_internal_value(self, data: Any) -> Any:
        unknown: dict[str, list[str]] = {}
        if isinstance(data, Mapping):
            unknown = {str(key): [_("Unknown field.")] for key in data if key not in self.fields}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if unknown and isinstance(exc.detail, dict):
                raise serializers.ValidationError({**unknown, **exc.detail}) from None
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value


def _refuse_type(field: serializers.Field, data: Any, *types: type) -> None:
    # bool is a subclass of int in Python, but `true` is not a number in JSON.
    if (isinstance(data, bool) and bool not in types) or not isinstance(data, types):
        field.fail("invalid_type")


class StrictCharField(serializers.CharField):
    """Text only: a number, a list or an object is a 400, not its `str()`."""

    default_error_messages = {"invalid_type": gettext_lazy("Give text (a JSON string).")}

    def to_internal_value(self, data: Any) -> str:
        _refuse_type(self, data, str)
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON whole number only: `"5"`, `5.0` and `true` are a 400, not 5 or 1."""

    default_error_messages = {"invalid_type": gettext_lazy("Give a whole number (a JSON number).")}

    def to_internal_value(self, data: Any) -> int:
        _refuse_type(self, data, int)
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, as a JSON string: `1` never matches the choice `"1"`."""

    default_error_messages = {
        "invalid_type": gettext_lazy("Give one of the choices (a JSON string).")
    }

    def to_internal_value(self, data: Any) -> Any:
        _refuse_type(self, data, str)
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """`true` or `false` only: `"yes"`, `1` and `"false"` are a 400."""

    default_error_messages = {"invalid_type": gettext_lazy("Give true or false (a JSON boolean).")}

    def to_internal_value(self, data: Any) -> bool:
        _refuse_type(self, data, bool)
        return super().to_internal_value(data)


class StrictDateField(serializers.DateField):
    """An ISO date as a JSON string (`"2026-12-05"`)."""

    default_error_messages = {"invalid_type": gettext_lazy("Give a date as text, e.g. 2026-12-05.")}

    def to_internal_value(self, data: Any) -> Any:
        _refuse_type(self, data, str)
        return super().to_internal_value(data)


class RawJSONField(serializers.JSONField):
    """Passed to the service exactly as sent, which validates it and names what is wrong;
    the OpenAPI schema it documents is given per field (`schema=`)."""

    def __init__(self, *, schema: dict[str, Any], **kwargs: Any) -> None:
        self.openapi_schema = schema
        super().__init__(**kwargs)


# What an input serializer may declare: these check their type; a raw JSON field is
# checked by the service; a file is a file.
STRICT_FIELDS = (
    StrictInput,
    StrictCharField,
    StrictIntegerField,
    StrictChoiceField,
    StrictBooleanField,
    StrictDateField,
    RawJSONField,
    serializers.FileField,
)


class NoBodySerializer(StrictInput):
    """For writes that take no body: an empty body or `{}`, nothing else."""


def visible_tournament(request: Any, slug: str) -> Tournament:
    """The tournament, if this user may see it; 404 otherwise (private ones stay hidden)."""
    tournament = tournaments_visible_to(request.user).filter(slug=slug).first()
    if tournament is None:
        raise Http404(_("No such tournament."))
    return tournament


class TournamentScoped:
    """For views under /tournaments/{slug}/: `self.tournament`, looked up once."""

    kwargs: dict[str, Any]
    request: Any

    @cached_property
    def tournament(self) -> Tournament:
        return visible_tournament(self.request, self.kwargs["slug"])

    def fake(self) -> bool:
        # drf-spectacular builds the schema with fake views that have no URL arguments.
        return getattr(self, "swagger_fake_view", False)


class RawJSONFieldExtension(OpenApiSerializerFieldExtension):
    target_class = RawJSONField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = dict(self.target.openapi_schema)
        if self.target.allow_null:
            schema["nullable"] = True
        return schema


ERROR_MEANINGS = {
    400: "Bad input; the body names each wrong field.",
    401: "Credentials are needed (`Authorization: Token ...`), or the token expired.",
    403: "The user has no role that allows this.",
    404: "Unknown, or a private tournament the user has no role in.",
    409: "Conflicts with the current state, which changed or blocks it: a stale "
    "`based_on` (the body names `current_version`), a round already open (`last_round`), "
    "a simultaneous change, records that block a delete. Reload and retry.",
    429: "Too many requests; retry after the `Retry-After` seconds.",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """Documented error answers for `extend_schema(responses=...)`."""
    return {
        code: OpenApiResponse(OpenApiTypes.OBJECT, description=ERROR_MEANINGS[code])
        for code in codes
    }
