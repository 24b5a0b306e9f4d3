"""Error answers: JSON under /api/, the site's own pages everywhere else.

Django calls the `handler*` views of config/urls.py for errors no view answered itself:
an unknown address (404), a `PermissionDenied` (403), a `SuspiciousOperation` or an
unreadable request (400) and an uncaught exception (500). Under `/api/` the answer is
`{"detail": "..."}`, the shape of DRF's own errors; elsewhere Django's default views
render the templates 404.html, 403.html, 400.html and 500.html.

`api_exception_handler` (DRF's EXCEPTION_HANDLER) covers the errors DRF answers itself:
they are JSON whatever renderer the request negotiated — the browsable API's HTML, the
schema's YAML, the docs page's template.

500.html is rendered without a request (Django's default) so that it needs neither the
session nor the database, which may be what failed; should rendering it fail all the
same, `server_error` answers a plain page instead of failing again.

A database that cannot be reached for a moment (a PostgreSQL restart, a lost connection,
SQLite's "database is locked" after its timeout on the club laptop) is not the site's
error but a wait: `server_error` answers it 503 with `Retry-After: RETRY_AFTER_SECONDS`
(`database_unavailable` tells it apart), JSON under /api/ and templates/503.html
elsewhere — rendered without a request, as 500.html. The table page's offline queue
(static/js/offline.js) keeps the entry and sends it again, as when the phone is offline.
Every error raised in a view or a middleware reaches this one handler (Django's
`response_for_exception`), so no view needs to catch it.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.db.utils import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults

from config.api import exception_handler

logger = logging.getLogger(__name__)

API_PREFIX = "/api"

PLAIN_500 = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Server error — Rummitab</title></head>
<body><h1>Something went wrong</h1>
<p>The site ran into an error of its own; it has been logged. If you were entering a result,
check on the table's page whether it was saved before entering it again.</p>
<p><a href="/">All tournaments</a></p></body></html>
"""


def is_api(request: HttpRequest) -> bool:
    """Does this request address the REST API (whose errors are JSON)?"""
    path = request.path_info
    return path == API_PREFIX or path.startswith(API_PREFIX + "/")


def _json(detail: str, status: int) -> JsonResponse:
    return JsonResponse({"detail": detail}, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return _json(_("Bad request."), 400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        # The refusal's own reason when it has one (a table link's phone is told what it
        # is for: config/table_link_scope.py), as the 403 page shows it.
        detail = str(exception) or _("You do not have permission to perform this action.")
        return _json(detail, 403)
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return _json(_("Not found."), 404)
    return defaults.page_not_found(request, exception)


# How long a client waits before asking again when the database is away (a restart takes
# a few seconds; SQLite has already waited its own lock timeout).
RETRY_AFTER_SECONDS = 5

# PostgreSQL's SQLSTATEs of a server going away: class 08 (connection exception) and
# 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now).
SERVER_AWAY = ("08", "57P01", "57P02", "57P03")
# SQLite's words for a write lock held by another connection past the timeout.
SQLITE_LOCKED = ("database is locked", "database table is locked")


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether `exc` says the database cannot be reached for now (a 503), rather than a
    bug or a refused statement (a 500): a closed connection (InterfaceError), a failed or
    broken PostgreSQL connection (psycopg's OperationalError without an SQLSTATE, or one of
    `SERVER_AWAY`), or SQLite's lock timeout."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if type(cause).__module__.startswith("sqlite3"):
        return any(words in str(exc).lower() for words in SQLITE_LOCKED)
    code = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    return code is None or str(code).startswith(SERVER_AWAY)


def service_unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 answer to a database away: JSON under /api/, 503.html elsewhere."""
    if is_api(request):
        response: HttpResponse = _json(
            _("The database cannot be reached for a moment. Try again in a few seconds."), 503
        )
    else:
        try:
            body = loader.get_template("503.html").render()
        except Exception:
            logger.exception("503.html could not be rendered")
            body = PLAIN_500
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    # Called inside Django's `except` around the failed request: the error is at hand.
    if database_unavailable(sys.exc_info()[1]):
        return service_unavailable(request)
    if is_api(request):
        return _json(_("A server error occurred."), 500)
    try:
        return defaults.server_error(request)
    except Exception:
        # The error page itself failed (a broken template, a missing static manifest entry):
        # the original error is logged already; log this one and answer anyway.
        logger.exception("500.html could not be rendered")
        return HttpResponseServerError(PLAIN_500)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Any:
    """config.api's mapping of errors to answers, always rendered as JSON."""
    # Imported here: DRF's settings name this function, and rest_framework's modules read
    # those settings back while they load (see config/api.py).
    from rest_framework.renderers import JSONRenderer

    response = exception_handler(exc, context)
    request = context.get("request")
    if response is not None and request is not None:
        # DRF renders the answer with the renderer it negotiated for the request
        # (APIView.finalize_response); an error takes JSON's instead.
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
    return response
