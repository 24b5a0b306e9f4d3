"""REST API for check-in (`tournaments.services.checkin`): who of the active players is
present for a round, by the round's number — before the round is opened, so
`rounds/{number}/checkin/` answers for a round that does not exist yet. Organisers and
scorekeepers may check players in or out; anyone who may see the tournament may read it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..selectors import checkin_list
from ..services import checkin as services
from ..services.validation import whole_number_between
from . import examples
from .common import (
    NoBodySerializer,
    StrictBooleanField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    valid,
)
from .common import errors as error_answers


class CheckInRowOutSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk", help_text="Player id.")
    number = serializers.IntegerField(source="player.number", help_text="Start number.")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")
    present = serializers.BooleanField()


class CheckInOutSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round number the check-in is for.")
    present = serializers.IntegerField(help_text="How many active players are present.")
    absent = serializers.IntegerField(help_text="How many are marked absent.")
    players = CheckInRowOutSerializer(many=True, help_text="Every active player, by start number.")


class CheckInInSerializer(StrictInput):
    player = StrictIntegerField(help_text="The id of an active player of this tournament.")
    present = StrictBooleanField(help_text="`false` marks them absent for this round only.")


def checkin_body(tournament: Any, number: int) -> dict[str, Any]:
    number = whole_number_between(
        "round", number, low=1, high=services.MAX_ROUND_NUMBER, nullable=False
    )
    rows = checkin_list(tournament, number)
    present = sum(row.present for row in rows)
    return CheckInOutSerializer(
        {"round": number, "present": present, "absent": len(rows) - present, "players": rows}
    ).data


class CheckInView(TournamentScoped, APIView):
    @extend_schema(
        tags=["check-in"],
        summary="Read a round's check-in",
        description="Every active player, present or absent for round `number` (present "
        "unless marked absent). The round need not be open yet: check-in comes before it. "
        "Opening the round seats the present players only.",
        responses={200: CheckInOutSerializer, **error_answers(400, 404)},
        examples=examples.CHECK_IN_GET,
    )
    def get(self, request: Any, slug: str, number: int) -> Response:
        return Response(checkin_body(self.tournament, number))

    @extend_schema(
        tags=["check-in"],
        summary="Check one player in or out",
        description="Organisers and scorekeepers. Marks one active player present or absent "
        "for round `number` (absent for this round only; they are seated again in the next). "
        "Answers with the whole check-in. A withdrawn or unknown player is a 400 on `player`; "
        "a round already open is a 409 on `round` (nothing is saved).",
        request=CheckInInSerializer,
        responses={200: CheckInOutSerializer, **error_answers(400, 401, 403, 404, 409)},
        examples=examples.CHECK_IN_PUT,
    )
    def put(self, request: Any, slug: str, number: int) -> Response:
        data = valid(CheckInInSerializer, request.data)
        services.checkin_set(
            tournament=self.tournament,
            by=request.user,
            round_number=number,
            player=data["player"],
            present=data["present"],
        )
        return Response(checkin_body(self.tournament, number))


class CheckInEveryoneView(TournamentScoped, APIView):
    @extend_schema(
        tags=["check-in"],
        summary="Everyone present",
        description="Organisers and scorekeepers. Marks every active player present for "
        "round `number` in one action. A round already open is a 409 on `round`.",
        request=NoBodySerializer,
        responses={200: CheckInOutSerializer, **error_answers(400, 401, 403, 404, 409)},
        examples=examples.CHECK_IN_EVERYONE_POST,
    )
    def post(self, request: Any, slug: str, number: int) -> Response:
        valid(NoBodySerializer, request.data)
        services.checkin_everyone(tournament=self.tournament, by=request.user, round_number=number)
        return Response(checkin_body(self.tournament, number))
