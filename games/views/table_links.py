"""The landing page of a table link: the address in the QR code of a table sheet.

Opening it signs the phone in as that table's scorekeeper for the round (no account, no
password; `tournaments.table_links`) and goes to the table's entry page. A link that is
not valid at this address, was revoked, or whose round is over answers with a page that
says so and what to do (403 or 410), and signs nobody in.

A staff member who opens a link on a phone already signed in with their own account
stays signed in as themselves: the link would only narrow what they may do. A phone that
signed in remembers its link (a signed cookie), so once signed out by the end of the round
or a revoke it is sent back to the link's page, which says what happened.
"""

from __future__ import annotations

from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from tournaments.backends import PATH as TABLE_LINK_BACKEND
from tournaments.models import Tournament
from tournaments.permissions import can_score
from tournaments.table_links import TableLinkRefused, table_link_check
from tournaments.web import TABLE_LINK_COOKIE

# How long a phone remembers its table link: a tournament day and then some.
COOKIE_SECONDS = 3 * 24 * 3600


@never_cache
def table_link(
    request: HttpRequest, slug: str, round_number: int, table_number: int, token: str
) -> HttpResponse:
    tournament = Tournament.objects.filter(slug=slug).first()
    round_ = tournament.rounds.filter(number=round_number).first() if tournament else None
    if tournament is None or round_ is None:  # no round without its tournament
        raise Http404(_("No such round."))
    entry = redirect("table-entry", slug=slug, round_number=round_number, table_number=table_number)
    try:
        link = table_link_check(token=token, round_=round_, table_number=table_number)
    except TableLinkRefused as refused:
        return render(
            request,
            "games/table_link_refused.html",
            {"tournament": tournament, "refused": refused},
            status=refused.status,
        )
    if can_score(request.user, tournament, (round_number, table_number)) and request.user.is_active:
        return entry  # a staff member keeps their own account
    login(request, link.user, backend=TABLE_LINK_BACKEND)
    # Remembered so that, signed out (round over, link revoked), the phone comes back here
    # and reads why instead of a sign-in form (`tournaments.web.tournament_page`).
    entry.set_signed_cookie(
        TABLE_LINK_COOKIE,
        request.path,
        salt=TABLE_LINK_COOKIE,
        max_age=COOKIE_SECONDS,
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )
    return entry
