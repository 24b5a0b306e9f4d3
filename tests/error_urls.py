"""A URL configuration for tests/test_errors.py: the site's own routes and error handlers
(config/urls.py) plus views that fail on purpose, on the site and under /api/."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.db import connections
from django.db.backends.sqlite3.base import DatabaseWrapper
from django.http import HttpResponse
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from config.urls import handler400, handler403, handler404, handler500
from config.urls import urlpatterns as site


class Broken(APIView):
    """An API view with a bug."""

    permission_classes = [AllowAny]

    def get(self, request):
        raise RuntimeError("a bug in an API view")


def broken(request):
    raise RuntimeError("a bug in a page")


def sqlite_locked(request):
    """A write to a real SQLite file that another connection holds locked (the club
    laptop's database under a long write): SQLite answers "database is locked" after its
    timeout. The file and the lock are the test's (`request.META["LOCKED_DB"]`)."""
    wrapper = DatabaseWrapper(
        {
            **connections["default"].settings_dict,
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": request.META["LOCKED_DB"],
            "OPTIONS": {"timeout": 0.1},
        },
        alias="locked",
    )
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("INSERT INTO t VALUES (1)")
    finally:
        wrapper.close()
    return HttpResponse("written")


def forbidden(request):
    raise PermissionDenied


def suspicious(request):
    raise SuspiciousOperation("a forged request")


urlpatterns = [
    path("api/v1/broken/", Broken.as_view()),
    path("api/v1/broken-plain/", broken),
    path("api/v1/forbidden/", forbidden),
    path("api/v1/suspicious/", suspicious),
    path("broken/", broken),
    path("forbidden/", forbidden),
    path("sqlite-locked/", sqlite_locked),
    path("api/v1/sqlite-locked/", sqlite_locked),
    path("suspicious/", suspicious),
    *site,
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
