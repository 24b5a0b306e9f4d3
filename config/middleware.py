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
