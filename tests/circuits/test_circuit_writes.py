"""Circuit writes refuse whoever may not, store nothing then; bad input names the field;
one event refreshed costs the same queries however many events the circuit has."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from circuits.models import Circuit, CircuitEvent
from circuits.services.circuits import (
    circuit_administrator_add,
    circuit_create,
    circuit_event_approve,
    circuit_event_remove,
    circuit_update,
)
from circuits.services.ranking import circuit_event_refresh
from scoring.errors import RuleError
from tests.circuits.helpers import qualifier
from tests.factories import make_tournament
from tournaments.services.people import person_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def circuit(root):
    return circuit_create(by=root, name="Grand Prix", rule={"place_points": [10, 6, 3, 1]})


@pytest.mark.parametrize(
    "write",
    [
        lambda c, t, who: circuit_update(circuit=c, by=who, name="Mine"),
        lambda c, t, who: circuit_administrator_add(circuit=c, by=who, username=who.username),
        lambda c, t, who: circuit_event_approve(circuit=c, by=who, tournament=t),
        lambda c, t, who: circuit_event_remove(circuit=c, by=who, tournament=t),
    ],
    ids=["update", "administrator_add", "approve", "remove"],
)
def test_a_stranger_is_refused_and_nothing_is_stored(circuit, alice, mallory, write):
    tournament = make_tournament(alice, name="Q")
    with pytest.raises(PermissionDenied):
        write(circuit, tournament, mallory)
    circuit.refresh_from_db()
    assert circuit.name == "Grand Prix" and circuit.administrators.count() == 1
    assert not CircuitEvent.objects.exists()


def test_a_bad_rule_is_a_400_naming_the_option(root):
    api = APIClient()
    api.force_authenticate(root)
    answer = api.post("/api/v1/circuits/", {"name": "GP", "rule": {"best": 0}}, format="json")
    assert answer.status_code == 400 and "best" in answer.json()
    assert not Circuit.objects.exists()
    assert api.post("/api/v1/circuits/", {"name": "GP"}, format="json").status_code == 201


def test_the_final_must_be_organised_by_the_administrator(circuit, root, alice):
    theirs = make_tournament(alice, name="Alice's final")
    circuit_administrator_add(circuit=circuit, by=root, username="alice")
    mine = make_tournament(root, name="Root's final")
    with pytest.raises(RuleError) as refused:
        circuit_update(circuit=circuit, by=alice, final=mine)
    assert refused.value.path == ("final",)
    circuit_update(circuit=circuit, by=alice, final=theirs)


def _queries_of_one_refresh(circuit, root, alice, events):
    people = [person_create(by=alice, name=f"P{n}") for n in range(4)]
    for n in range(events):
        event = qualifier(alice, f"E{events}-{n}", people, day=date(2026, 3, 1 + n))
        circuit_event_approve(circuit=circuit, by=root, tournament=event)
    last = circuit.events.order_by("-pk").first()
    with CaptureQueriesContext(connection) as captured:
        circuit_event_refresh(event_id=last.pk)
    return len(captured)


def test_one_event_refreshed_costs_the_same_queries_for_two_or_five_events(root, alice):
    make_tournament(alice, name="Desk")
    small = circuit_create(by=root, name="Small", rule={"place_points": [10, 6, 3, 1]})
    large = circuit_create(by=root, name="Large", rule={"place_points": [10, 6, 3, 1]})
    assert _queries_of_one_refresh(small, root, alice, 2) == _queries_of_one_refresh(
        large, root, alice, 5
    )


def test_the_public_pages_are_kept_until_the_circuit_changes(
    circuit, root, client, django_capture_on_commit_callbacks
):
    first = client.get(f"/circuits/{circuit.slug}/")
    assert first.status_code == 200 and "public" in first["Cache-Control"]
    kept = client.get(f"/circuits/{circuit.slug}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert kept.status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        circuit_update(circuit=circuit, by=root, name="Grand Prix 2027")
    moved = client.get(f"/circuits/{circuit.slug}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and "Grand Prix 2027" in moved.content.decode()
    client.force_login(root)
    signed_in = client.get(f"/circuits/{circuit.slug}/")
    assert "private" in signed_in["Cache-Control"]
