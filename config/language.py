"""The language switcher: `/language/<code>/?next=<path>` keeps a reader's language.

Terms:
* language — one of `settings.LANGUAGES` (en, nl, de, pl, he). A reader's language is
  the language cookie, else their browser's Accept-Language, else English
  (`LocaleMiddleware`); the pages' cache and ETags are keyed by that resolved language
  (`games.views.caching.variant`).
* switcher — the links in the header of every page (templates/includes/language_switcher.html),
  one per language, each named in its own language.

A plain GET link, not Django's `set_language` (which wants a POST and a CSRF token): it
only sets a preference, and must work from a cached anonymous page, without JavaScript,
on a phone. Nothing else changes, so a forged link costs a reader nothing worse than
another language on the next page. The answer is never cached: it sets a cookie.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


def safe_next(request: HttpRequest) -> str:
    """Where to go back to: the `next` parameter when it is a path on this site, else the
    home page (never another host, nor a `javascript:` address)."""
    target = request.GET.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "/"


@require_safe
@never_cache
def language_set(request: HttpRequest, code: str) -> HttpResponseRedirect:
    if code not in LANGUAGE_CODES:
        raise Http404("No such language")
    response = HttpResponseRedirect(safe_next(request))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
