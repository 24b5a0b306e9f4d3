"""REST API for tournaments and their staff (docs/api/reference.md): the staff list, roles
changed and staff removed (`staff/{id}/`), accounts created (`staff/accounts/`) and
invitation links (`staff/invitations/`), all for organisers only.

Thin views: an input serializer reads the request's shape, one service call does the
work (the permission check and all the domain validation), an output serializer writes
the answer. Reading a tournament goes through `tournaments_visible_to`, so a private one
is a 404 to anyone without a role in it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.rules import OPTIONS, PRESET_NAMES, PRESETS
from scoring.seating import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.standings import METRICS

from .. import selectors
from ..models import StaffInvitation, StaffMember, Tournament
from ..selectors import tournaments_visible_to
from ..services import staff as staff_services
from ..services import tournaments as services
from ..services.validation import max_length_of
from .common import (
    RawJSONField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictDateField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)

# --- schema pieces ------------------------------------------------------------------------


def _option_schema(name: str) -> dict[str, Any]:
    option = OPTIONS[name]
    if option.kind == "int":
        schema: dict[str, Any] = {
            "type": "integer",
            "minimum": option.minimum,
            "maximum": option.maximum,
        }
    elif option.kind == "bool":
        schema = {"type": "boolean"}
    elif option.kind == "points":
        schema = {
            "type": "object",
            "description": "Table size (2, 3, 4) -> points by place, best first.",
            "additionalProperties": {"type": "array", "items": {"type": "integer"}},
            "example": {"4": [4, 3, 1, 0], "3": [4, 2, 0], "2": [4, 0]},
        }
    else:
        schema = {"type": "string", "enum": list(option.choices)}
    if option.nullable:
        schema["nullable"] = True
    schema["description"] = option.help
    return schema


RULES_OVERRIDES_SCHEMA = {
    "type": "object",
    "description": "Single options that override the preset's (/docs/rules/presets/). An unknown "
    "option or a value out of bounds is a 400 naming `rules.<option>`.",
    "properties": {name: _option_schema(name) for name in OPTIONS},
    "additionalProperties": False,
}
RANKING_SCHEMA = {
    "type": "array",
    "description": "Ordered standings metrics, each at most once; default: the preset's.",
    "items": {"type": "string", "enum": [k for k, m in METRICS.items() if m.direction]},
}


def _rules_out_field(name: str) -> serializers.Field:
    option = OPTIONS[name]
    if option.kind == "int":
        return serializers.IntegerField(allow_null=option.nullable, help_text=option.help)
    if option.kind == "bool":
        return serializers.BooleanField(help_text=option.help)
    if option.kind == "points":
        return serializers.DictField(
            child=serializers.ListField(child=serializers.IntegerField()), help_text=option.help
        )
    return serializers.ChoiceField(choices=option.choices, help_text=option.help)


RulesOut = type(
    "RulesOut",
    (serializers.Serializer,),
    {
        "__doc__": "Every rule option, resolved: the preset plus the overrides.",
        "preset": serializers.ChoiceField(choices=PRESET_NAMES),
        **{name: _rules_out_field(name) for name in OPTIONS},
    },
)


# --- serializers: tournaments -------------------------------------------------------------


class TournamentOut(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.SlugField()
    starts_on = serializers.DateField(allow_null=True)
    preset = serializers.CharField(source="rules.preset")
    rules = RulesOut()
    ranking = serializers.ListField(child=serializers.CharField())
    table_size = serializers.IntegerField()
    games_per_table = serializers.IntegerField(allow_null=True)
    rounds_planned = serializers.IntegerField(allow_null=True)
    target_score = serializers.IntegerField(allow_null=True)
    target_games_cap = serializers.IntegerField(allow_null=True)
    results_need_confirmation = serializers.BooleanField()
    club_avoidance = serializers.ChoiceField(choices=Tournament.ClubAvoidance.choices)
    public = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    results_version = serializers.IntegerField()
    missed_rounds = serializers.ChoiceField(
        choices=Tournament.MissedRounds.choices,
        help_text="How a late entry's missed rounds count in the standings.",
    )
    forfeit_rule = serializers.ChoiceField(
        choices=Tournament.ForfeitRule.choices,
        help_text="How a game a withdrawn player's seat forfeits is scored.",
    )
    credit_substitute_games = serializers.BooleanField(
        help_text="Whether games a substitute played count for the seat's player."
    )
    qualify_slots = serializers.IntegerField(
        allow_null=True,
        help_text="How many of the standings qualify for `qualify_event`; null = none.",
    )
    qualify_event = serializers.CharField(
        allow_blank=True, help_text="The event the qualification slots lead to."
    )
    qualify_stage = serializers.IntegerField(
        source="qualify_stage.number",
        allow_null=True,
        default=None,
        help_text="The number of the stage whose final order the slots follow once it is "
        "closed (then everyone else by the standings); null = the standings.",
    )


class TournamentIn(StrictInput):
    name = StrictCharField(
        help_text=f"Required; up to {max_length_of(Tournament, 'name')} characters."
    )
    slug = StrictCharField(
        required=False,
        allow_blank=True,
        help_text="Lowercase letters, digits and hyphens; derived from the name when absent.",
    )
    starts_on = StrictDateField(required=False, allow_null=True)
    preset = StrictChoiceField(choices=PRESET_NAMES, required=False, allow_null=True)
    rules = RawJSONField(schema=RULES_OVERRIDES_SCHEMA, required=False, allow_null=True)
    ranking = RawJSONField(schema=RANKING_SCHEMA, required=False, allow_null=True)
    table_size = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text=f"{MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} "
        f"(default {MAX_TABLE_SIZE}; 2 under `mso`).",
    )
    games_per_table = StrictIntegerField(
        required=False, allow_null=True, help_text="1 to 12; null = one game per seated player."
    )
    rounds_planned = StrictIntegerField(required=False, allow_null=True)
    target_score = StrictIntegerField(required=False, allow_null=True)
    target_games_cap = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="1 to 50; a target-score match ends after this many games at the latest.",
    )
    results_need_confirmation = StrictBooleanField(required=False)
    club_avoidance = StrictChoiceField(
        choices=Tournament.ClubAvoidance.choices,
        required=False,
        help_text="How hard the draw keeps players of one club from sharing a table: "
        "`weighted` (default) — round 1 apart whenever possible (a same-club pair costs like "
        "a repeat meeting), later rounds after every repeat; `first_round` — round 1 only; "
        "`off` — never (the round's quality still counts `same_club_pairs`).",
    )
    public = StrictBooleanField(required=False)


class TournamentUpdateIn(TournamentIn):
    name = StrictCharField(required=False)
    qualify_stage = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="A stage's number: the slots follow its final order once it is closed "
        "(a final's race order), everyone else after it by the standings; null = the "
        "standings. A stage the tournament does not have is a 400 naming `qualify_stage`.",
    )
    slug = StrictCharField(
        required=False, allow_blank=True, help_text="Cannot change: sending it is a 400."
    )
    status = StrictChoiceField(choices=Tournament.Status.choices, required=False)
    missed_rounds = StrictChoiceField(
        choices=Tournament.MissedRounds.choices,
        required=False,
        help_text="not_played (default) | average | zero: how late entries' missed rounds "
        "count. Changes the standings at once.",
    )
    forfeit_rule = StrictChoiceField(
        choices=Tournament.ForfeitRule.choices,
        required=False,
        help_text="shared (default) | absent_only: applies to forfeits recorded from now on.",
    )
    credit_substitute_games = StrictBooleanField(required=False)
    qualify_slots = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="1 to 1000: the top players (passed down past `already_qualified` ones) "
        "qualify for `qualify_event`; null = no slots. Slots and an event go together.",
    )
    qualify_event = StrictCharField(
        required=False,
        allow_blank=True,
        allow_null=True,
        help_text="The event the slots qualify for (e.g. the national final); blank = none.",
    )


TOURNAMENT_EXAMPLE = {
    "name": "Club Open",
    "slug": "club-open",
    "starts_on": "2026-12-05",
    "preset": "standard",
    # The standard preset itself, so the example never drifts from the rules.
    "rules": PRESETS["standard"].as_dict(),
    "ranking": ["games_won", "score"],
    "table_size": 4,
    "games_per_table": None,
    "rounds_planned": 4,
    "target_score": None,
    "target_games_cap": None,
    "results_need_confirmation": False,
    "club_avoidance": "weighted",
    "public": True,
    "status": "upcoming",
    "results_version": 0,
    "missed_rounds": "not_played",
    "forfeit_rule": "shared",
    "credit_substitute_games": False,
    "qualify_slots": None,
    "qualify_event": "",
    "qualify_stage": None,
}


class TournamentFilter(filters.FilterSet):
    status = filters.ChoiceFilter(choices=Tournament.Status.choices)

    class Meta:
        model = Tournament
        fields = ["status"]


# --- views: tournaments --------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(
        tags=["tournaments"],
        summary="List tournaments",
        responses={200: TournamentOut(many=True), **errors(400)},
        description="The tournaments this user may see: every public one, and the private "
        "ones the user has a role in. Filter with `?status=`.",
        examples=[
            OpenApiExample(
                "A page",
                value=TOURNAMENT_EXAMPLE,
                response_only=True,
            )
        ],
    )
)
class TournamentListView(ListAPIView):
    serializer_class = TournamentOut
    filterset_class = TournamentFilter

    def get_queryset(self) -> QuerySet[Tournament]:
        if getattr(self, "swagger_fake_view", False):
            return Tournament.objects.none()
        return tournaments_visible_to(self.request.user)

    @extend_schema(
        tags=["tournaments"],
        summary="Create a tournament",
        description="Any signed-in user may create a tournament and becomes its organiser. "
        "Only `name` is required; `rules` overrides single options of the preset; the "
        "answer echoes the tournament with `rules` fully resolved.",
        request=TournamentIn,
        responses={201: TournamentOut, **errors(400, 401)},
        examples=[
            OpenApiExample(
                "Create",
                value={
                    "name": "Club Open",
                    "slug": "club-open",
                    "starts_on": "2026-12-05",
                    "preset": "standard",
                    "rules": {"turn_seconds": 120},
                    "ranking": ["games_won", "score"],
                    "table_size": 4,
                    "games_per_table": None,
                    "rounds_planned": 4,
                    "target_score": None,
                    "results_need_confirmation": False,
                    "public": True,
                },
                request_only=True,
            ),
            OpenApiExample("Created", value=TOURNAMENT_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request: Any) -> Response:
        data = valid(TournamentIn, request.data)
        tournament = services.tournament_create(by=request.user, **data)
        return Response(TournamentOut(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(TournamentScoped, APIView):
    def _tournament(self, request: Any) -> Tournament:
        tournament = self.tournament
        return tournament

    @extend_schema(
        tags=["tournaments"],
        summary="Read a tournament",
        description="One tournament with its resolved rules, status and results version.",
        responses={200: TournamentOut, **errors(404)},
        examples=[OpenApiExample("Tournament", value=TOURNAMENT_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, slug: str) -> Response:
        return Response(TournamentOut(self._tournament(request)).data)

    @extend_schema(
        tags=["tournaments"],
        summary="Change a tournament",
        description="Organisers only. Send the fields to change. `rules` overrides single "
        "options (a new `preset` starts from that preset); rules cannot change once a "
        "result exists, and the `slug` never changes (both 400).",
        request=TournamentUpdateIn,
        responses={200: TournamentOut, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Publish and start",
                value={"public": True, "status": "running", "rules": {"turn_seconds": 60}},
                request_only=True,
            ),
            OpenApiExample("Changed", value=TOURNAMENT_EXAMPLE, response_only=True),
        ],
    )
    def patch(self, request: Any, slug: str) -> Response:
        tournament = self._tournament(request)
        changes = valid(TournamentUpdateIn, request.data, partial=True)
        tournament = services.tournament_update(tournament=tournament, by=request.user, **changes)
        return Response(TournamentOut(tournament).data)

    @extend_schema(
        tags=["tournaments"],
        summary="Delete a tournament",
        description="Organisers only; a tournament with entered results is kept (400). "
        "Its rounds without results (tables, seats, games) are deleted with it.",
        responses={204: None, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Has results",
                value={
                    "non_field_errors": ["a tournament with entered results cannot be deleted."]
                },
                response_only=True,
                status_codes=["400"],
            )
        ],
    )
    def delete(self, request: Any, slug: str) -> Response:
        services.tournament_delete(tournament=self._tournament(request), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- staff ----------------------------------------------------------------------------------


class StaffIn(StrictInput):
    username = StrictCharField()
    role = StrictChoiceField(choices=StaffMember.Role.choices)


class StaffOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="The staff row: `staff/{id}/` changes or removes it.")
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=StaffMember.Role.choices)


class StaffRoleIn(StrictInput):
    # Read whole, not partially, by its PATCH: `role` is required there too.
    whole_on_patch = True
    role = StrictChoiceField(choices=StaffMember.Role.choices)


class StaffAccountIn(StrictInput):
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


class StaffAccountOut(StaffOut):
    password = serializers.CharField(
        allow_null=True,
        help_text="The generated password, answered only now; null when one was given.",
    )


class InvitationIn(StrictInput):
    role = StrictChoiceField(choices=StaffMember.Role.choices)


class InvitationOut(serializers.Serializer):
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
    elif staff_services.invitation_problem(invitation) is not None:
        state = "expired"
    link = None
    if state == "open":
        token = staff_services.invitation_token(invitation)
        link = request.build_absolute_uri(reverse("invitation-accept", args=[token]))
    return InvitationOut(
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


STAFF_EXAMPLE = {"id": 7, "username": "bob", "role": "scorekeeper"}
INVITATION_EXAMPLE = {
    "id": 3,
    "role": "scorekeeper",
    "state": "open",
    "link": "https://tab.example.org/invitations/3:1vDq2x:Hk3...ZQ/",
    "created_at": "2026-12-01T18:00:00Z",
    "expires_at": "2026-12-08T18:00:00Z",
    "used_by": None,
    "username": "",
}
LAST_ORGANISER = {"role": ["alice is the only organiser; make someone else organiser first."]}


class StaffView(TournamentScoped, APIView):
    @extend_schema(
        tags=["staff"],
        summary="List the staff",
        description="Organisers only: every staff member with their role (superusers are "
        "not staff rows).",
        responses={200: StaffOut(many=True), **errors(401, 403, 404)},
        examples=[OpenApiExample("Staff", value=STAFF_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, slug: str) -> Response:
        members = selectors.staff_of(self.tournament, request.user)
        return Response(StaffOut(members, many=True).data)

    @extend_schema(
        tags=["staff"],
        summary="Invite an existing account",
        description="Organisers only: invite the account named `username` as an "
        "`organiser` or `scorekeeper`; it joins when it accepts (signed in, from its home "
        "page or the invitation's `link`). The answer is the same invitation whether or "
        "not such an account exists, so it never tells which usernames exist. Roles of "
        "present staff change with `staff/{id}/`.",
        request=StaffIn,
        responses={201: InvitationOut, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Scorekeeper", value={"username": "bob", "role": "scorekeeper"}, request_only=True
            ),
            OpenApiExample(
                "Invited",
                value={**INVITATION_EXAMPLE, "username": "bob"},
                response_only=True,
            ),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        data = valid(StaffIn, request.data)
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
        request=StaffRoleIn,
        responses={200: StaffOut, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample("Promote", value={"role": "organiser"}, request_only=True),
            OpenApiExample(
                "Last organiser", value=LAST_ORGANISER, response_only=True, status_codes=["409"]
            ),
        ],
    )
    def patch(self, request: Any, slug: str, pk: int) -> Response:
        member = self._member(pk)
        role = valid(StaffRoleIn, request.data)["role"]
        member = staff_services.staff_role_change(member=member, by=request.user, role=role)
        return Response(StaffOut(member).data)

    @extend_schema(
        tags=["staff"],
        summary="Remove a staff member",
        description="Organisers only: the person loses their role here at once; their account "
        "and the results they entered stay. Removing the only organiser is a 409 naming "
        "`staff`; nothing changes.",
        request=None,
        responses={204: None, **errors(401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Last organiser",
                value={
                    "staff": [
                        "alice is the only organiser; make someone else organiser before "
                        "removing them."
                    ]
                },
                response_only=True,
                status_codes=["409"],
            )
        ],
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
        request=StaffAccountIn,
        responses={201: StaffAccountOut, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Scorekeeper",
                value={"username": "table4", "role": "scorekeeper"},
                request_only=True,
            ),
            OpenApiExample(
                "Created",
                value={**STAFF_EXAMPLE, "username": "table4", "password": "kT7pwQ2mHc9xZa"},
                response_only=True,
            ),
            OpenApiExample(
                "Refused",
                value={
                    "password": [
                        "This password is too short. It must contain at least 8 characters."
                    ]
                },
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        data = valid(StaffAccountIn, request.data)
        created = staff_services.staff_account_create(
            tournament=tournament,
            by=request.user,
            username=data["username"],
            password=data.get("password") or None,
            role=data["role"],
        )
        body = {**StaffOut(created.member).data, "password": created.password}
        return Response(body, status=status.HTTP_201_CREATED)


class InvitationListView(TournamentScoped, APIView):
    @extend_schema(
        tags=["staff"],
        summary="List the invitations",
        description="Organisers only: every invitation, newest first, with its state.",
        responses={200: InvitationOut(many=True), **errors(401, 403, 404)},
        examples=[OpenApiExample("Invitations", value=INVITATION_EXAMPLE, response_only=True)],
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
        request=InvitationIn,
        responses={201: InvitationOut, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample("Scorekeeper", value={"role": "scorekeeper"}, request_only=True),
            OpenApiExample("Made", value=INVITATION_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        role = valid(InvitationIn, request.data)["role"]
        invitation = staff_services.staff_invite(tournament=tournament, by=request.user, role=role)
        return Response(_invitation_out(request, invitation), status=status.HTTP_201_CREATED)


class InvitationView(TournamentScoped, APIView):
    @extend_schema(
        tags=["staff"],
        summary="Revoke an invitation",
        description="Organisers only: its link then opens a page saying it was withdrawn. A "
        "used invitation is a 409 naming `invitation` (remove the person instead).",
        request=None,
        responses={200: InvitationOut, **errors(401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Revoked",
                value={**INVITATION_EXAMPLE, "state": "revoked", "link": None},
                response_only=True,
            )
        ],
    )
    def delete(self, request: Any, slug: str, pk: int) -> Response:
        invitation = self.tournament.staff_invitations.filter(pk=pk).first()
        if invitation is None:
            raise Http404(_("No such invitation in this tournament."))
        invitation = staff_services.staff_invitation_revoke(invitation=invitation, by=request.user)
        return Response(_invitation_out(request, invitation))
