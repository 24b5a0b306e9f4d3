"""REST API for check-in (`tournaments.services.checkin`): who of the active players is
present for a round, by the round's number — before the round is opened, so
`rounds/{number}/checkin/` answers for a round that does not exist yet. Organisers and
scorekeepers may check players in or out; anyone who may see the tournament may read it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..selectors import checkin_list
from ..services import checkin as services
from ..services.validation import whole_number_between
from .common import (
    NoBody,
    StrictBooleanField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    valid,
)
from .common import errors as error_answers


class CheckInRowOut(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk", help_text="Player id.")
    number = serializers.IntegerField(source="player.number", help_text="Start number.")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")
    present = serializers.BooleanField()


class CheckInOut(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round number the check-in is for.")
    present = serializers.IntegerField(help_text="How many active players are present.")
    absent = serializers.IntegerField(help_text="How many are marked absent.")
    players = CheckInRowOut(many=True, help_text="Every active player, by start number.")


class CheckInIn(StrictInput):
    player = StrictIntegerField(help_text="The id of an active player of this tournament.")
    present = StrictBooleanField(help_text="`false` marks them absent for this round only.")


CHECKIN_EXAMPLE = {
    "round": 3,
    "present": 1,
    "absent": 1,
    "players": [
        {"player": 11, "number": 1, "name": "Ada Peretz", "club": "Haifa RC", "present": True},
        {"player": 12, "number": 2, "name": "Ben Levi", "club": "", "present": False},
    ],
}
BAD_INPUT_EXAMPLES = [
    OpenApiExample(
        "Withdrawn player",
        value={"player": ["#2 Ben Levi has withdrawn and is not seated; reinstate them first."]},
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "Round already open",
        value={"round": ["round 2 is already open and seated; its check-in is closed (...)."]},
        response_only=True,
        status_codes=["409"],
    ),
]


def checkin_body(tournament: Any, number: int) -> dict[str, Any]:
    number = whole_number_between(
        "round", number, low=1, high=services.MAX_ROUND_NUMBER, nullable=False
    )
    rows = checkin_list(tournament, number)
    present = sum(row.present for row in rows)
    return CheckInOut(
        {"round": number, "present": present, "absent": len(rows) - present, "players": rows}
    ).data


class CheckInView(TournamentScoped, APIView):
    @extend_schema(
        tags=["check-in"],
        summary="Read a round's check-in",
        description="Every active player, present or absent for round `number` (present "
        "unless marked absent). The round need not be open yet: check-in comes before it. "
        "Opening the round seats the present players only.",
        responses={200: CheckInOut, **error_answers(400, 404)},
        examples=[OpenApiExample("Check-in", value=CHECKIN_EXAMPLE, response_only=True)],
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
        request=CheckInIn,
        responses={200: CheckInOut, **error_answers(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample("Absent", value={"player": 12, "present": False}, request_only=True),
            OpenApiExample("Check-in", value=CHECKIN_EXAMPLE, response_only=True),
            *BAD_INPUT_EXAMPLES,
        ],
    )
    def put(self, request: Any, slug: str, number: int) -> Response:
        data = valid(CheckInIn, request.data)
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
        request=NoBody,
        responses={200: CheckInOut, **error_answers(400, 401, 403, 404, 409)},
        examples=[OpenApiExample("Check-in", value=CHECKIN_EXAMPLE, response_only=True)],
    )
    def post(self, request: Any, slug: str, number: int) -> Response:
        valid(NoBody, request.data)
        services.checkin_everyone(tournament=self.tournament, by=request.user, round_number=number)
        return Response(checkin_body(self.tournament, number))
