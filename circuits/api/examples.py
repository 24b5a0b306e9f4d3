"""The sample bodies the circuits' API reference shows (`circuits.api.circuits`,
`circuits.api.people`): one place for the names, numbers and slugs the examples share."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

RULE_EXAMPLE = {
    "points": "places",
    "place_points": [100, 80, 65, 55, 50],
    "beaten_points": 100,
    "weighted": True,
    "reference_field": 24,
    "best": 6,
    "min_field": 12,
    "slots": 1,
    "ranking_slots": 8,
}

CIRCUIT_EXAMPLE = {
    "slug": "polish-grand-prix-2026",
    "name": "Polish Grand Prix 2026",
    "rule": RULE_EXAMPLE,
    "cutoff": "2026-09-30",
    "final": "national-final-2026",
    "version": 42,
}

PERSON_REF = {"id": 12, "name": "Ada Peretz", "federation_id": "PL-0117"}

PERSON_EXAMPLE = OpenApiExample(
    "Person",
    response_only=True,
    value={
        "id": 12,
        "name": "Ada Peretz",
        "federation_id": "PL-0117",
        "merged_into": None,
        "email": "ada@example.org",
        "birth_year": 1961,
        "clubs": ["haifa-joker"],
    },
)

CIRCUIT_EVENT_DELETE = [
    OpenApiExample(
        "Not an administrator",
        value={"detail": "Only the circuit's administrators may do this."},
        response_only=True,
        status_codes=["403"],
    )
]
