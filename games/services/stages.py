"""Stages at play: a stage's standings, the preview of its cut, and closing it.

Terms (see `tournaments.models`: stage, cut, carried):
* stage standings — the standings of one stage's rounds only (stage 1 also owns the rounds
  opened before any stage existed), of its entrants only (stage 1: every player), with
  each entrant's carried score added to `score` before ranking, by the stage's ranking.
* closing a stage — committing the cut of its standings into the next stage's entry list
  (`StageEntry`), by the *next* stage's cut rule and carry-over; the stage is then done
  and the next one becomes current (its first round seats its entrants only). Closing
  the last stage commits no cut.

Rules decided here (RULES.md is silent):
* The cut ranks active players only: a withdrawn player never goes on.
* The cut's lot (ties `lot`) is `scoring.standings.lot_draw` seeded with
  "<tournament id>:<slug>:stage<number>", fixed for the stage: the preview and the commit
  draw the same lot.
* What a player carries is their stage total `score` (their own carried score included)
  through `scoring.stages.carry_over` (half: rounded toward zero).
* Stage standings are computed on read, not stored: the same fixed handful of queries as
  a snapshot (stage, entrants, players with penalty counts, one SQL sum), so they stay
  within the standings query bound (8) at any size. Penalties count as they stand (a
  penalty carries no stage of its own).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Q

from scoring.errors import Conflict, RuleError
from scoring.stages import CutResult, Ranked, carry_over, cut
from scoring.standings import StandingRow
from tournaments.events import pages_changed
from tournaments.lifecycle import require_open
from tournaments.models import Player, Round, Stage, StageEntry, Tournament
from tournaments.permissions import User, require
from tournaments.services.validation import stamp_history_user

from .locks import lock_tournament
from .rounds import round_results_missing
from .standings import EVERY_ROUND, StageFilter, _ranked_rows


@dataclass(frozen=True)
class StageRow:
    rank: int
    player: Player
    carried: int
    metrics: dict


def stage_rows(stage: Stage) -> list[StageRow]:
    """The stage standings (see the module doc), best first."""
    tournament = stage.tournament
    entries = {
        e.player_id: e.carried
        for e in StageEntry.objects.filter(stage=stage).only("player", "carried")
    }
    players_qs = Player.objects.filter(tournament=tournament).annotate(
        penalty_count=Count("penalties", filter=Q(penalties__voided=False))
    )
    if stage.number > 1:
        players_qs = players_qs.filter(pk__in=entries.keys())
    players = {p.id: p for p in players_qs}
    rows = _ranked_rows(
        tournament,
        list(players),
        {p.id: p.penalty_count for p in players.values()},
        {p.id for p in players.values() if p.status == Player.Status.WITHDRAWN},
        stage=StageFilter(stage.pk, stage.number == 1),
        ranking=stage.ranking,
        carried=entries,
    )
    return [_row(row, players, entries) for row in rows]


def _row(row: StandingRow, players: dict[int, Player], entries: dict[int, int]) -> StageRow:
    return StageRow(row.rank, players[row.player], entries.get(row.player, 0), dict(row.metrics))


@dataclass(frozen=True)
class CutPreview:
    """What closing `stage` would do: the cut into `next_stage` (None: the last stage)."""

    stage: Stage
    next_stage: Stage | None
    rows: list[StageRow]
    result: CutResult | None
    carried: dict[int, int] = field(default_factory=dict)

    @property
    def entrants(self) -> list[Player]:
        by_id = {r.player.id: r.player for r in self.rows}
        return [by_id[p] for p in self.result.entrants] if self.result else []

    @property
    def eliminated(self) -> list[Player]:
        by_id = {r.player.id: r.player for r in self.rows}
        if self.result is None:
            return []
        withdrawn = [r.player for r in self.rows if r.player.status == Player.Status.WITHDRAWN]
        return [by_id[p] for p in self.result.eliminated] + withdrawn

    @property
    def tie(self) -> str:
        """The tie at the cut line in words, named by player (empty: no tie)."""
        if self.result is None or self.result.tie is None:
            return ""
        by_id = {r.player.id: r.player for r in self.rows}
        tie = self.result.tie
        names = ", ".join(f"{by_id[p].name} (#{by_id[p].number})" for p in tie.players)
        return f"{tie.sentence()}: {names}"


def _stage_rounds(stage: Stage):
    first = Q(stage__isnull=True) if stage.number == 1 else Q(pk__in=[])
    return Round.objects.filter(Q(stage=stage) | first, tournament_id=stage.tournament_id)


def stage_cut_preview(stage: Stage) -> CutPreview:
    """The cut closing `stage` would commit, from its standings by the next stage's rule:
    entrants, eliminated, the tie stated. A cut larger than the field is a RuleError on
    `top`."""
    tournament = stage.tournament
    next_stage = tournament.stages.filter(number=stage.number + 1).first()
    rows = stage_rows(stage)
    if next_stage is None:
        return CutPreview(stage, None, rows, None)
    ranked = [
        Ranked(r.player.id, r.rank, r.metrics["score"])
        for r in rows
        if r.player.status == Player.Status.ACTIVE
    ]
    result = cut(
        ranked,
        top=next_stage.cut_top,
        min_score=next_stage.cut_min_score,
        ties=next_stage.cut_ties,
        lot_seed=f"{tournament.pk}:{tournament.slug}:stage{stage.number}",
    )
    scores = {r.player.id: r.metrics["score"] for r in rows}
    carried = {p: carry_over(scores[p], next_stage.carry_over) for p in result.entrants}
    return CutPreview(stage, next_stage, rows, result, carried)


def _expected(value: object) -> list[int]:
    if not isinstance(value, list) or any(
        isinstance(p, bool) or not isinstance(p, int) for p in value
    ):
        raise RuleError("expected_entrants", "must be the list of the previewed entrants' ids.")
    return value


def stage_close(*, stage: Stage, by: User, expected_entrants: object) -> CutPreview:
    """Close `stage` and commit exactly the previewed cut into the next stage.

    409 (`Conflict`) when the stage is closed already, has no round, has games without a
    confirmed result (`missing_results`), or when the cut now differs from
    `expected_entrants` (the preview is stale: standings changed since). A cut larger
    than the field is a RuleError on `top` (400). Nothing is saved on any refusal."""
    with transaction.atomic():
        tournament = lock_tournament(stage.tournament_id)
        require(by, tournament, "organise")
        require_open(tournament)
        expected = _expected(expected_entrants)
        stage = Stage.objects.select_related("tournament").get(pk=stage.pk)
        _require_closable(stage, tournament)
        preview = stage_cut_preview(stage)
        if preview.result is not None and sorted(expected) != sorted(preview.result.entrants):
            raise Conflict(
                "expected_entrants",
                "the standings changed since the preview: look at the cut again.",
                entrants=list(preview.result.entrants),
            )
        if preview.next_stage is not None and preview.result is not None:
            ranks = {r.player.id: r.rank for r in preview.rows}
            StageEntry.objects.bulk_create(
                StageEntry(
                    stage=preview.next_stage,
                    player_id=p,
                    seed_rank=ranks[p],
                    carried=preview.carried[p],
                )
                for p in preview.result.entrants
            )
        stage.status = Stage.Status.CLOSED
        stamp_history_user(stage, by).save(update_fields=["status"])
        transaction.on_commit(lambda: pages_changed(tournament.slug))
        return preview


def _require_closable(stage: Stage, tournament: Tournament) -> None:
    where = f"stage {stage.number} ({stage.name})"
    if stage.status == Stage.Status.CLOSED:
        raise Conflict("stage", f"{where} is closed already.")
    if not _stage_rounds(stage).exists():
        raise Conflict("stage", f"{where} has no round yet.")
    gaps = round_results_missing(tournament, EVERY_ROUND)
    if gaps:
        raise Conflict(
            "stage",
            f"{where} cannot close: " + "; ".join(gap.sentence for gap in gaps) + ".",
            missing_results=[gap.sentence for gap in gaps],
        )
