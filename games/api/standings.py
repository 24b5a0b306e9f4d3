"""REST API for standings (docs/api/reference.md): the latest stored snapshot, as JSON or CSV.

The snapshot is recomputed in the background after every change; the answer says which
`results_version` it was computed from and whether it is `stale` (behind the tournament).
When no snapshot exists at all (or no worker can be asked) one is computed here and now.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import renderers, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import TournamentScoped, errors
from tournaments.models import Division, Tournament
from tournaments.selectors import division_named

from ..exports import qualified_csv, ranking_csv, standings_csv
from ..selectors.caching import page_state
from ..selectors.standings import HIDE, STANDINGS_PAGE_SIZE, STANDINGS_WHOLE_UP_TO, standings_table
from ..views.caching import cached
from .examples import STANDINGS_EXAMPLE


class StandingsPlayerOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    status = serializers.CharField()


@extend_schema_field(OpenApiTypes.NUMBER)
class MetricValueField(serializers.Field):
    """A metric's value as computed: a whole number, or (the per-game metrics) a number
    with 2 decimal places."""

    def to_representation(self, value: Any) -> Any:
        return value


class StandingsRowOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Equal on every ranking metric → equal rank.")
    player = StandingsPlayerOutSerializer()
    metrics = serializers.DictField(
        child=MetricValueField(),
        help_text="Every metric of `ranking`, plus games_played, games_won, score, penalties "
        "and the other cheap metrics. Whole numbers, except score_per_game and won_per_game "
        "(score and games won divided by games played, rounded to 2 decimal places, halves "
        "away from zero; ranked as rounded), which are reported only when in `ranking`.",
    )
    notes = serializers.DictField(
        required=False,
        help_text="Present only when there is something to say: `joined_round`, "
        "`missed_rounds` (not_played | average | zero) and `missed_games` for a late entry; "
        "`substitute_games` (games a substitute played in the seat) with "
        "`substitute_games_credited`; `forfeits` (games the seat forfeited).",
    )
    qualified = serializers.BooleanField(
        default=False,
        help_text="The player takes one of the tournament's qualification slots "
        "(`qualify_slots` for `qualify_event`, passed down past players already qualified); "
        "false when the tournament declares none.",
    )
    already_qualified = serializers.BooleanField(
        required=False,
        help_text="Present (true) only for a player qualified for that event already: they "
        "pass their slot down.",
    )
    slot_by_lot = serializers.BooleanField(
        required=False,
        help_text="Present (true) only for the players who shared the rank at the last slot: "
        "the slots among them were decided by their lot.",
    )


class StandingsOutSerializer(serializers.Serializer):
    results_version = serializers.IntegerField(help_text="The tournament's current version.")
    computed_version = serializers.IntegerField(help_text="The version the rows are from.")
    stale = serializers.BooleanField(help_text="The rows are behind `results_version`.")
    computed_at = serializers.DateTimeField(allow_null=True)
    ranking = serializers.ListField(child=serializers.CharField())
    rows = StandingsRowOutSerializer(many=True, help_text="This page's rows, best first.")
    count = serializers.IntegerField(help_text="Rows in the whole table (players).")
    page = serializers.IntegerField(help_text="This page; 1 for a field shown whole.")
    pages = serializers.IntegerField(
        help_text=f"How many pages: 1 up to {STANDINGS_WHOLE_UP_TO} players, then pages of "
        f"{STANDINGS_PAGE_SIZE} rows (`?page=N`, or `?player=N` for a start number's page)."
    )


DIVISION_HELP = (
    "A division's slug (`GET divisions/`): only its players, ranked again 1..n among "
    "themselves in the order of the whole field's standings (a shared rank stays shared). "
    "A slug the tournament has no division for is a 400 naming `division`."
)


class StandingsQuerySerializer(serializers.Serializer):
    """The query of `GET standings/` (text, as every query string is)."""

    page = serializers.IntegerField(
        required=False, min_value=1, max_value=10**9, help_text="The page to show."
    )
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=10**9,
        help_text="A start number: show the page that player is on.",
    )
    withdrawn = serializers.ChoiceField(
        choices=[("show", "show"), (HIDE, HIDE)],
        required=False,
        help_text="`hide`: leave the withdrawn players out (they are otherwise listed after "
        "the active ones, never ranked among them); `count` and `pages` count what is shown.",
    )
    division = serializers.CharField(required=False, max_length=100, help_text=DIVISION_HELP)


class StandingsCSVQuerySerializer(serializers.Serializer):
    """The query of `GET standings.csv`."""

    withdrawn = serializers.ChoiceField(
        choices=[("show", "show"), (HIDE, HIDE)],
        required=False,
        help_text="`hide`: leave the withdrawn players out.",
    )
    division = serializers.CharField(required=False, max_length=100, help_text=DIVISION_HELP)


def division_of_query(tournament: Tournament, slug: str | None) -> Division | None:
    """The division `?division=` names (None: not asked); a 400 naming `division` when the
    tournament has none by that slug."""
    if slug is None:
        return None
    division = division_named(tournament, slug)
    if division is None:
        raise ValidationError(
            {
                "division": [
                    _("%(tournament)s has no division '%(division)s'.")
                    % {"tournament": tournament.name, "division": slug}
                ]
            }
        )
    return division


def standings_query(request: Any, tournament: Tournament) -> dict[str, Any]:
    query = StandingsQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    values = dict(query.validated_data)
    values["division"] = division_of_query(tournament, values.get("division"))
    return values


def standings_of(tournament: Tournament, query: dict[str, Any]) -> dict[str, Any]:
    """The latest snapshot and whether it is stale, exactly as the pages show it: kept in
    the shared cache per page state (`games.selectors.caching.page_state`) while it is not stale,
    so a large field's snapshot is not read whole for every request."""
    state = page_state(tournament)
    if state.stale:
        return _standings_read(tournament, query)
    key = (
        f"api:{tournament.slug}:standings:{state.tag}:{query.get('page')}:"
        f"{query.get('player')}:{query.get('withdrawn')}:"
        f"{query['division'].slug if query.get('division') else ''}"
    )
    return cached(key, lambda: _standings_read(tournament, query))


def _standings_read(tournament: Tournament, query: dict[str, Any]) -> dict[str, Any]:
    table = standings_table(
        tournament,
        page=query.get("page"),
        player_number=query.get("player"),
        hide_withdrawn=query.get("withdrawn") == HIDE,
        division=query.get("division"),
    )
    return {
        "results_version": table.results_version,
        "computed_version": table.computed_version,
        "stale": table.stale,
        "computed_at": table.computed_at,
        "ranking": table.ranking,
        "rows": table.rows,
        "count": table.count,
        "page": table.page,
        "pages": table.pages,
    }


class StandingsView(TournamentScoped, APIView):
    @extend_schema(
        tags=["standings"],
        summary="Read the standings",
        description="The latest standings snapshot, best first; `stale` says it is behind "
        "the tournament's `results_version` (a recompute is on its way). Only confirmed "
        "results count; sanction points are already taken off `score`. Up to "
        f"{STANDINGS_WHOLE_UP_TO} players every row comes at once; a larger field comes "
        f"{STANDINGS_PAGE_SIZE} rows a page (`?page=N`, or `?player=N`: the page with that "
        "start number), `count`, `page` and `pages` saying where it is. `?division=<slug>`: "
        "that division's players only, ranked again within it.",
        parameters=[StandingsQuerySerializer],
        responses={200: StandingsOutSerializer, **errors(400, 404)},
        examples=[OpenApiExample("Standings", value=STANDINGS_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, slug: str) -> Response:
        standings = standings_of(self.tournament, standings_query(request, self.tournament))
        return Response(StandingsOutSerializer(standings).data)


class CSVRenderer(renderers.BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):
        return data.encode(self.charset) if isinstance(data, str) else b""


def csv_answer(request: Any, text: str, filename: str) -> Response:
    """`text` as a CSV download, whatever the Accept header asked for: the address *is*
    the CSV."""
    request.accepted_renderer = CSVRenderer()
    request.accepted_media_type = CSVRenderer.media_type
    return Response(
        text,
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


class StandingsCSVView(TournamentScoped, APIView):
    renderer_classes = [CSVRenderer, renderers.JSONRenderer]

    def handle_exception(self, exc: Exception) -> Response:
        # Errors are JSON whatever the client accepts, like every other answer of the API.
        response = super().handle_exception(exc)
        self.request.accepted_renderer = renderers.JSONRenderer()
        self.request.accepted_media_type = "application/json"
        return response

    @extend_schema(
        tags=["standings"],
        summary="Download the standings as CSV",
        description="The same table as `GET standings/`: a header row `rank, player_id, "
        "number, name, club, status`, then the ranking metrics and the other metrics. "
        "UTF-8 with a BOM, rows end in CRLF; a text cell starting with `=` `+` `-` `@`, tab "
        "or CR gets a leading `'` so a spreadsheet does not run it (numbers stay numbers). "
        "`?withdrawn=hide` leaves the withdrawn players out; `?division=<slug>` keeps only "
        "that division's players, ranked again within it.",
        parameters=[StandingsCSVQuerySerializer],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                examples=[
                    OpenApiExample(
                        "CSV",
                        value="rank,player_id,number,name,club,status,games_won,score\r\n"
                        "1,11,1,Ada Peretz,Haifa RC,active,3,120\r\n",
                    )
                ],
            ),
            **errors(400, 404),
        },
    )
    def get(self, request: Any, slug: str) -> Response:
        query = StandingsCSVQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        hide = query.validated_data.get("withdrawn") == HIDE
        division = division_of_query(self.tournament, query.validated_data.get("division"))
        text = standings_csv(
            standings_table(self.tournament, whole=True, hide_withdrawn=hide, division=division)
        )
        return csv_answer(request, text, f"{self.tournament.slug}-standings.csv")


class RankingCSVView(StandingsCSVView):
    @extend_schema(
        tags=["standings"],
        summary="Download the ranking submission CSV",
        description="The flat file for ranking submissions: one row per player, best "
        "first, with the columns `event, date, rank, number, name, club, member_code, "
        "status, score, games_played, games_won` (`event` is the tournament's slug and "
        "`date` its first day on every row, so files of several events concatenate; "
        "`member_code` is the linked club member's code, empty when there is none). The "
        "same CSV conventions as `standings.csv`.",
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                examples=[
                    OpenApiExample(
                        "CSV",
                        value="event,date,rank,number,name,club,member_code,status,score,"
                        "games_played,games_won\r\nclub-open,2026-12-05,1,1,Ada Peretz,"
                        "Haifa RC,H-017,active,120,4,3\r\n",
                    )
                ],
            ),
            **errors(404),
        },
    )
    def get(self, request: Any, slug: str) -> Response:
        text = ranking_csv(self.tournament, standings_table(self.tournament, whole=True))
        return csv_answer(request, text, f"{self.tournament.slug}-ranking.csv")


class QualifiedCSVView(StandingsCSVView):
    @extend_schema(
        tags=["standings"],
        summary="Download the qualified list as CSV",
        description="The players who take the tournament's qualification slots "
        "(`qualify_slots` for `qualify_event`), in standings order: `event, qualify_event, "
        "slot, rank, number, name, club, member_code, decided_by_lot`. A player already "
        "qualified passes the slot down to the next one; withdrawn players take none; a "
        "tie at the last slot is decided by the players' lot (`decided_by_lot` 1). Only "
        "the header when the tournament declares no slots. The same CSV conventions as "
        "`standings.csv`.",
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR,
                examples=[
                    OpenApiExample(
                        "CSV",
                        value="event,qualify_event,slot,rank,number,name,club,member_code,"
                        "decided_by_lot\r\nclub-open,National final,1,2,7,Ada Peretz,"
                        "Haifa RC,H-017,0\r\n",
                    )
                ],
            ),
            **errors(404),
        },
    )
    def get(self, request: Any, slug: str) -> Response:
        text = qualified_csv(self.tournament, standings_table(self.tournament, whole=True))
        return csv_answer(request, text, f"{self.tournament.slug}-qualified.csv")
