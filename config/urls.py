"""URL routes: the health check, the admin, the REST API under /api/v1/, and the web pages.

Errors no view answers itself go to config.errors: JSON under /api/, the site's error
pages (templates/404.html and the like) everywhere else.
"""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from config import converters
from config.docs_site import docs_page
from config.health import health
from config.language import language_set
from config.webapp import favicon, manifest

# Before any route is read: `<id:…>` and `<num:…>` in the apps' paths.
converters.register()

# Password reset sends a link by mail: offered only when the site can send mail.
PASSWORD_RESET = bool(settings.EMAIL_HOST)

# django.contrib.auth.urls, less the password reset pages unless mail is configured. Same
# addresses and names as there; templates in templates/registration/.
account_urls = [
    path(
        "login/",
        auth_views.LoginView.as_view(extra_context={"password_reset": PASSWORD_RESET}),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
if PASSWORD_RESET:
    account_urls += [
        path("password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
        path(
            "password_reset/done/",
            auth_views.PasswordResetDoneView.as_view(),
            name="password_reset_done",
        ),
        path(
            "reset/<uidb64>/<token>/",
            auth_views.PasswordResetConfirmView.as_view(),
            name="password_reset_confirm",
        ),
        path(
            "reset/done/",
            auth_views.PasswordResetCompleteView.as_view(),
            name="password_reset_complete",
        ),
    ]

urlpatterns = [
    # For load balancers and monitoring (config/health.py): not under the throttled API.
    path("health/", health, name="health"),
    path("manifest.webmanifest", manifest, name="webmanifest"),
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    # The language switcher in every page's header: sets the language cookie, goes back.
    path("language/<str:code>/", language_set, name="language-set"),
    path("api/v1/", include("config.api_urls")),
    # The documentation, built from docs/ by `make docs` (config/docs_site.py).
    re_path(r"^docs/(?P<path>.*)$", docs_page, name="docs"),
    # The web pages (templates/): sign-in, then each app's pages.
    path("accounts/", include(account_urls)),
    path("", include("tournaments.urls")),
    path("", include("games.urls")),
    path("", include("circuits.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
