"""The circuit's public pages kept whole for anonymous readers, as the standings pages
are (docs/design/caching.md): an anonymous reader's answer carries an ETag made from the
circuit's page generation (`tournaments.events.page_generation` under the name
`circuits.services.ranking.circuit_page_key`), is kept in the shared cache, and the next
anonymous reader is answered from there — a 304 when they send the ETag back — until the
generation moves. It moves when a ranking snapshot is stored (every recompute) and when
the circuit or its events change. Signed-in readers get private answers, rendered each
time (their page shows their links).

Kept here, in the view, rather than in `config.page_cache` (which sits before the
session middleware for the tournaments' polled pages): the circuit pages are read, not
polled every few seconds, and one session lookup per anonymous reader is nothing.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers

from games.views.caching import (
    CACHE_ERRORS,
    anonymous_reader,
    keep_answer,
    page_cache_key,
    stored_answer,
    variant,
)
from tournaments.events import page_generation

from ..services.ranking import circuit_page_key

logger = logging.getLogger(__name__)

View = Callable[..., HttpResponse]


def _etag(generation: str, request: HttpRequest) -> str:
    language = hashlib.blake2b(variant(request).encode(), digest_size=4).hexdigest()
    return f'W/"c{generation}-{language}"'


def kept_for_anonymous(view: View) -> View:
    """Keep `view`'s answers for anonymous readers (module doc); `slug` is the circuit's."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if (
            request.method != "GET"
            or not anonymous_reader(request)
            or request.user.is_authenticated
        ):
            response = view(request, slug, *args, **kwargs)
            patch_cache_control(response, private=True, no_cache=True)
            return response
        name = circuit_page_key(slug)
        generation = page_generation(name)
        if generation is None:
            return view(request, slug, *args, **kwargs)
        key = page_cache_key(name, request)
        try:
            entry = cache.get(key)
        except CACHE_ERRORS:
            entry = None
        if entry is not None and entry["generation"] == generation:
            return stored_answer(
                entry,
                request.META.get("HTTP_IF_NONE_MATCH", ""),
                request.META.get("HTTP_IF_MODIFIED_SINCE", ""),
                request.META.get("HTTP_ACCEPT_ENCODING", ""),
            )
        response = view(request, slug, *args, **kwargs)
        if response.status_code != 200:
            return response
        response.headers["ETag"] = _etag(generation, request)
        patch_cache_control(response, public=True, no_cache=True)
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        response.page_cache_generation = generation  # type: ignore[attr-defined]
        kept = keep_answer(response)
        if kept is not None:
            try:
                cache.set(key, kept, settings.PAGE_CACHE_SECONDS)
            except CACHE_ERRORS:
                logger.warning("shared cache unreachable; %s not kept", request.path)
        if_none_match = request.META.get("HTTP_IF_NONE_MATCH", "")
        if if_none_match and kept is not None:
            return stored_answer(kept, if_none_match, "")
        return response

    return wrapper
