"""Reads that several views share: who may do what in a tournament, and lookups.

Roles: a superuser may do everything; an organiser changes everything in their tournament;
a scorekeeper enters results and penalties; anyone may read a public tournament; reading a
private one needs a role in it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from .models import Player, StaffMember, Tournament

User = AbstractBaseUser | AnonymousUser


def role_of(user: User, tournament: Tournament) -> str | None:
    """The user's role in the tournament, or None. Cached on the user for one request."""
    if not user.is_authenticated:
        return None
    cache = user.__dict__.setdefault("_rummitab_roles", {})
    if tournament.pk not in cache:
        cache[tournament.pk] = (
            StaffMember.objects.filter(tournament=tournament, user=user)
            .values_list("role", flat=True)
            .first()
        )
    return cache[tournament.pk]


def can_organise(user: User, tournament: Tournament) -> bool:
    if user.is_authenticated and user.is_superuser:
        return True
    return role_of(user, tournament) == StaffMember.Role.ORGANISER


def can_score(user: User, tournament: Tournament) -> bool:
    if user.is_authenticated and user.is_superuser:
        return True
    return role_of(user, tournament) is not None


def can_view(user: User, tournament: Tournament) -> bool:
    return tournament.public or can_score(user, tournament)


def tournaments_visible_to(user: User) -> QuerySet[Tournament]:
    qs = Tournament.objects.all()
    if user.is_authenticated and user.is_superuser:
        return qs
    if user.is_authenticated:
        return (qs.filter(public=True) | qs.filter(staff__user=user)).distinct()
    return qs.filter(public=True)


def active_players(tournament: Tournament) -> QuerySet[Player]:
    return tournament.players.filter(status=Player.Status.ACTIVE)
