"""Who may do what in a tournament: the one place where permissions are decided.

Roles: a superuser may do everything; an organiser changes everything in their tournament;
a scorekeeper enters results and penalties; anyone may read a public tournament; reading a
private one needs a role in it. A club's organisers run the club (members, seasons) and
organise every tournament held under it. A table scorekeeper — a phone signed in through
a table link (`tournaments.table_links`) — enters results and penalties at one table of
one round while that round lasts, reads the tournament, and does nothing else.

Terms:
* need — what an action asks of the person doing it: `view`, `score` or `organise`.
* require — called first in every write service: it refuses (Django's `PermissionDenied`,
  a 403 in the API and on the pages) whoever lacks the need, so a new endpoint, command or
  task cannot forget the check. Pages use the `can_*` predicates only to hide forms.
* at — where a `score` action happens: (round number, table number). Services acting at a
  table pass it; without it a table scorekeeper may not score (so not confirm from the
  queue, nor print sheets).
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as SignedIn
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from .models import Club, ClubOrganiser, StaffMember, TableLink, Tournament
from .table_links import end_reason

# Who does something: a signed-in user or the anonymous visitor (management commands act
# as a named user too, so history always says who). The site's user model is Django's own
# (no AUTH_USER_MODEL), which `request.user` is too.
User: TypeAlias = SignedIn | AnonymousUser
Need = Literal["view", "score", "organise"]
At: TypeAlias = tuple[int, int]  # (round number, table number)

# What the refusal says, per need.
REFUSALS: dict[Need, str] = {
    "view": gettext_noop("This tournament is private."),
    "score": gettext_noop("Only the tournament's organisers and scorekeepers may do this."),
    "organise": gettext_noop("Only the tournament's organisers may do this."),
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


def table_link_of(user: User) -> TableLink | None:
    """The table link the user signed in through, or None (also for every other user).
    The row is cached on the user for one request; whether it still lasts is not."""
    if not user.is_authenticated or user.is_active:
        return None  # link users are the only inactive users a session carries
    cache = user.__dict__
    if "_rummitab_table_link" not in cache:
        cache["_rummitab_table_link"] = (
            TableLink.objects.select_related("round", "tournament").filter(user_id=user.pk).first()
        )
    return cache["_rummitab_table_link"]


def _linked_to(user: User, tournament: Tournament) -> TableLink | None:
    """The user's table link in this tournament while it lasts (checked on every call: a
    service asks after locking the tournament, so a round opened meanwhile counts)."""
    link = table_link_of(user)
    if link is None or link.tournament_id != tournament.pk:
        return None
    return link if end_reason(link, tournament) is None else None


def _at_linked_table(user: User, tournament: Tournament, at: At | None) -> bool:
    if at is None:
        return False
    link = _linked_to(user, tournament)
    return link is not None and (link.round.number, link.table_number) == tuple(at)


def _superuser(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


def organises_club(user: User, club_id: int | None) -> bool:
    """Whether the user is one of the club's organisers. Cached on the user for a request."""
    if club_id is None or not user.is_authenticated:
        return False
    cache = user.__dict__.setdefault("_rummitab_clubs", {})
    if club_id not in cache:
        cache[club_id] = ClubOrganiser.objects.filter(club_id=club_id, user=user).exists()
    return cache[club_id]


def can_run_club(user: User, club: Club) -> bool:
    return _superuser(user) or organises_club(user, club.pk)


def can_organise(user: User, tournament: Tournament, at: At | None = None) -> bool:
    return (
        _superuser(user)
        or role_of(user, tournament) == StaffMember.Role.ORGANISER
        or organises_club(user, tournament.club_id)
    )


def can_score(user: User, tournament: Tournament, at: At | None = None) -> bool:
    return (
        _superuser(user)
        or role_of(user, tournament) is not None
        or organises_club(user, tournament.club_id)
        or _at_linked_table(user, tournament, at)
    )


def can_view(user: User, tournament: Tournament, at: At | None = None) -> bool:
    if tournament.public or can_score(user, tournament):
        return True
    return _linked_to(user, tournament) is not None


PREDICATES = {"view": can_view, "score": can_score, "organise": can_organise}


def require(
    by: User, tournament: Tournament, need: Need, *, at: At | None = None, fresh: bool = False
) -> None:
    """Refuse, with `PermissionDenied`, anyone who may not act with `need` here (`at`: the
    table a `score` action happens at, if any).

    `fresh` reads the role again instead of the one cached for the request: the staff
    services ask under the tournament's row lock, so an organiser demoted a moment ago by
    another request cannot still change the staff on the strength of the old role."""
    if fresh and by.is_authenticated:
        by.__dict__.get("_rummitab_roles", {}).pop(tournament.pk, None)
    if not PREDICATES[need](by, tournament, at):
        link = table_link_of(by)
        if link is not None and link.tournament_id == tournament.pk:
            raise PermissionDenied(
                _(
                    "This phone is signed in as the scorekeeper of table %(table)s "
                    "in round %(round)s only."
                )
                % {"table": link.table_number, "round": link.round.number}
            )
        raise PermissionDenied(_(REFUSALS[need]))


def signed_in(by: User) -> SignedIn:
    """The user a write records as its author. Every write service calls `require` first,
    which refuses the anonymous visitor a write needs ("score" or "organise"), so this
    refuses no one there; it tells the type checker so."""
    if not by.is_authenticated:
        raise PermissionDenied(_(REFUSALS["score"]))
    return by


def require_club(by: User, club: Club) -> None:
    """Refuse anyone but the club's organisers (and superusers)."""
    if not can_run_club(by, club):
        raise PermissionDenied(_("Only the club's organisers may do this."))
