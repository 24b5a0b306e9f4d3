"""The seed order a seeded draw (`alternating`, `snake`: `scoring.seating.seeded`) deals
from, and the per-stage play settings a round takes from its stage.

Rules decided here (the rules are silent; docs/rules/decisions.md, "Stages as a graph"):
* A later stage seeds by its own standings once any of its games has a confirmed result;
  before that, by its entrants' seeds (their rank in the stage they came from, then
  start number). Stage 1 and a tournament without stages seed by the tournament's
  standings (before any result: by strength, then start number — as Swiss does).
* A stage's `seating` is the method its rounds are drawn by when the organiser names
  none (the open-round form offers it first; the API may leave `method` out). A method
  named is used as named: the organiser's choice beats the stage's. No method and no
  stage seating: 400 naming `method`, as before.
* A stage's `games_per_table` replaces the tournament's for that stage's rounds (a
  stage of one game per round still plays one).
"""

from __future__ import annotations

from collections.abc import Mapping

from tournaments.models import Player, Stage, StageEntry, Tournament

from .stages import stage_rows


def seeded_order(stage: Stage | None, active: Mapping[int, Player]) -> list[int]:
    """`active` best seed first, for a later stage ([] for stage 1 or no stage: the
    caller seeds by the tournament's standings)."""
    if stage is None or stage.number == 1:
        return []
    rows = stage_rows(stage)
    if any(row.metrics.get("games_played") for row in rows):
        ranked = [row.player.id for row in rows if row.player.id in active]
    else:
        seeds = dict(
            StageEntry.objects.filter(stage=stage, player_id__in=list(active)).values_list(
                "player_id", "seed_rank"
            )
        )
        ranked = sorted(active, key=lambda p: (seeds.get(p, len(seeds) + 1), active[p].number))
    return ranked + sorted(set(active) - set(ranked), key=lambda p: active[p].number)


def stage_games_per_table(tournament: Tournament, stage: Stage | None) -> int | None:
    """The games per table of a round in `stage` (None: one per seat of the table)."""
    if stage is not None and stage.games_per_table:
        return stage.games_per_table
    return tournament.games_per_table


def method_or_stage_default(method: str | None, stage: Stage | None) -> str | None:
    """The method named, or the stage's `seating` when none is named (else None: the
    method is missing, a 400 naming `method` as before stages had a seating)."""
    if method is None or method == "":
        return stage.seating if stage is not None and stage.seating else None
    return method
