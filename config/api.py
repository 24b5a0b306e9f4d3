"""What every API view shares: errors, permissions, throttles, pagination, parsing.

DRF's settings name classes of this module, so it must not import `rest_framework.views`
at the top (that would import the settings back half-way); views live in the apps' api.py.

Terms:
* error mapping — the one place where domain errors become HTTP answers: a `RuleError`
  (or several, `RuleErrors`) is a 400 in DRF's field-error shape, a `ResultConflict` a 409
  naming `current_version`, Django's `PermissionDenied` a 403, a missing object a 404.
* read / write — safe methods read; everything else writes. Reading a tournament needs it
  to be public or a role in it (the lookups answer 404 otherwise, so a private tournament
  is invisible); writing needs a role, checked by the permission classes below.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from config.fallback_cache import throttle_cache
from scoring.errors import NON_FIELD_ERRORS, RuleError, as_error_dict
from tournaments.models import Tournament
from tournaments.selectors import can_organise, can_score

# --- errors -----------------------------------------------------------------------------


def _list_lengths(context: dict[str, Any]) -> dict[str, int]:
    """How many items each top-level list of the request had, so that errors on item 2 of
    four racks come back as four entries, as DRF's own list errors do."""
    request = context.get("request")
    try:
        data = request.data if request is not None else None
    except Exception:  # the body itself was the problem; it was reported already
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: len(value) for key, value in data.items() if isinstance(value, list)}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Domain errors to HTTP, then DRF's own handling for everything else."""
    # Imported here: rest_framework.views reads DRF's settings, which name this module.
    from rest_framework.views import exception_handler as drf_exception_handler
    from rest_framework.views import set_rollback

    from games.services import ResultConflict

    if isinstance(exc, ResultConflict):
        body = as_error_dict([exc])
        body["current_version"] = exc.current_version
        set_rollback()
        return Response(body, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, RuleError):
        set_rollback()
        return Response(
            as_error_dict(exc.flatten(), _list_lengths(context)),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, DjangoValidationError):
        set_rollback()
        body = exc.message_dict if hasattr(exc, "error_dict") else {NON_FIELD_ERRORS: exc.messages}
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ObjectDoesNotExist):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return drf_exception_handler(exc, context)


# --- parsing ----------------------------------------------------------------------------


MAX_JSON_DEPTH = 20  # the deepest body of the API (a result's racks) nests 3 levels


def _json_problem(data: Any) -> str | None:
    """What makes parsed JSON unfit to go further, if anything: nesting deeper than any
    body of this API (deep enough, it overflows Python's stack wherever it is walked), or
    an unpaired surrogate such as `"\\ud800"` (valid JSON, but no database stores it)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return "text holds an unpaired surrogate"
        elif isinstance(value, dict | list):
            if depth > MAX_JSON_DEPTH:
                return f"nested deeper than {MAX_JSON_DEPTH} levels"
            items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    return None


class StrictJSONParser(JSONParser):
    """JSON that the views and the database can take, or a 400 saying why not."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # thousands of nested brackets
            raise exceptions.ParseError("JSON parse error - nested too deeply.") from None
        problem = _json_problem(data)
        if problem:
            raise exceptions.ParseError(f"JSON parse error - {problem}.")
        return data


# --- throttling -------------------------------------------------------------------------


class _RatesFromSettings(SimpleRateThrottle):
    """DRF binds the rates when the class is defined; read them per request instead, so
    `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` (and a test's override) always counts.

    The counters live in the shared cache, or in a per-process stand-in while that cache
    is unreachable: a dead Redis must not turn every API request into a 500."""

    cache = throttle_cache

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonThrottle(_RatesFromSettings, AnonRateThrottle):
    """Anonymous requests (public reads), per IP address: scope `anon`."""


class UserThrottle(_RatesFromSettings, UserRateThrottle):
    """Signed-in requests, per user: scope `user`."""


class TokenThrottle(_RatesFromSettings):
    """Password guesses at the token endpoint, per IP address whoever asks: scope `token`."""

    scope = "token"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


# --- permissions ------------------------------------------------------------------------


def tournament_of(obj: Any) -> Tournament:
    """The tournament an object of the API belongs to."""
    if isinstance(obj, Tournament):
        return obj
    for path in ("tournament", "table.round.tournament", "game.table.round.tournament"):
        target = obj
        try:
            for attr in path.split("."):
                target = getattr(target, attr)
        except AttributeError:
            continue
        if isinstance(target, Tournament):
            return target
    raise TypeError(f"{obj!r} belongs to no tournament")


class _TournamentRole(BasePermission):
    """Reads pass (the lookups hide what the user may not see); writes need a signed-in
    user (else 401) with the role `allowed` asks for in the object's tournament (else 403).
    """

    message = "You have no role in this tournament that allows this."

    @staticmethod
    def allowed(user: Any, tournament: Tournament) -> bool:
        raise NotImplementedError

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return self.allowed(request.user, tournament_of(obj))


class OrganiserWrites(_TournamentRole):
    """Organisers (and superusers) change the tournament; everybody else only reads."""

    message = "Only the tournament's organisers may do this."

    @staticmethod
    def allowed(user: Any, tournament: Tournament) -> bool:
        return can_organise(user, tournament)


class StaffWrites(_TournamentRole):
    """Organisers and scorekeepers (and superusers) enter results and penalties."""

    message = "Only the tournament's organisers and scorekeepers may do this."

    @staticmethod
    def allowed(user: Any, tournament: Tournament) -> bool:
        return can_score(user, tournament)


class StaffReads(_TournamentRole):
    """Only the tournament's staff may even read (e.g. who else is on the staff)."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        tournament = tournament_of(obj)
        if request.method in SAFE_METHODS:
            return can_score(request.user, tournament)
        return can_organise(request.user, tournament)


# --- pagination -------------------------------------------------------------------------


class Page(PageNumberPagination):
    """`{"count", "next", "previous", "results"}`; `?page=` and `?page_size=` (at most 200)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


# --- schema helpers ---------------------------------------------------------------------


class RawJSONField(serializers.JSONField):
    """Passed to the service exactly as sent, which validates it and names what is wrong;
    the OpenAPI schema it documents is given per field (`schema=`)."""

    def __init__(self, *, schema: dict[str, Any], **kwargs: Any) -> None:
        self.openapi_schema = schema
        super().__init__(**kwargs)


class RawJSONFieldExtension(OpenApiSerializerFieldExtension):
    target_class = RawJSONField

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = dict(self.target.openapi_schema)
        if self.target.allow_null:
            schema["nullable"] = True
        return schema


ERROR_BODY = {
    "type": "object",
    "additionalProperties": True,
    "description": "DRF's error shape: `{field: [message, ...]}`, nested for list items, "
    "`non_field_errors` for the input as a whole, or `detail` for HTTP-level problems.",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """Documented error answers for `extend_schema(responses=...)`."""
    meaning = {
        400: "Bad input; the body names each wrong field.",
        401: "Credentials are needed (`Authorization: Token ...`), or the token expired.",
        403: "The user has no role that allows this.",
        404: "Unknown, or a private tournament the user has no role in.",
        409: "Stale `based_on`; the body names `current_version`.",
        429: "Too many requests; retry after the `Retry-After` seconds.",
    }
    return {code: OpenApiResponse(OpenApiTypes.OBJECT, description=meaning[code]) for code in codes}
