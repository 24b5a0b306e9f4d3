"""REST API for rounds (API.md): list them, read one, open the next — each round with its
tables, seats, games and seating quality — and cancel the last one before any result. The
write services decide who may open or cancel one (organisers only)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    RawJSONField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)
from tournaments.models import Round, Tournament

from ..models import Table
from ..services import rounds as services

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


class RoundIn(StrictInput):
    method = StrictChoiceField(
        choices=Round.Method.choices,
        help_text="`manual` (give `tables`), `random` (fewest repeat meetings), `swiss` "
        "(by current standings) or `plan` (a planned schedule).",
    )
    tables = RawJSONField(schema=TABLES_SCHEMA, required=False, allow_null=True)
    seed = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="For the drawn methods: the seed of the draw, to repeat a seating exactly; "
        "drawn and stored with the round when absent.",
    )
    number = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="The number of the round you mean to open (optional). When given and "
        "another round is next — a repeated request opened it already — nothing is opened "
        "and the answer is 409, naming the last round open in `last_round`. Send it to make "
        "a repeated click or retry harmless.",
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
    return tournament.rounds.order_by("number").prefetch_related(
        Prefetch("tables", queryset=Table.objects.prefetch_related("seats", "games"))
    )


@extend_schema_view(
    get=extend_schema(
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
)
class RoundListView(TournamentScoped, ListAPIView):
    serializer_class = RoundOut

    def get_queryset(self) -> QuerySet[Round]:
        if self.fake():
            return Round.objects.none()
        return rounds_with_tables(self.tournament)

    @extend_schema(
        tags=["rounds"],
        summary="Open the next round",
        description="Organisers only. Seats every active player and creates each table's "
        "games: `games_per_table`, or one per seated player; game n is started by seat "
        "((n-1) mod seats) + 1. `manual` takes `tables` (player ids, 2 to table_size per "
        "table, every active player exactly once); the other methods draw the seating. "
        "With `number`, a repeated request gets 409 instead of opening another round.",
        request=RoundIn,
        responses={201: RoundOut, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Manual",
                value={"method": "manual", "tables": [[11, 12, 13, 14], [15, 16, 17]]},
                request_only=True,
            ),
            OpenApiExample("Opened", value=ROUND_EXAMPLE, response_only=True),
            OpenApiExample(
                "Already open",
                value={
                    "number": ["round 2 is already open; nothing new was opened."],
                    "last_round": 2,
                },
                response_only=True,
                status_codes=["409"],
            ),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        tournament = self.tournament
        data = valid(RoundIn, request.data)
        # `seed` only when given: the service draws one otherwise.
        extra = {key: data[key] for key in ("seed", "number") if data.get(key) is not None}
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

    @extend_schema(
        tags=["rounds"],
        summary="Cancel the last round",
        description="Organisers only. Cancels the tournament's last round while nothing of "
        "it is played: its tables, seats and games are deleted and its number is free again "
        "(the next round opened gets it; a planned schedule seats it as planned). A round "
        "that is not the last one, or that has any result (even one awaiting confirmation) "
        "or any penalty, is kept: 409 naming `round`, with the reason.",
        request=None,
        responses={204: None, **errors(401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Played",
                value={"round": ["round 3 has results at tables 1 and 4; it cannot be cancelled."]},
                response_only=True,
                status_codes=["409"],
            ),
        ],
    )
    def delete(self, request: Any, slug: str, number: int) -> Response:
        round_ = self.tournament.rounds.filter(number=number).first()
        if round_ is None:
            raise Http404("No such round.")
        services.round_cancel(round_=round_, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
