"""The entrants of a stage taken by hand (`Stage.entry` manual): nobody enters it when
its source closes; the organiser names them here.

Rules decided here (the rules are silent; docs/rules/decisions.md, "Stages as a graph"):
* Allowed while the stage is upcoming and its source is closed; a new list replaces the
  earlier one. Any active player of the tournament may be named (a wild card too).
* A player named by hand carries their score in the source's standings by the stage's
  carry-over and rounding (0 when they are not in them); their seed is their place in
  the list given.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError
from scoring.i18n import isolate
from scoring.stage_graph import carry
from tournaments.events import pages_changed
from tournaments.lifecycle import require_open
from tournaments.models import Player, Stage, StageEntry
from tournaments.permissions import User, require
from tournaments.selectors import source_of
from tournaments.services.validation import stamp_history_user

from .locks import lock_tournament
from .stages import stage_rows


def stage_entrants_set(*, stage: Stage, by: User, players: object) -> list[StageEntry]:
    """Name the entrants of a stage taken by hand (`entry` manual): `players` are player
    ids, best seed first. 409 naming `stage` unless the stage is upcoming and its source
    closed; 400 naming `players` for an id that is not an active player of the
    tournament, or a list of fewer than 2 or with repeats. Replaces any earlier list."""
    with transaction.atomic():
        tournament = lock_tournament(stage.tournament_id)
        require(by, tournament, "organise")
        require_open(tournament)
        stage = Stage.objects.select_related("tournament").get(pk=stage.pk)
        where = _("stage %(number)s (%(name)s)") % {
            "number": stage.number,
            "name": isolate(stage.name),
        }
        if stage.entry != Stage.Entry.MANUAL:
            raise Conflict(
                "stage", _("%(stage)s takes its entrants by its cut.") % {"stage": where}
            )
        if stage.status != Stage.Status.UPCOMING:
            raise Conflict(
                "stage", _("%(stage)s has begun: its entrants are fixed.") % {"stage": where}
            )
        stages = list(tournament.stages.order_by("number"))
        source = source_of(stage, stages)
        if source is not None and source.status != Stage.Status.CLOSED:
            raise Conflict(
                "stage",
                _("%(stage)s takes its entrants once stage %(source)s is closed.")
                % {"stage": where, "source": source.number},
            )
        ids = _player_ids(players)
        active = set(
            tournament.players.filter(pk__in=ids, status=Player.Status.ACTIVE).values_list(
                "pk", flat=True
            )
        )
        unknown = [p for p in ids if p not in active]
        if unknown:
            raise RuleError(
                "players",
                _("not an active player of this tournament: %(ids)s.")
                % {"ids": ", ".join(map(str, unknown))},
            )
        scores: dict[int, int] = {}
        if source is not None:
            scores = {r.player.id: r.metrics["score"] for r in stage_rows(source)}
        StageEntry.objects.filter(stage=stage).delete()
        entries = StageEntry.objects.bulk_create(
            StageEntry(
                stage=stage,
                player_id=p,
                seed_rank=seed,
                carried=carry(scores.get(p, 0), stage.carry_over, stage.carry_rounding),  # type: ignore[arg-type]
            )
            for seed, p in enumerate(ids, start=1)
        )
        stamp_history_user(stage, by).save(update_fields=["status"])
        transaction.on_commit(lambda: pages_changed(tournament.slug))
        return entries


def _player_ids(value: object) -> list[int]:
    if not isinstance(value, list) or any(
        isinstance(p, bool) or not isinstance(p, int) for p in value
    ):
        raise RuleError("players", _("must be a list of player ids."))
    if len(set(value)) != len(value):
        raise RuleError("players", _("a player is named twice."))
    if len(value) < 2:
        raise RuleError("players", _("a stage needs at least 2 players."))
    return value
