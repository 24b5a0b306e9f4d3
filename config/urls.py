"""URL routes: the health check, the admin, the REST API under /api/v1/, and the web pages."""

from django.contrib import admin
from django.urls import include, path

from config.health import health

urlpatterns = [
    # For load balancers and monitoring (config/health.py): not under the throttled API.
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("config.api_urls")),
    # The web pages (templates/): sign-in, then each app's pages.
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournaments.urls")),
    path("", include("games.urls")),
]
