"""REST API for penalties (docs/api/reference.md): a game's penalties, one recorded, one
voided. Thin views over `games.services.results`; staff names: see `games.api.games`.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
)
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    errors,
    valid,
)

from ..models import Penalty
from ..selectors.games import (
    visible_penalty,
)
from ..services import results as services
from .examples import PENALTY_EXAMPLE
from .games import GameScoped, PenaltyOutSerializer, staff_context


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
