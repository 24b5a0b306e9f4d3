"""Reads of the stage pages: the stages' timeline (each stage with its rounds so far and
its race), why a stage cannot close yet, the side event a closed stage can offer, and a
stage's current round. The stage standings, the cut and the race are computed on read
in `games.services.stages` (closing a stage uses them).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, Count, IntegerField, OuterRef, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils.text import capfirst

from scoring.errors import Conflict
from scoring.standings import rerank
from tournaments.models import Player, Round, Stage, Tournament

from ..services.stages import (
    RaceView,
    StageRow,
    require_stage_closable,
    stage_race,
    stage_rounds,
    stage_rows,
    went_on,
)
from ..words import stage_state_words


def stage_close_blockers(stage: Stage) -> list[str]:
    """Why `stage` cannot close yet, one sentence each, as `stage_close` would refuse it
    (empty: it can close now). The stage page says them beside the close button before
    anyone clicks; `stage_close` still checks again under its lock."""
    try:
        require_stage_closable(stage, stage.tournament)
    except Conflict as error:
        missing = error.details.get("missing_results")
        sentences = missing if isinstance(missing, list) and missing else [error.message]
        return [capfirst(str(sentence)) for sentence in sentences]
    return []


def rows_within(rows: list[StageRow], members: set[int]) -> list[StageRow]:
    """A division's part of a stage's standings, in their order, ranked again 1..n
    (`scoring.standings.rerank`, as the tournament's standings by division)."""
    kept = [row for row in rows if row.player.id in members]
    ranks = rerank([row.rank for row in kept])
    return [
        StageRow(rank, row.player, row.carried, row.metrics, row.race_wins)
        for row, rank in zip(kept, ranks, strict=True)
    ]


@dataclass(frozen=True)
class TimelineItem:
    """One stage in the timeline, with its race when it is a race under way or done."""

    stage: Stage
    race: RaceView | None = None
    # The rounds opened in the stage so far: the running one is "round N" of its stage
    # (a staged tournament has no one count of rounds planned: a race's length is open).
    rounds: int = 0

    @property
    def state_words(self) -> str:
        return stage_state_words(self.stage, self.race)


def stages_timeline(tournament: Tournament) -> list[TimelineItem]:
    """The stages in order (side events among them), each with its rounds opened so far
    and, a race stage that has begun, its race: one query, plus two per such race (a
    tournament has one final)."""
    # Stage 1 also owns the rounds opened before any stage existed (`stage_rounds_q`).
    early = (
        Round.objects.filter(tournament_id=OuterRef("tournament_id"), stage__isnull=True)
        .order_by()
        .values("tournament_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    stages = (
        tournament.stages.select_related("side_of")
        .annotate(
            own_rounds=Count("rounds"),
            early_rounds=Case(
                When(number=1, then=Coalesce(Subquery(early), 0)),
                default=Value(0),
                output_field=IntegerField(),
            ),
        )
        .order_by("number")
    )
    return [
        TimelineItem(
            stage,
            stage_race(stage)
            if stage.race_target is not None and stage.status != Stage.Status.UPCOMING
            else None,
            stage.own_rounds + stage.early_rounds,
        )
        for stage in stages
    ]


def side_event_offer(stage: Stage) -> int:
    """How many players a side event of `stage` would take (0: none can be started: not a
    closed main stage with a committed cut, or it has one already)."""
    if stage.is_side or stage.status != Stage.Status.CLOSED or stage.side_stages.exists():
        return 0
    taken = went_on(stage)
    if taken is None:
        return 0
    return sum(
        1
        for row in stage_rows(stage)
        if row.player.id not in taken and row.player.status == Player.Status.ACTIVE
    )


def stage_current_round(stage: Stage) -> Round | None:
    """The stage's last round (stage 1 also owns the rounds opened before any stage)."""
    return stage_rounds(stage).order_by("-number").first()
