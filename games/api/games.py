"""REST API for games (docs/api/reference.md): a tournament's games and one game, with
its result, racks, penalties and time extensions; the serializers of what a game shows,
which the results, penalties, extensions and withdrawals API answer with too.

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
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    TournamentScoped,
    errors,
)
from tournaments.permissions import can_score

from ..models import MAX_EXTENSIONS, Game, Penalty, RackEntry, Result
from ..selectors.games import (
    games_shown,
    results_shown,
    visible_game,
    with_result_flag,
)
from .examples import GAME_EXAMPLE

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


class ExtensionOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id", help_text="Player id.")
    used = serializers.IntegerField(
        help_text=f"Time extensions this player took in this game (0 to {MAX_EXTENSIONS})."
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
