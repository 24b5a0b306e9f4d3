"""The Staff page and what it leads to, all without the Django admin: who is staff (each
with a role to change and a way to remove them), an account created for someone
(`staff_account_create`), an existing account invited by its username
(`staff_invite_account`: it joins when it accepts, and the answer never says whether the
account exists), invitation links (make, copy, revoke) and the page an invitee opens to
join.

Every write is one service call; a `RuleError` lands beside its field and nothing is
saved. A generated password is shown once, on the page that answers its creation, and is
never put in a message (messages travel in a cookie or the session).

Terms:
* invitation page — `/invitations/<token>/`, outside any tournament's address: the token
  is all the invitee has. A link that cannot be used (broken, expired, used, revoked)
  answers 410 with a page saying which and what to do; no form, nothing made.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.errors import Conflict, RuleError

from ..forms.staff import InvitationAcceptForm, InvitationForm, StaffAccountForm, StaffForm
from ..invitation_tokens import invitation_token
from ..models import StaffInvitation, StaffMember, Tournament
from ..selectors import invitation_is_for, invitations_of, staff_of
from ..services import staff as staff_services
from ..web import add_rule_errors, tournament_context, tournament_page
from ..words import invitation_problem

# The backend that signs in an invitee who just chose their password (django-axes' own
# backend only guards password checks, and no password was checked here).
SIGN_IN_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _invitation_rows(request: HttpRequest, tournament: Tournament) -> list[dict[str, Any]]:
    """Each invitation with its state in words and, while it is open, its link."""
    rows = []
    for invitation in invitations_of(tournament, request.user):
        problem = invitation_problem(invitation)
        link = None
        if problem is None:
            token = invitation_token(invitation)
            link = request.build_absolute_uri(reverse("invitation-accept", args=[token]))
        rows.append({"invitation": invitation, "link": link, "open": problem is None})
    return rows


def _staff_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: StaffForm | None = None,
    account_form: StaffAccountForm | None = None,
    invitation_form: InvitationForm | None = None,
    created: staff_services.StaffAccount | None = None,
    role_errors: dict[int, str] | None = None,
) -> HttpResponse:
    return render(
        request,
        "tournaments/staff.html",
        {
            **tournament_context(request.user, tournament),
            "form": form or StaffForm(),
            "account_form": account_form or StaffAccountForm(prefix="account"),
            "invitation_form": invitation_form or InvitationForm(prefix="invite"),
            "members": staff_of(tournament, request.user),
            "roles": StaffMember.Role.choices,
            "role_errors": role_errors or {},
            "invitations": _invitation_rows(request, tournament),
            "created": created,
            "invitation_days": settings.STAFF_INVITATION_DAYS,
        },
    )


@tournament_page("organise")
def staff(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The staff list and its forms; POST invites an existing account by its username
    (`staff_invite_account`): the same answer whether or not the account exists."""
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invitation = staff_services.staff_invite_account(
                tournament=tournament, by=request.user, **form.cleaned_data
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(request, invited_message(invitation))
            return redirect("tournament-staff", slug=tournament.slug)
    return _staff_page(request, tournament, form=form)


def invited_message(invitation: StaffInvitation) -> str:
    """What inviting an account by name answers: the same words whether it exists or not."""
    names = {"username": invitation.username}
    if invitation.role == StaffMember.Role.ORGANISER:
        return (
            _(
                "If an account named %(username)s exists, it is invited as organiser; "
                "it joins when it accepts."
            )
            % names
        )
    return (
        _(
            "If an account named %(username)s exists, it is invited as scorekeeper; "
            "it joins when it accepts."
        )
        % names
    )


@require_POST
@tournament_page("organise")
def staff_account(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Create an account with a role; the answer shows a generated password once."""
    form = StaffAccountForm(request.POST, prefix="account")
    if form.is_valid():
        try:
            created = staff_services.staff_account_create(
                tournament=tournament,
                by=request.user,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"] or None,
                role=form.cleaned_data["role"],
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            return _staff_page(request, tournament, created=created)
    return _staff_page(request, tournament, account_form=form)


@require_POST
@tournament_page("organise")
def staff_role(request: HttpRequest, tournament: Tournament, member_id: int) -> HttpResponse:
    member = get_object_or_404(tournament.staff.select_related("user"), pk=member_id)
    try:
        member = staff_services.staff_role_change(
            member=member, by=request.user, role=request.POST.get("role")
        )
    except RuleError as error:
        if error.path != ("role",):  # gone meanwhile: nothing left to put the message beside
            messages.error(request, capfirst(error.message))
            return redirect("tournament-staff", slug=tournament.slug)
        return _staff_page(request, tournament, role_errors={member.pk: capfirst(error.message)})
    messages.success(request, _now_role(member))
    if member.user_id == request.user.pk and member.role != StaffMember.Role.ORGANISER:
        return redirect("tournament-detail", slug=tournament.slug)  # no Staff page for them now
    return redirect("tournament-staff", slug=tournament.slug)


@tournament_page("organise")
def staff_remove(request: HttpRequest, tournament: Tournament, member_id: int) -> HttpResponse:
    """GET asks "Remove bob?"; POST removes them. The last organiser stays (a message)."""
    member = get_object_or_404(tournament.staff.select_related("user"), pk=member_id)
    if request.method != "POST":
        return render(
            request,
            "tournaments/staff_remove.html",
            {**tournament_context(request.user, tournament), "member": member},
        )
    try:
        staff_services.staff_remove(member=member, by=request.user)
    except Conflict as error:
        messages.error(request, capfirst(error.message))
        return redirect("tournament-staff", slug=tournament.slug)
    messages.success(
        request, _("%(username)s is no longer staff here.") % {"username": member.user.username}
    )
    if member.user_id == request.user.pk:
        return redirect("tournament-detail", slug=tournament.slug)
    return redirect("tournament-staff", slug=tournament.slug)


@require_POST
@tournament_page("organise")
def invitation_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = InvitationForm(request.POST, prefix="invite")
    if form.is_valid():
        try:
            invitation = staff_services.staff_invite(
                tournament=tournament, by=request.user, role=form.cleaned_data["role"]
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _(
                    "Invitation made for an organiser: copy its link below and send it. "
                    "It works once."
                )
                if invitation.role == StaffMember.Role.ORGANISER
                else _(
                    "Invitation made for a scorekeeper: copy its link below and send it. "
                    "It works once."
                ),
            )
            return redirect("tournament-staff", slug=tournament.slug)
    return _staff_page(request, tournament, invitation_form=form)


@require_POST
@tournament_page("organise")
def invitation_revoke(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    invitation = get_object_or_404(tournament.staff_invitations, pk=pk)
    try:
        staff_services.staff_invitation_revoke(invitation=invitation, by=request.user)
    except RuleError as error:
        messages.error(request, capfirst(error.message))
    else:
        messages.success(request, _("The invitation is revoked; its link no longer works."))
    return redirect("tournament-staff", slug=tournament.slug)


def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The invitee's page: choose a username and a password, and join with the role. An
    invitation addressed to an account is accepted by that account, signed in
    (`_join`)."""
    try:
        invitation = staff_services.staff_invitation_for(token)
    except RuleError as error:
        return _unusable(request, error)
    if invitation.username:
        return _join(request, invitation, token)
    form = InvitationAcceptForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            member = staff_services.staff_invitation_accept(
                token=token, by=request.user, **form.cleaned_data
            )
        except RuleError as error:
            if error.path == ("token",):  # used or revoked in the meantime
                return _unusable(request, error)
            add_rule_errors(form, error)
        else:
            login(request, member.user, backend=SIGN_IN_BACKEND)
            messages.success(request, _welcome(member))
            return redirect("tournament-detail", slug=member.tournament.slug)
    return render(
        request, "tournaments/invitation_accept.html", {"invitation": invitation, "form": form}
    )


def _join(request: HttpRequest, invitation: StaffInvitation, token: str) -> HttpResponse:
    """An addressed invitation: sign in first; the account it names accepts with a POST;
    any other account is told it is not theirs (and nothing about the one it names)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not invitation_is_for(invitation, request.user):
        return render(
            request,
            "tournaments/invitation_unusable.html",
            {"message": _(staff_services.NOT_YOURS)},
            status=403,
        )
    if request.method == "POST":
        try:
            member = staff_services.staff_invitation_join(token=token, by=request.user)
        except RuleError as error:
            return _unusable(request, error)
        messages.success(request, _welcome(member))
        return redirect("tournament-detail", slug=member.tournament.slug)
    return render(request, "tournaments/invitation_accept.html", {"invitation": invitation})


def _welcome(member: StaffMember) -> str:
    return _("Welcome, %(username)s: you are %(role)s of %(tournament)s.") % {
        "username": member.user.username,
        "role": member.get_role_display(),
        "tournament": member.tournament.name,
    }


def _now_role(member: StaffMember) -> str:
    """ "bob is now Organiser." — one sentence per role, so each language words it whole."""
    names = {"username": member.user.username}
    if member.role == StaffMember.Role.ORGANISER:
        return _("%(username)s is now Organiser.") % names
    return _("%(username)s is now Scorekeeper.") % names


def _unusable(request: HttpRequest, error: RuleError) -> HttpResponse:
    return render(
        request, "tournaments/invitation_unusable.html", {"message": error.message}, status=410
    )
