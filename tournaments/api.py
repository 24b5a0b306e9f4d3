"""REST API for tournaments, staff, players and rounds (API.md).

Thin views: an input serializer reads the request's shape, one service call does the
work (and all the domain validation), an output serializer writes the answer. Reading a
tournament goes through `tournaments_visible_to`, so a private one is a 404 to anyone
without a role in it; the permission classes of `config.api` decide who may write.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.functional import cached_property
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import OrganiserWrites, RawJSONField, errors
from scoring.rules import OPTIONS, PRESET_NAMES, PRESETS
from scoring.standings import METRICS

from . import services
from .models import Player, Round, StaffMember, Tournament
from .selectors import tournaments_visible_to


def valid(serializer_class: type[serializers.Serializer], data: Any, **kwargs: Any) -> dict:
    """The request body read by an input serializer; DRF's 400 when its shape is wrong."""
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def visible_tournament(request: Any, slug: str) -> Tournament:
    """The tournament, if this user may see it; 404 otherwise (private ones stay hidden)."""
    tournament = tournaments_visible_to(request.user).filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


class TournamentScoped:
    """For views under /tournaments/{slug}/: `self.tournament`, looked up once."""

    kwargs: dict[str, Any]
    request: Any

    @cached_property
    def tournament(self) -> Tournament:
        return visible_tournament(self.request, self.kwargs["slug"])

    def fake(self) -> bool:
        # drf-spectacular builds the schema with fake views that have no URL arguments.
        return getattr(self, "swagger_fake_view", False)


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
    else:
        schema = {"type": "string", "enum": list(option.choices)}
    if option.nullable:
        schema["nullable"] = True
    schema["description"] = option.help
    return schema


RULES_OVERRIDES_SCHEMA = {
    "type": "object",
    "description": "Single options that override the preset's (RULES.md §8). An unknown "
    "option or a value out of bounds is a 400 naming `rules.<option>`.",
    "properties": {name: _option_schema(name) for name in OPTIONS},
    "additionalProperties": False,
}
RANKING_SCHEMA = {
    "type": "array",
    "description": "Ordered standings metrics, each at most once; default: the preset's.",
    "items": {"type": "string", "enum": [k for k, m in METRICS.items() if m.direction]},
}
TABLES_SCHEMA = {
    "type": "array",
    "description": "For `manual`: the tables, each a list of 2 to table_size player ids "
    "(seat 1 first); every active player exactly once.",
    "items": {"type": "array", "items": {"type": "integer"}},
}
QUALITY_SCHEMA = {
    "type": "object",
    "description": (
        "How good the seating is: pairs meeting again (repeat_pairs), the most meetings of "
        "any pair so far (max_meetings), most minus fewest starts (starter_balance); for "
        "Swiss also the widest table in standings places (rank_spread), their sum "
        "(rank_spread_total) and each table's spread (rank_spreads)."
    ),
    "properties": {
        "repeat_pairs": {"type": "integer"},
        "max_meetings": {"type": "integer"},
        "starter_balance": {"type": "integer"},
        "rank_spread": {"type": "integer"},
        "rank_spread_total": {"type": "integer"},
        "rank_spreads": {"type": "array", "items": {"type": "integer"}},
    },
    "additionalProperties": True,
}


def _rules_out_field(name: str) -> serializers.Field:
    option = OPTIONS[name]
    if option.kind == "int":
        return serializers.IntegerField(allow_null=option.nullable, help_text=option.help)
    if option.kind == "bool":
        return serializers.BooleanField(help_text=option.help)
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
    results_need_confirmation = serializers.BooleanField()
    public = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    results_version = serializers.IntegerField()


class TournamentIn(serializers.Serializer):
    name = serializers.CharField(help_text="Required; up to 120 characters.")
    slug = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="Lowercase letters, digits and hyphens; derived from the name when absent.",
    )
    starts_on = serializers.DateField(required=False, allow_null=True)
    preset = serializers.ChoiceField(choices=PRESET_NAMES, required=False, allow_null=True)
    rules = RawJSONField(schema=RULES_OVERRIDES_SCHEMA, required=False, allow_null=True)
    ranking = RawJSONField(schema=RANKING_SCHEMA, required=False, allow_null=True)
    table_size = serializers.IntegerField(
        required=False, allow_null=True, help_text="2 to 4 (default 4; 2 under `mso`)."
    )
    games_per_table = serializers.IntegerField(
        required=False, allow_null=True, help_text="1 to 12; null = one game per seated player."
    )
    rounds_planned = serializers.IntegerField(required=False, allow_null=True)
    target_score = serializers.IntegerField(required=False, allow_null=True)
    results_need_confirmation = serializers.BooleanField(required=False)
    public = serializers.BooleanField(required=False)


class TournamentUpdateIn(TournamentIn):
    name = serializers.CharField(required=False)
    slug = serializers.CharField(
        required=False, allow_blank=True, help_text="Cannot change: sending it is a 400."
    )
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)


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
    "results_need_confirmation": False,
    "public": True,
    "status": "upcoming",
    "results_version": 0,
}


class TournamentFilter(filters.FilterSet):
    status = filters.ChoiceFilter(choices=Tournament.Status.choices)

    class Meta:
        model = Tournament
        fields = ["status"]


# --- views: tournaments --------------------------------------------------------------------


class TournamentListView(ListAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = TournamentOut
    filterset_class = TournamentFilter

    def get_queryset(self) -> QuerySet[Tournament]:
        if getattr(self, "swagger_fake_view", False):
            return Tournament.objects.none()
        return tournaments_visible_to(self.request.user)

    @extend_schema(
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
    def get(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

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
    permission_classes = [OrganiserWrites]

    def _tournament(self, request: Any) -> Tournament:
        tournament = self.tournament
        self.check_object_permissions(request, tournament)
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
        description="Organisers only; a tournament with entered results is kept (400).",
        responses={204: None, **errors(400, 401, 403, 404)},
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


class StaffIn(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=StaffMember.Role.choices)


class StaffOut(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=StaffMember.Role.choices)


class StaffView(TournamentScoped, APIView):
    permission_classes = [OrganiserWrites]

    @extend_schema(
        tags=["tournaments"],
        summary="Give a user a role",
        description="Organisers only: make an existing user an `organiser` or `scorekeeper` "
        "of this tournament (or change the role they have; the last organiser stays one).",
        request=StaffIn,
        responses={201: StaffOut, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Scorekeeper", value={"username": "bob", "role": "scorekeeper"}, request_only=True
            ),
            OpenApiExample(
                "Added", value={"username": "bob", "role": "scorekeeper"}, response_only=True
            ),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        self.check_object_permissions(request, tournament)
        data = valid(StaffIn, request.data)
        member = services.staff_add(tournament=tournament, by=request.user, **data)
        return Response(StaffOut(member).data, status=status.HTTP_201_CREATED)


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


class PlayerListView(TournamentScoped, ListAPIView):
    permission_classes = [OrganiserWrites]
    serializer_class = PlayerOut
    filterset_class = PlayerFilter

    def get_queryset(self) -> QuerySet[Player]:
        if self.fake():
            return Player.objects.none()
        return self.tournament.players.order_by("number")

    @extend_schema(
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
    def get(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

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
        self.check_object_permissions(request, tournament)
        data = valid(PlayerIn, request.data)
        player = services.player_register(tournament=tournament, by=request.user, **data)
        return Response(PlayerOut(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailView(TournamentScoped, APIView):
    permission_classes = [OrganiserWrites]

    def _player(self, request: Any, pk: int) -> Player:
        player = self.tournament.players.filter(pk=pk).first()
        if player is None:
            raise Http404("No such player in this tournament.")
        self.check_object_permissions(request, player)
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
    permission_classes = [OrganiserWrites]
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
        self.check_object_permissions(request, tournament)
        upload = valid(PlayerImportIn, request.data)["file"]
        # Read one byte past the limit: enough for the service to refuse it, never more.
        data = upload.read(services.MAX_CSV_BYTES + 1)
        players = services.players_import_csv(tournament=tournament, by=request.user, data=data)
        return Response(PlayerOut(players, many=True).data, status=status.HTTP_201_CREATED)


# --- rounds ---------------------------------------------------------------------------------


class SeatOut(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id", help_text="Player id.")


class GameBriefOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    starter = serializers.IntegerField(
        source="starter_position", help_text="Seat position of the player who starts."
    )


class TableOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    seats = SeatOut(many=True)
    games = GameBriefOut(many=True)


class RoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    method = serializers.ChoiceField(choices=Round.Method.choices)
    tables = TableOut(many=True)
    quality = RawJSONField(schema=QUALITY_SCHEMA)


class RoundIn(serializers.Serializer):
    method = serializers.ChoiceField(
        choices=Round.Method.choices,
        help_text="`manual` (give `tables`), `random` (fewest repeat meetings), `swiss` "
        "(by current standings) or `plan` (a planned schedule).",
    )
    tables = RawJSONField(schema=TABLES_SCHEMA, required=False, allow_null=True)
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="For the drawn methods: the seed of the draw, to repeat a seating exactly; "
        "drawn and stored with the round when absent.",
    )


ROUND_EXAMPLE = {
    "number": 1,
    "method": "manual",
    "tables": [
        {
            "id": 5,
            "number": 1,
            "seats": [{"position": n, "player": 10 + n} for n in range(1, 5)],
            "games": [{"id": 30 + n, "number": n, "starter": n} for n in range(1, 5)],
        },
        {
            "id": 6,
            "number": 2,
            "seats": [{"position": n, "player": 14 + n} for n in range(1, 4)],
            "games": [{"id": 34 + n, "number": n, "starter": n} for n in range(1, 4)],
        },
    ],
    "quality": {"repeat_pairs": 0, "max_meetings": 1, "starter_balance": 1},
}


def rounds_with_tables(tournament: Tournament) -> QuerySet[Round]:
    from games.models import Table

    return tournament.rounds.order_by("number").prefetch_related(
        Prefetch("tables", queryset=Table.objects.prefetch_related("seats", "games"))
    )


class RoundListView(TournamentScoped, ListAPIView):
    permission_classes = [OrganiserWrites]
    serializer_class = RoundOut

    def get_queryset(self) -> QuerySet[Round]:
        if self.fake():
            return Round.objects.none()
        return rounds_with_tables(self.tournament)

    @extend_schema(
        tags=["rounds"],
        summary="List rounds",
        responses={200: RoundOut(many=True), **errors(400, 404)},
        description="The tournament's rounds in order, each with its tables, seats and games.",
        examples=[
            OpenApiExample(
                "A page",
                value=ROUND_EXAMPLE,
                response_only=True,
            )
        ],
    )
    def get(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(
        tags=["rounds"],
        summary="Open the next round",
        description="Organisers only. Seats every active player and creates each table's "
        "games: `games_per_table`, or one per seated player; game n is started by seat "
        "((n-1) mod seats) + 1. `manual` takes `tables` (player ids, 2 to table_size per "
        "table, every active player exactly once); the other methods draw the seating.",
        request=RoundIn,
        responses={201: RoundOut, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Manual",
                value={"method": "manual", "tables": [[11, 12, 13, 14], [15, 16, 17]]},
                request_only=True,
            ),
            OpenApiExample("Opened", value=ROUND_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        self.check_object_permissions(request, tournament)
        data = valid(RoundIn, request.data)
        # `seed` only when given: the service draws one otherwise.
        extra = {"seed": data["seed"]} if data.get("seed") is not None else {}
        round_ = services.round_open(
            tournament=tournament,
            by=request.user,
            method=data["method"],
            tables=data.get("tables"),
            **extra,
        )
        return Response(
            RoundOut(rounds_with_tables(tournament).get(pk=round_.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class RoundDetailView(TournamentScoped, APIView):
    @extend_schema(
        tags=["rounds"],
        summary="Read a round",
        description="One round by its number, with tables, seats, games and seating quality.",
        responses={200: RoundOut, **errors(404)},
        examples=[OpenApiExample("Round", value=ROUND_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, slug: str, number: int) -> Response:
        round_ = rounds_with_tables(self.tournament).filter(number=number).first()
        if round_ is None:
            raise Http404("No such round.")
        return Response(RoundOut(round_).data)
