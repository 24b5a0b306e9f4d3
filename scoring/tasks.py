"""Celery tasks: thin shells that call one service with ids."""

from celery import shared_task

from . import services


@shared_task(name="scoring.recompute_standings")
def recompute_standings(tournament_id: int) -> int | None:
    snapshot = services.standings_recompute(tournament_id=tournament_id)
    return snapshot.computed_version if snapshot else None
