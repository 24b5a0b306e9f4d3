"""REST API for result versions (docs/api/reference.md): a game's versions, a new one
submitted, a waiting one confirmed.

Thin views over `games.services.results`: the input serializers read the request's
shape, the services validate it against the rules and the seating (naming every wrong
field), score it with the engine and store it. Stale entries answer 409 with
`current_version`. Staff names: see `games.api.games`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    NoBodySerializer,
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    errors,
    valid,
)

from ..models import RackEntry, Result
from ..selectors.games import (
    results_shown,
)
from ..services import results as services
from ..services.results import MAX_RACK_TEXT
from .examples import RESULT_EXAMPLE, RESULT_REQUEST_EXAMPLE
from .games import GameScoped, ResultOutSerializer, staff_context


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
        valid(NoBodySerializer, request.data)  # a body, if any, must be empty
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
