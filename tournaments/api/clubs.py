"""REST API for clubs and the club organisers' writes: the clubs and their organisers,
the members registered, the seasons declared, a tournament held under a club and its
players linked to members. The write services decide who may
(`tournaments.services.clubs`); what needs the games (a club's rating list, a member's
events and rating history, a season's standings) is read by `games.api.clubs`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Club, Member, Season
from ..permissions import can_run_club
from ..selectors import club_organisers_of, clubs_listed
from ..services import clubs as services
from ..services.validation import max_length_of
from . import examples
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


class SeasonOutSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    rule = serializers.JSONField(help_text="rule (sum, best, places), best, place_points, cap.")


def club_found(slug: str) -> Club:
    """The club of a path's slug; 404 when there is none."""
    return get_object_or_404(Club, slug=slug)


class MemberInSerializer(StrictInput):
    name = StrictCharField(max_length=max_length_of(Member, "name"))
    code = StrictCharField(
        max_length=max_length_of(Member, "code"), required=False, allow_blank=True
    )
    joined_on = StrictDateField(required=False, allow_null=True)


class MemberOutSerializer(serializers.Serializer):
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


def member_data(
    member: Member | QuerySet[Member], club: Club, user: Any, *, many: bool = False
) -> Any:
    """`MemberOutSerializer` of one member (or a list), without `ORGANISER_ONLY` fields unless the
    caller runs the club."""
    data = MemberOutSerializer(member, many=many).data
    if can_run_club(user, club):
        return data
    rows = data if many else [data]
    for row in rows:
        for field in ORGANISER_ONLY:
            row.pop(field, None)
    return data


class MemberListView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="List a club's members",
        examples=examples.MEMBER_LIST_GET,
        description="Every member of the club, by name. `code` and `joined_on` only for "
        "the club's organisers (the web pages keep them for organisers as well).",
        responses={200: MemberOutSerializer(many=True), **errors(404)},
    )
    def get(self, request: Any, club: str) -> Response:
        found = club_found(club)
        members = found.members.order_by("name", "pk")
        return Response(member_data(members, found, request.user, many=True))

    @extend_schema(
        tags=["clubs"],
        summary="Register a member",
        examples=examples.MEMBER_LIST_POST,
        description="The club's organisers only. `code` is the club's membership number, "
        "unique in the club when given.",
        request=MemberInSerializer,
        responses={201: MemberOutSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, club: str) -> Response:
        member = services.member_create(
            club=club_found(club), by=request.user, **valid(MemberInSerializer, request.data)
        )
        return Response(MemberOutSerializer(member).data, status=status.HTTP_201_CREATED)


class SeasonInSerializer(StrictInput):
    name = StrictCharField(max_length=max_length_of(Season, "name"))
    rule = RawJSONField(
        schema={
            "type": "object",
            "description": "rule: sum | best | places | best_games; best: N (rules best and "
            "best_games); place_points: [25, 20, ...] (rule places); cap: at most this much "
            "an event (rules sum, best, places).",
        }
    )


class SeasonListView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="List a club's seasons",
        examples=examples.SEASON_LIST_GET,
        description="Anyone may read them (as the club's page shows them), newest first.",
        responses={200: SeasonOutSerializer(many=True), **errors(404)},
    )
    def get(self, request: Any, club: str) -> Response:
        return Response(
            SeasonOutSerializer(club_found(club).seasons.order_by("-created_at"), many=True).data
        )

    @extend_schema(
        tags=["clubs"],
        summary="Declare a season",
        examples=examples.SEASON_LIST_POST,
        description="The club's organisers only. Its tournaments are totalled by `rule`: "
        "`sum`, `best` (the best N events), `places` (points by place) or `best_games` (the "
        "best N game scores of the whole season, whichever events they came from; no `cap`).",
        request=SeasonInSerializer,
        responses={201: SeasonOutSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, club: str) -> Response:
        season = services.season_create(
            club=club_found(club), by=request.user, **valid(SeasonInSerializer, request.data)
        )
        return Response(SeasonOutSerializer(season).data, status=status.HTTP_201_CREATED)


class HeldUnderInSerializer(StrictInput):
    club = StrictCharField(allow_null=True, help_text="The club's slug; null: no club.")
    season = StrictCharField(required=False, allow_null=True, help_text="A season's slug.")
    rated = StrictBooleanField(required=False)


class HeldUnderOutSerializer(serializers.Serializer):
    club = serializers.CharField(source="club.slug", allow_null=True)
    season = serializers.CharField(source="season.slug", allow_null=True)
    rated = serializers.BooleanField()


class TournamentClubView(TournamentScoped, APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Hold a tournament under a club",
        examples=examples.TOURNAMENT_CLUB_PUT,
        description="Organisers of the tournament who also organise the club (the old and "
        "the new one). A rated tournament's games update the club members' ratings.",
        request=HeldUnderInSerializer,
        responses={200: HeldUnderOutSerializer, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Any, slug: str) -> Response:
        data = valid(HeldUnderInSerializer, request.data)
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
        return Response(HeldUnderOutSerializer(tournament).data)


class PlayerMemberInSerializer(StrictInput):
    member = StrictIntegerField(allow_null=True, help_text="A member id of the club; null: unlink.")


class PlayerMemberView(TournamentScoped, APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Link a player to a club member",
        examples=examples.PLAYER_MEMBER_PUT,
        description="Organisers only; the tournament must be held under the member's club, "
        "and a member is at most one player of a tournament.",
        request=PlayerMemberInSerializer,
        responses={200: PlayerMemberInSerializer, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Any, slug: str, pk: int) -> Response:
        player = self.tournament.players.filter(pk=pk).first()
        if player is None:
            raise Http404(_("No such player in this tournament."))
        member_id = valid(PlayerMemberInSerializer, request.data)["member"]
        member = None
        if member_id is not None:
            member = Member.objects.filter(pk=member_id).first()
            if member is None:
                raise serializers.ValidationError({"member": [_("No such member.")]})
        player = services.player_link(player=player, by=request.user, member=member)
        return Response({"member": player.member_id})


# --- clubs and their organisers -------------------------------------------------------


class ClubInSerializer(StrictInput):
    name = StrictCharField(max_length=max_length_of(Club, "name"))


class ClubSummaryOutSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class ClubListView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="List the clubs",
        description="Every club, by name; anyone may read the list (a club's page is public).",
        examples=examples.CLUB_LIST_GET,
        responses={200: ClubSummaryOutSerializer(many=True)},
    )
    def get(self, request: Any) -> Response:
        return Response(ClubSummaryOutSerializer(clubs_listed(), many=True).data)

    @extend_schema(
        tags=["clubs"],
        summary="Create a club",
        description="Any signed-in user; they organise the new club. Its slug is made from "
        "the name (with `-2`, `-3`, ... when taken).",
        request=ClubInSerializer,
        examples=examples.CLUB_LIST_POST,
        responses={201: ClubSummaryOutSerializer, **errors(400, 401)},
    )
    def post(self, request: Any) -> Response:
        club = services.club_create(by=request.user, **valid(ClubInSerializer, request.data))
        return Response(ClubSummaryOutSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubOrganiserInSerializer(StrictInput):
    username = StrictCharField(max_length=150, help_text="An existing, active user.")


class ClubOrganiserOutSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    added_at = serializers.DateTimeField()


class ClubOrganiserListView(APIView):
    # Reading the list needs a sign-in too (401 first, as for the staff list).
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["clubs"],
        summary="List a club's organisers",
        description="The club's organisers only (as the club's members page), by username.",
        examples=examples.CLUB_ORGANISER_LIST_GET,
        responses={200: ClubOrganiserOutSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Any, club: str) -> Response:
        organisers = club_organisers_of(club_found(club), request.user)
        return Response(ClubOrganiserOutSerializer(organisers, many=True).data)

    @extend_schema(
        tags=["clubs"],
        summary="Add a club organiser",
        description="The club's organisers only: an existing user organises the club too "
        "(a 400 names `username` for an unknown user or one who organises it already).",
        request=ClubOrganiserInSerializer,
        examples=examples.CLUB_ORGANISER_LIST_POST,
        responses={201: ClubOrganiserOutSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, club: str) -> Response:
        data = valid(ClubOrganiserInSerializer, request.data)
        organiser = services.club_organiser_add(
            club=club_found(club), by=request.user, username=data["username"].strip()
        )
        return Response(ClubOrganiserOutSerializer(organiser).data, status=status.HTTP_201_CREATED)
