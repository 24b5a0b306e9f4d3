"""The games still without a confirmed result, per round, in words ("round 2: 3 games
missing at tables 2 and 4"): what opening a round or closing a stage checks first."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Stage, Tournament

from ..models import Game, Result
from ..words import tables_phrase


def stage_rounds_q(stage: Stage | None, prefix: str = "") -> Q:
    """The rounds of `stage` as a filter (stage 1 also owns the rounds without a stage);
    no stage: every round. `prefix` reaches the round from another model."""
    if stage is None:
        return Q()
    owned = Q(**{f"{prefix}stage": stage})
    if stage.number == 1:
        owned |= Q(**{f"{prefix}stage__isnull": True})
    return owned


@dataclass(frozen=True)
class RoundGaps:
    """The games of one round without a confirmed result: `missing` have no result
    waiting either, `unconfirmed` have a submitted one waiting for confirmation; each with
    the numbers of the tables they are at."""

    round: int
    missing: int
    missing_tables: list[int]
    unconfirmed: int
    unconfirmed_tables: list[int]

    @property
    def sentence(self) -> str:
        """ "round 2: 3 games missing at tables 2 and 4; 1 game waiting for confirmation
        at table 3"."""
        parts = []
        if self.missing:
            parts.append(
                ngettext(
                    "{count} game missing at {tables}",
                    "{count} games missing at {tables}",
                    self.missing,
                ).format(count=self.missing, tables=tables_phrase(self.missing_tables))
            )
        if self.unconfirmed:
            parts.append(
                ngettext(
                    "{count} game waiting for confirmation at {tables}",
                    "{count} games waiting for confirmation at {tables}",
                    self.unconfirmed,
                ).format(count=self.unconfirmed, tables=tables_phrase(self.unconfirmed_tables))
            )
        return _("round {number}: {gaps}").format(number=self.round, gaps="; ".join(parts))


def round_results_missing(
    tournament: Tournament, number: int, stage: Stage | None = None
) -> list[RoundGaps]:
    """Per round before round `number`, the games still without a confirmed result (one
    query). Rounds with every game confirmed are left out. With `stage`, only that
    stage's rounds (stage 1's include those opened before any stage): a side event runs
    beside the main stage, and their players never meet."""
    confirmed = Result.objects.filter(game=OuterRef("pk"), status=Result.Status.CONFIRMED)
    waiting = Result.objects.filter(game=OuterRef("pk"), status=Result.Status.SUBMITTED)
    rows = (
        Game.objects.filter(table__round__tournament=tournament, table__round__number__lt=number)
        .filter(stage_rounds_q(stage, "table__round__"))
        .annotate(done=Exists(confirmed), waiting=Exists(waiting))
        .filter(done=False)
        .order_by("table__round__number", "table__number")
        .values_list("table__round__number", "table__number", "waiting")
    )
    gaps: dict[int, tuple[list[int], list[int]]] = {}
    for round_number, table_number, is_waiting in rows:
        gaps.setdefault(round_number, ([], []))[1 if is_waiting else 0].append(table_number)
    return [
        RoundGaps(
            round=round_number,
            missing=len(missing),
            missing_tables=sorted(set(missing)),
            unconfirmed=len(unconfirmed),
            unconfirmed_tables=sorted(set(unconfirmed)),
        )
        for round_number, (missing, unconfirmed) in gaps.items()
    ]
