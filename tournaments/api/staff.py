"""REST API for a tournament's staff (docs/api/reference.md): the staff list, roles
changed and staff removed (`staff/{id}/`), accounts created (`staff/accounts/`) and
invitation links (`staff/invitations/`), all for organisers only.

Thin views: an input serializer reads the request's shape, one service call does the
work (the permission check and all the domain validation), an output serializer writes
the answer.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors
from ..invitation_tokens import invitation_token
from ..models import StaffInvitation, StaffMember
from ..services import staff as staff_services
from ..words import invitation_problem
from . import examples
from .common import (
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    TournamentScoped,
    errors,
    valid,
)


class StaffInSerializer(StrictInput):
    username = StrictCharField()
    role = StrictChoiceField(choices=StaffMember.Role.choices)


class StaffOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The staff row: `staff/{id}/` changes or removes it.")
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=StaffMember.Role.choices)


class StaffRoleInSerializer(StrictInput):
    # Read whole, not partially, by its PATCH: `role` is required there too.
    whole_on_patch = True
    role = StrictChoiceField(choices=StaffMember.Role.choices)


class StaffAccountInSerializer(StrictInput):
    username = StrictCharField(help_text="Letters, digits and @.+-_; must be free.")
    password = StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        trim_whitespace=False,
        help_text="Checked by the site's password rules; absent, null or empty: one is "
        "generated and answered once in `password`.",
    )
    role = StrictChoiceField(choices=StaffMember.Role.choices)


class StaffAccountOutSerializer(StaffOutSerializer):
    password = serializers.CharField(
        allow_null=True,
        help_text="The generated password, answered only now; null when one was given.",
    )


class InvitationInSerializer(StrictInput):
    role = StrictChoiceField(choices=StaffMember.Role.choices)


class InvitationOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    role = serializers.ChoiceField(choices=StaffMember.Role.choices)
    state = serializers.ChoiceField(
        choices=["open", "used", "revoked", "expired"],
        help_text="Only an `open` invitation has a `link`.",
    )
    link = serializers.CharField(
        allow_null=True,
        help_text="The page where the invitee chooses a username and password (one use).",
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    used_by = serializers.CharField(allow_null=True, help_text="The username it made.")
    username = serializers.CharField(
        help_text="The account it is addressed to, as the organiser typed it ('': a link "
        "that makes a new account). Not checked: it says nothing about whether the "
        "account exists."
    )


def _invitation_out(request: Any, invitation: StaffInvitation) -> dict[str, Any]:
    state = "open"
    if invitation.revoked_at is not None:
        state = "revoked"
    elif invitation.used_at is not None:
        state = "used"
    elif invitation_problem(invitation) is not None:
        state = "expired"
    link = None
    if state == "open":
        token = invitation_token(invitation)
        link = request.build_absolute_uri(reverse("invitation-accept", args=[token]))
    return InvitationOutSerializer(
        {
            "id": invitation.pk,
            "role": invitation.role,
            "state": state,
            "link": link,
            "created_at": invitation.created_at,
            "expires_at": invitation.expires_at,
            "used_by": invitation.used_by.username if invitation.used_by else None,
            "username": invitation.username,
        }
    ).data


class StaffView(TournamentScoped, APIView):
    @extend_schema(
        tags=["staff"],
        summary="List the staff",
        description="Organisers only: every staff member with their role (superusers are "
        "not staff rows).",
        responses={200: StaffOutSerializer(many=True), **errors(401, 403, 404)},
        examples=examples.STAFF_GET,
    )
    def get(self, request: Any, slug: str) -> Response:
        members = selectors.staff_of(self.tournament, request.user)
        return Response(StaffOutSerializer(members, many=True).data)

    @extend_schema(
        tags=["staff"],
        summary="Invite an existing account",
        description="Organisers only: invite the account named `username` as an "
        "`organiser` or `scorekeeper`; it joins when it accepts (signed in, from its home "
        "page or the invitation's `link`). The answer is the same invitation whether or "
        "not such an account exists, so it never tells which usernames exist. Roles of "
        "present staff change with `staff/{id}/`.",
        request=StaffInSerializer,
        responses={201: InvitationOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.STAFF_POST,
    )
    def post(self, request: Any, slug: str) -> Response:
        data = valid(StaffInSerializer, request.data)
        invitation = staff_services.staff_invite_account(
            tournament=self.tournament, by=request.user, **data
        )
        return Response(_invitation_out(request, invitation), status=status.HTTP_201_CREATED)


class StaffMemberView(TournamentScoped, APIView):
    def _member(self, pk: int) -> StaffMember:
        member = self.tournament.staff.select_related("user").filter(pk=pk).first()
        if member is None:
            raise Http404(_("No such staff member in this tournament."))
        return member

    @extend_schema(
        tags=["staff"],
        summary="Change a staff member's role",
        description="Organisers only. Demoting the only organiser is a 409 naming `role`; "
        "nothing changes.",
        request=StaffRoleInSerializer,
        responses={200: StaffOutSerializer, **errors(400, 401, 403, 404, 409)},
        examples=examples.STAFF_MEMBER_PATCH,
    )
    def patch(self, request: Any, slug: str, pk: int) -> Response:
        member = self._member(pk)
        role = valid(StaffRoleInSerializer, request.data)["role"]
        member = staff_services.staff_role_change(member=member, by=request.user, role=role)
        return Response(StaffOutSerializer(member).data)

    @extend_schema(
        tags=["staff"],
        summary="Remove a staff member",
        description="Organisers only: the person loses their role here at once; their account "
        "and the results they entered stay. Removing the only organiser is a 409 naming "
        "`staff`; nothing changes.",
        request=None,
        responses={204: None, **errors(401, 403, 404, 409)},
        examples=examples.STAFF_MEMBER_DELETE,
    )
    def delete(self, request: Any, slug: str, pk: int) -> Response:
        staff_services.staff_remove(member=self._member(pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StaffAccountView(TournamentScoped, APIView):
    @extend_schema(
        tags=["staff"],
        summary="Create an account with a role",
        description="Organisers only: a new user account, made staff of this tournament. "
        "A bad or taken `username` or a `password` the site's password rules refuse is a "
        "400 naming the field; nothing is made. Without a password one is generated and "
        "answered once.",
        request=StaffAccountInSerializer,
        responses={201: StaffAccountOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.STAFF_ACCOUNT_POST,
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        data = valid(StaffAccountInSerializer, request.data)
        created = staff_services.staff_account_create(
            tournament=tournament,
            by=request.user,
            username=data["username"],
            password=data.get("password") or None,
            role=data["role"],
        )
        body = {**StaffOutSerializer(created.member).data, "password": created.password}
        return Response(body, status=status.HTTP_201_CREATED)


class InvitationListView(TournamentScoped, APIView):
    @extend_schema(
        tags=["staff"],
        summary="List the invitations",
        description="Organisers only: every invitation, newest first, with its state.",
        responses={200: InvitationOutSerializer(many=True), **errors(401, 403, 404)},
        examples=examples.INVITATION_LIST_GET,
    )
    def get(self, request: Any, slug: str) -> Response:
        invitations = selectors.invitations_of(self.tournament, request.user)
        return Response([_invitation_out(request, invitation) for invitation in invitations])

    @extend_schema(
        tags=["staff"],
        summary="Make an invitation link",
        description="Organisers only: a link for one person to choose a username and "
        "password and join with `role`. One use; good for `STAFF_INVITATION_DAYS` days "
        "(default 7); revocable.",
        request=InvitationInSerializer,
        responses={201: InvitationOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.INVITATION_LIST_POST,
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        role = valid(InvitationInSerializer, request.data)["role"]
        invitation = staff_services.staff_invite(tournament=tournament, by=request.user, role=role)
        return Response(_invitation_out(request, invitation), status=status.HTTP_201_CREATED)


class InvitationView(TournamentScoped, APIView):
    @extend_schema(
        tags=["staff"],
        summary="Revoke an invitation",
        description="Organisers only: its link then opens a page saying it was withdrawn. A "
        "used invitation is a 409 naming `invitation` (remove the person instead).",
        request=None,
        responses={200: InvitationOutSerializer, **errors(401, 403, 404, 409)},
        examples=examples.INVITATION_DELETE,
    )
    def delete(self, request: Any, slug: str, pk: int) -> Response:
        invitation = self.tournament.staff_invitations.filter(pk=pk).first()
        if invitation is None:
            raise Http404(_("No such invitation in this tournament."))
        invitation = staff_services.staff_invitation_revoke(invitation=invitation, by=request.user)
        return Response(_invitation_out(request, invitation))
