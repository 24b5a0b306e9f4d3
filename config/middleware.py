"""The pages' counterpart of the API's 409 answers (`config.api.conflict_message`): a
delete blocked by rows that still refer to the object, or a write the database gave up
because of a simultaneous one, shows a page saying so (status 409) instead of a 500.
Nothing was saved in either case: the view's transaction rolled back before this runs."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .api import conflict_message


class ConflictPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        message = conflict_message(exception)
        if message is None:
            return None
        return render(request, "conflict.html", {"message": message}, status=409)


class OfflineSubmitMiddleware:
    """The page script that sends forms marked ``data-offline`` (static/js/offline.js)
    asks with ``X-Offline-Submit: 1``. A redirect answer (the form was saved) becomes
    ``204`` with the target in ``X-Location``: fetch() would otherwise follow the redirect
    and render the page, using up its "saved" message before the script opens it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.headers.get("X-Offline-Submit") != "1" or response.status_code not in (
            301,
            302,
            303,
            307,
            308,
        ):
            return response
        answer = HttpResponse(status=204)
        answer["X-Location"] = response["Location"]
        for name, cookie in response.cookies.items():
            answer.cookies[name] = cookie
        return answer
