"""What DRF's settings name: the error mapping, the parser, throttles and pagination.

DRF's settings name classes of this module, so it must not import `rest_framework.views`
at the top (that would import the settings back half-way); views live in the apps' api.py.

Terms:
* error mapping — the one place where domain errors become HTTP answers: a `RuleError`
  (or several, `RuleErrors`) is a 400 in DRF's field-error shape, a `Conflict` (a stale
  `based_on`) a 409 with its details (`current_version`), Django's `PermissionDenied`
  (raised by the write services' `require`) a 403, a missing object a 404; a delete that
  rows still refer to (`ProtectedError`, a PROTECT foreign key) a 409 saying what blocks
  it; a transaction PostgreSQL gave up because of a simultaneous one (deadlock 40P01,
  serialization failure 40001 — see `conflict_message`) a 409 "try again".
* sizes — a JSON or form body is at most `MAX_BODY_BYTES` (a 413 naming the limit, before
  it is parsed; multipart bodies carry the CSV import, which has its own `MAX_CSV_BYTES`);
  an error answer lists at most `scoring.errors.MAX_LISTED_ERRORS` problems and counts the
  rest (DRF's own field errors are passed through `as_error_dict` for that too), so no
  answer costs much more than the request that caused it.
* read / write — safe methods read; everything else writes. Reading a tournament needs it
  to be public or a role in it (the lookups answer 404 otherwise, so a private tournament
  is invisible); writing needs a signed-in user (else 401, DRF's
  `IsAuthenticatedOrReadOnly`), and the write service itself decides the rest (403).
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import OperationalError
from django.db.models import ProtectedError
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, JSONParser
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from config.fallback_cache import throttle_cache
from scoring.errors import NON_FIELD_ERRORS, Conflict, Path, RuleError, as_error_dict

# --- errors -----------------------------------------------------------------------------

# PostgreSQL's SQLSTATEs for "one of two simultaneous transactions was given up".
SERIALIZATION_FAILURES = {"40P01", "40001"}  # deadlock detected, serialization failure
# Marked here, translated when shown (the reader's language is known only then).
RETRY_MESSAGE = gettext_noop("a simultaneous change got in the way; nothing was saved — try again.")


def conflict_message(exc: BaseException) -> str | None:
    """What to tell the user when the database refused a write that the request itself
    cannot fix (a 409), else None: a delete blocked by rows that refer to the object, or
    a transaction given up because of a simultaneous one.

    The write services take their locks in one order (`games.services.locks`), so neither
    a deadlock nor a serialization failure should happen; should one still (a lock taken
    elsewhere, the admin, a future path), nothing was saved and doing it again is the
    cure. Not retried here: the request's transaction is already gone, and a repeat must
    be the user's choice (they see the new state first) — so a clear 409, never a 500.
    """
    if isinstance(exc, ProtectedError):
        return protected_message(exc)
    if isinstance(exc, OperationalError):
        cause = exc.__cause__
        code = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
        if code in SERIALIZATION_FAILURES:
            return gettext(RETRY_MESSAGE)
    return None


# How many rows of each model that can block a delete (a PROTECT key points from it), as
# a whole phrase with its count: a plural is the language's (Polish: 1 miejsce, 2 miejsca,
# 5 miejsc), which a count put before a model's one plural name cannot say. By model label.
BLOCKER_COUNTS: dict[str, Any] = {
    "games.Seat": lambda n: ngettext("%(count)d seat", "%(count)d seats", n),
    "games.RackEntry": lambda n: ngettext("%(count)d rack", "%(count)d racks", n),
    "games.Result": lambda n: ngettext("%(count)d result", "%(count)d results", n),
    "games.Penalty": lambda n: ngettext("%(count)d penalty", "%(count)d penalties", n),
    "games.Extension": lambda n: ngettext(
        "%(count)d time extension", "%(count)d time extensions", n
    ),
    "tournaments.Member": lambda n: ngettext("%(count)d club member", "%(count)d club members", n),
    "tournaments.Tournament": lambda n: ngettext(
        "%(count)d tournament", "%(count)d tournaments", n
    ),
    "tournaments.Player": lambda n: ngettext("%(count)d player", "%(count)d players", n),
    "tournaments.TableLink": lambda n: ngettext("%(count)d table link", "%(count)d table links", n),
    "tournaments.Person": lambda n: ngettext("%(count)d person", "%(count)d people", n),
    "circuits.CircuitFinish": lambda n: ngettext(
        "%(count)d circuit result", "%(count)d circuit results", n
    ),
    "circuits.FinalEntry": lambda n: ngettext(
        "%(count)d final entry", "%(count)d final entries", n
    ),
}


def blocker_count(label: str, plural_name: str, n: int) -> str:
    """ "4 seats" in the reader's language; a model not in `BLOCKER_COUNTS` as its plural
    name and the count apart ("seating plans (2)"), which reads right in any language."""
    phrase = BLOCKER_COUNTS.get(label)
    if phrase is not None:
        return phrase(n) % {"count": n}
    return gettext("%(records)s (%(count)d)") % {"records": plural_name, "count": n}


def protected_message(exc: ProtectedError) -> str:
    """What blocks a delete: the rows that still point at the object through a PROTECT
    key, e.g. "cannot delete it while other records refer to it: 4 seats."."""
    metas = {obj._meta.label: obj._meta for obj in exc.protected_objects}
    counts = Counter(obj._meta.label for obj in exc.protected_objects)
    blockers = ", ".join(
        blocker_count(label, str(metas[label].verbose_name_plural), n)
        for label, n in sorted(counts.items())
    )
    if not blockers:
        return gettext("cannot delete it while other records refer to it.")
    return gettext("cannot delete it while other records refer to it: %(blockers)s.") % {
        "blockers": blockers
    }


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


def _rule_errors_of(detail: Any, path: Path = ()) -> list[RuleError]:
    """DRF's nested error detail as RuleErrors, so that `as_error_dict` shapes (and caps)
    them like the services' errors; `non_field_errors` of an object stay on the object."""
    if isinstance(detail, dict):
        return [
            error
            for key, value in detail.items()
            for error in _rule_errors_of(value, path if key == NON_FIELD_ERRORS else (*path, key))
        ]
    if isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            return [RuleError(path, str(item)) for item in detail]
        return [
            error
            for index, item in enumerate(detail)
            for error in _rule_errors_of(item, (*path, index))
        ]
    return [RuleError(path, str(detail))]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Domain errors to HTTP, then DRF's own handling for everything else."""
    # Imported here: rest_framework.views reads DRF's settings, which name this module.
    from rest_framework.views import exception_handler as drf_exception_handler
    from rest_framework.views import set_rollback

    if isinstance(exc, Conflict):
        body = as_error_dict([exc])
        body.update(exc.details)
        set_rollback()
        return Response(body, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, RuleError):
        set_rollback()
        return Response(
            as_error_dict(exc.flatten(), _list_lengths(context)),
            status=status.HTTP_400_BAD_REQUEST,
        )
    conflict = conflict_message(exc)
    if conflict is not None:
        set_rollback()
        return Response({NON_FIELD_ERRORS: [conflict]}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, DjangoValidationError):
        set_rollback()
        body = exc.message_dict if hasattr(exc, "error_dict") else {NON_FIELD_ERRORS: exc.messages}
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RequestDataTooBig):  # over Django's own cap, so over ours too
        exc = BodyTooLarge()
    if isinstance(exc, exceptions.ValidationError) and isinstance(exc.detail, dict | list):
        errors = _rule_errors_of(exc.detail)
        if errors:
            set_rollback()
            return Response(as_error_dict(errors), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ObjectDoesNotExist):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return drf_exception_handler(exc, context)


# --- parsing ----------------------------------------------------------------------------


MAX_JSON_DEPTH = 20  # the deepest body of the API (a result's racks) nests 3 levels
# The largest JSON or form body: a manual round of 1,000 players is about 8 KB.
MAX_BODY_BYTES = 256 * 1024


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = gettext_lazy("The request body is larger than the most this API takes.")

    def __init__(self) -> None:
        super().__init__(
            gettext("The request body is larger than %(kb)s KB, the most this API takes.")
            % {"kb": MAX_BODY_BYTES // 1024}
        )


def _capped(stream: Any, parser_context: Any) -> io.BytesIO:
    """The body, at most `MAX_BODY_BYTES`, or a 413: by its declared length before it is
    read, else after reading one byte past the limit. (DRF reads a JSON or form body
    through Django's `request.body`, which refuses one over `DATA_UPLOAD_MAX_MEMORY_SIZE`
    before this runs; the exception handler answers that with the same 413.)"""
    request = (parser_context or {}).get("request")
    declared = request.META.get("CONTENT_LENGTH") if request is not None else None
    if declared and str(declared).isdigit() and int(declared) > MAX_BODY_BYTES:
        raise BodyTooLarge()
    body = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
    if len(body) > MAX_BODY_BYTES:
        raise BodyTooLarge()
    return io.BytesIO(body)


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
                return gettext("text holds an unpaired surrogate")
        elif isinstance(value, dict | list):
            if depth > MAX_JSON_DEPTH:
                return ngettext(
                    "nested deeper than %(levels)s level",
                    "nested deeper than %(levels)s levels",
                    MAX_JSON_DEPTH,
                ) % {"levels": MAX_JSON_DEPTH}
            items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    return None


class StrictJSONParser(JSONParser):
    """JSON that the views and the database can take, or a 400 saying why not."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        stream = _capped(stream, parser_context)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # thousands of nested brackets
            raise exceptions.ParseError(
                gettext("JSON parse error - %(detail)s") % {"detail": gettext("nested too deeply.")}
            ) from None
        problem = _json_problem(data)
        if problem:
            raise exceptions.ParseError(
                gettext("JSON parse error - %(detail)s") % {"detail": f"{problem}."}
            )
        return data


class CappedFormParser(FormParser):
    """Form-encoded bodies, at most `MAX_BODY_BYTES` like JSON ones."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        return super().parse(_capped(stream, parser_context), media_type, parser_context)


# --- throttling -------------------------------------------------------------------------


class _RatesFromSettings(SimpleRateThrottle):
    """DRF binds the rates when the class is defined; read them per request instead, so
    `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]` (and a test's override) always counts.

    The counters live in the shared cache, or in a per-process stand-in while that cache
    is unreachable: a dead Redis must not turn every API request into a 500."""

    # DRF's throttles call only get and set, which FallbackCache has; the stubs ask for a
    # whole Django cache.
    cache = throttle_cache  # type: ignore[assignment]

    def get_rate(self) -> str | None:
        # The stubs type the rates as numbers; DRF's are "100/min" strings (or None).
        rates: dict[str, str | None] = api_settings.DEFAULT_THROTTLE_RATES  # type: ignore[assignment]
        return rates.get(self.scope) if self.scope is not None else None


class AnonThrottle(_RatesFromSettings, AnonRateThrottle):
    """Anonymous requests (public reads), per IP address: scope `anon`."""


class UserThrottle(_RatesFromSettings, UserRateThrottle):
    """Signed-in requests, per user: scope `user`."""


class TokenThrottle(_RatesFromSettings):
    """Password guesses at the token endpoint, per IP address whoever asks: scope `token`."""

    scope = "token"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


# --- pagination -------------------------------------------------------------------------


class Page(PageNumberPagination):
    """`{"count", "next", "previous", "results"}`; `?page=` and `?page_size=` (at most 200)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
