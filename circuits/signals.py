"""What the circuits follow, without the layers below knowing them: a new standings
snapshot of a finished tournament, and a tournament saved (finished, reopened, moved in
date). Both ask the circuit job (`circuits.tasks`) once the change commits, only for a
tournament that is in some circuit (one query)."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tournaments import jobs
from tournaments.events import standings_stored
from tournaments.models import Tournament
from tournaments.services.people import CIRCUIT_TASK

from .models import CircuitEvent


def _follow(tournament_id: int) -> None:
    if CircuitEvent.objects.filter(
        tournament_id=tournament_id, status=CircuitEvent.Status.APPROVED
    ).exists():
        transaction.on_commit(lambda: jobs.enqueue(CIRCUIT_TASK, tournament_id))


@receiver(standings_stored)
def _standings_stored(*, tournament_id: int, **kwargs: object) -> None:
    _follow(tournament_id)


@receiver(post_save, sender=Tournament)
def _tournament_saved(sender: type, instance: Tournament, **kwargs: object) -> None:
    _follow(instance.pk)
