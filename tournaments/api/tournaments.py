"""REST API for tournaments (docs/api/reference.md): the list, one tournament created,
read, changed and deleted. Its staff are `tournaments.api.staff`.

Thin views: an input serializer reads the request's shape, one service call does the
work (the permission check and all the domain validation), an output serializer writes
the answer. Reading a tournament goes through `tournaments_visible_to`, so a private one
is a 404 to anyone without a role in it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.rules import OPTIONS, PRESET_NAMES
from scoring.seating import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from scoring.standings import METRICS

from ..models import Tournament
from ..selectors import tournaments_visible_to
from ..services import tournaments as services
from ..services.validation import max_length_of
from . import examples
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


RulesOutSerializer = type(
    "RulesOutSerializer",
    (serializers.Serializer,),
    {
        "__doc__": "Every rule option, resolved: the preset plus the overrides.",
        "preset": serializers.ChoiceField(choices=PRESET_NAMES),
        **{name: _rules_out_field(name) for name in OPTIONS},
    },
)


# --- serializers: tournaments -------------------------------------------------------------


class TournamentOutSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.SlugField()
    starts_on = serializers.DateField(allow_null=True)
    preset = serializers.CharField(source="rules.preset")
    rules = RulesOutSerializer()
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


class TournamentInSerializer(StrictInput):
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


class TournamentUpdateInSerializer(TournamentInSerializer):
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
        responses={200: TournamentOutSerializer(many=True), **errors(400)},
        description="The tournaments this user may see: every public one, and the private "
        "ones the user has a role in. Filter with `?status=`.",
        examples=examples.TOURNAMENT_LIST_GET,
    )
)
class TournamentListView(ListAPIView):
    serializer_class = TournamentOutSerializer
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
        request=TournamentInSerializer,
        responses={201: TournamentOutSerializer, **errors(400, 401)},
        examples=examples.TOURNAMENT_LIST_POST,
    )
    def post(self, request: Any) -> Response:
        data = valid(TournamentInSerializer, request.data)
        tournament = services.tournament_create(by=request.user, **data)
        return Response(TournamentOutSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(TournamentScoped, APIView):
    def _tournament(self, request: Any) -> Tournament:
        tournament = self.tournament
        return tournament

    @extend_schema(
        tags=["tournaments"],
        summary="Read a tournament",
        description="One tournament with its resolved rules, status and results version.",
        responses={200: TournamentOutSerializer, **errors(404)},
        examples=examples.TOURNAMENT_DETAIL_GET,
    )
    def get(self, request: Any, slug: str) -> Response:
        return Response(TournamentOutSerializer(self._tournament(request)).data)

    @extend_schema(
        tags=["tournaments"],
        summary="Change a tournament",
        description="Organisers only. Send the fields to change. `rules` overrides single "
        "options (a new `preset` starts from that preset); rules cannot change once a "
        "result exists, and the `slug` never changes (both 400).",
        request=TournamentUpdateInSerializer,
        responses={200: TournamentOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.TOURNAMENT_DETAIL_PATCH,
    )
    def patch(self, request: Any, slug: str) -> Response:
        tournament = self._tournament(request)
        changes = valid(TournamentUpdateInSerializer, request.data, partial=True)
        tournament = services.tournament_update(tournament=tournament, by=request.user, **changes)
        return Response(TournamentOutSerializer(tournament).data)

    @extend_schema(
        tags=["tournaments"],
        summary="Delete a tournament",
        description="Organisers only; a tournament with entered results is kept (400). "
        "Its rounds without results (tables, seats, games) are deleted with it.",
        responses={204: None, **errors(400, 401, 403, 404, 409)},
        examples=examples.TOURNAMENT_DETAIL_DELETE,
    )
    def delete(self, request: Any, slug: str) -> Response:
        services.tournament_delete(tournament=self._tournament(request), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
