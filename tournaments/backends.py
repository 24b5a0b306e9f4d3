"""The sign-in backend of table links (`tournaments.table_links`).

A phone that opened a valid table link is signed in (Django's `login`) with this backend;
on every later request `get_user` gives the link's user back only while the link lasts,
so the phone is signed out by itself when its round ends. A revoke changes the user's
(unusable) password, which ends the session through Django's session hash.

It never authenticates a username and password (`authenticate` returns None), and the
users it returns are inactive: the admin and the API (DRF refuses inactive users) stay
closed to them.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import BaseBackend

from .models import TableLink
from .table_links import end_reason

PATH = "tournaments.backends.TableLinkBackend"


class TableLinkBackend(BaseBackend):
    def authenticate(self, request: Any, **credentials: Any) -> None:
        return None

    def get_user(self, user_id: Any) -> Any:
        link = (
            TableLink.objects.select_related("user", "round", "tournament")
            .filter(user_id=user_id, user__is_active=False)
            .first()
        )
        if link is None or end_reason(link) is not None:
            return None
        user = link.user
        user.__dict__["_rummitab_table_link"] = link  # spares `permissions` the same query
        return user
