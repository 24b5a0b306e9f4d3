"""A small circuit across three clubs, end to end: six qualifiers (one below the minimum
field), a player who qualifies twice (the slot passes down), a duplicate person merged,
the ranking with best N, the final's entry list from the qualified people, and the public
pages and API."""

from __future__ import annotations

from datetime import date

import pytest
from rest_framework.test import APIClient

from circuits.models import FinalEntry
from circuits.services.circuits import circuit_create, circuit_event_approve, circuit_update
from circuits.services.people import person_merge
from circuits.services.ranking import ranking_for_read
from tests.circuits.helpers import qualifier
from tests.factories import make_tournament
from tournaments.services.clubs import club_create, member_create
from tournaments.services.people import member_person_link, person_create

pytestmark = pytest.mark.django_db

RULE = {
    "place_points": [10, 6, 3, 1],
    "best": 3,
    "min_field": 4,
    "slots": 1,
    "ranking_slots": 1,
}


def names(rows):
    return [(r["rank"], r["person"]["name"], r["total"]) for r in rows]


def test_a_circuit_of_three_clubs(alice, bob, carol, root, client):
    north, south, east = (
        club_create(by=alice, name="North"),
        club_create(by=bob, name="South"),
        club_create(by=carol, name="East"),
    )
    ada, ben, cy, dov, eli, fay, gil = (
        person_create(by=alice, name=n, email=f"{n.lower()}@example.org")
        for n in ("Ada", "Ben", "Cy", "Dov", "Eli", "Fay", "Gil")
    )
    # South registers Ada again, with her federation id: a duplicate.
    ada_again = person_create(by=bob, name="Ada P.", federation_id="PL-7")
    # East plays with club members linked to people.
    gil_member = member_create(club=east, by=carol, name="Gil")
    eli_member = member_create(club=east, by=carol, name="Eli")
    member_person_link(member=gil_member, by=carol, person=gil)
    member_person_link(member=eli_member, by=carol, person=eli)

    circuit = circuit_create(by=root, name="Grand Prix", rule=RULE, cutoff=date(2026, 4, 30))
    final = make_tournament(root, name="National Final", starts_on=date(2026, 6, 1))
    circuit_update(circuit=circuit, by=root, final=final)

    events = [
        qualifier(alice, "Q1", [ada, ben, cy, dov], club=north, day=date(2026, 3, 1)),
        qualifier(alice, "Q2", [ada, cy, ben, eli], club=north, day=date(2026, 3, 8)),
        qualifier(bob, "Q3", [ada_again, fay, gil, ben], club=south, day=date(2026, 3, 15)),
        qualifier(bob, "Q4", [ben, dov, eli, fay], club=south, day=date(2026, 3, 22)),
        qualifier(carol, "Q5", [gil_member, eli_member, ada, cy], club=east, day=date(2026, 3, 29)),
        # Three players: below the minimum field, it counts for nothing.
        qualifier(carol, "Q6", [dov, eli_member, cy], club=east, day=date(2026, 4, 5)),
    ]
    for event in events:
        circuit_event_approve(circuit=circuit, by=root, tournament=event)

    before = ranking_for_read(circuit)
    by_event = sorted((q["event"], q["person"]["name"]) for q in before.qualified if q["event"])
    assert [(name, event) for event, name in by_event] == [
        ("Ada", "q1"),
        ("Cy", "q2"),  # Ada qualified twice: Q2's slot passed down to Cy
        ("Ada P.", "q3"),
        ("Ben", "q4"),
        ("Gil", "q5"),
    ]
    assert "Ada P." in final.players.values_list("name", flat=True)

    person_merge(by=root, keep=ada, duplicate=ada_again)

    ranking = ranking_for_read(circuit)
    # best 3: Ada 10+10+10 (Q5's 3 not counted), Ben 10+6+3 (Q3's 1 not counted)...
    assert names(ranking.rows) == [
        (1, "Ada", 30),
        (2, "Ben", 19),
        (3, "Gil", 13),
        (4, "Cy", 10),
        (4, "Eli", 10),
        (6, "Dov", 7),
        (6, "Fay", 7),
    ]
    ada_row = ranking.rows[0]
    assert [(c["event"], c["points"], c["counted"]) for c in ada_row["contributions"]] == [
        ("q1", 10, True),
        ("q2", 10, True),
        ("q3", 10, True),
        ("q5", 3, False),
    ]
    assert all(c["event"] != "q6" for row in ranking.rows for c in row["contributions"])
    qualified = [
        (q["seed"], q["person"]["name"], q["route"], q["event"]) for q in ranking.qualified
    ]
    assert qualified == [
        (1, "Ada", "event", "q1"),
        (2, "Ben", "event", "q4"),
        (3, "Gil", "event", "q5"),
        (4, "Cy", "event", "q2"),
        (5, "Eli", "ranking", None),  # the ranking's top at the cut-off, past the qualified
        (6, "Fay", "event", "q3"),  # Ada, one person now, passed Q3's slot down
    ]
    # The final's entry list: the qualified people, each a player linked to them.
    entries = [
        (e.seed, e.person.name, e.player.person_id == e.person_id)
        for e in FinalEntry.objects.filter(circuit=circuit).select_related("person", "player")
    ]
    assert entries == [
        (1, "Ada", True),
        (2, "Ben", True),
        (3, "Gil", True),
        (4, "Cy", True),
        (5, "Eli", True),
        (6, "Fay", True),
    ]
    assert sorted(final.players.values_list("name", flat=True)) == sorted(
        ["Ada", "Ben", "Gil", "Cy", "Eli", "Fay"]
    )

    # The public pages, as anyone reads them.
    page = client.get(f"/circuits/{circuit.slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ada" in text and "Ada P." not in text and "(3)" in text  # Q5's 3 not counted
    again = client.get(f"/circuits/{circuit.slug}/", HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 304
    qualified_page = client.get(f"/circuits/{circuit.slug}/qualified/").content.decode()
    assert "Fay" in qualified_page and "passed the slot of q3 down" in qualified_page
    person_page = client.get(f"/circuits/{circuit.slug}/people/{ada.pk}/").content.decode()
    assert "Rank 1 with 30 points" in person_page and "seed 1" in person_page
    feed = client.get(f"/circuits/{circuit.slug}/calendar.ics")
    assert feed["Content-Type"].startswith("text/calendar")
    assert feed.content.decode().count("DTSTART;VALUE=DATE:202603") == 5  # each day
    assert "DTSTART;VALUE=DATE:20260405" in feed.content.decode()
    assert "Q6" in client.get(f"/circuits/{circuit.slug}/calendar/").content.decode()

    # The API: ranking and qualified list; a person's private fields by who may see them.
    api = APIClient()
    body = api.get(f"/api/v1/circuits/{circuit.slug}/ranking/").json()
    assert [row["person"]["name"] for row in body["rows"]][:2] == ["Ada", "Ben"]
    body = api.get(f"/api/v1/circuits/{circuit.slug}/qualified/").json()
    assert [q["start_number"] is not None for q in body["qualified"]] == [True] * 6
    api.force_authenticate(carol)
    seen = api.get(f"/api/v1/people/{ada.pk}/").json()
    assert seen["federation_id"] == "PL-7" and "email" not in seen
    api.force_authenticate(alice)
    assert api.get(f"/api/v1/people/{ada.pk}/").json()["email"] == "ada@example.org"
    merged = api.get(f"/api/v1/people/{ada_again.pk}/").json()
    assert merged["merged_into"] == ada.pk
