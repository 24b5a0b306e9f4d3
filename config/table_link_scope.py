"""The one place that keeps a table link's phone to its table.

A phone signed in through a table link (`tournaments.table_links`; its user is the link's
own inactive user, `tournaments.permissions.table_link_of`) is one table's scorekeeper for
one round and nothing else. Every page and API call passes this middleware after the
session's user is known and the address is resolved, so a new page or endpoint cannot
forget the check: a link's session reaches only

* its table — the entry page (results, penalties, voids: its POSTs), the turn timer and
  the timer's time-out, undo and extension answers — at the link's tournament, round and
  table number;
* the rack value beside the entry page's tiles input (`rack-value`), in its tournament;
* the way in and out and the chrome every page needs: a table link's landing (scanning
  another table's sheet signs the phone in as that table instead), sign-out, the language
  switcher, the health check, the web manifest, the favicon and the help pages. Static
  files are served before any of this (WhiteNoise).

Everything else is refused with 403 and the reason ("signed in as the scorekeeper of table
3 in round 2 only"): the site's 403 page, or `{"detail": ...}` under /api/.

Decisions:
* a refused page is a 403, not a redirect to the table: a redirect would look like the
  link did nothing, while the 403 page says why and links back to the table;
* the whole API is refused: the table's pages do not use it, and DRF would treat the
  link's inactive user as anonymous anyway (so a link's session could only read what
  anyone reads, which it may do signed out);
* an address that resolves to nothing is left to the 404 it gets anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from tournaments.models import TableLink
from tournaments.permissions import table_link_of

# Pages of the link's own table (their kwargs name its tournament, round and table).
TABLE_PAGES = frozenset(
    {"table-entry", "table-timer", "timeout-record", "timeout-undo", "extension-record"}
)
# Pages of the link's tournament that its table page calls (by the tournament's slug).
TOURNAMENT_PAGES = frozenset({"rack-value"})
# Pages open to a link's phone wherever it is: in, out, language, and the page chrome.
# The site's help pages ("docs") are static text for anyone.
ALWAYS = frozenset(
    {"table-link", "logout", "language-set", "health", "webmanifest", "favicon", "docs"}
)


def allowed(link: TableLink, url_name: str | None, kwargs: dict[str, Any]) -> bool:
    """May the link's session open the page named `url_name` with these path arguments?"""
    if url_name in ALWAYS:
        return True
    if kwargs.get("slug") != link.tournament.slug:
        return False
    if url_name in TOURNAMENT_PAGES:
        return True
    return (
        url_name in TABLE_PAGES
        and kwargs.get("round_number") == link.round.number
        and kwargs.get("table_number") == link.table_number
    )


def refusal(link: TableLink) -> str:
    return _(
        "This phone is signed in as the scorekeeper of table %(table)s in round %(round)s only."
    ) % {"table": link.table_number, "round": link.round.number}


class TableLinkScopeMiddleware:
    """After AuthenticationMiddleware: refuse a link's session everything but its table."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable, args: tuple, kwargs: dict[str, Any]
    ) -> None:
        match = request.resolver_match
        url_name = match.view_name if match else None
        if url_name in ALWAYS:
            # Open to everyone, so the session is not even read: reading it would add
            # "Vary: Cookie" and keep shared caches from keeping the manifest or the help.
            return None
        link = table_link_of(request.user)
        if link is None:
            return None
        if allowed(link, url_name, kwargs):
            return None
        # The 403 page links back to the table (templates/403.html reads user.table_link).
        raise PermissionDenied(refusal(link))
