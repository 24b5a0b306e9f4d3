"""REST API for a tournament's players (API.md): list, register, read, change, and
import a CSV. The write services decide who may (organisers only)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Player
from ..services import players as services
from .common import TournamentScoped, errors, valid

# --- players --------------------------------------------------------------------------------


class PlayerOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="Start number in this tournament.")
    name = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Player.Status.choices)


class PlayerIn(serializers.Serializer):
    name = serializers.CharField(help_text="Up to 100 characters.")
    club = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    rating = serializers.IntegerField(
        required=False, allow_null=True, help_text="0 to 10000, or null."
    )


class PlayerUpdateIn(PlayerIn):
    name = serializers.CharField(required=False)
    status = serializers.ChoiceField(
        choices=Player.Status.choices,
        required=False,
        help_text="`withdrawn` keeps the player's games but seats them no more.",
    )


class PlayerImportIn(serializers.Serializer):
    file = serializers.FileField(help_text="CSV, UTF-8, header row `name,club,rating`.")


PLAYER_EXAMPLE = {
    "id": 11,
    "number": 1,
    "name": "Ada Peretz",
    "club": "Haifa RC",
    "rating": 1620,
    "status": "active",
}


class PlayerFilter(filters.FilterSet):
    status = filters.ChoiceFilter(choices=Player.Status.choices)
    club = filters.CharFilter(lookup_expr="iexact", help_text="Club name (any case).")

    class Meta:
        model = Player
        fields = ["status", "club"]


@extend_schema_view(
    get=extend_schema(
        tags=["players"],
        summary="List players",
        responses={200: PlayerOut(many=True), **errors(400, 404)},
        description="The tournament's players by start number; filter by `status` and `club`.",
        examples=[
            OpenApiExample(
                "A page",
                value=PLAYER_EXAMPLE,
                response_only=True,
            )
        ],
    )
)
class PlayerListView(TournamentScoped, ListAPIView):
    serializer_class = PlayerOut
    filterset_class = PlayerFilter

    def get_queryset(self) -> QuerySet[Player]:
        if self.fake():
            return Player.objects.none()
        return self.tournament.players.order_by("number")

    @extend_schema(
        tags=["players"],
        summary="Register a player",
        description="Organisers only. The next start number is given; late entries are welcome.",
        request=PlayerIn,
        responses={201: PlayerOut, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Register",
                value={"name": "Ada Peretz", "club": "Haifa RC", "rating": 1620},
                request_only=True,
            ),
            OpenApiExample("Registered", value=PLAYER_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        data = valid(PlayerIn, request.data)
        player = services.player_register(tournament=tournament, by=request.user, **data)
        return Response(PlayerOut(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(TournamentScoped, APIView):
    def _player(self, request: Any, pk: int) -> Player:
        player = self.tournament.players.filter(pk=pk).first()
        if player is None:
            raise Http404("No such player in this tournament.")
        return player

    @extend_schema(
        tags=["players"],
        summary="Read a player",
        description="One player of the tournament, by id.",
        responses={200: PlayerOut, **errors(404)},
        examples=[OpenApiExample("Player", value=PLAYER_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, slug: str, pk: int) -> Response:
        return Response(PlayerOut(self._player(request, pk)).data)

    @extend_schema(
        tags=["players"],
        summary="Change a player",
        description="Organisers only: name, club, rating, or `status` to withdraw or "
        "reinstate the player.",
        request=PlayerUpdateIn,
        responses={200: PlayerOut, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample("Withdraw", value={"status": "withdrawn"}, request_only=True),
            OpenApiExample(
                "Withdrawn", value={**PLAYER_EXAMPLE, "status": "withdrawn"}, response_only=True
            ),
        ],
    )
    def patch(self, request: Any, slug: str, pk: int) -> Response:
        player = self._player(request, pk)
        changes = valid(PlayerUpdateIn, request.data, partial=True)
        player = services.player_update(player=player, by=request.user, **changes)
        return Response(PlayerOut(player).data)


class PlayerImportView(TournamentScoped, APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        tags=["players"],
        summary="Import players from CSV",
        description="Organisers only. A CSV file (`name,club,rating`, header row first, "
        "UTF-8, at most 1 MiB) as multipart field `file`. All rows are registered or none; "
        'errors name the line, e.g. `{"file": ["line 4: rating \'abc\' must be a whole '
        'number."]}`.',
        request={"multipart/form-data": PlayerImportIn},
        responses={201: PlayerOut(many=True), **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample("Imported", value=[PLAYER_EXAMPLE], response_only=True),
            OpenApiExample(
                "Bad line",
                value={"file": ["line 4: rating 'abc' must be a whole number."]},
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        upload = valid(PlayerImportIn, request.data)["file"]
        # Read one byte past the limit: enough for the service to refuse it, never more.
        data = upload.read(services.MAX_CSV_BYTES + 1)
        players = services.players_import_csv(tournament=tournament, by=request.user, data=data)
        return Response(PlayerOut(players, many=True).data, status=status.HTTP_201_CREATED)
