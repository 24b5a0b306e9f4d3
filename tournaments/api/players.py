"""REST API for a tournament's players (docs/api/reference.md): list, register, read,
change, delete one never seated, and import a CSV. The write services decide who may
(organisers only).

A name already registered in the tournament is allowed (two players may share one) but
often a double entry: registering or renaming to it answers as usual, with a response
header `X-Warning` naming the other players' start numbers (ASCII only; the body's shape
does not change)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet, prefetch_related_objects
from django.http import Http404
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Player
from ..selectors import same_name
from ..services import players as services
from ..services.validation import max_length_of
from . import examples
from .common import (
    RawJSONField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)

WARNING_HEADER = "X-Warning"
WARNING_PARAMETER = OpenApiParameter(
    WARNING_HEADER,
    str,
    location=OpenApiParameter.HEADER,
    response=True,
    required=False,
    description="Present when another player of the tournament has the same name (a "
    "possible double entry; still saved): e.g. `another player has this name: #4`.",
)


def _warned(response: Response, player: Player) -> Response:
    """The response, with `X-Warning` when the player's name is already taken."""
    numbers = [f"#{other.number}" for other in same_name(player)]
    if numbers:
        response[WARNING_HEADER] = f"another player has this name: {', '.join(numbers)}"
    return response


# --- players --------------------------------------------------------------------------------


class PlayerOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="Start number in this tournament.")
    name = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Player.Status.choices)
    fixed_table = serializers.IntegerField(
        allow_null=True, help_text="The table number this player always sits at, or null."
    )
    joined_round = serializers.IntegerField(
        allow_null=True,
        help_text="A late entry's first round (registered once round 1 existed); null = "
        "from the start.",
    )
    member = serializers.IntegerField(
        source="member_id",
        allow_null=True,
        help_text="The id of the club member this player is linked to, or null.",
    )
    member_name = serializers.CharField(
        source="member.name", allow_null=True, help_text="That member's name, or null."
    )

    divisions = serializers.SerializerMethodField(
        help_text="The slugs of the divisions the player is in (`GET divisions/`)."
    )

    def get_divisions(self, player: Player) -> list[str]:
        # Prefetched by the lists (one query for all); read here for a single player.
        return [d.slug for d in sorted(player.divisions.all(), key=lambda d: (d.order, d.name))]

    already_qualified = serializers.BooleanField(
        help_text="Qualified for the tournament's `qualify_event` already: passes the slot "
        "down to the next player."
    )


class PlayerInSerializer(StrictInput):
    name = StrictCharField(
        default="",
        allow_blank=True,
        help_text=f"Up to {max_length_of(Player, 'name')} characters. Blank or left out "
        "with a `member`: the member's name; blank without one is a 400 naming `name`.",
    )
    club = StrictCharField(required=False, allow_blank=True, allow_null=True)
    rating = StrictIntegerField(required=False, allow_null=True, help_text="0 to 10000, or null.")
    fixed_table = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="A mobility need: the table number (1 up) this player sits at every round "
        "the draw seats; null = any table. A hand-made (`manual`) seating is taken as given.",
    )
    member = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="Link the player to a member of the tournament's club (the member's id; "
        "null: not linked). Not a member of that club, or a member already linked to "
        "another player of the tournament: 400 naming `member`.",
    )
    divisions = RawJSONField(
        schema={"type": "array", "items": {"type": "string"}},
        required=False,
        allow_null=True,
        help_text="The slugs of the tournament's divisions the player is in (all of them: "
        "`[]` takes them out of every one). A slug the tournament has no division for is a "
        "400 naming `divisions`.",
    )


class PlayerUpdateInSerializer(PlayerInSerializer):
    name = StrictCharField(required=False)
    number = StrictIntegerField(
        required=False,
        help_text="A new start number, 1 to 99999; one another player has is a 400 naming "
        "`number`.",
    )
    status = StrictChoiceField(
        choices=Player.Status.choices,
        required=False,
        help_text="`withdrawn` keeps the player's games but seats them no more.",
    )
    already_qualified = StrictBooleanField(
        required=False,
        help_text="Qualified for the tournament's `qualify_event` already (at an earlier "
        "event): their qualification slot passes down to the next player.",
    )


DELIMITER_HEADER = "X-CSV-Delimiter"


class PlayerImportInSerializer(StrictInput):
    file = serializers.FileField(
        help_text="CSV, UTF-8, header row `name,club,rating` (and optionally `member`, "
        "`divisions`)."
    )


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
        responses={200: PlayerOutSerializer(many=True), **errors(400, 404)},
        description="The tournament's players by start number; filter by `status` and `club`.",
        examples=examples.PLAYER_LIST_GET,
    )
)
class PlayerListView(TournamentScoped, ListAPIView):
    serializer_class = PlayerOutSerializer
    filterset_class = PlayerFilter

    def get_queryset(self) -> QuerySet[Player]:
        if self.fake():
            return Player.objects.none()
        return (
            self.tournament.players.select_related("member")
            .prefetch_related("divisions")
            .order_by("number")
        )

    @extend_schema(
        tags=["players"],
        summary="Register a player",
        description="Organisers only. The next start number is given; late entries are welcome. "
        "A name another player has already is registered too, with an `X-Warning` header.",
        request=PlayerInSerializer,
        parameters=[WARNING_PARAMETER],
        responses={201: PlayerOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.PLAYER_LIST_POST,
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        data = valid(PlayerInSerializer, request.data)
        player = services.player_register(tournament=tournament, by=request.user, **data)
        return _warned(
            Response(PlayerOutSerializer(player).data, status=status.HTTP_201_CREATED), player
        )


class PlayerDetailView(TournamentScoped, APIView):
    def _player(self, request: Any, pk: int) -> Player:
        player = self.tournament.players.filter(pk=pk).first()
        if player is None:
            raise Http404(_("No such player in this tournament."))
        return player

    @extend_schema(
        tags=["players"],
        summary="Read a player",
        description="One player of the tournament, by id.",
        responses={200: PlayerOutSerializer, **errors(404)},
        examples=examples.PLAYER_DETAIL_GET,
    )
    def get(self, request: Any, slug: str, pk: int) -> Response:
        return Response(PlayerOutSerializer(self._player(request, pk)).data)

    @extend_schema(
        tags=["players"],
        summary="Change a player",
        description="Organisers only: name, club, rating, start `number` (before or during "
        "the event; unique in the tournament, else 400 naming `number`), or `status` to "
        "withdraw or reinstate the player. Every change is kept in the player's history "
        "(who, what, when). A name another player has already is saved too, with an "
        "`X-Warning` header.",
        request=PlayerUpdateInSerializer,
        parameters=[WARNING_PARAMETER],
        responses={200: PlayerOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.PLAYER_DETAIL_PATCH,
    )
    def patch(self, request: Any, slug: str, pk: int) -> Response:
        player = self._player(request, pk)
        changes = valid(PlayerUpdateInSerializer, request.data, partial=True)
        player = services.player_update(player=player, by=request.user, **changes)
        return _warned(Response(PlayerOutSerializer(player).data), player)

    @extend_schema(
        tags=["players"],
        summary="Delete a player",
        description="Organisers only: a player entered by mistake, who has never been seated "
        "in any round. One who has a seat is kept (409 naming `player`): withdraw them "
        "instead (`PATCH` with `status`).",
        request=None,
        responses={204: None, **errors(401, 403, 404, 409)},
        examples=examples.PLAYER_DETAIL_DELETE,
    )
    def delete(self, request: Any, slug: str, pk: int) -> Response:
        services.player_delete(player=self._player(request, pk), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerImportView(TournamentScoped, APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        tags=["players"],
        summary="Import players from CSV",
        description="Organisers only. A CSV file (`name,club,rating`, header row first, "
        "optionally a `member` column: a membership code of the tournament's club, linking "
        "the player to that member; optionally a `divisions` column: the slugs of the "
        "tournament's divisions the player is in, apart by spaces, `|` or `/`; "
        "UTF-8, at most 1 MiB and `CSV_IMPORT_MAX_ROWS` rows, cells separated by `,` `;` or "
        "tab, as the header row shows) as multipart field `file`. All rows are registered or "
        "none; the response header `X-CSV-Delimiter` says which delimiter was read (`comma`, "
        "`semicolon` or `tab`); "
        'errors name the line, e.g. `{"file": ["line 4: rating \'abc\' must be a whole '
        'number."]}`.',
        request={"multipart/form-data": PlayerImportInSerializer},
        parameters=[
            OpenApiParameter(
                DELIMITER_HEADER,
                str,
                OpenApiParameter.HEADER,
                response=[201],
                enum=["comma", "semicolon", "tab"],
                description="The delimiter the file was read with.",
            )
        ],
        responses={201: PlayerOutSerializer(many=True), **errors(400, 401, 403, 404)},
        examples=examples.PLAYER_IMPORT_POST,
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        upload = valid(PlayerImportInSerializer, request.data)["file"]
        # Read one byte past the limit: enough for the service to refuse it, never more.
        data = upload.read(services.MAX_CSV_BYTES + 1)
        imported = services.players_import_csv(tournament=tournament, by=request.user, data=data)
        prefetch_related_objects(imported.players, "divisions")
        return Response(
            PlayerOutSerializer(imported.players, many=True).data,
            status=status.HTTP_201_CREATED,
            # The body stays the list of players; how the file was read goes in a header.
            headers={DELIMITER_HEADER: imported.delimiter_name},
        )
