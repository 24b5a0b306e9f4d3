"""The web-app manifest (/manifest.webmanifest) and /favicon.ico: what a phone needs to
install the site on its home screen, and what browsers ask for at the root by habit.

A view rather than a static file: the icons' addresses come from the static storage
(hashed names in production), and the manifest must sit at the site's root to cover it.
The theme colour is the header's (static/css/site.css, --header).

Languages: the manifest's name, short name and description are in the reader's language,
with its `lang` and `dir`. A browser fetches a manifest without cookies, so the pages link
it with their language in the address (`?lang=nl`, templates/base.html): one address per
language, which any cache keeps apart. Without `lang` (or with one the site does not
speak) it follows the request as the pages do (language cookie, else Accept-Language),
and says so to caches (`Vary: Accept-Language, Cookie`).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.templatetags.static import static
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, pgettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

THEME_COLOUR = "#0b2545"
DAY = 24 * 3600
LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


@require_safe
@cache_control(public=True, max_age=DAY)
def manifest(request: HttpRequest) -> JsonResponse:
    asked = request.GET.get("lang", "")
    language = asked if asked in LANGUAGE_CODES else translation.get_language()
    with translation.override(language):
        words = {
            "lang": translation.get_language(),
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
            "name": gettext("Rummitab — Rummikub tournaments"),
            "short_name": pgettext("the app's name under its home-screen icon", "Rummitab"),
            "description": gettext(
                "Standings, rounds and score entry for Rummikub clubs and tournaments."
            ),
        }
    body = {
        **words,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static("icons/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    if asked not in LANGUAGE_CODES:  # the language came from the request's headers
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@require_safe
@cache_control(public=True, max_age=DAY)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponseRedirect(static("icons/favicon-32.png"))
