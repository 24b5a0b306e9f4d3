"""REST API for rounds (docs/api/reference.md): list them, read one, open the next — each
round with its tables, seats, games and seating quality — and cancel the last one before
any result. The write services decide who may open or cancel one (organisers only)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    RawJSONField,
    StrictBooleanField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)
from tournaments.models import Round, Tournament

from ..models import Table
from ..services import draw as drawing
from ..services import rounds as services
from .examples import DRAW_EXAMPLE, ROUND_EXAMPLE

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


class SeatOutSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id", help_text="Player id.")


class GameBriefOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    starter = serializers.IntegerField(
        source="present_starter_position",
        help_text="Seat position of the player who starts: the rotation's starter, or the "
        "next present seat after it when that player has left the table.",
    )


class TableOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    seats = SeatOutSerializer(many=True)
    games = GameBriefOutSerializer(many=True)


class RoundOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    method = serializers.ChoiceField(choices=Round.Method.choices)
    stage = serializers.IntegerField(
        source="stage.number",
        allow_null=True,
        help_text="The number of the stage the round belongs to; null for a round opened "
        "without one (a tournament without stages; once stages exist, such rounds count "
        "as stage 1's).",
    )
    tables = TableOutSerializer(many=True)
    quality = RawJSONField(schema=QUALITY_SCHEMA)


class RoundInSerializer(StrictInput):
    method = StrictChoiceField(
        choices=Round.Method.choices,
        required=False,
        help_text="`manual` (give `tables`), `random` (fewest repeat meetings), `swiss` "
        "(by current standings), `plan` (a planned schedule), `alternating` or `snake` (the "
        "stage's seeds dealt round the tables). Left out: the round's stage's `seating` "
        "(without one, a 400 naming `method`).",
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
        "a repeated click or retry harmless. Required to commit a previewed draw.",
    )
    dry_run = StrictBooleanField(
        required=False,
        default=False,
        help_text="true: answer 200 with the draw that would be made (a preview: tables, "
        "starters, quality in words, table sizes, missing results of earlier rounds) and "
        "save nothing. Its `commit` member is the body that opens exactly that draw.",
    )
    open_anyway = StrictBooleanField(
        required=False,
        default=False,
        help_text="Open although earlier rounds have games without a confirmed result; "
        "without it such a request answers 409 naming `open_anyway` and listing them in "
        "`missing_results`.",
    )
    stage = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="The number of the stage the round belongs to. Needed only while two "
        "stages are open at once (a side event beside the main stage): then leaving it out, "
        "or naming a stage that is not open, answers 400 naming `stage`. A stage that is "
        "done (a race to N won, a re-seated stage with all its games played) answers 409 "
        "naming `stage`.",
    )


class DrawnSeatOutSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField(help_text="Player id.")


class DrawnGameOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    starter = serializers.IntegerField(help_text="Seat position of the player who starts.")


class DrawnTableOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seats = DrawnSeatOutSerializer(many=True)
    games = DrawnGameOutSerializer(many=True)


class MissingResultsOutSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    missing = serializers.IntegerField(help_text="Games without any result.")
    missing_tables = serializers.ListField(child=serializers.IntegerField())
    unconfirmed = serializers.IntegerField(help_text="Games whose result awaits confirmation.")
    unconfirmed_tables = serializers.ListField(child=serializers.IntegerField())
    message = serializers.CharField(source="sentence")


class DrawCommitOutSerializer(serializers.Serializer):
    method = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    number = serializers.IntegerField()
    tables = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))
    open_anyway = serializers.BooleanField()
    stage = serializers.IntegerField(
        required=False, help_text="In stages only: the stage the round belongs to."
    )


class DrawOutSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The round this draw would open.")
    method = serializers.ChoiceField(choices=Round.Method.choices)
    seed = serializers.IntegerField(
        allow_null=True, help_text="The seed drawn from (null for manual)."
    )
    tables = DrawnTableOutSerializer(many=True)
    quality = RawJSONField(schema=QUALITY_SCHEMA)
    quality_words = serializers.ListField(
        child=serializers.CharField(), help_text="The quality figures in sentences."
    )
    table_sizes = serializers.CharField(
        help_text="The tables by size and their games, e.g. '2 tables of 4 and 2 tables of "
        "3; tables of 3 play 3 games.'"
    )
    uneven = serializers.BooleanField(help_text="Some players play fewer games than others.")
    missing_results = MissingResultsOutSerializer(many=True, help_text="Per earlier round, if any.")
    open_anyway_needed = serializers.BooleanField()
    commit = DrawCommitOutSerializer(help_text="POST this body to open exactly this draw.")
    stage = serializers.IntegerField(
        allow_null=True, help_text="The stage the round would belong to (null: no stages)."
    )
    stage_words = serializers.CharField(
        allow_blank=True,
        help_text="A stage of one game per round, e.g. 're-seated every game: game 2 of 4' "
        "or 'first to 4 wins: game 3 of at most 9'; else empty.",
    )


def draw_out(preview: drawing.DrawPreview) -> dict[str, Any]:
    return {
        "number": preview.number,
        "method": preview.method,
        "seed": preview.seed,
        "tables": [
            {
                "number": index + 1,
                "seats": [{"position": n, "player": p} for n, p in enumerate(players, 1)],
                "games": [
                    {"number": n, "starter": players.index(starter) + 1}
                    for n, starter in enumerate(preview.starters(index), 1)
                ],
            }
            for index, players in enumerate(preview.tables)
        ],
        "quality": preview.quality,
        "quality_words": preview.quality_words,
        "table_sizes": preview.table_sizes,
        "uneven": preview.uneven,
        "missing_results": preview.gaps,
        "open_anyway_needed": preview.needs_open_anyway,
        "commit": {
            "method": preview.method,
            "seed": preview.seed,
            "number": preview.number,
            "tables": preview.tables,
            "open_anyway": preview.needs_open_anyway,
            # Only in stages: a tournament without them commits as before.
            **({"stage": preview.stage.number} if preview.stage else {}),
        },
        "stage": preview.stage.number if preview.stage else None,
        "stage_words": preview.stage_words,
    }


def rounds_with_tables(tournament: Tournament) -> QuerySet[Round]:
    return (
        tournament.rounds.order_by("number")
        .select_related("stage")
        .prefetch_related(
            Prefetch("tables", queryset=Table.objects.prefetch_related("seats", "games"))
        )
    )


@extend_schema_view(
    get=extend_schema(
        tags=["rounds"],
        summary="List rounds",
        responses={200: RoundOutSerializer(many=True), **errors(400, 404)},
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
    serializer_class = RoundOutSerializer

    def get_queryset(self) -> QuerySet[Round]:
        if self.fake():
            return Round.objects.none()
        return rounds_with_tables(self.tournament)

    @extend_schema(
        tags=["rounds"],
        summary="Open the next round (or preview it)",
        description="Organisers only. Seats every active player and creates each table's "
        "games: `games_per_table`, or one per seated player; game n is started by seat "
        "((n-1) mod seats) + 1. `manual` takes `tables` (player ids, 2 to table_size per "
        "table, every active player exactly once); the other methods draw the seating. "
        "With `number`, a repeated request gets 409 instead of opening another round.\n\n"
        "Two steps: `dry_run: true` answers 200 with the draw that would be made and saves "
        "nothing (send `seed` again to see the same draw, leave it out for a new one; send "
        "`tables` back with a drawn method to measure a draw swapped by hand). Then POST "
        "the preview's `commit` body — the drawn method with `tables`, `seed` and `number` "
        "— to open exactly that draw: 409 naming `number` when another round was opened "
        "meanwhile (a stale preview), 400 naming `tables` when the tables do not seat "
        "exactly the players to seat.\n\nWhile an earlier round has games without a "
        "confirmed result, opening needs `open_anyway: true`; without it the answer is 409 "
        "naming `open_anyway`, the rounds listed in `missing_results`, nothing saved.",
        request=RoundInSerializer,
        responses={
            200: OpenApiResponse(
                DrawOutSerializer, description="`dry_run`: the draw, nothing saved."
            ),
            201: RoundOutSerializer,
            **errors(400, 401, 403, 404, 409),
        },
        examples=[
            OpenApiExample(
                "Manual",
                value={"method": "manual", "tables": [[11, 12, 13, 14], [15, 16, 17]]},
                request_only=True,
            ),
            OpenApiExample(
                "Preview", value={"method": "random", "dry_run": True}, request_only=True
            ),
            OpenApiExample(
                "Commit a preview",
                value=DRAW_EXAMPLE["commit"],
                request_only=True,
            ),
            OpenApiExample("Opened", value=ROUND_EXAMPLE, response_only=True, status_codes=["201"]),
            OpenApiExample(
                "Previewed", value=DRAW_EXAMPLE, response_only=True, status_codes=["200"]
            ),
            OpenApiExample(
                "Results missing",
                value={
                    "open_anyway": [
                        "round 1: 3 games missing at table 2. Say 'open anyway' to open "
                        "round 2 all the same."
                    ],
                    "missing_results": ["round 1: 3 games missing at table 2"],
                },
                response_only=True,
                status_codes=["409"],
            ),
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
        data = valid(RoundInSerializer, request.data)
        # `seed` only when given: the service draws one otherwise.
        extra = {key: data[key] for key in ("seed", "number", "stage") if data.get(key) is not None}
        if data["dry_run"]:
            preview = drawing.round_draw(
                tournament=tournament,
                by=request.user,
                method=data.get("method"),
                tables=data.get("tables"),
                **extra,
            )
            return Response(DrawOutSerializer(draw_out(preview)).data)
        round_ = services.round_open(
            tournament=tournament,
            by=request.user,
            method=data.get("method"),
            tables=data.get("tables"),
            open_anyway=data["open_anyway"],
            **extra,
        )
        return Response(
            RoundOutSerializer(rounds_with_tables(tournament).get(pk=round_.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class RoundDetailView(TournamentScoped, APIView):
    @extend_schema(
        tags=["rounds"],
        summary="Read a round",
        description="One round by its number, with tables, seats, games and seating quality.",
        responses={200: RoundOutSerializer, **errors(404)},
        examples=[OpenApiExample("Round", value=ROUND_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, slug: str, number: int) -> Response:
        round_ = rounds_with_tables(self.tournament).filter(number=number).first()
        if round_ is None:
            raise Http404(_("No such round."))
        return Response(RoundOutSerializer(round_).data)

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
            raise Http404(_("No such round."))
        services.round_cancel(round_=round_, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
