"""The web-app manifest (/manifest.webmanifest) and /favicon.ico: what a phone needs to
install the site on its home screen, and what browsers ask for at the root by habit.

A view rather than a static file: the icons' addresses come from the static storage
(hashed names in production), and the manifest must sit at the site's root to cover it.
The theme colour is the header's (static/css/site.css, --header).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

THEME_COLOUR = "#0b2545"
DAY = 24 * 3600


@require_safe
@cache_control(public=True, max_age=DAY)
def manifest(request: HttpRequest) -> JsonResponse:
    body = {
        "name": "Rummitab — Rummikub tournaments",
        "short_name": "Rummitab",
        "description": "Standings, rounds and score entry for Rummikub clubs and tournaments.",
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
    return response


@require_safe
@cache_control(public=True, max_age=DAY)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponseRedirect(static("icons/favicon-32.png"))
