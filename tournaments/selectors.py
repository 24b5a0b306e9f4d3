"""Reads that several views share: tournaments and players as a user may see them.

Visibility follows `tournaments.permissions.can_view`: a private tournament does not
exist for someone without a role in it.
"""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Player, Tournament
from .permissions import User


def tournaments_visible_to(user: User) -> QuerySet[Tournament]:
    qs = Tournament.objects.all()
    if user.is_authenticated and getattr(user, "is_superuser", False):
        return qs
    if user.is_authenticated:
        # A table link's user sees its tournament (only while the link lasts: afterwards
        # the session no longer signs it in, `tournaments.backends`).
        return (
            qs.filter(public=True) | qs.filter(staff__user=user) | qs.filter(table_links__user=user)
        ).distinct()
    return qs.filter(public=True)


def active_players(tournament: Tournament) -> QuerySet[Player]:
    return tournament.players.filter(status=Player.Status.ACTIVE)
