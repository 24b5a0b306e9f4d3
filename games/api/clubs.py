"""REST API for what a club reads from its games: a club with its seasons and rating list,
a member's events and rating history, a season's standings. The club organisers' writes
(members, seasons, organisers, a tournament held under a club) are `tournaments.api.clubs`,
beside their service layer.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.clubs import (
    ORGANISER_ONLY,
    MemberOutSerializer,
    SeasonOutSerializer,
    club_found,
)
from tournaments.api.common import errors
from tournaments.permissions import can_run_club

from ..selectors.clubs import club_ranking, member_events, member_rating_history
from ..services.seasons import season_events, season_for_read
from . import examples


class MemberRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RatedMemberOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    member = MemberRefSerializer()
    rating = serializers.IntegerField(source="shown", help_text="1000 + 40 (mu - 3 sigma).")
    games = serializers.IntegerField(help_text="Rated games played.")


class ClubOutSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    members = serializers.IntegerField()
    seasons = SeasonOutSerializer(many=True)
    ranking = RatedMemberOutSerializer(many=True, help_text="Rated members, best rating first.")


class ClubDetailView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Read a club: its seasons and rating list",
        examples=[
            OpenApiExample(
                "Club",
                response_only=True,
                value=examples.CLUB_EXAMPLE,
            )
        ],
        description="Anyone may read it. `ranking` lists the members with a rating, best "
        "first; a rating is `1000 + 40 (mu - 3 sigma)` of the member's Plackett-Luce rating.",
        responses={200: ClubOutSerializer, **errors(404)},
    )
    def get(self, request: Any, club: str) -> Response:
        found = club_found(club)
        body = {
            "slug": found.slug,
            "name": found.name,
            "members": found.members.count(),
            "seasons": found.seasons.order_by("-created_at"),
            "ranking": club_ranking(found),
        }
        return Response(ClubOutSerializer(body).data)


class RatingPointOutSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="game.table.round.tournament.slug")
    round = serializers.IntegerField(source="game.table.round.number")
    table = serializers.IntegerField(source="game.table.number")
    game = serializers.IntegerField(source="game.number")
    rating = serializers.IntegerField(source="shown")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class MemberEventOutSerializer(serializers.Serializer):
    tournament = serializers.CharField(source="tournament.slug")
    player = serializers.IntegerField(source="player.number", help_text="Start number.")
    rank = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)


class MemberDetailOutSerializer(MemberOutSerializer):
    rating = serializers.IntegerField(allow_null=True)
    events = MemberEventOutSerializer(many=True)
    history = RatingPointOutSerializer(many=True, help_text="The rating after each rated game.")


class MemberDetailView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Read a member: events and rating history",
        examples=[
            OpenApiExample(
                "Member",
                response_only=True,
                value=examples.MEMBER_DETAIL_EXAMPLE,
            )
        ],
        description="Events are the tournaments the member played that the caller may see. "
        "`code` and `joined_on` only for the club's organisers.",
        responses={200: MemberDetailOutSerializer, **errors(404)},
    )
    def get(self, request: Any, club: str, pk: int) -> Response:
        found = club_found(club)
        member = get_object_or_404(found.members, pk=pk)
        history = member_rating_history(member)
        body = {
            **MemberOutSerializer(member).data,
            "rating": history[-1].shown if history else None,
            "events": member_events(member, request.user),
            "history": history,
        }
        data = MemberDetailOutSerializer(body).data
        if not can_run_club(request.user, found):
            for field in ORGANISER_ONLY:
                data.pop(field, None)
        return Response(data)


class SeasonRowOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    member = MemberRefSerializer()
    total = serializers.IntegerField()
    events = serializers.IntegerField(help_text="Events the member played.")
    contributions = serializers.JSONField(
        help_text="Per event played: {event (tournament slug), value, counted}."
    )


class SeasonStandingsOutSerializer(serializers.Serializer):
    season = SeasonOutSerializer()
    version = serializers.IntegerField()
    computed_at = serializers.DateTimeField()
    events = serializers.ListField(child=serializers.CharField(), help_text="In date order.")
    rows = SeasonRowOutSerializer(many=True)


class SeasonStandingsView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Read a season's standings",
        examples=[
            OpenApiExample(
                "Season standings",
                response_only=True,
                value=examples.SEASON_STANDINGS_EXAMPLE,
            )
        ],
        description="The members' season totals by the season's rule, best first; each "
        "row says what each event it played contributed and whether that counted.",
        responses={200: SeasonStandingsOutSerializer, **errors(404)},
    )
    def get(self, request: Any, club: str, season: str) -> Response:
        found = get_object_or_404(club_found(club).seasons, slug=season)
        snapshot = season_for_read(found)
        body = {
            "season": found,
            "version": snapshot.computed_version,
            "computed_at": snapshot.computed_at,
            "events": [t.slug for t in season_events(found)],
            "rows": snapshot.rows,
        }
        return Response(SeasonStandingsOutSerializer(body).data)
