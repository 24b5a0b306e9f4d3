"""REST API for the catalogue of formats: list it, and create a tournament from one
(`tournaments.services.formats`; the formats themselves are data in `scoring.formats`)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.formats import CATALOGUE, Format

from ..models import Club
from ..services.formats import tournament_from_format
from .common import StrictCharField, StrictDateField, StrictInput, errors, valid
from .tournaments import TournamentOutSerializer


class FormatStageOutSerializer(serializers.Serializer):
    name = serializers.CharField()
    settings = serializers.DictField(help_text="The stage's settings as `stages/` takes them.")


class FormatOutSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    # A field named `source`: the stubs type the attribute as Field's own `source` string.
    source = serializers.CharField(help_text="Where the format comes from.")  # type: ignore[assignment]
    tournament = serializers.DictField(help_text="The tournament settings it sets.")
    divisions = serializers.ListField(child=serializers.CharField())
    stages = FormatStageOutSerializer(many=True)
    qualify_slots = serializers.IntegerField(allow_null=True)
    qualify_event = serializers.CharField(allow_blank=True)
    qualify_stage = serializers.IntegerField(allow_null=True)
    season_rule = serializers.DictField(allow_null=True)


def format_out(chosen: Format) -> dict[str, Any]:
    return {
        "key": chosen.key,
        "name": _(chosen.name),
        "description": _(chosen.description),
        "source": _(chosen.source),
        "tournament": chosen.tournament_settings(),
        "divisions": list(chosen.divisions),
        "stages": [{"name": plan.name, "settings": plan.settings()} for plan in chosen.stages],
        "qualify_slots": chosen.qualify_slots,
        "qualify_event": chosen.qualify_event,
        "qualify_stage": chosen.qualify_stage,
        "season_rule": dict(chosen.season_rule) if chosen.season_rule else None,
    }


FORMAT_EXAMPLE: dict[str, Any] = {
    "key": "belgian-open",
    "name": "Belgian open",
    "description": "Qualification at 3 games per table, semi-finals of the top 8 at 2 games "
    "(seeded alternately: 1, 3, 5, 7 / 2, 4, 6, 8), a final table of the top 4 playing 1 game.",
    "source": "A Belgian open's format (3, then 2, then 1 game per table; semi-finals seated "
    "alternately by rank), as surveyed for Rummitab.",
    "tournament": {
        "preset": "standard",
        "rules": {},
        "table_size": 4,
        "games_per_table": 3,
        "rounds_planned": 3,
        "target_score": None,
        "target_games_cap": None,
        "ranking": ["score", "games_won", "lot"],
    },
    "divisions": [],
    "stages": [
        {
            "name": "Semi-finals",
            "settings": {
                "name": "Semi-finals",
                "kind": "semi_final",
                "entry": "top",
                "cut_top": 8,
                "games_per_table": 2,
                "seating": "alternating",
            },
        }
    ],
    "qualify_slots": None,
    "qualify_event": "",
    "qualify_stage": None,
    "season_rule": None,
}


class FormatListView(APIView):
    @extend_schema(
        tags=["formats"],
        summary="List the formats",
        description="The catalogue of ready formats, in order: each with a short description, "
        "its source and every setting it gives the tournament and its stages. Anyone may "
        "read it.",
        responses={200: FormatOutSerializer(many=True)},
        examples=[OpenApiExample("Formats", value=FORMAT_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any) -> Response:
        return Response(FormatOutSerializer([format_out(f) for f in CATALOGUE], many=True).data)


class FromFormatInSerializer(StrictInput):
    format = StrictCharField(help_text="A format's key (GET formats/).")
    name = StrictCharField(required=False, help_text="Left out: the format's name.")
    slug = StrictCharField(required=False)
    starts_on = StrictDateField(required=False, allow_null=True)
    club = StrictCharField(
        required=False,
        help_text="A club's slug, for a format with a season rule: the tournament is held in "
        "that club's season of the format's name (made when missing). You must organise "
        "the club (else 403).",
    )


class FromFormatView(APIView):
    @extend_schema(
        tags=["formats"],
        summary="Create a tournament from a format",
        description="Any signed-in user: creates the tournament with the format's rules, its "
        "divisions and its stages (upcoming, ready to seat once players are registered); "
        "the user organises it. A key not in the catalogue is a 400 naming `format`; "
        "nothing is saved on any refusal.",
        request=FromFormatInSerializer,
        responses={201: TournamentOutSerializer, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "Belgian open",
                value={"format": "belgian-open", "name": "Open 2026", "starts_on": "2026-12-05"},
                request_only=True,
            ),
        ],
    )
    def post(self, request: Any) -> Response:
        data = valid(FromFormatInSerializer, request.data)
        club = get_object_or_404(Club, slug=data["club"]) if data.get("club") else None
        tournament = tournament_from_format(
            by=request.user,
            format=data["format"],
            name=data.get("name"),
            slug=data.get("slug"),
            starts_on=data.get("starts_on"),
            club=club,
        )
        return Response(TournamentOutSerializer(tournament).data, status=status.HTTP_201_CREATED)
