"""The name a person reads for a user: the one function every page, message and export
uses where it says who entered, confirmed or recorded something.

Terms:
* display name — what a person reads for a user. An account of a person (organiser,
  scorekeeper, admin) reads as its username, which is what its owner signs in with and
  what the staff page lists. The user a table link signs in as (`tournaments.table_links`:
  an inactive account with a made-up username such as `saturday-open-r1-t1-link`) reads
  as its table, "Table 1, round 1", in the reader's language.

Decided here (the spec is silent): a person's account is not shown by its first and last
name even when they are set, so the name on a page is always the one its owner types to
sign in (and the staff page's list, which names accounts, stays the key to them).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .models import TableLink


def user_display_name(user: Any) -> str:
    """`user`'s display name ("" for nobody). One query for a table link's user the first
    time (cached on the user object), none for anyone else: link users are the only
    inactive users the site makes, so an active account is never looked up."""
    if user is None:
        return ""
    if getattr(user, "is_active", True):
        return user.get_username()
    cache = user.__dict__
    if "_rummitab_display_link" not in cache:
        cache["_rummitab_display_link"] = (
            TableLink.objects.select_related("round").filter(user_id=user.pk).first()
        )
    link = cache["_rummitab_display_link"]
    if link is None:
        return user.get_username()
    return _("Table %(table)s, round %(round)s") % {
        "table": link.table_number,
        "round": link.round.number,
    }
