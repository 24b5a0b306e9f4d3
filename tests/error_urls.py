"""A URL configuration for tests/test_errors.py: the site's own routes and error handlers
(config/urls.py) plus views that fail on purpose, on the site and under /api/."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
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
    path("suspicious/", suspicious),
    *site,
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
