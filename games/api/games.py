"""REST API for games, result versions and penalties (docs/api/reference.md).

Thin views over `games.services`: the input serializers read the request's shape, the
services validate it against the rules and the seating (naming every wrong field), score
it with the engine and store it. Stale entries answer 409 with `current_version`.

Terms:
* staff name — who entered, confirmed or recorded something (`submitted_by`,
  `confirmed_by`, `recorded_by`): a username, shown only to the tournament's staff (and
  superusers). Everyone else reads `null` in the same place, so the public never learns
  which accounts run a tournament (usernames are half of a sign-in).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.http import Http404
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    NoBody,
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)
from tournaments.permissions import can_score

from ..models import MAX_EXTENSIONS, Extension, Game, Penalty, RackEntry, Result
from ..selectors.games import (
    games_shown,
    results_shown,
    visible_game,
    visible_penalty,
    with_result_flag,
)
from ..services import results as services
from ..services.extensions import extension_set
from ..services.results import MAX_RACK_TEXT
from .examples import GAME_EXAMPLE, PENALTY_EXAMPLE, RESULT_EXAMPLE, RESULT_REQUEST_EXAMPLE

# --- serializers ----------------------------------------------------------------------------

# The serializer context key: does the reader see staff names (see "staff name" above)?
SHOWS_STAFF = "shows_staff"


def staff_context(request: Any, tournament: Any) -> dict[str, bool]:
    """The serializer context for a reader of this tournament's games."""
    return {SHOWS_STAFF: can_score(request.user, tournament)}


@extend_schema_field({"type": "string", "nullable": True, "description": "A username; "
                      "null unless the reader is on the tournament's staff."})  # fmt: skip
class StaffNameField(serializers.Field):
    """A user as their username for the tournament's staff, `null` for everyone else.
    Hidden unless the context says otherwise, so a view that forgets the context leaks
    nothing."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, allow_null=True, **kwargs)

    def to_representation(self, user: Any) -> str | None:
        return user.username if self.context.get(SHOWS_STAFF) else None


class RackOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id", help_text="Player id.")
    tiles = serializers.CharField(
        allow_null=True, help_text="Canonical tiles; null when entered by points."
    )
    points = serializers.IntegerField(help_text="Rack value: face values + joker penalty.")
    tile_count = serializers.IntegerField(allow_null=True)
    jokers = serializers.IntegerField()
    no_meld = serializers.ChoiceField(choices=RackEntry.NoMeld.choices, allow_null=True)
    charge = serializers.IntegerField(help_text="What this player paid as a loser (0 if won).")
    score = serializers.IntegerField(
        help_text="Game score *before* sanction points: sanctions are penalties, which the "
        "standings subtract."
    )
    winner = serializers.BooleanField()
    substitute = serializers.CharField(
        allow_blank=True,
        help_text='Who played this seat in this game instead of its player ("" = the '
        "player did). Counted for the player only if the tournament credits substitute games.",
    )
    forfeit = serializers.BooleanField(
        help_text="This seat forfeited the game (end `forfeit`, a withdrawn player's seat)."
    )


class ResultOutSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Result.Status.choices)
    end = serializers.ChoiceField(choices=Result.End.choices)
    racks = RackOutSerializer(many=True)
    submitted_by = StaffNameField()
    submitted_at = serializers.DateTimeField()
    confirmed_by = StaffNameField()
    confirmed_at = serializers.DateTimeField(allow_null=True)


class RackInSerializer(StrictInput):
    player = StrictIntegerField(help_text="Player id (not the start number).")
    tiles = StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        trim_whitespace=False,
        max_length=MAX_RACK_TEXT,
        help_text="The rack in tile notation (/docs/rules/tiles-and-games/#notation), e.g. "
        '`R4 B10 J`; `""` is an empty rack. Either `tiles` or `points`.',
    )
    points = StrictIntegerField(
        required=False, allow_null=True, help_text="Rack value, when entered by totals."
    )
    tile_count = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="Tiles on the rack; required when the rules decide pool-exhausted games "
        "by tile count.",
    )
    jokers = StrictIntegerField(
        required=False, allow_null=True, help_text="How many of the points are jokers (0-2)."
    )
    no_meld = StrictChoiceField(
        choices=RackEntry.NoMeld.choices,
        required=False,
        allow_null=True,
        help_text="The player never made the opening meld: could not, or declined.",
    )
    substitute = StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text="The name of a substitute who played this seat in this game; "
        "the rack stays the seat's player's.",
    )


# A forfeit is recorded by its own endpoint (`games/{id}/forfeit/`), never entered.
ENTERED_ENDS = [(value, label) for value, label in Result.End.choices if value != "forfeit"]


class ResultInSerializer(StrictInput):
    based_on = StrictIntegerField(
        help_text="The version this entry replaces (0 for the first); not the latest → 409."
    )
    end = StrictChoiceField(choices=ENTERED_ENDS)
    winner = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="Player id; for `rummikub` the one who emptied the rack — may be left out "
        "when exactly one rack is blank (that player is the winner); computed for "
        "`pool_exhausted` (if given, it must match).",
    )
    racks = RackInSerializer(many=True, help_text="Each seated player exactly once.")


class PenaltyOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id", help_text="Player id.")
    kind = serializers.ChoiceField(choices=Penalty.Kind.choices)
    tiles_drawn = serializers.IntegerField()
    points = serializers.IntegerField()
    note = serializers.CharField(allow_blank=True)
    recorded_by = StaffNameField()
    recorded_at = serializers.DateTimeField()
    voided = serializers.BooleanField(help_text="Voided penalties stay in the history.")


class PenaltyInSerializer(StrictInput):
    player = StrictIntegerField(help_text="Player id; must be seated at this table.")
    kind = StrictChoiceField(choices=Penalty.Kind.choices)
    points = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="Sanctions only: points (> 0) taken off the player's score in this game.",
    )
    note = StrictCharField(
        required=False, allow_blank=True, allow_null=True, help_text="Up to 300 characters."
    )


class ExtensionOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id", help_text="Player id.")
    used = serializers.IntegerField(
        help_text=f"Time extensions this player took in this game (0 to {MAX_EXTENSIONS})."
    )


class ExtensionInSerializer(StrictInput):
    player = StrictIntegerField(help_text="Player id; must be seated at this table.")
    used = StrictIntegerField(
        help_text=f"How many extensions the player has taken in this game, 0 to "
        f"{MAX_EXTENSIONS} (the count, not one more)."
    )


class GamePlayerOutSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="Seat position at the table.")
    player = serializers.IntegerField(source="player.id", help_text="Player id.")
    number = serializers.IntegerField(source="player.number")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")


class GameOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.CharField(source="table.round.tournament.slug")
    round = serializers.IntegerField(source="table.round.number", help_text="Round number.")
    table = serializers.IntegerField(source="table.number", help_text="Table number.")
    number = serializers.IntegerField(help_text="Game number in the table's series.")
    starter = serializers.IntegerField(
        source="present_starter_position",
        help_text="Seat position of the player who starts: the rotation's starter, or the "
        "next present seat after it when that player has left the table.",
    )
    players = GamePlayerOutSerializer(source="table.seats", many=True)
    result = serializers.SerializerMethodField()
    penalties = PenaltyOutSerializer(many=True)
    extensions = ExtensionOutSerializer(
        many=True,
        help_text="Time extensions per player (only players who took any, or whose count was set).",
    )

    @extend_schema_field(ResultOutSerializer(allow_null=True))
    def get_result(self, game: Game) -> dict | None:
        confirmed = getattr(game, "confirmed_results", None)
        if confirmed is None:
            confirmed = list(results_shown().filter(game=game, status=Result.Status.CONFIRMED))
        return ResultOutSerializer(confirmed[0], context=self.context).data if confirmed else None


# --- games ----------------------------------------------------------------------------------


class IntegerFilter(filters.Filter):
    field_class = forms.IntegerField


class TrueFalseQueryField(forms.NullBooleanField):
    """`true`/`false` (or 1/0); anything else is a 400, not silently no filter at all."""

    # Django's NullBooleanField.to_python returns None too; the stubs keep BooleanField's bool.
    def to_python(self, value: Any) -> bool | None:  # type: ignore[override]
        text = str(value).strip().lower() if value is not None else ""
        if text == "":
            return None
        if text in ("true", "1"):
            return True
        if text in ("false", "0"):
            return False
        raise forms.ValidationError(_("Give true or false."), code="invalid")

    def validate(self, value: Any) -> None:
        pass


class StrictBooleanFilter(filters.BooleanFilter):
    field_class = TrueFalseQueryField


class GameFilter(filters.FilterSet):
    round = IntegerFilter(
        field_name="table__round__number", min_value=1, max_value=32767, help_text="Round number."
    )
    table = IntegerFilter(
        field_name="table__number", min_value=1, max_value=32767, help_text="Table number."
    )
    has_result = StrictBooleanFilter(
        field_name="has_result",
        widget=forms.TextInput,
        help_text="Only games with (true) or without (false) a confirmed result.",
    )

    class Meta:
        model = Game
        fields = ["round", "table", "has_result"]


@extend_schema_view(
    get=extend_schema(
        tags=["games"],
        summary="List a tournament's games",
        responses={200: GameOutSerializer(many=True), **errors(400, 404)},
        description="Every game of the tournament by round, table and game number, each as "
        "`GET /games/{id}/` shows it. Filter by `round` and `table` number and `has_result`.",
        examples=[
            OpenApiExample(
                "A page",
                value=GAME_EXAMPLE,
                response_only=True,
            )
        ],
    )
)
class GameListView(TournamentScoped, ListAPIView):
    serializer_class = GameOutSerializer
    filterset_class = GameFilter

    def get_queryset(self) -> QuerySet[Game]:
        if self.fake():
            return Game.objects.none()
        return with_result_flag(games_shown().filter(table__round__tournament=self.tournament))

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())  # the stubs say Mapping
        if not self.fake():
            context.update(staff_context(self.request, self.tournament))
        return context


class GameScoped:
    """For views under /games/{id}/: `self.game`, if the user may see it (else 404)."""

    kwargs: dict[str, Any]
    request: Any

    @cached_property
    def game(self) -> Game:
        game = visible_game(self.request.user, self.kwargs["pk"])
        if game is None:
            raise Http404(_("No such game."))
        return game


class GameDetailView(APIView):
    @extend_schema(
        tags=["games"],
        summary="Read a game",
        description="One game: its round, table, starter, the seated players, the current "
        "confirmed result (or null) and every penalty (voided ones flagged).",
        responses={200: GameOutSerializer, **errors(404)},
        examples=[OpenApiExample("Game", value=GAME_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, pk: int) -> Response:
        game = visible_game(request.user, pk, games_shown())
        if game is None:
            raise Http404(_("No such game."))
        context = staff_context(request, game.table.round.tournament)
        return Response(GameOutSerializer(game, context=context).data)


# --- results --------------------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(
        tags=["results"],
        summary="List a game's result versions",
        responses={200: ResultOutSerializer(many=True), **errors(400, 404)},
        description="Every version ever entered, oldest first: `confirmed` (the current "
        "one), `submitted` (awaiting confirmation), `superseded` or `discarded`.",
        examples=[
            OpenApiExample(
                "A page",
                value=RESULT_EXAMPLE,
                response_only=True,
            )
        ],
    )
)
class ResultListView(GameScoped, ListAPIView):
    serializer_class = ResultOutSerializer

    def get_queryset(self) -> QuerySet[Result]:
        if getattr(self, "swagger_fake_view", False):
            return Result.objects.none()
        return results_shown().filter(game=self.game).order_by("version")

    def get_serializer_context(self) -> dict[str, Any]:
        context = dict(super().get_serializer_context())  # the stubs say Mapping
        if not getattr(self, "swagger_fake_view", False):
            context.update(staff_context(self.request, self.game.table.round.tournament))
        return context

    @extend_schema(
        tags=["results"],
        summary="Enter a result version",
        description="Organisers and scorekeepers. Each seated player exactly once; a rack "
        "is `tiles` or `points` (+ `tile_count`, `jokers`). The engine validates and "
        "scores it; rack `score`s are before sanction points (penalties, which standings "
        "subtract). `status` is `confirmed` at once unless the tournament wants "
        "confirmation. `based_on` not the latest version → 409 naming `current_version`.\n\n"
        "**Retries:** send an `Idempotency-Key` header (any 1-64 printable characters, "
        "e.g. a UUID) chosen once per entry. Sent again with the same key and body — a "
        "retry after a dropped connection — it answers 200 with the version the first "
        "request stored (header `Idempotent-Replayed: true`), never a new version. The same "
        "key with a different body → 409 naming `idempotency_key` and the `version` it "
        "stored. Without the header nothing is de-duplicated. The table page does the "
        "same with its hidden `idempotency_key` field.",
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="One key per entry (e.g. a random UUID), unique per game; a "
                "repeated key answers the first result (200) instead of storing another.",
            )
        ],
        request=ResultInSerializer,
        responses={
            201: ResultOutSerializer,
            200: OpenApiResponse(
                ResultOutSerializer,
                description="A retry: the version stored by the first request with this "
                "`Idempotency-Key`.",
            ),
            **errors(400, 401, 403, 404, 409),
        },
        examples=[
            OpenApiExample("Rummikub", value=RESULT_REQUEST_EXAMPLE, request_only=True),
            OpenApiExample("Stored", value=RESULT_EXAMPLE, response_only=True),
            OpenApiExample(
                "Bad tile",
                value={"racks": [{}, {"tiles": ["unknown tile 'X4'; write a colour ..."]}]},
                response_only=True,
                status_codes=["400"],
            ),
            OpenApiExample(
                "Stale",
                value={
                    "based_on": [
                        "this entry is based on version 1, but the game is now at "
                        "version 2; reload it and enter your correction again."
                    ],
                    "current_version": 2,
                },
                response_only=True,
                status_codes=["409"],
            ),
            OpenApiExample(
                "Key reused",
                value={
                    "idempotency_key": [
                        "the key 'e0b1…' was already used for version 1 of this game with "
                        "different racks; send a new key for a new entry."
                    ],
                    "version": 1,
                },
                response_only=True,
                status_codes=["409"],
            ),
        ],
    )
    def post(self, request: Any, pk: int) -> Response:
        game = self.game
        data = valid(ResultInSerializer, request.data)
        data["racks"] = [dict(rack) for rack in data["racks"]]
        result = services.result_submit(
            game=game,
            by=request.user,
            idempotency_key=request.headers.get("Idempotency-Key"),
            **data,
        )
        response = Response(
            ResultOutSerializer(
                results_shown().get(pk=result.pk),
                context=staff_context(request, game.table.round.tournament),
            ).data,
            status=status.HTTP_200_OK if result.replayed else status.HTTP_201_CREATED,
        )
        if result.replayed:
            response["Idempotent-Replayed"] = "true"
        return response


class ResultConfirmView(GameScoped, APIView):
    @extend_schema(
        tags=["results"],
        summary="Confirm a submitted version",
        description="When the tournament wants results confirmed: another organiser or "
        "scorekeeper confirms a `submitted` version (its submitter gets 403, but an "
        "organiser may confirm their own). It replaces the game's confirmed version.",
        request=None,
        responses={200: ResultOutSerializer, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Confirmed",
                value={**RESULT_EXAMPLE, "confirmed_by": "carol"},
                response_only=True,
            )
        ],
    )
    def post(self, request: Any, pk: int, version: int) -> Response:
        game = self.game
        valid(NoBody, request.data)  # a body, if any, must be empty
        result = game.results.filter(version=version).first()
        if result is None:
            raise Http404(_("No such version."))
        result = services.result_confirm(result=result, by=request.user)
        return Response(
            ResultOutSerializer(
                results_shown().get(pk=result.pk),
                context=staff_context(request, game.table.round.tournament),
            ).data
        )


# --- penalties ------------------------------------------------------------------------------


class PenaltyListView(GameScoped, APIView):
    @extend_schema(
        tags=["penalties"],
        summary="Record a penalty",
        description="Organisers and scorekeepers. `timeout` and `failed_manipulation` make "
        "the player draw tiles (from the rules' `timeout_draw` / `failed_manipulation_draw`); "
        "a `sanction` needs `points` > 0, taken off that player's score in this game.",
        request=PenaltyInSerializer,
        responses={201: PenaltyOutSerializer, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Timeout",
                value={"player": 12, "kind": "timeout", "note": "turn ran past two minutes"},
                request_only=True,
            ),
            OpenApiExample("Recorded", value=PENALTY_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request: Any, pk: int) -> Response:
        game = self.game
        data = valid(PenaltyInSerializer, request.data)
        penalty = services.penalty_record(game=game, by=request.user, **data)
        context = staff_context(request, game.table.round.tournament)
        return Response(
            PenaltyOutSerializer(penalty, context=context).data, status=status.HTTP_201_CREATED
        )


class PenaltyDetailView(APIView):
    @extend_schema(
        tags=["penalties"],
        summary="Void a penalty",
        description="Organisers and scorekeepers. The penalty stops counting but stays in "
        "the history (`voided: true`); voiding it twice is a 400.",
        responses={204: None, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Already void",
                value={"non_field_errors": ["this penalty is already void."]},
                response_only=True,
                status_codes=["400"],
            )
        ],
    )
    def delete(self, request: Any, pk: int) -> Response:
        penalty = visible_penalty(request.user, pk)
        if penalty is None:
            raise Http404(_("No such penalty."))
        services.penalty_void(penalty=penalty, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- time extensions ------------------------------------------------------------------------


class ExtensionListView(GameScoped, APIView):
    @extend_schema(
        tags=["games"],
        summary="Set a player's time extensions",
        description="Organisers and scorekeepers. Records how many time extensions (extra "
        "turn time, as some clubs allow) a seated player has taken in this game: the "
        f"count, 0 to {MAX_EXTENSIONS}, not an increment. Scores are unchanged; the game "
        "lists the counts under `extensions`.",
        request=ExtensionInSerializer,
        responses={200: ExtensionOutSerializer, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample("One taken", value={"player": 13, "used": 1}),
        ],
    )
    def put(self, request: Any, pk: int) -> Response:
        game = self.game
        data = valid(ExtensionInSerializer, request.data)
        extension: Extension = extension_set(game=game, by=request.user, **data)
        return Response(ExtensionOutSerializer(extension).data)
