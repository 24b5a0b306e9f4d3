"""Writes for people — one identity across the clubs of an install — and their links to
club members and tournament players. Each one transaction, refused first to anyone who
may not do it.

Terms (see `tournaments.models.people`): person, federation id, privacy, merged.

* who registers people — an organiser of any club or tournament of the install (they
  register their players) and superusers. A person is edited by the one who registered
  them, an organiser of a club they are a member of, or a superuser; merging duplicates
  is a circuit administrator's (`circuits.services.people`).
* link — a tournament's player, or a club's member, linked to a person. A person plays at
  most once in a tournament (a database constraint). A player linked to a member whose
  person is set is that person (the circuits read `player.person`, else
  `player.member.person`); a direct link wins.
* circuit follow-up — a link changes no tournament standings (no result moves), only the
  circuits that count the tournament: the circuit job named `CIRCUIT_TASK` is asked to
  refresh them once the change commits. Linking is allowed on a finished tournament too
  (decision: the link is who played, not a result, and an organiser often links after the
  day).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import RuleError, raise_all

from .. import jobs
from ..models import ClubOrganiser, Member, Person, Player, StaffMember
from ..permissions import User, organises_club, require, require_club, signed_in
from .validation import collect, max_length_of, stamp_history_user, text

# The circuits' job (circuits.tasks), found by name: this layer does not import it.
CIRCUIT_TASK = "circuits.tournament_people_changed"
PERSON_FIELDS = ("name", "federation_id", "email", "birth_year")
# Years of birth a person may give (a junior of 4, a senior of 110).
FIRST_BIRTH_YEAR, LAST_BIRTH_YEAR = 1900, 2100


def _superuser(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_superuser", False))


def can_register_people(user: User) -> bool:
    """An organiser of some club or tournament (they register players), or a superuser."""
    if not user.is_authenticated:
        return False
    return (
        _superuser(user)
        or ClubOrganiser.objects.filter(user=user).exists()
        or StaffMember.objects.filter(user=user, role=StaffMember.Role.ORGANISER).exists()
    )


def sees_private(user: User, person: Person) -> bool:
    """Whether `user` may read the person's e-mail, year of birth and clubs: the one who
    registered them, an organiser of a club they are a member of, a superuser (the
    circuits add their administrators)."""
    if not user.is_authenticated:
        return False
    if _superuser(user) or person.created_by_id == user.pk:
        return True
    clubs = {m.club_id for m in person.memberships.all()}
    return any(organises_club(user, club) for club in clubs)


def _fields(values: dict[str, Any], person: Person | None) -> dict[str, Any]:
    errors: list[RuleError] = []
    cleaned: dict[str, Any] = {}
    unknown = set(values) - set(PERSON_FIELDS)
    if unknown:
        raise RuleError(sorted(unknown)[0], _("cannot be changed here."))
    if "name" in values:
        cleaned["name"] = collect(
            errors, text, "name", values["name"], max_length=max_length_of(Person, "name")
        )
    for field in ("federation_id", "email"):
        if field in values:
            cleaned[field] = collect(
                errors,
                text,
                field,
                values[field] or "",
                max_length=max_length_of(Person, field),
                required=False,
            )
    if cleaned.get("email") and "@" not in cleaned["email"]:
        errors.append(RuleError("email", _("Enter a valid email address.")))
    if "birth_year" in values:
        year = values["birth_year"]
        if year is not None and (
            not isinstance(year, int)
            or isinstance(year, bool)
            or not FIRST_BIRTH_YEAR <= year <= LAST_BIRTH_YEAR
        ):
            errors.append(
                RuleError(
                    "birth_year",
                    _("a year from {first} to {last}, or empty").format(
                        first=FIRST_BIRTH_YEAR, last=LAST_BIRTH_YEAR
                    ),
                )
            )
        else:
            cleaned["birth_year"] = year
    federation_id = cleaned.get("federation_id")
    if federation_id:
        taken = Person.objects.filter(federation_id=federation_id)
        if person is not None:
            taken = taken.exclude(pk=person.pk)
        if taken.exists():
            errors.append(RuleError("federation_id", _("another person has this federation id.")))
    raise_all(errors)
    return cleaned


@transaction.atomic
def person_create(
    *,
    by: User,
    name: str,
    federation_id: str = "",
    email: str = "",
    birth_year: int | None = None,
) -> Person:
    if not can_register_people(by):
        raise PermissionDenied(_("Only organisers register people."))
    values = {"name": name, "federation_id": federation_id, "email": email}
    fields = _fields({**values, "birth_year": birth_year}, None)
    # can_register_people refused the anonymous visitor
    person = stamp_history_user(Person(created_by=signed_in(by), **fields), by)
    person.save()
    return person


def require_person_editor(by: User, person: Person) -> None:
    if not sees_private(by, person):
        raise PermissionDenied(
            _("Only who registered this person, or their clubs' organisers, may do this.")
        )


@transaction.atomic
def person_update(*, person: Person, by: User, **changes: Any) -> Person:
    require_person_editor(by, person)
    if person.merged_into_id is not None:
        raise RuleError("person", _("this person was merged into another; edit that one."))
    for field, value in _fields(changes, person).items():
        setattr(person, field, value)
    stamp_history_user(person, by).save()
    return person


def _live(person: Person | None, field: str = "person") -> None:
    if person is not None and person.merged_into_id is not None:
        raise RuleError(field, _("this person was merged into another; link that one."))


def circuit_follow(tournament_ids: list[int]) -> None:
    """Ask the circuits to refresh these tournaments once the change commits."""
    for tournament_id in sorted(set(tournament_ids)):
        transaction.on_commit(partial(jobs.enqueue, CIRCUIT_TASK, tournament_id))


@transaction.atomic
def player_person_link(*, player: Player, by: User, person: Person | None) -> Player:
    """Link a tournament's player to a person (None: unlink)."""
    require(by, player.tournament, "organise")
    _live(person)
    if (
        person is not None
        and Player.objects.filter(tournament=player.tournament_id, person=person)
        .exclude(pk=player.pk)
        .exists()
    ):
        raise RuleError("person", _("this person already plays in this tournament."))
    player.person = person
    stamp_history_user(player, by).save(update_fields=["person"])
    circuit_follow([player.tournament_id])
    return player


@transaction.atomic
def member_person_link(*, member: Member, by: User, person: Person | None) -> Member:
    """Link a club's member to a person (None: unlink): their players follow."""
    require_club(by, member.club)
    _live(person)
    member.person = person
    stamp_history_user(member, by).save(update_fields=["person"])
    circuit_follow(list(member.players.values_list("tournament_id", flat=True)))
    return member
