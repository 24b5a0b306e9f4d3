"""REST API for clubs and the club organisers' writes: the clubs and their organisers,
the members registered, the seasons declared, a tournament held under a club and its
players linked to members. The write services decide who may
(`tournaments.services.clubs`); what needs the games (a club's rating list, a member's
events and rating history, a season's standings) is read by `games.api.clubs`.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Club, Member, Season
from ..permissions import can_run_club
from ..selectors import club_organisers_of, clubs_listed
from ..services import clubs as services
from ..services.validation import max_length_of
from .common import (
    RawJSONField,
    StrictBooleanField,
    StrictCharField,
    StrictDateField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)


class SeasonOut(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    rule = serializers.JSONField(help_text="rule (sum, best, places), best, place_points, cap.")


def club_found(slug: str) -> Club:
    """The club of a path's slug; 404 when there is none."""
    return get_object_or_404(Club, slug=slug)


class MemberIn(StrictInput):
    name = StrictCharField(max_length=max_length_of(Member, "name"))
    code = StrictCharField(
        max_length=max_length_of(Member, "code"), required=False, allow_blank=True
    )
    joined_on = StrictDateField(required=False, allow_null=True)


class MemberOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    code = serializers.CharField(
        required=False, help_text="The club's organisers only (as on the members page)."
    )
    joined_on = serializers.DateField(
        allow_null=True,
        required=False,
        help_text="The club's organisers only (as on the members page).",
    )


# What the web pages keep for a club's organisers (the members list and its CSV); the
# API leaves them out for everyone else, whose public pages show a member's name only.
ORGANISER_ONLY = ("code", "joined_on")


def member_data(member: Member, club: Club, user: Any, *, many: bool = False) -> Any:
    """`MemberOut` of one member (or a list), without `ORGANISER_ONLY` fields unless the
    caller runs the club."""
    data = MemberOut(member, many=many).data
    if can_run_club(user, club):
        return data
    rows = data if many else [data]
    for row in rows:
        for field in ORGANISER_ONLY:
            row.pop(field, None)
    return data


MEMBER_EXAMPLE = OpenApiExample(
    "Member",
    response_only=True,
    value={"id": 7, "name": "Ada Peretz", "code": "117", "joined_on": None},
)


class MemberListView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="List a club's members",
        examples=[MEMBER_EXAMPLE],
        description="Every member of the club, by name. `code` and `joined_on` only for "
        "the club's organisers (the web pages keep them for organisers as well).",
        responses={200: MemberOut(many=True), **errors(404)},
    )
    def get(self, request: Any, club: str) -> Response:
        found = club_found(club)
        members = found.members.order_by("name", "pk")
        return Response(member_data(members, found, request.user, many=True))

    @extend_schema(
        tags=["clubs"],
        summary="Register a member",
        examples=[
            OpenApiExample(
                "New member", request_only=True, value={"name": "Ada Peretz", "code": "117"}
            ),
            MEMBER_EXAMPLE,
        ],
        description="The club's organisers only. `code` is the club's membership number, "
        "unique in the club when given.",
        request=MemberIn,
        responses={201: MemberOut, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, club: str) -> Response:
        member = services.member_create(
            club=club_found(club), by=request.user, **valid(MemberIn, request.data)
        )
        return Response(MemberOut(member).data, status=status.HTTP_201_CREATED)


class SeasonIn(StrictInput):
    name = StrictCharField(max_length=max_length_of(Season, "name"))
    rule = RawJSONField(
        schema={
            "type": "object",
            "description": "rule: sum | best | places; best: N (rule best); place_points: "
            "[25, 20, ...] (rule places); cap: at most this much an event (any rule).",
        }
    )


class SeasonListView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="List a club's seasons",
        examples=[
            OpenApiExample(
                "Seasons",
                response_only=True,
                value={
                    "slug": "spring-2026",
                    "name": "Spring 2026",
                    "rule": {"rule": "best", "best": 6, "place_points": [25, 20], "cap": 120},
                },
            )
        ],
        description="Anyone may read them (as the club's page shows them), newest first.",
        responses={200: SeasonOut(many=True), **errors(404)},
    )
    def get(self, request: Any, club: str) -> Response:
        return Response(SeasonOut(club_found(club).seasons.order_by("-created_at"), many=True).data)

    @extend_schema(
        tags=["clubs"],
        summary="Declare a season",
        examples=[
            OpenApiExample(
                "Best 6 of 8",
                request_only=True,
                value={"name": "Spring 2026", "rule": {"rule": "best", "best": 6, "cap": 120}},
            ),
            OpenApiExample(
                "Season",
                response_only=True,
                value={
                    "slug": "spring-2026",
                    "name": "Spring 2026",
                    "rule": {"rule": "best", "best": 6, "place_points": [25, 20, 16], "cap": 120},
                },
            ),
        ],
        description="The club's organisers only. Its tournaments are totalled by `rule`.",
        request=SeasonIn,
        responses={201: SeasonOut, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, club: str) -> Response:
        season = services.season_create(
            club=club_found(club), by=request.user, **valid(SeasonIn, request.data)
        )
        return Response(SeasonOut(season).data, status=status.HTTP_201_CREATED)


class HeldUnderIn(StrictInput):
    club = StrictCharField(allow_null=True, help_text="The club's slug; null: no club.")
    season = StrictCharField(required=False, allow_null=True, help_text="A season's slug.")
    rated = StrictBooleanField(required=False)


class HeldUnderOut(serializers.Serializer):
    club = serializers.CharField(source="club.slug", allow_null=True)
    season = serializers.CharField(source="season.slug", allow_null=True)
    rated = serializers.BooleanField()


class TournamentClubView(TournamentScoped, APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Hold a tournament under a club",
        examples=[
            OpenApiExample(
                "Rated, in a season",
                value={"club": "haifa-joker", "season": "spring-2026", "rated": True},
            )
        ],
        description="Organisers of the tournament who also organise the club (the old and "
        "the new one). A rated tournament's games update the club members' ratings.",
        request=HeldUnderIn,
        responses={200: HeldUnderOut, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Any, slug: str) -> Response:
        data = valid(HeldUnderIn, request.data)
        club = None
        season = None
        if data["club"] is not None:
            club = Club.objects.filter(slug=data["club"]).first()
            if club is None:
                raise serializers.ValidationError({"club": [_("No such club.")]})
        if data.get("season") is not None:
            season = Season.objects.filter(club=club, slug=data["season"]).first()
            if season is None:
                raise serializers.ValidationError({"season": [_("No such season in that club.")]})
        tournament = services.tournament_hold_under(
            tournament=self.tournament,
            by=request.user,
            club=club,
            season=season,
            rated=data.get("rated", False),
        )
        return Response(HeldUnderOut(tournament).data)


class PlayerMemberIn(StrictInput):
    member = StrictIntegerField(allow_null=True, help_text="A member id of the club; null: unlink.")


class PlayerMemberView(TournamentScoped, APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Link a player to a club member",
        examples=[OpenApiExample("Link", value={"member": 7})],
        description="Organisers only; the tournament must be held under the member's club, "
        "and a member is at most one player of a tournament.",
        request=PlayerMemberIn,
        responses={200: PlayerMemberIn, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Any, slug: str, pk: int) -> Response:
        player = self.tournament.players.filter(pk=pk).first()
        if player is None:
            raise Http404(_("No such player in this tournament."))
        member_id = valid(PlayerMemberIn, request.data)["member"]
        member = None
        if member_id is not None:
            member = Member.objects.filter(pk=member_id).first()
            if member is None:
                raise serializers.ValidationError({"member": [_("No such member.")]})
        player = services.player_link(player=player, by=request.user, member=member)
        return Response({"member": player.member_id})


# --- clubs and their organisers -------------------------------------------------------


class ClubIn(StrictInput):
    name = StrictCharField(max_length=max_length_of(Club, "name"))


class ClubSummaryOut(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


CLUB_SUMMARY_EXAMPLE = {"slug": "haifa-joker", "name": "Haifa Joker"}


class ClubListView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="List the clubs",
        description="Every club, by name; anyone may read the list (a club's page is public).",
        examples=[OpenApiExample("Clubs", value=CLUB_SUMMARY_EXAMPLE, response_only=True)],
        responses={200: ClubSummaryOut(many=True)},
    )
    def get(self, request: Any) -> Response:
        return Response(ClubSummaryOut(clubs_listed(), many=True).data)

    @extend_schema(
        tags=["clubs"],
        summary="Create a club",
        description="Any signed-in user; they organise the new club. Its slug is made from "
        "the name (with `-2`, `-3`, ... when taken).",
        request=ClubIn,
        examples=[
            OpenApiExample("New club", value={"name": "Haifa Joker"}, request_only=True),
            OpenApiExample("Club", value=CLUB_SUMMARY_EXAMPLE, response_only=True),
        ],
        responses={201: ClubSummaryOut, **errors(400, 401)},
    )
    def post(self, request: Any) -> Response:
        club = services.club_create(by=request.user, **valid(ClubIn, request.data))
        return Response(ClubSummaryOut(club).data, status=status.HTTP_201_CREATED)


class ClubOrganiserIn(StrictInput):
    username = StrictCharField(max_length=150, help_text="An existing, active user.")


class ClubOrganiserOut(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    added_at = serializers.DateTimeField()


CLUB_ORGANISER_EXAMPLE = {"username": "alice", "added_at": "2026-03-01T18:00:00Z"}


class ClubOrganiserListView(APIView):
    # Reading the list needs a sign-in too (401 first, as for the staff list).
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["clubs"],
        summary="List a club's organisers",
        description="The club's organisers only (as the club's members page), by username.",
        examples=[OpenApiExample("Organisers", value=CLUB_ORGANISER_EXAMPLE, response_only=True)],
        responses={200: ClubOrganiserOut(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Any, club: str) -> Response:
        organisers = club_organisers_of(club_found(club), request.user)
        return Response(ClubOrganiserOut(organisers, many=True).data)

    @extend_schema(
        tags=["clubs"],
        summary="Add a club organiser",
        description="The club's organisers only: an existing user organises the club too "
        "(a 400 names `username` for an unknown user or one who organises it already).",
        request=ClubOrganiserIn,
        examples=[
            OpenApiExample("Add", value={"username": "carol"}, request_only=True),
            OpenApiExample("Organiser", value=CLUB_ORGANISER_EXAMPLE, response_only=True),
        ],
        responses={201: ClubOrganiserOut, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, club: str) -> Response:
        data = valid(ClubOrganiserIn, request.data)
        organiser = services.club_organiser_add(
            club=club_found(club), by=request.user, username=data["username"].strip()
        )
        return Response(ClubOrganiserOut(organiser).data, status=status.HTTP_201_CREATED)
