"""Who may do what in a tournament: the one place where permissions are decided.

Roles: a superuser may do everything; an organiser changes everything in their tournament;
a scorekeeper enters results and penalties; anyone may read a public tournament; reading a
private one needs a role in it.

Terms:
* need — what an action asks of the person doing it: `view`, `score` or `organise`.
* require — called first in every write service: it refuses (Django's `PermissionDenied`,
  a 403 in the API and on the pages) whoever lacks the need, so a new endpoint, command or
  task cannot forget the check. Pages use the `can_*` predicates only to hide forms.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied

from .models import StaffMember, Tournament

# Who does something: a signed-in user or the anonymous visitor (management commands act
# as a named user too, so history always says who).
User: TypeAlias = AbstractBaseUser | AnonymousUser
Need = Literal["view", "score", "organise"]

# What the refusal says, per need.
REFUSALS: dict[Need, str] = {
    "view": "This tournament is private.",
    "score": "Only the tournament's organisers and scorekeepers may do this.",
    "organise": "Only the tournament's organisers may do this.",
}


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


def _superuser(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


def can_organise(user: User, tournament: Tournament) -> bool:
    return _superuser(user) or role_of(user, tournament) == StaffMember.Role.ORGANISER


def can_score(user: User, tournament: Tournament) -> bool:
    return _superuser(user) or role_of(user, tournament) is not None


def can_view(user: User, tournament: Tournament) -> bool:
    return tournament.public or can_score(user, tournament)


PREDICATES = {"view": can_view, "score": can_score, "organise": can_organise}


def require(by: User, tournament: Tournament, need: Need, *, fresh: bool = False) -> None:
    """Refuse, with `PermissionDenied`, anyone who may not act with `need` here.

    `fresh` reads the role again instead of the one cached for the request: the staff
    services ask under the tournament's row lock, so an organiser demoted a moment ago by
    another request cannot still change the staff on the strength of the old role."""
    if fresh and by.is_authenticated:
        by.__dict__.get("_rummitab_roles", {}).pop(tournament.pk, None)
    if not PREDICATES[need](by, tournament):
        raise PermissionDenied(REFUSALS[need])
