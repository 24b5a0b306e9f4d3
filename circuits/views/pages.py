"""The circuit's public pages: the circuits listed, a circuit's ranking (each person's
counted events), its calendar (page and iCal feed), its qualified list with the final's
entry list, and a person's circuit page. Anyone may read them; anonymous readers' answers
are kept whole (`circuits.views.caching`).

Terms: circuit, event, ranking, qualified, seed (`circuits.models`, `scoring.circuits`).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.calendar import MEDIA_TYPE, calendar_of
from tournaments.models import Person

from ..models import Circuit, FinalEntry
from ..permissions import can_run_circuit
from ..selectors import (
    calendar_tournaments,
    circuit_calendar,
    circuits_listed,
    person_in_circuit,
)
from ..services.ranking import ranking_for_read
from .caching import kept_for_anonymous


def _circuit(slug: str) -> Circuit:
    return get_object_or_404(Circuit.objects.select_related("final"), slug=slug)


@require_GET
def circuit_list(request: HttpRequest) -> HttpResponse:
    return render(request, "circuits/circuit_list.html", {"circuits": circuits_listed()})


@require_GET
@kept_for_anonymous
def circuit_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = _circuit(slug)
    snapshot = ranking_for_read(circuit)
    events = [e for e in circuit_calendar(circuit) if e.field is not None]
    rows = []
    for row in snapshot.rows:
        by_event = {c["event"]: c for c in row["contributions"]}
        rows.append({**row, "cells": [by_event.get(e.tournament.slug) for e in events]})
    qualified = {q["person"]["id"] for q in snapshot.qualified}
    return render(
        request,
        "circuits/ranking.html",
        {
            "circuit": circuit,
            "events": events,
            "rows": rows,
            "qualified": qualified,
            "computed_at": snapshot.computed_at,
            "runs_circuit": can_run_circuit(request.user, circuit),
        },
    )


@require_GET
@kept_for_anonymous
def circuit_calendar_page(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = _circuit(slug)
    return render(
        request,
        "circuits/calendar.html",
        {"circuit": circuit, "events": circuit_calendar(circuit)},
    )


@require_GET
@kept_for_anonymous
def circuit_calendar_feed(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = _circuit(slug)
    tournaments = calendar_tournaments(circuit)
    response = HttpResponse(calendar_of(circuit.name, tournaments), content_type=MEDIA_TYPE)
    response["Content-Disposition"] = f'inline; filename="{circuit.slug}.ics"'
    return response


@require_GET
@kept_for_anonymous
def circuit_qualified(request: HttpRequest, slug: str) -> HttpResponse:
    circuit = _circuit(slug)
    snapshot = ranking_for_read(circuit)
    numbers = dict(
        FinalEntry.objects.filter(circuit=circuit, player__isnull=False).values_list(
            "person_id", "player__number"
        )
    )
    qualified = [{**q, "start_number": numbers.get(q["person"]["id"])} for q in snapshot.qualified]
    return render(
        request,
        "circuits/qualified.html",
        {
            "circuit": circuit,
            "qualified": qualified,
            "passed_down": snapshot.passed_down,
            "ties": snapshot.ties,
            "rule": circuit.rule,
        },
    )


@require_GET
@kept_for_anonymous
def circuit_person(request: HttpRequest, slug: str, person_id: int) -> HttpResponse:
    circuit = _circuit(slug)
    record = person_in_circuit(circuit, get_object_or_404(Person, pk=person_id))
    return render(request, "circuits/person.html", {"circuit": circuit, "record": record})
