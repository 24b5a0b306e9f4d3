"""REST API for stages: list and add a tournament's stages, a stage's
standings, and the cut that closes a stage (preview with `dry_run`, then commit).

The services decide everything (`tournaments.services.stages`, `games.services.stages`);
these views read the body strictly and shape the answers.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.common import (
    RawJSONField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictInput,
    StrictIntegerField,
    TournamentScoped,
    errors,
    valid,
)
from tournaments.models import Stage
from tournaments.permissions import require
from tournaments.selectors import division_members, stages_of
from tournaments.services.stages import stage_create, stage_update

from ..selectors.stages import rows_within
from ..services.stage_entrants import stage_entrants_set
from ..services.stages import (
    CutPreview,
    RaceView,
    StageRow,
    stage_close,
    stage_cut_preview,
    stage_race,
    stage_rows,
    stage_side_start,
)
from .examples import CUT_EXAMPLE, ROW_EXAMPLE, STAGE_EXAMPLE
from .standings import DIVISION_HELP, division_of_query


class StageOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField(help_text="qualification | semi_final | final | side")
    status = serializers.CharField(help_text="upcoming | running | closed")
    ranking = serializers.ListField(child=serializers.CharField())
    carry_over = serializers.CharField(help_text="all | none | half (rounded toward zero)")
    cut_top = serializers.IntegerField(allow_null=True)
    cut_min_score = serializers.IntegerField(allow_null=True)
    cut_ties = serializers.CharField(help_text="include | lot")
    reseat_every_game = serializers.BooleanField()
    race_target = serializers.IntegerField(allow_null=True)
    race_cap = serializers.IntegerField(allow_null=True)
    rounds_planned = serializers.IntegerField(
        allow_null=True,
        help_text="The rounds the organiser means to play in this stage (null: not said); "
        "it informs only, a round past it is not refused.",
    )
    side_of = serializers.IntegerField(
        source="side_of.number",
        allow_null=True,
        default=None,
        help_text="A side event: the number of the stage whose players not cut enter it.",
    )
    division = serializers.CharField(
        source="division.slug",
        allow_null=True,
        default=None,
        help_text="The slug of the division the stage is limited to (its cut takes only "
        "that division's players), or null.",
    )
    # A field named `source`: the stubs type the attribute as Field's own `source` string.
    source = serializers.IntegerField(  # type: ignore[assignment]
        source="source.number",
        allow_null=True,
        default=None,
        help_text="The number of the stage it takes its entrants from; null: the main "
        "stage before it (stage 1 and side events: none).",
    )
    entry = serializers.CharField(
        allow_blank=True,
        help_text="top | min_score | ranks | tables | division | manual; empty for stage 1 "
        "and side events.",
    )
    rank_from = serializers.IntegerField(allow_null=True, help_text="ranks: the first place.")
    rank_to = serializers.IntegerField(allow_null=True, help_text="ranks: the last place.")
    table_top = serializers.IntegerField(
        allow_null=True, help_text="tables: how many of each table go on."
    )
    best_losers = serializers.IntegerField(help_text="tables: how many of the others go on.")
    carry_rounding = serializers.CharField(
        help_text="toward_zero (7 → 3, -7 → -3) | half_up (7 → 4, -7 → -3)"
    )
    games_per_table = serializers.IntegerField(
        allow_null=True, help_text="Games per table in this stage; null: the tournament's."
    )
    seating = serializers.CharField(
        allow_blank=True,
        help_text="random | swiss | alternating | snake: the method a round opened in the "
        "stage without one is drawn by; empty: none.",
    )


class StageInSerializer(StrictInput):
    name = StrictCharField(max_length=60)
    kind = StrictChoiceField(choices=Stage.Kind.choices, required=False)
    ranking = RawJSONField(
        schema={"type": "array", "items": {"type": "string"}},
        required=False,
        help_text="Ordered metric keys; left out: the tournament's ranking.",
    )
    carry_over = StrictChoiceField(choices=Stage.CarryOver.choices, required=False)
    cut_top = StrictIntegerField(required=False, allow_null=True)
    cut_min_score = StrictIntegerField(required=False, allow_null=True)
    cut_ties = StrictChoiceField(choices=Stage.CutTies.choices, required=False)
    reseat_every_game = StrictBooleanField(required=False)
    race_target = StrictIntegerField(required=False, allow_null=True)
    race_cap = StrictIntegerField(required=False, allow_null=True)
    rounds_planned = StrictIntegerField(
        required=False,
        allow_null=True,
        help_text="The rounds planned in this stage, 1 to 100 (null: not said).",
    )
    division = StrictCharField(
        required=False,
        allow_null=True,
        help_text="A division's slug: the stage's cut takes only its players (not stage 1 "
        "nor a side event). One the tournament does not have is a 400 naming `division`.",
    )
    # A field named `source`: the stubs type the attribute as Field's own `source` string.
    source = StrictIntegerField(  # type: ignore[assignment]
        required=False,
        allow_null=True,
        help_text="The number of an earlier main stage to take the entrants from; left "
        "out: the main stage before. Several stages may name one source: they run in "
        "parallel once it closes.",
    )
    entry = StrictChoiceField(
        choices=Stage.Entry.choices,
        required=False,
        help_text="How the entrants are taken; left out: read from the fields given "
        "(cut_top, cut_min_score, rank_from, table_top).",
    )
    rank_from = StrictIntegerField(required=False, allow_null=True)
    rank_to = StrictIntegerField(required=False, allow_null=True)
    table_top = StrictIntegerField(required=False, allow_null=True, help_text="1 to 4.")
    best_losers = StrictIntegerField(required=False)
    carry_rounding = StrictChoiceField(choices=Stage.CarryRounding.choices, required=False)
    games_per_table = StrictIntegerField(required=False, allow_null=True, help_text="1 to 12.")
    seating = StrictChoiceField(
        choices=[("", "none"), *Stage.Seating.choices], required=False, allow_blank=True
    )


class StageListView(TournamentScoped, APIView):
    @extend_schema(
        tags=["stages"],
        summary="List the stages",
        description="The tournament's stages in order, each with its cut rule and status "
        "(upcoming, running, closed). A tournament without stages answers an empty list.",
        responses={200: StageOutSerializer(many=True), **errors(404)},
        examples=[OpenApiExample("Stages", value=STAGE_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, slug: str) -> Response:
        return Response(StageOutSerializer(stages_of(self.tournament), many=True).data)

    @extend_schema(
        tags=["stages"],
        summary="Add a stage",
        description="Organisers add the next stage (numbered after the last). Stage 1 takes "
        "no cut (everyone enters it); every later stage takes exactly one of `cut_top` (the "
        "top N of the previous stage) or `cut_min_score`. A ranking naming an unknown metric, "
        "a race cap below its target or two cut rules answer 400 naming the field, nothing "
        "saved.",
        request=StageInSerializer,
        responses={201: StageOutSerializer, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Final of the top 4",
                value={"name": "Final", "kind": "final", "cut_top": 4, "carry_over": "all"},
                request_only=True,
            ),
            OpenApiExample(
                "B final of places 9 to 16",
                value={
                    "name": "B final",
                    "kind": "final",
                    "source": 1,
                    "entry": "ranks",
                    "rank_from": 9,
                    "rank_to": 16,
                    "games_per_table": 2,
                    "seating": "snake",
                },
                request_only=True,
            ),
            OpenApiExample(
                "Table winners and 2 best losers",
                value={
                    "name": "Final",
                    "kind": "final",
                    "entry": "tables",
                    "table_top": 1,
                    "best_losers": 2,
                    "carry_over": "half",
                    "carry_rounding": "half_up",
                },
                request_only=True,
            ),
            OpenApiExample("Added", value=STAGE_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request: Any, slug: str) -> Response:
        data = valid(StageInSerializer, request.data)
        stage = stage_create(tournament=self.tournament, by=request.user, **data)
        return Response(StageOutSerializer(stage).data, status=status.HTTP_201_CREATED)


class StageChangeInSerializer(StageInSerializer):
    name = StrictCharField(max_length=60, required=False)


class StageDetailView(TournamentScoped, APIView):
    @extend_schema(
        tags=["stages"],
        summary="Read a stage",
        description="One stage by its number.",
        responses={200: StageOutSerializer, **errors(404)},
        examples=[OpenApiExample("Stage", value=STAGE_EXAMPLE, response_only=True)],
    )
    def get(self, request: Any, slug: str, number: int) -> Response:
        return Response(StageOutSerializer(_stage(self, number)).data)

    @extend_schema(
        tags=["stages"],
        summary="Change a stage",
        description="Organisers change the fields sent. A closed stage cannot change (409 "
        "naming `status`); a running one keeps its cut and carry-over (409 naming the "
        "field). Bad values answer 400 naming the field, as when adding.",
        request=StageChangeInSerializer,
        responses={200: StageOutSerializer, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample(
                "Rename, race to 4",
                value={"name": "Grand final", "race_target": 4, "race_cap": 9},
                request_only=True,
            ),
            OpenApiExample("Changed", value=STAGE_EXAMPLE, response_only=True),
        ],
    )
    def patch(self, request: Any, slug: str, number: int) -> Response:
        data = valid(StageChangeInSerializer, request.data)
        stage = stage_update(stage=_stage(self, number), by=request.user, **data)
        return Response(StageOutSerializer(stage).data)


class StagePlayerOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()


class StageRowOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = StagePlayerOutSerializer()
    carried = serializers.IntegerField(help_text="Score carried into the stage (in `score`).")
    metrics = serializers.DictField(help_text="As in the tournament standings' rows.")
    race_wins = serializers.IntegerField(
        allow_null=True, help_text="A race to N: the player's wins that count; else null."
    )


class RaceWinsOutSerializer(serializers.Serializer):
    player = StagePlayerOutSerializer()
    wins = serializers.IntegerField()


class RaceOutSerializer(serializers.Serializer):
    target = serializers.IntegerField(help_text="First to this many wins.")
    cap = serializers.IntegerField(help_text="At most this many games (more only while tied).")
    status = serializers.CharField(
        help_text="running | won (reached the target) | decided (by the decider at the cap "
        "or a shared reach) | tied (the decider could not part them: one more game)"
    )
    over = serializers.BooleanField(help_text="won or decided: the stage takes no more games.")
    champion = StagePlayerOutSerializer(allow_null=True)
    decider = serializers.ChoiceField(
        choices=["wins", "score", "last_game", ""],
        allow_blank=True,
        help_text="What parted the players when the decider was asked: wins | score | "
        'last_game. Empty ("") when nobody needed it: one player reached the target '
        "alone (status won), the race is still running, or the decider could not part "
        "them (status tied).",
    )
    games = serializers.IntegerField(help_text="Games that count (confirmed, in order).")
    surplus = serializers.IntegerField(help_text="Games after the decision, which do not count.")
    tied = StagePlayerOutSerializer(many=True, help_text="Still tied after the decider.")
    wins = RaceWinsOutSerializer(many=True, help_text="Each player's wins, in the race's order.")
    summary = serializers.CharField(help_text="The race in words.")
    words = serializers.CharField(help_text="Who won and how, or what comes next.")


class StageStandingsOutSerializer(serializers.Serializer):
    stage = StageOutSerializer()
    rows = StageRowOutSerializer(many=True)
    race = RaceOutSerializer(allow_null=True, help_text="A race-to-N stage's race; else null.")


def race_out(view: RaceView | None) -> dict[str, Any] | None:
    if view is None:
        return None
    state = view.state
    return {
        "target": view.target,
        "cap": view.cap,
        "status": state.status,
        "over": view.over,
        "champion": view.champion,
        "decider": state.decider,
        "games": state.games,
        "surplus": state.surplus,
        "tied": [view.players[p] for p in state.tied],
        "wins": [{"player": player, "wins": wins} for player, wins in view.standing],
        "summary": view.summary,
        "words": view.status_words,
    }


def _stage(view: TournamentScoped, number: int) -> Stage:
    stage = (
        view.tournament.stages.select_related("division", "side_of", "source")
        .filter(number=number)
        .first()
    )
    if stage is None:
        raise Http404(_("No such stage."))
    return stage


def _rows(rows: list[StageRow]) -> list[dict]:
    return [
        {
            "rank": r.rank,
            "player": r.player,
            "carried": r.carried,
            "metrics": r.metrics,
            "race_wins": r.race_wins,
        }
        for r in rows
    ]


class StageStandingsQuerySerializer(serializers.Serializer):
    division = serializers.CharField(required=False, max_length=100, help_text=DIVISION_HELP)


class StageStandingsView(TournamentScoped, APIView):
    @extend_schema(
        tags=["stages"],
        summary="A stage's standings",
        description="The standings of the stage's rounds only (stage 1 also owns the rounds "
        "opened before any stage), of its entrants only, ranked by the stage's ranking with "
        "each entrant's carried score added to `score`. Computed on read. A race-to-N stage "
        "(`race_target`) ranks by its race (the champion first, then the decider's order) "
        "and says where the race stands in `race` (null for other stages). "
        "`?division=<slug>`: that division's players only, ranked again within it.",
        parameters=[StageStandingsQuerySerializer],
        responses={200: StageStandingsOutSerializer, **errors(400, 404)},
        examples=[
            OpenApiExample(
                "Final standings",
                value={"stage": STAGE_EXAMPLE, "rows": [ROW_EXAMPLE], "race": None},
                response_only=True,
            )
        ],
    )
    def get(self, request: Any, slug: str, number: int) -> Response:
        query = StageStandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        division = division_of_query(self.tournament, query.validated_data.get("division"))
        stage = _stage(self, number)
        race = stage_race(stage)
        rows = stage_rows(stage, race)
        if division is not None:
            rows = rows_within(rows, division_members(division))
        body = {"stage": stage, "rows": _rows(rows), "race": race_out(race)}
        return Response(StageStandingsOutSerializer(body).data)


class CutInSerializer(StrictInput):
    dry_run = StrictBooleanField(
        required=False,
        default=False,
        help_text="true: answer 200 with the cut that closing the stage would commit, and "
        "save nothing. Its `commit` member is the body that commits exactly that cut.",
    )
    expected_entrants = RawJSONField(
        schema={"type": "array", "items": {"type": "integer"}},
        required=False,
        help_text="The previewed entrants' player ids; required to commit. When the cut now "
        "differs (the standings changed since the preview) the answer is 409.",
    )


class FeedOutSerializer(serializers.Serializer):
    stage = serializers.IntegerField(help_text="The stage it fills.")
    entry = serializers.CharField(help_text="Its entry rule.")
    entrants = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids.")
    table_winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="By table: the players a table sent on."
    )
    carried = serializers.DictField(child=serializers.IntegerField())
    tie = serializers.CharField(allow_blank=True)


class CutOutSerializer(serializers.Serializer):
    stage = serializers.IntegerField(help_text="The stage closed (or that would be).")
    next_stage = serializers.IntegerField(allow_null=True)
    entrants = StagePlayerOutSerializer(many=True)
    eliminated = StagePlayerOutSerializer(many=True)
    carried = serializers.DictField(
        child=serializers.IntegerField(), help_text="Carried score by player id."
    )
    tie = serializers.CharField(allow_blank=True, help_text="The tie at the cut line in words.")
    feeds = FeedOutSerializer(
        many=True,
        help_text="Every stage the close fills, one by one (several run in parallel after "
        "it); `entrants` above is all of them together.",
    )
    committed = serializers.BooleanField()
    commit = serializers.DictField(help_text="The body that commits this cut.")


def _cut_out(preview: CutPreview, committed: bool) -> dict:
    entrants = preview.entrants
    return {
        "stage": preview.stage.number,
        "next_stage": preview.next_stage.number if preview.next_stage else None,
        "entrants": entrants,
        "eliminated": preview.eliminated,
        "carried": {str(p): c for p, c in preview.carried.items()},
        "tie": preview.tie,
        "feeds": [
            {
                "stage": feed.stage.number,
                "entry": feed.stage.entry,
                "entrants": list(feed.result.entrants),
                "table_winners": list(feed.result.table_winners),
                "carried": {str(p): c for p, c in feed.carried.items()},
                "tie": feed.tie,
            }
            for feed in preview.feeds
        ],
        "committed": committed,
        "commit": {"expected_entrants": [p.id for p in entrants]},
    }


class StageCutView(TournamentScoped, APIView):
    @extend_schema(
        tags=["stages"],
        summary="Close a stage: its cut",
        description="Two steps, like opening a round. `dry_run: true` answers 200 with the "
        "cut of this stage's standings into the next stage (by the next stage's cut rule): "
        "entrants, eliminated, carried scores and the tie at the line in words; nothing is "
        "saved. Then POST the preview's `commit` body to close the stage and commit exactly "
        "that cut: 409 naming `expected_entrants` when the cut changed since (a stale "
        "preview), 409 naming `stage` when games of the stage have no confirmed result "
        "(listed in `missing_results`) or the stage is closed, 400 naming `top` for a cut "
        "larger than the field. Closing the last stage commits no cut.",
        request=CutInSerializer,
        responses={
            200: OpenApiResponse(
                CutOutSerializer, description="`dry_run`: the cut, nothing saved."
            ),
            201: CutOutSerializer,
            **errors(400, 401, 403, 404, 409),
        },
        examples=[
            OpenApiExample("Preview", value={"dry_run": True}, request_only=True),
            OpenApiExample("Commit", value={"expected_entrants": [11]}, request_only=True),
            OpenApiExample("Previewed", value=CUT_EXAMPLE, response_only=True),
        ],
    )
    def post(self, request: Any, slug: str, number: int) -> Response:
        stage = _stage(self, number)
        data = valid(CutInSerializer, request.data)
        if data["dry_run"]:
            # The preview is the organiser's first step of closing; others read standings.
            require(request.user, self.tournament, "organise")
            return Response(CutOutSerializer(_cut_out(stage_cut_preview(stage), False)).data)
        preview = stage_close(
            stage=stage, by=request.user, expected_entrants=data.get("expected_entrants")
        )
        return Response(
            CutOutSerializer(_cut_out(preview, True)).data, status=status.HTTP_201_CREATED
        )


class SideInSerializer(StrictInput):
    name = StrictCharField(max_length=60, required=False, allow_blank=True)


class StageSideView(TournamentScoped, APIView):
    @extend_schema(
        tags=["stages"],
        summary="Start a side event",
        description="Organisers start a side event (a consolation stage, kind `side`) for "
        "the players this closed stage did not cut: its entrants are those players, it has "
        "no cut, it runs beside the next stage with its own rounds (open them with "
        "`stage`: its number) and standings. 409 naming `stage` when this stage is not "
        "closed, made no cut, left nobody out or has a side event already; 400 naming "
        "`name`. `name` left out: 'Side event'.",
        request=SideInSerializer,
        responses={201: StageOutSerializer, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample("Consolation", value={"name": "Consolation"}, request_only=True),
            OpenApiExample(
                "Started",
                value={
                    **STAGE_EXAMPLE,
                    "number": 3,
                    "name": "Consolation",
                    "kind": "side",
                    "cut_top": None,
                    "side_of": 1,
                },
                response_only=True,
            ),
        ],
    )
    def post(self, request: Any, slug: str, number: int) -> Response:
        stage = _stage(self, number)
        data = valid(SideInSerializer, request.data)
        side = stage_side_start(stage=stage, by=request.user, name=data.get("name"))
        return Response(StageOutSerializer(side).data, status=status.HTTP_201_CREATED)


class EntrantsInSerializer(StrictInput):
    players = RawJSONField(
        schema={"type": "array", "items": {"type": "integer"}},
        help_text="Player ids, best seed first (at least 2).",
    )


class EntrantsOutSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    entrants = serializers.ListField(child=serializers.IntegerField())


class StageEntrantsView(TournamentScoped, APIView):
    @extend_schema(
        tags=["stages"],
        summary="Name a stage's entrants by hand",
        description="For a stage whose `entry` is `manual`: organisers name its entrants, "
        "best seed first, once its source is closed and before it begins (a new list "
        "replaces the last). Each carries their score in the source's standings by the "
        "stage's carry-over. 409 naming `stage` for another entry rule, a stage begun or a "
        "source still open; 400 naming `players` for an id that is not an active player, "
        "a repeat or fewer than 2.",
        request=EntrantsInSerializer,
        responses={201: EntrantsOutSerializer, **errors(400, 401, 403, 404, 409)},
        examples=[
            OpenApiExample("Four by hand", value={"players": [11, 14, 12, 19]}, request_only=True),
            OpenApiExample(
                "Named", value={"stage": 3, "entrants": [11, 14, 12, 19]}, response_only=True
            ),
        ],
    )
    def post(self, request: Any, slug: str, number: int) -> Response:
        stage = _stage(self, number)
        data = valid(EntrantsInSerializer, request.data)
        entries = stage_entrants_set(stage=stage, by=request.user, players=data["players"])
        body = {"stage": stage.number, "entrants": [e.player_id for e in entries]}
        return Response(EntrantsOutSerializer(body).data, status=status.HTTP_201_CREATED)
