"""REST API for a tournament's divisions: list and read them (anyone who may
see the tournament), add, change and delete them (organisers; the services decide).

A division's players are set on the players (`PATCH players/{id}/` with `divisions`, a
list of slugs); its standings are `GET standings/?division=<slug>`."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Division, Player
from ..services import divisions as services
from . import examples
from .common import (
    RawJSONField,
    StrictCharField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)


class DivisionOutSerializer(serializers.Serializer):
    slug = serializers.CharField(help_text="Names it in addresses: `standings/?division=`.")
    name = serializers.CharField()
    order = serializers.IntegerField(help_text="Its place among the tournament's divisions.")
    prizes = serializers.ListField(
        child=serializers.CharField(allow_blank=True),
        help_text="Labels of its places, 1st first (an empty label: no prize for that place).",
    )
    players = serializers.SerializerMethodField(help_text="Its players' ids, in start order.")

    def get_players(self, division: Division) -> list[int]:
        return [player.pk for player in division.players.all()]


class DivisionInSerializer(StrictInput):
    name = StrictCharField(help_text="Unique in the tournament (any case), up to 60 characters.")
    slug = StrictCharField(
        required=False,
        help_text="Letters, digits, `-` and `_`; made from the name when left out.",
    )
    order = StrictIntegerField(required=False, help_text="0 to 999; left out: after the last.")
    prizes = RawJSONField(
        schema={"type": "array", "items": {"type": "string"}},
        required=False,
        help_text="Labels of its places, 1st first: at most 20, each up to 80 characters.",
    )


class DivisionChangeInSerializer(DivisionInSerializer):
    name = StrictCharField(required=False)


def _divisions(view: TournamentScoped) -> QuerySet[Division]:
    players = Prefetch("players", queryset=Player.objects.only("id").order_by("number"))
    return view.tournament.divisions.prefetch_related(players).order_by("order", "name", "id")


def _division(view: TournamentScoped, slug: str) -> Division:
    division = _divisions(view).filter(slug=slug).first()
    if division is None:
        raise Http404(_("No such division in this tournament."))
    return division


class DivisionListView(TournamentScoped, APIView):
    @extend_schema(
        tags=["divisions"],
        summary="List divisions",
        description="The tournament's divisions in their order, each with its players.",
        responses={200: DivisionOutSerializer(many=True), **errors(404)},
        examples=examples.DIVISION_LIST_GET,
    )
    def get(self, request: Any, slug: str) -> Response:
        return Response(DivisionOutSerializer(_divisions(self), many=True).data)

    @extend_schema(
        tags=["divisions"],
        summary="Add a division",
        description="Organisers only. A name (or slug) the tournament has already is a 400 "
        "naming it.",
        request=DivisionInSerializer,
        responses={201: DivisionOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.DIVISION_LIST_POST,
    )
    def post(self, request: Any, slug: str) -> Response:
        data = valid(DivisionInSerializer, request.data)
        division = services.division_create(tournament=self.tournament, by=request.user, **data)
        return Response(DivisionOutSerializer(division).data, status=status.HTTP_201_CREATED)


class DivisionDetailView(TournamentScoped, APIView):
    @extend_schema(
        tags=["divisions"],
        summary="Read a division",
        responses={200: DivisionOutSerializer, **errors(404)},
        examples=examples.DIVISION_DETAIL_GET,
    )
    def get(self, request: Any, slug: str, division: str) -> Response:
        return Response(DivisionOutSerializer(_division(self, division)).data)

    @extend_schema(
        tags=["divisions"],
        summary="Change a division",
        description="Organisers only: the fields sent. A new name keeps the slug unless one "
        "is sent.",
        request=DivisionChangeInSerializer,
        responses={200: DivisionOutSerializer, **errors(400, 401, 403, 404)},
        examples=examples.DIVISION_DETAIL_PATCH,
    )
    def patch(self, request: Any, slug: str, division: str) -> Response:
        changes = valid(DivisionChangeInSerializer, request.data, partial=True)
        changed = services.division_update(
            division=_division(self, division), by=request.user, **changes
        )
        return Response(DivisionOutSerializer(_division(self, changed.slug)).data)

    @extend_schema(
        tags=["divisions"],
        summary="Delete a division",
        description="Organisers only. Its players stay in the tournament. A division a stage "
        "is limited to is kept (409 naming `division`).",
        request=None,
        responses={204: None, **errors(401, 403, 404, 409)},
        examples=examples.DIVISION_DETAIL_DELETE,
    )
    def delete(self, request: Any, slug: str, division: str) -> Response:
        services.division_delete(division=_division(self, division), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
