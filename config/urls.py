"""URL routes: the admin, the REST API under /api/v1/, and the web pages.

Errors no view answers itself go to config.errors: JSON under /api/, the site's error
pages (templates/404.html and the like) everywhere else.
"""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("config.api_urls")),
    # The web pages (templates/): sign-in, then each app's pages.
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("tournaments.urls")),
    path("", include("games.urls")),
    path("", include("scoring.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
