"""Reads of circuits that the pages and the API share: the circuits listed, a circuit's
events (calendar), a person's circuit page.

Terms (`circuits.models`): circuit, circuit event, ranking snapshot, final entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet

from tournaments.models import Person, Tournament

from .models import Circuit, CircuitEvent, CircuitFinish, CircuitRanking
from .services.ranking import ranking_for_read


def circuits_listed() -> QuerySet[Circuit]:
    return Circuit.objects.order_by("-created_at", "pk")


def circuit_calendar(circuit: Circuit) -> list[CircuitEvent]:
    """The approved events in date order, with their tournaments and clubs: public
    tournaments only (a private one is nobody's calendar)."""
    return list(
        circuit.events.filter(status=CircuitEvent.Status.APPROVED, tournament__public=True)
        .select_related("tournament", "tournament__club")
        .order_by(F("tournament__starts_on").asc(nulls_last=True), "tournament_id")
    )


def calendar_tournaments(circuit: Circuit) -> list[Tournament]:
    """The calendar's tournaments with their rounds (the feed lists the rounds opened)."""
    return list(
        Tournament.objects.filter(
            circuit_events__circuit=circuit,
            circuit_events__status=CircuitEvent.Status.APPROVED,
            public=True,
        )
        .prefetch_related("rounds")
        .order_by(F("starts_on").asc(nulls_last=True), "pk")
    )


@dataclass(frozen=True)
class PersonInCircuit:
    person: Person
    row: dict[str, Any] | None  # the ranking row, None without points
    qualified: dict[str, Any] | None
    finishes: list[CircuitFinish]


def person_in_circuit(circuit: Circuit, person: Person) -> PersonInCircuit:
    """A person's circuit page: their ranking row, qualification and every finish."""
    snapshot: CircuitRanking = ranking_for_read(circuit)
    row = next((r for r in snapshot.rows if r["person"]["id"] == person.pk), None)
    qualified = next((q for q in snapshot.qualified if q["person"]["id"] == person.pk), None)
    finishes = list(
        CircuitFinish.objects.filter(event__circuit=circuit, person=person)
        .select_related("event__tournament")
        .order_by(F("event__tournament__starts_on").asc(nulls_last=True), "event_id")
    )
    return PersonInCircuit(person, row, qualified, finishes)
