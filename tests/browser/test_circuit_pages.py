"""The circuit's public pages on a phone (412 x 900) in the real browser: the ranking with
its per-event points, the qualified list, a person's page and the calendar fit the width
(wide tables scroll inside their box, the page itself does not)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from circuits.services.circuits import circuit_create, circuit_event_approve
from tests.circuits.helpers import qualifier
from tests.factories import make_tournament
from tournaments.services.people import person_create

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = "/tmp/circuit-shots"


@pytest.fixture
def season(alice, root):
    make_tournament(alice, name="Desk")
    people = [
        person_create(by=alice, name=n, federation_id=f"PL-{i}")
        for i, n in enumerate(
            ["Agnieszka Wiśniewska-Kowalczyk", "Bartłomiej Zieliński", "Cy", "Dov"]
        )
    ]
    circuit = circuit_create(
        by=root, name="Grand Prix of Poland 2026", rule={"best": 3, "slots": 1, "ranking_slots": 1},
        cutoff=date(2026, 12, 31),
    )  # fmt: skip
    for n in range(8):
        order = people[n % 4 :] + people[: n % 4]
        event = qualifier(
            alice, f"Qualifier {n + 1}", order, day=date(2026, 3, 1) + timedelta(days=7 * n)
        )
        circuit_event_approve(circuit=circuit, by=root, tournament=event)
    return circuit, people


def test_the_circuit_pages_fit_a_phone(new_page, season):
    circuit, people = season
    page = new_page()
    for path, heading, seen in [
        (f"/circuits/{circuit.slug}/", "Grand Prix of Poland 2026", "Agnieszka"),
        (f"/circuits/{circuit.slug}/qualified/", "Grand Prix of Poland 2026", "Bartłomiej"),
        (f"/circuits/{circuit.slug}/calendar/", "Grand Prix of Poland 2026", "Qualifier 8"),
        (f"/circuits/{circuit.slug}/people/{people[0].pk}/", people[0].name, "Qualifier 1"),
    ]:
        page.goto(path)
        assert page.get_by_role("heading", level=1).inner_text() == heading
        assert seen in page.content()
        assert page.evaluate("document.documentElement.scrollWidth") <= 412, path
        page.screenshot(path=f"{SHOTS}-{path.strip('/').replace('/', '-')}.png", full_page=True)
