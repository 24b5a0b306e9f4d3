"""REST API for clubs: a club with its rating list and seasons, a member's
events and rating history, a season's standings; and the club organisers' writes —
register a member, declare a season, hold a tournament under the club, link a player
to a member. The write services decide who may (`tournaments.services.clubs`).
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

from tournaments.api.common import (
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
from tournaments.models import Club, Member, Season
from tournaments.permissions import can_run_club
from tournaments.selectors import club_organisers_of, clubs_listed
from tournaments.services import clubs as services
from tournaments.services.validation import max_length_of

from ..selectors import club_ranking, member_events, member_rating_history
from ..services.seasons import season_events, season_for_read


class SeasonOut(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    rule = serializers.JSONField(help_text="rule (sum, best, places), best, place_points, cap.")


class MemberRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RatedMemberOut(serializers.Serializer):
    rank = serializers.IntegerField()
    member = MemberRef()
    rating = serializers.IntegerField(source="shown", help_text="1000 + 40 (mu - 3 sigma).")
    games = serializers.IntegerField(help_text="Rated games played.")


class ClubOut(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    members = serializers.IntegerField()
    seasons = SeasonOut(many=True)
    ranking = RatedMemberOut(many=True, help_text="Rated members, best rating first.")


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


class ClubDetailView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Read a club: its seasons and rating list",
        examples=[
            OpenApiExample(
                "Club",
                response_only=True,
                value={
                    "slug": "haifa-joker",
                    "name": "Haifa Joker",
                    "members": 12,
                    "seasons": [
                        {
                            "slug": "spring-2026",
                            "name": "Spring 2026",
                            "rule": {
                                "rule": "best",
                                "best": 2,
                                "place_points": [25, 20, 16],
                                "cap": None,
                            },
                        }
                    ],
                    "ranking": [
                        {
                            "rank": 1,
                            "member": {"id": 7, "name": "Ada Peretz"},
                            "rating": 1376,
                            "games": 24,
                        }
                    ],
                },
            )
        ],
        description="Anyone may read it. `ranking` lists the members with a rating, best "
        "first; a rating is `1000 + 40 (mu - 3 sigma)` of the member's Plackett-Luce rating.",
        responses={200: ClubOut, **errors(404)},
    )
    def get(self, request: Any, club: str) -> Response:
        found = _club(club)
        body = {
            "slug": found.slug,
            "name": found.name,
            "members": found.members.count(),
            "seasons": found.seasons.order_by("-created_at"),
            "ranking": club_ranking(found),
        }
        return Response(ClubOut(body).data)


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
        found = _club(club)
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
            club=_club(club), by=request.user, **valid(MemberIn, request.data)
        )
        return Response(MemberOut(member).data, status=status.HTTP_201_CREATED)


class RatingPointOut(serializers.Serializer):
    tournament = serializers.CharField(source="game.table.round.tournament.slug")
    round = serializers.IntegerField(source="game.table.round.number")
    table = serializers.IntegerField(source="game.table.number")
    game = serializers.IntegerField(source="game.number")
    rating = serializers.IntegerField(source="shown")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class MemberEventOut(serializers.Serializer):
    tournament = serializers.CharField(source="tournament.slug")
    player = serializers.IntegerField(source="player.number", help_text="Start number.")
    rank = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)


class MemberDetailOut(MemberOut):
    rating = serializers.IntegerField(allow_null=True)
    events = MemberEventOut(many=True)
    history = RatingPointOut(many=True, help_text="The rating after each rated game.")


class MemberDetailView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Read a member: events and rating history",
        examples=[
            OpenApiExample(
                "Member",
                response_only=True,
                value={
                    "id": 7,
                    "name": "Ada Peretz",
                    "code": "117",
                    "joined_on": None,
                    "rating": 1032,
                    "events": [{"tournament": "spring-1", "player": 4, "rank": 2, "score": 57}],
                    "history": [
                        {
                            "tournament": "spring-1",
                            "round": 1,
                            "table": 2,
                            "game": 1,
                            "rating": 1032,
                            "mu": 27.9,
                            "sigma": 8.2,
                        }
                    ],
                },
            )
        ],
        description="Events are the tournaments the member played that the caller may see. "
        "`code` and `joined_on` only for the club's organisers.",
        responses={200: MemberDetailOut, **errors(404)},
    )
    def get(self, request: Any, club: str, pk: int) -> Response:
        found = _club(club)
        member = get_object_or_404(found.members, pk=pk)
        history = member_rating_history(member)
        body = {
            **MemberOut(member).data,
            "rating": history[-1].shown if history else None,
            "events": member_events(member, request.user),
            "history": history,
        }
        data = MemberDetailOut(body).data
        if not can_run_club(request.user, found):
            for field in ORGANISER_ONLY:
                data.pop(field, None)
        return Response(data)


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
        return Response(SeasonOut(_club(club).seasons.order_by("-created_at"), many=True).data)

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
                "Best 20 games of the year",
                request_only=True,
                value={"name": "League 2026", "rule": {"rule": "best_games", "best": 20}},
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
        description="The club's organisers only. Its tournaments are totalled by `rule`: "
        "`sum`, `best` (the best N events), `places` (points by place) or `best_games` (the "
        "best N game scores of the whole season, whichever events they came from; no `cap`).",
        request=SeasonIn,
        responses={201: SeasonOut, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Any, club: str) -> Response:
        season = services.season_create(
            club=_club(club), by=request.user, **valid(SeasonIn, request.data)
        )
        return Response(SeasonOut(season).data, status=status.HTTP_201_CREATED)


class SeasonRowOut(serializers.Serializer):
    rank = serializers.IntegerField()
    member = MemberRef()
    total = serializers.IntegerField()
    events = serializers.IntegerField(help_text="Events the member played.")
    contributions = serializers.JSONField(
        help_text="Per event played: {event (tournament slug), value, counted}."
    )


class SeasonStandingsOut(serializers.Serializer):
    season = SeasonOut()
    version = serializers.IntegerField()
    computed_at = serializers.DateTimeField()
    events = serializers.ListField(child=serializers.CharField(), help_text="In date order.")
    rows = SeasonRowOut(many=True)


class SeasonStandingsView(APIView):
    @extend_schema(
        tags=["clubs"],
        summary="Read a season's standings",
        examples=[
            OpenApiExample(
                "Season standings",
                response_only=True,
                value={
                    "season": {
                        "slug": "spring-2026",
                        "name": "Spring 2026",
                        "rule": {
                            "rule": "sum",
                            "best": None,
                            "place_points": [25, 20, 16],
                            "cap": None,
                        },
                    },
                    "version": 3,
                    "computed_at": "2026-03-21T22:10:00Z",
                    "events": ["spring-1", "spring-2"],
                    "rows": [
                        {
                            "rank": 1,
                            "member": {"id": 7, "name": "Ada Peretz"},
                            "total": 88,
                            "events": 2,
                            "contributions": [
                                {"event": "spring-1", "value": 57, "counted": True},
                                {"event": "spring-2", "value": 31, "counted": True},
                            ],
                        }
                    ],
                },
            )
        ],
        description="The members' season totals by the season's rule, best first; each "
        "row says what each event it played contributed and whether that counted.",
        responses={200: SeasonStandingsOut, **errors(404)},
    )
    def get(self, request: Any, club: str, season: str) -> Response:
        found = get_object_or_404(_club(club).seasons, slug=season)
        snapshot = season_for_read(found)
        body = {
            "season": found,
            "version": snapshot.computed_version,
            "computed_at": snapshot.computed_at,
            "events": [t.slug for t in season_events(found)],
            "rows": snapshot.rows,
        }
        return Response(SeasonStandingsOut(body).data)


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
        organisers = club_organisers_of(_club(club), request.user)
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
            club=_club(club), by=request.user, username=data["username"].strip()
        )
        return Response(ClubOrganiserOut(organiser).data, status=status.HTTP_201_CREATED)
