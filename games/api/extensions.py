"""REST API for time extensions (docs/api/reference.md): a player's extensions in a game,
set (`games.services.extensions`).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
)
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    StrictInput,
    StrictIntegerField,
    errors,
    valid,
)

from ..models import MAX_EXTENSIONS, Extension
from ..services.extensions import extension_set
from .games import ExtensionOutSerializer, GameScoped


class ExtensionInSerializer(StrictInput):
    player = StrictIntegerField(help_text="Player id; must be seated at this table.")
    used = StrictIntegerField(
        help_text=f"How many extensions the player has taken in this game, 0 to "
        f"{MAX_EXTENSIONS} (the count, not one more)."
    )


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
