"""Anonymous readers' answers to the polled tournament pages, from the shared cache.

At an event a few hundred phones poll the live standings every few seconds, and the
venue screen polls the projector. Those readers are anonymous and all see the same page,
so the whole answer (headers and body) the views marked as shareable
(`games.views.caching.Conditional.finish`) is kept in the shared cache, and the next
anonymous request for the same address is answered from there: a 304 when its
If-None-Match names the kept ETag, else the kept page. One round trip to the cache, no
database, no template.

A kept answer is served only while the tournament's page generation
(`tournaments.events.page_generation`) is still the one it was rendered at: the
generation moves when something those pages show has changed (a new standings table, a
round opened or changed, the tournament edited), at most about once a second; a result
that changes nothing shown moves nothing. Kept answers expire after `PAGE_CACHE_SECONDS`
in any case. A phone that polls with the kept ETag is answered 304 from here, without a
query, until the generation moves.

Each process also keeps the answers it served in its own memory and asks the shared
cache for the current generation at most every `PAGE_CACHE_LOCAL_SECONDS` (0.2 s) per
tournament: at hundreds of requests a second most answers then cost no round trip at
all, and a change reaches every process within that time.

One render per change, not one per reader: when the generation moves, the first reader
to miss takes a short lock in the shared cache (`RENDER_LOCK_SECONDS`) and renders the
new answer; while it does, the other readers of that address are answered the previous
kept answer (a 304 for the phones that hold it), as if they had polled a moment earlier.
Without that, every phone polling during the render rendered the page too: at a national
final (1,000 players, a new table a second, `bench.final_day`) the renders queued up
behind each other and behind the scorekeepers' results.

A kept answer of 1 KB or more is kept compressed too (`games.views.caching.keep_answer`,
once per render): a reader that accepts gzip — every browser — is sent those bytes, the
others the text. During a burst every poll of a phone brings a new table, so this is
what the phones download a second. The reader who rendered the answer is sent exactly
what the next reader is sent.

This middleware sits right after WhiteNoise, so a kept answer skips the session, CSRF,
auth and messages middleware (an anonymous reader without cookies needs none of them)
and carries the headers (CSP, frame options, Vary) the first answer got on its way out.
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from games.views.caching import (
    CACHE_ERRORS,
    anonymous_reader,
    keep_answer,
    page_cache_key,
    stored_answer,
)
from tournaments.events import page_generation, page_generation_counted

logger = logging.getLogger(__name__)

# The addresses worth keeping: the standings page and its live fragment, the round
# pages, the projector and its live part (games.urls).
POLLED = re.compile(
    r"^/t/(?P<slug>[-\w]+)/(?:standings/live/|projector/(?:live/)?|rounds/[0-9]{1,9}/)?$"
)


# How long a render of a new answer holds its address's lock (a render that dies leaves
# it to expire): far longer than a render, short enough that a stuck one costs little.
RENDER_LOCK_SECONDS = 10


# Answers a process keeps in its own memory (they are a few KB each); past this many it
# forgets them all and starts again.
LOCAL_ENTRIES = 512


# This process's memory, shared by every handler of the process (a test's live server
# and its clients): slug -> (read at, generation), and key -> kept answer.
_generations: dict[str, tuple[float, str]] = {}
_entries: dict[str, dict[str, Any]] = {}


@receiver(setting_changed)
def _caches_changed(*, setting: str, **kwargs: Any) -> None:
    # Tests swap CACHES: what this process remembers belongs to the old cache.
    if setting in {"CACHES", "PAGE_CACHE_LOCAL_SECONDS"}:
        _generations.clear()
        _entries.clear()


@receiver(page_generation_counted)
def _generation_counted(*, slug: str, **kwargs: Any) -> None:
    _generations.pop(slug, None)


class PublicPageCache:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self.generations = _generations
        self.entries = _entries

    def _generation(self, slug: str) -> str:
        now = time.monotonic()
        known = self.generations.get(slug)
        if known is not None and now - known[0] < settings.PAGE_CACHE_LOCAL_SECONDS:
            return known[1]
        generation = page_generation(slug)
        if generation is None:
            raise OSError("shared cache unreachable")
        self.generations[slug] = (now, generation)
        return generation

    def _entry(self, key: str, generation: str) -> tuple[dict[str, Any] | None, dict | None]:
        """The kept answer of this generation, else None and the one kept before (any
        generation, or None)."""
        entry = self.entries.get(key)
        if entry is None or entry["generation"] != generation:
            older = entry
            entry = cache.get(key)
            if entry is None or entry["generation"] != generation:
                return None, entry or older
            self._remember(key, entry)
        return entry, None

    def _remember(self, key: str, entry: dict[str, Any]) -> None:
        if len(self.entries) >= LOCAL_ENTRIES:
            self.entries.clear()
        self.entries[key] = entry

    @staticmethod
    def _answer(request: HttpRequest, entry: dict[str, Any]) -> HttpResponse:
        return stored_answer(
            entry,
            request.META.get("HTTP_IF_NONE_MATCH", ""),
            request.META.get("HTTP_IF_MODIFIED_SINCE", ""),
            request.META.get("HTTP_ACCEPT_ENCODING", ""),
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        match = POLLED.match(request.path_info) if request.method == "GET" else None
        if match is None or not anonymous_reader(request):
            return self.get_response(request)
        key = page_cache_key(match["slug"], request)
        lock = f"{key}:rendering"
        try:
            entry, older = self._entry(key, self._generation(match["slug"]))
            # Someone else renders this generation's answer: the one before will do.
            if entry is None and older is not None and not cache.add(lock, 1, RENDER_LOCK_SECONDS):
                entry = older
        except CACHE_ERRORS:
            return self.get_response(request)
        if entry is not None:
            return self._answer(request, entry)
        try:
            response = self.get_response(request)
            kept = keep_answer(response)
            if kept is not None:
                try:
                    cache.set(key, kept, settings.PAGE_CACHE_SECONDS)
                except CACHE_ERRORS:
                    logger.warning("shared cache unreachable; %s not kept", request.path)
                else:
                    self._remember(key, kept)
                # The reader who rendered it gets what every later reader gets.
                response = self._answer(request, kept)
        finally:
            if older is not None:
                with contextlib.suppress(*CACHE_ERRORS):
                    cache.delete(lock)
        return response
