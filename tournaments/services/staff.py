"""Writes for a tournament's staff without the Django admin — each one transaction.

An organiser makes someone staff in one of three ways: invites an existing account by
its username (`staff_invite_account`; the account joins when it accepts,
`staff_invitation_join`), creates an account here (`staff_account_create`), or hands
out an invitation link (`staff_invite`) with which the invitee chooses their own
username and password (`staff_invitation_accept`). `tournaments.staff_add` (a role given
without asking) is left to management commands and fixtures: no page or API calls it.
Roles change (`staff_role_change`) and staff are removed (`staff_remove`); a removed
person keeps their account (the results they entered still name them) but loses every
right in the tournament at once, since `tournaments.permissions` reads the staff rows on
every request.

Terms:
* last organiser — a tournament always keeps one organiser among its staff rows (a
  superuser is never a staff row and does not count): demoting or removing the only one
  is a `Conflict` (409) on `role` or `staff`, and nothing changes. The count is taken
  under the tournament's row lock, and so is the check of who may do it (`require(...,
  fresh=True)`), so two organisers demoting each other at the same moment cannot both
  succeed, nor can one act on a role another request has just taken away.
* invitation token — what an invitation link carries (`tournaments.invitation_tokens`).
* generated password — when the organiser leaves the password blank, one of
  `GENERATED_PASSWORD_LENGTH` unambiguous characters is made up, returned once (the page
  shows it once) and never stored in clear.

* addressed invitation — an invitation with a `username`: only the active account of that
  name, signed in, can accept it (it joins as itself); the open ones show on its home page.
  Made without looking the name up: the row, the answer and the time taken are the same
  whether or not such an account exists, so an organiser cannot probe for usernames (the
  staff page lists the invitation under the name typed either way).

Staff may change while a tournament is finished (docs/guide/index.md), so nothing here asks
`require_open`. Account creation says when a username is taken: that is what the form is
for, unlike inviting an account, which must not tell whether an account exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.errors import Conflict, RuleError, RuleErrors, raise_all

from ..invitation_tokens import INVITATION_SALT, invitation_token
from ..models import StaffInvitation, StaffMember, Tournament
from ..permissions import User, require, signed_in
from ..selectors import invitation_is_for
from ..words import invitation_problem
from .validation import choice, collect, max_length_of, signed_in_or_none, stamp_history_user

GENERATED_PASSWORD_LENGTH = 14
# No 0/O, 1/l/I: a generated password is read off a screen and typed on a phone.
PASSWORD_CHARACTERS = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def _lock(tournament: Tournament | int) -> Tournament:
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)


def _current(member: StaffMember) -> StaffMember:
    """The staff row as it is now (under the tournament's lock): removed a moment ago by
    another request, it is a `Conflict` saying so."""
    current = StaffMember.objects.select_related("user").filter(pk=member.pk).first()
    if current is None:
        raise Conflict("staff", _("this person is no longer staff here; reload the page."))
    return current


def _only_organiser(member: StaffMember) -> bool:
    return (
        member.role == StaffMember.Role.ORGANISER
        and not StaffMember.objects.filter(
            tournament_id=member.tournament_id, role=StaffMember.Role.ORGANISER
        )
        .exclude(pk=member.pk)
        .exists()
    )


# --- accounts ------------------------------------------------------------------------------


def _username(value: object) -> str:
    """A free username that Django's own rules accept (letters, digits and @.+-_)."""
    model: Any = get_user_model()
    if not isinstance(value, str) or not value.strip():
        raise RuleError("username", _("is required."))
    value = value.strip()
    limit = model._meta.get_field("username").max_length
    if len(value) > limit:
        raise RuleError(
            "username",
            _("is %(length)s characters long; at most %(limit)s allowed.")
            % {"length": len(value), "limit": limit},
        )
    try:
        model.username_validator(value)
    except ValidationError as error:
        raise RuleError("username", " ".join(error.messages)) from None
    if model.objects.filter(username__iexact=value).exists():
        raise RuleError("username", _taken(value))
    return value


def _password(value: object, username: str | None) -> str:
    """A password that passes the site's validators (`AUTH_PASSWORD_VALIDATORS`)."""
    if not isinstance(value, str) or not value:
        raise RuleError("password", _("is required."))
    model: Any = get_user_model()
    try:
        password_validation.validate_password(value, user=model(username=username or ""))
    except ValidationError as error:
        raise RuleErrors(RuleError("password", message) for message in error.messages) from None
    return value


def _account_values(
    username: object, password: object, *, generate: bool
) -> tuple[str, str, str | None]:
    """The username and password of a new account, each checked (every problem at once):
    the name, the password to set, and the generated password if one was made up."""
    errors: list[RuleError] = []
    name = collect(errors, _username, username)
    generated = None
    if generate and (password is None or password == ""):
        password = generated = get_random_string(GENERATED_PASSWORD_LENGTH, PASSWORD_CHARACTERS)
    else:
        collect(errors, _password, password, name)
    raise_all(errors)
    return name, str(password), generated


def _create_user(username: str, password: str) -> Any:
    try:
        with transaction.atomic():  # a savepoint: the same name taken at the same moment
            return get_user_model().objects.create_user(username=username, password=password)
    except IntegrityError:
        raise RuleError("username", _taken(username)) from None


def _taken(username: str) -> str:
    return _("'%(username)s' is taken; choose another username.") % {"username": username}


@dataclass(frozen=True)
class StaffAccount:
    """A new account with its role; `password` is the generated one (else None)."""

    member: StaffMember
    password: str | None


@transaction.atomic
def staff_account_create(
    *,
    tournament: Tournament,
    by: User,
    username: str,
    role: str,
    password: str | None = None,
) -> StaffAccount:
    """Create an account and give it a role here. A blank password is made up and
    returned once; a given one must pass the site's password validators."""
    tournament = _lock(tournament)
    require(by, tournament, "organise", fresh=True)
    errors: list[RuleError] = []
    collect(errors, choice, "role", role, StaffMember.Role)
    values = collect(errors, _account_values, username, password, generate=True)
    raise_all(errors)
    name, password, generated = values
    member = StaffMember(tournament=tournament, user=_create_user(name, password), role=role)
    stamp_history_user(member, by).save()
    return StaffAccount(member=member, password=generated)


# --- roles -----------------------------------------------------------------------------------


@transaction.atomic
def staff_role_change(*, member: StaffMember, by: User, role: object) -> StaffMember:
    """Give a staff member another role; the last organiser stays one."""
    require(by, _lock(member.tournament_id), "organise", fresh=True)
    role = choice("role", role, StaffMember.Role)
    member = _current(member)
    if member.role == role:
        return member
    if _only_organiser(member):
        raise Conflict(
            "role",
            _("%(username)s is the only organiser; make someone else organiser first.")
            % {"username": member.user.username},
        )
    member.role = role
    stamp_history_user(member, by).save()
    return member


@transaction.atomic
def staff_remove(*, member: StaffMember, by: User) -> None:
    """Take someone off the staff (their account stays); never the last organiser."""
    require(by, _lock(member.tournament_id), "organise", fresh=True)
    member = _current(member)
    if _only_organiser(member):
        raise Conflict(
            "staff",
            _(
                "%(username)s is the only organiser; make someone else organiser "
                "before removing them."
            )
            % {"username": member.user.username},
        )
    stamp_history_user(member, by).delete()


# --- invitations -----------------------------------------------------------------------------


@transaction.atomic
def staff_invite(*, tournament: Tournament, by: User, role: str) -> StaffInvitation:
    """A one-use invitation to the staff with `role`, good for `STAFF_INVITATION_DAYS`
    days. The returned row has `token` set for the link."""
    require(by, _lock(tournament), "organise", fresh=True)
    choice("role", role, StaffMember.Role)
    invitation = StaffInvitation.objects.create(
        tournament=tournament,
        role=role,
        created_by=signed_in_or_none(by),
        expires_at=timezone.now() + timedelta(days=settings.STAFF_INVITATION_DAYS),
    )
    invitation.token = invitation_token(invitation)
    return invitation


def _invitee(value: object) -> str:
    """The username an invitation is addressed to: a non-empty string that fits the user
    model's field. Whether such an account exists is deliberately not asked."""
    limit = max_length_of(get_user_model(), "username")
    if not isinstance(value, str) or not value.strip():
        raise RuleError("username", _("is required."))
    value = value.strip()
    if len(value) > limit:
        raise RuleError(
            "username",
            _("is %(length)s characters long; at most %(limit)s allowed.")
            % {"length": len(value), "limit": limit},
        )
    return value


@transaction.atomic
def staff_invite_account(
    *, tournament: Tournament, by: User, username: object, role: str
) -> StaffInvitation:
    """An invitation addressed to the account named `username` (see "addressed
    invitation"): it joins with `role` when it accepts. Nothing is looked up, so the
    answer is the same whether the account exists or not."""
    require(by, _lock(tournament), "organise", fresh=True)
    choice("role", role, StaffMember.Role)
    invitation = StaffInvitation.objects.create(
        tournament=tournament,
        role=role,
        username=_invitee(username),
        created_by=signed_in_or_none(by),
        expires_at=timezone.now() + timedelta(days=settings.STAFF_INVITATION_DAYS),
    )
    invitation.token = invitation_token(invitation)
    return invitation


@transaction.atomic
def staff_invitation_join(*, token: str, by: User) -> StaffMember:
    """The signed-in account an addressed invitation names accepts it: it becomes staff
    with the invitation's role (a present organiser stays organiser: an invitation never
    lowers a role). Under the tournament's and the invitation's row locks."""
    invitation = staff_invitation_for(token)
    _lock(invitation.tournament_id)
    invitation = staff_invitation_for(token, lock=True)
    if not invitation.username or not invitation_is_for(invitation, by):
        raise RuleError("token", _(NOT_YOURS))
    by = signed_in(by)  # invitation_is_for refused the anonymous visitor
    member = StaffMember.objects.filter(tournament=invitation.tournament, user=by).first()
    if member is None:
        member = StaffMember(tournament=invitation.tournament, user=by, role=invitation.role)
    elif member.role != StaffMember.Role.ORGANISER:
        member.role = invitation.role
    stamp_history_user(member, by).save()
    invitation.used_at = timezone.now()
    invitation.used_by = by
    invitation.save(update_fields=["used_at", "used_by"])
    return member


NOT_YOURS = gettext_noop(
    "This invitation is for another account: sign in as the account it names to accept it."
)


@transaction.atomic
def staff_invitation_revoke(*, invitation: StaffInvitation, by: User) -> StaffInvitation:
    """Withdraw an unused invitation; its link then opens a page saying so. A used one
    cannot be revoked (remove the person from the staff instead): a `Conflict`."""
    require(by, _lock(invitation.tournament_id), "organise", fresh=True)
    invitation = StaffInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.used_at is not None:
        raise Conflict(
            "invitation", _("this invitation has been used already; remove the person instead.")
        )
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


EXPIRED_OR_BROKEN = gettext_noop(
    "This invitation link is not valid: it may be cut short. Ask for a new one."
)


def staff_invitation_for(token: object, *, lock: bool = False) -> StaffInvitation:
    """The invitation a link's token names, if it can still be accepted; otherwise a
    `RuleError` on `token` saying why (broken, revoked, used or expired)."""
    try:
        pk = signing.TimestampSigner(salt=INVITATION_SALT).unsign(str(token))
    except signing.BadSignature:
        raise RuleError("token", _(EXPIRED_OR_BROKEN)) from None
    rows = StaffInvitation.objects.select_related("tournament")
    if lock:
        rows = rows.select_for_update(of=("self",))
    invitation = rows.filter(pk=int(pk)).first() if pk.isdigit() else None
    if invitation is None:
        raise RuleError("token", _(EXPIRED_OR_BROKEN))
    problem = invitation_problem(invitation)
    if problem:
        raise RuleError("token", problem)
    return invitation


@transaction.atomic
def staff_invitation_accept(*, token: str, by: User, username: str, password: str) -> StaffMember:
    """Create the invitee's account and give it the invitation's role; the link is used
    up. The token is the credential (no `require`): whoever holds the link may use it
    once, signed in or not (`by` is not asked: the new account is the one that joins).
    Under the tournament's and then the invitation's row lock, so the same link
    sent twice at once makes one account."""
    invitation = staff_invitation_for(token)
    _lock(invitation.tournament_id)
    invitation = staff_invitation_for(token, lock=True)
    if invitation.username:  # addressed to an account: it joins as itself
        raise RuleError("token", _(NOT_YOURS))
    user = _create_user(*_account_values(username, password, generate=False)[:2])
    member = StaffMember(tournament=invitation.tournament, user=user, role=invitation.role)
    stamp_history_user(member, user).save()
    invitation.used_at = timezone.now()
    invitation.used_by = user
    invitation.save(update_fields=["used_at", "used_by"])
    return member
