"""Conditional answers and cached renders of the tournament's public pages.

Every page that a phone or the venue screen keeps open (the standings page, the live
standings fragment, the round pages, the projector and the CSV) carries validators: a
request that sends them back while nothing changed answers 304 without rendering
anything. An anonymous reader's ETag is made from the tournament's page generation
(`tournaments.events`, a token in the shared cache that moves only when something
public changed, at most about once a second), so it holds through a burst of results
that change nothing shown; a signed-in reader's from the page state
(`games.selectors.caching.page_state`, one query), which moves with every change they may see
(a result awaiting confirmation, a stale table being recomputed).

Terms:
* reader — who the page is rendered for. Anonymous readers all see the same page, so
  their answers are `public` (still revalidated every time: `no-cache`) and the whole
  answer is kept in the shared cache (`config.page_cache` serves it without touching the
  database). A signed-in reader's page names them and shows their links: `private`,
  and the ETag names the user, their role and (a digest of) their CSRF token.
* variant — what a page's wording may depend on besides its address: the language it is
  rendered in, resolved from the language cookie, else the Accept-Language header, else
  the site's default, as `LocaleMiddleware` resolves it. Every header that resolves to one
  language shares one cache entry and one ETag (`nl-NL,nl;q=0.9` and `nl` are one
  variant); another language is another variant, with another ETag and its own cache
  entry, so a validator of one language never earns a 304 in another.
* shown table — an anonymous reader is shown the newest stored snapshot, never marked
  "updating…": that page is kept for every anonymous reader until the generation moves,
  and the generation moves as soon as a snapshot with another table is stored. A
  signed-in reader (the organiser, a scorekeeper) sees the stale mark while a recompute
  is under way.
* compressed copy — a kept answer of `COMPRESS_FROM_BYTES` or more is kept gzipped too,
  compressed once when it is kept, and sent to the readers whose Accept-Encoding names
  gzip (`stored_answer`); both encodings carry `Vary: Accept-Encoding` and the same weak
  ETag (the same page, RFC 9110's weak comparison).
* fragment cache — the rendered standings table, kept in the shared cache under a key
  that holds the page state's tag: a new standings version is a new key, so a moved
  version never serves the old table (the old entries expire on their own).
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import logging
import re
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe
from django.utils.translation import get_language_from_request
from redis.exceptions import RedisError

from tournaments.events import page_generation
from tournaments.models import Tournament
from tournaments.permissions import can_organise, can_score

from ..selectors.caching import PageState, page_state
from ..selectors.standings import ranks_before_round

logger = logging.getLogger(__name__)

T = TypeVar("T")
# What an unreachable or hanging shared cache raises: then pages are rendered every time.
CACHE_ERRORS = (RedisError, OSError)
# django.contrib.messages' cookie: a page with a message waiting is rendered, never a 304.
MESSAGES_COOKIE = "messages"
VALIDATOR_HEADERS = ("ETag", "Last-Modified", "Cache-Control", "Vary")
# A kept answer this long or longer is kept compressed too, and served compressed to the
# readers that accept it (every browser does): a 1,000-player page of standings is 90 KB
# as text, a tenth of that compressed, and a burst sends a new one to every phone.
COMPRESS_FROM_BYTES = 1024
ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def variant(request: HttpRequest) -> str:
    """The language this request's page is rendered in. Resolved from the request alone
    (cookie, header), so `config.page_cache` can ask before the session and locale
    middleware have run; both of Django's lookups behind it are memoised."""
    return get_language_from_request(request)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def anonymous_reader(request: HttpRequest) -> bool:
    """No session and no waiting message: the page is everyone's, without asking the
    database who this is."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and (
        MESSAGES_COOKIE not in request.COOKIES
    )


def page_cache_key(slug: str, request: HttpRequest) -> str:
    """Where `config.page_cache` keeps an anonymous reader's whole answer."""
    return f"pages:{slug}:page:{_digest(request.get_full_path() + '#' + variant(request))}"


def cached(key: str, render: Callable[[], T], seconds: int | None = None) -> T:
    """`render()`'s value, kept under `key` in the shared cache (rendered each time
    while that cache is unreachable)."""
    try:
        value = cache.get(key)
    except CACHE_ERRORS:
        logger.warning("shared cache unreachable; %s rendered uncached", key)
        return render()
    if value is None:
        value = render()
        try:
            cache.set(key, value, settings.PAGE_CACHE_SECONDS if seconds is None else seconds)
        except CACHE_ERRORS:
            logger.warning("shared cache unreachable; %s not kept", key)
    return value


def ranks_before(
    tournament: Tournament, cond: Conditional, round_number: int | None
) -> dict[int, int] | None:
    """The ranks before round `round_number` (`ranks_before_round`: a recompute of the
    earlier rounds), kept in the shared cache at this page state for every page that shows
    movement — the standings page and fragment, the projector; None in round 1."""
    if not round_number or round_number < 2:
        return None
    key = f"pages:{tournament.slug}:ranks-before:{cond.state.tag}"
    return cached(key, lambda: ranks_before_round(tournament, round_number))


class Conditional:
    """The validators of one page for one request, and the answer's cache headers.

        cond = Conditional(request, tournament, personal=True)
        if (answer := cond.not_modified()) is not None:
            return answer
        ... render ...
        return cond.finish(response)

    `personal`: the page shows who is signed in and their links (the full pages); a
    fragment that shows the same to everyone is not personal.
    """

    def __init__(self, request: HttpRequest, tournament: Tournament, *, personal: bool):
        self.request = request
        self.tournament = tournament
        # Read before the state: a change that lands between the two leaves the stored
        # copy under an older generation, which is never served.
        self.generation = page_generation(tournament.slug) if anonymous_reader(request) else None
        self.personal = personal
        self._validate(page_state(tournament))

    @property
    def shared_reader(self) -> bool:
        """An anonymous reader whose answer is kept for every anonymous reader."""
        return self.generation is not None

    def _validate(self, state: PageState) -> None:
        self.state = state
        # The generation moves with everything shown; the page state with every change.
        source = f"g{self.generation}" if self.shared_reader else state.tag
        shared = f"{source}-{_digest(variant(self.request))}"
        user = self.request.user
        if self.personal and user.is_authenticated:
            role = can_score(user, self.tournament) + can_organise(user, self.tournament)
            # The page holds the reader's CSRF token (its forms, htmx's header): a new
            # token (signing in again) must not revalidate a page with the old one.
            token = _digest(self.request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""))
            self.etag = f'W/"{shared}-u{user.pk}r{role}-{token}"'
        else:
            self.etag = f'W/"{shared}"'
        # The ETag of what everyone sees (the live fragment inside a personal page).
        self.shared_etag = f'W/"{shared}"'
        self.public = not user.is_authenticated

    def not_modified(self) -> HttpResponse | None:
        """A 304 when the request's validators still hold (never with a message waiting)."""
        if MESSAGES_COOKIE in self.request.COOKIES:
            return None
        answer = get_conditional_response(
            self.request,
            etag=self.etag,
            last_modified=int(self.state.last_modified.timestamp()),
        )
        return None if answer is None else self.finish(answer)

    def fragment_key(self, name: str, *parts: Any) -> str:
        """A shared-cache key for a rendered piece of these pages at this state."""
        # The ETag is in the fragment (the next poll sends it back): one per kind of reader.
        extra = _digest("|".join(map(str, parts)) + "#" + variant(self.request) + self.shared_etag)
        return f"pages:{self.tournament.slug}:{name}:{self.state.tag}:{extra}"

    def shown(self, standings: T) -> T:
        """The standings table as this reader is shown it: never marked stale for a shared
        reader (see "shown table" above)."""
        if self.shared_reader and getattr(standings, "stale", False):
            return dataclasses.replace(standings, stale=False)  # type: ignore[type-var]
        return standings

    def refresh(self) -> None:
        """Read the state again if it was stale: reading the standings may have computed
        them (`standings_for_read`), and the answer shows the state after that."""
        if self.state.stale:
            self._validate(page_state(self.tournament))

    def finish(self, response: HttpResponse) -> HttpResponse:
        if response.status_code == 200:
            self.refresh()
        response.headers["ETag"] = self.etag
        response.headers["Last-Modified"] = http_date(self.state.last_modified.timestamp())
        if self.public:
            patch_cache_control(response, public=True, no_cache=True)
        else:
            patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        if self.shared_reader:
            # `config.page_cache` keeps the whole answer for the next anonymous reader,
            # stale or not: it shows the newest snapshot, and a new one moves the generation.
            response.page_cache_generation = self.generation  # type: ignore[attr-defined]
        return response


def _still_valid(headers: dict[str, str], if_none_match: str, if_modified_since: str) -> bool:
    """Whether the validators sent still hold (If-None-Match, weakly compared as for GET,
    wins over If-Modified-Since, as RFC 9110 says)."""
    if if_none_match:
        etag = headers.get("ETag", "").removeprefix("W/")
        sent = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return bool(etag) and (etag in sent or "*" in sent)
    since = parse_http_date_safe(if_modified_since) if if_modified_since else None
    modified = parse_http_date_safe(headers.get("Last-Modified", ""))
    return since is not None and modified is not None and modified <= since


def stored_answer(
    entry: dict[str, Any], if_none_match: str, if_modified_since: str, accept_encoding: str = ""
) -> HttpResponse:
    """The answer `config.page_cache` keeps (`keep_answer`), or a 304 when the request's
    validators still hold; compressed, the same bytes for every reader, when the reader
    accepts gzip and a compressed copy is kept."""
    if _still_valid(entry["headers"], if_none_match, if_modified_since):
        answer = HttpResponse(status=304)
        for name in VALIDATOR_HEADERS:
            if name in entry["headers"]:
                answer.headers[name] = entry["headers"][name]
        return answer
    compressed = entry.get("gzip")
    encoded = compressed is not None and ACCEPTS_GZIP.search(accept_encoding) is not None
    answer = HttpResponse(compressed if encoded else entry["content"], status=200)
    for name, value in entry["headers"].items():
        answer.headers[name] = value
    if encoded:
        answer.headers["Content-Encoding"] = "gzip"
    answer.headers["Content-Length"] = str(len(answer.content))
    return answer


def keep_answer(response: HttpResponse) -> dict[str, Any] | None:
    """What to keep of an anonymous reader's answer, if it may be kept: a whole 200 page
    marked by `Conditional.finish`, setting no cookie."""
    generation = getattr(response, "page_cache_generation", None)
    if generation is None or response.status_code != 200 or response.streaming or response.cookies:
        return None
    if response.has_header("Content-Encoding"):
        return None
    content = response.content
    compressed = None
    if len(content) >= COMPRESS_FROM_BYTES:
        # Compressed once per render, not once per reader. The ETag stays: it is weak
        # (W/"…"), the same page in either encoding.
        compressed = gzip.compress(content, compresslevel=6, mtime=0)
        patch_vary_headers(response, ("Accept-Encoding",))
    headers = {
        name: value
        for name, value in response.items()
        if name.lower() not in {"set-cookie", "content-length", "date"}
    }
    return {"generation": generation, "headers": headers, "content": content, "gzip": compressed}
