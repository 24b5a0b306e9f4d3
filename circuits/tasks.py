"""Celery tasks of the circuits: thin shells that call one service with ids."""

from celery import shared_task

from games.tasks import RECOMPUTE_RETRIES
from tournaments.services.people import CIRCUIT_TASK

from .services.circuits import circuit_follow_tournament


@shared_task(name=CIRCUIT_TASK, **RECOMPUTE_RETRIES)
def tournament_people_changed(tournament_id: int) -> int:
    """A tournament's standings, status or people changed: its circuits follow."""
    return len(circuit_follow_tournament(tournament_id=tournament_id))
