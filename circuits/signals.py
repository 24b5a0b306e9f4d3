"""What the circuits follow, without the layers below knowing them: a new standings
snapshot of a finished tournament, and a tournament saved finished (or reopened where it
counted). Both ask the circuit job (`circuits.tasks`) once the change commits, only for a
tournament approved in some circuit (one query)."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from tournaments import jobs
from tournaments.events import standings_stored
from tournaments.models import Tournament
from tournaments.services.people import CIRCUIT_TASK

from .models import CircuitEvent


def _follow(tournament_id: int, **which: object) -> None:
    if CircuitEvent.objects.filter(
        tournament_id=tournament_id, status=CircuitEvent.Status.APPROVED, **which
    ).exists():
        transaction.on_commit(lambda: jobs.enqueue(CIRCUIT_TASK, tournament_id))


@receiver(standings_stored)
def _standings_stored(*, tournament_id: int, **kwargs: object) -> None:
    # Only a finished tournament counts: a running qualifier's results move no circuit.
    _follow(tournament_id, tournament__status=Tournament.Status.FINISHED)


@receiver(post_save, sender=Tournament)
def _tournament_saved(sender: type, instance: Tournament, **kwargs: object) -> None:
    if instance.status == Tournament.Status.FINISHED:
        _follow(instance.pk)
    else:  # reopened: it stops counting where it counted
        _follow(instance.pk, field__isnull=False)
