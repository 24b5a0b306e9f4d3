"""The circuit's ranking and qualified list through the services: approved finished
events count, slots pass down, best N, the final's entry list follows, merges."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied

from circuits.models import CircuitFinish, FinalEntry
from circuits.services.circuits import (
    circuit_create,
    circuit_event_approve,
    circuit_event_propose,
    circuit_update,
)
from circuits.services.people import person_merge
from circuits.services.ranking import ranking_for_read
from scoring.errors import RuleError
from tests.circuits.helpers import qualifier
from tests.factories import make_tournament
from tournaments.services.people import person_create
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db

RULE = {"place_points": [10, 6, 3, 1], "slots": 1}


@pytest.fixture
def people(alice):
    return [person_create(by=alice, name=n) for n in ("Ada", "Ben", "Cy", "Dov", "Eli")]


def _make_org(alice):
    make_tournament(alice, name="Desk")  # alice organises something: she registers people


def test_only_organisers_register_people(mallory):
    with pytest.raises(PermissionDenied):
        person_create(by=mallory, name="Zed")


@pytest.fixture(autouse=True)
def desk(alice):
    return make_tournament(alice, name="Desk")


def test_an_approved_finished_event_counts_and_slots_pass_down(alice, root, people):
    ada, ben, cy, dov, _eli = people
    circuit = circuit_create(by=root, name="Grand Prix", rule=RULE)
    first = qualifier(alice, "Q1", [ada, ben, cy, dov], day=date(2026, 3, 1))
    second = qualifier(alice, "Q2", [ada, ben, cy, dov], day=date(2026, 3, 8))
    circuit_event_approve(circuit=circuit, by=root, tournament=first)
    circuit_event_approve(circuit=circuit, by=root, tournament=second)
    snapshot = ranking_for_read(circuit)
    totals = {r["person"]["name"]: (r["rank"], r["total"]) for r in snapshot.rows}
    assert totals == {"Ada": (1, 20), "Ben": (2, 12), "Cy": (3, 6), "Dov": (4, 2)}
    qualified = [(q["person"]["name"], q["event"], q["seed"]) for q in snapshot.qualified]
    assert qualified == [("Ada", "q1", 1), ("Ben", "q2", 2)]
    assert [p["person"]["name"] for p in snapshot.passed_down] == ["Ada"]


def test_an_unfinished_or_unapproved_event_does_not_count(
    alice, root, people, django_capture_on_commit_callbacks
):
    circuit = circuit_create(by=root, name="Grand Prix", rule=RULE)
    running = qualifier(alice, "Q1", people[:4], finish=False)
    circuit_event_approve(circuit=circuit, by=root, tournament=running)
    proposed = qualifier(alice, "Q2", people[:4])
    circuit_event_propose(circuit=circuit, by=alice, tournament=proposed)
    assert ranking_for_read(circuit).rows == []
    # finishing it makes it count (the tournament's save is followed)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(tournament=running, by=alice, status="finished")
    assert len(ranking_for_read(circuit).rows) == 4


def test_only_administrators_approve(alice, root, people):
    circuit = circuit_create(by=root, name="Grand Prix", rule=RULE)
    event = qualifier(alice, "Q1", people[:4])
    with pytest.raises(PermissionDenied):
        circuit_event_approve(circuit=circuit, by=alice, tournament=event)
    with pytest.raises(PermissionDenied):
        circuit_create(by=alice, name="Mine")


def test_the_final_entry_list_follows_late_qualifiers(alice, root, people):
    ada, ben, cy, dov, eli = people
    final = make_tournament(root, name="National Final")
    circuit = circuit_create(by=root, name="Grand Prix", rule=RULE)
    circuit_update(circuit=circuit, by=root, final=final)
    circuit_event_approve(
        circuit=circuit, by=root, tournament=qualifier(alice, "Q1", [ben, ada, cy, dov])
    )
    assert list(final.players.values_list("name", "person__name")) == [("Ben", "Ben")]
    late = qualifier(alice, "Q2", [ben, eli, ada, cy], day=date(2026, 3, 9))
    circuit_event_approve(circuit=circuit, by=root, tournament=late)
    entries = [(e.person.name, e.seed, e.route) for e in FinalEntry.objects.order_by("seed")]
    assert entries == [("Ben", 1, "event"), ("Eli", 2, "event")]
    assert sorted(final.players.values_list("name", flat=True)) == ["Ben", "Eli"]


def test_merging_a_duplicate_keeps_history_and_totals_one_person(alice, root, people):
    ada, ben, cy, dov, _eli = people
    ada_again = person_create(by=alice, name="Ada K.", federation_id="PL-7")
    circuit = circuit_create(by=root, name="Grand Prix", rule=RULE)
    circuit_event_approve(
        circuit=circuit, by=root, tournament=qualifier(alice, "Q1", [ada, ben, cy, dov])
    )
    circuit_event_approve(
        circuit=circuit,
        by=root,
        tournament=qualifier(alice, "Q2", [ben, ada_again, cy, dov], day=date(2026, 3, 8)),
    )
    before = {r["person"]["name"]: r["total"] for r in ranking_for_read(circuit).rows}
    assert before["Ada"] == 10 and before["Ada K."] == 6
    with pytest.raises(PermissionDenied):
        person_merge(by=alice, keep=ada, duplicate=ada_again)
    person_merge(by=root, keep=ada, duplicate=ada_again)
    after = {r["person"]["name"]: r["total"] for r in ranking_for_read(circuit).rows}
    assert after["Ada"] == 16 and "Ada K." not in after
    ada.refresh_from_db()
    ada_again.refresh_from_db()
    assert ada.federation_id == "PL-7" and ada_again.merged_into == ada
    assert ada_again.history.count() == 2  # created, then merged: its history stays
    assert not CircuitFinish.objects.filter(person=ada_again).exists()
    with pytest.raises(RuleError):
        person_merge(by=root, keep=ada, duplicate=ada_again)


def test_a_reopened_event_stops_counting_until_finished_again(
    alice, root, people, django_capture_on_commit_callbacks
):
    circuit = circuit_create(by=root, name="Grand Prix", rule=RULE)
    event = qualifier(alice, "Q1", people[:4])
    circuit_event_approve(circuit=circuit, by=root, tournament=event)
    assert len(ranking_for_read(circuit).rows) == 4
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(tournament=event, by=alice, status="running")
    assert ranking_for_read(circuit).rows == []
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(tournament=event, by=alice, status="finished")
    assert len(ranking_for_read(circuit).rows) == 4
