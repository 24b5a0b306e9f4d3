"""Request and answer sizes: a JSON or form body over `MAX_BODY_BYTES` answers 413 with a
`detail` naming the limit, before it is parsed; an answer lists at most
`MAX_LISTED_ERRORS` problems (the services' and DRF's own) and counts the rest."""

from __future__ import annotations

import json

import pytest

from config.api import MAX_BODY_BYTES
from scoring.errors import MAX_LISTED_ERRORS
from tests.api import rows

pytestmark = pytest.mark.django_db


def rounds_url(tournament) -> str:
    return f"/api/v1/tournaments/{tournament.slug}/rounds/"


def manual_round(size: int) -> bytes:
    """A manual round of unknown players (each one a problem), about `size` bytes."""
    tables = [[9_000_001, 9_000_002]] * (size // len(", [9000001, 9000002]"))
    return json.dumps({"method": "manual", "tables": tables}).encode()


@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 2048, 1_200_000])
def test_a_body_over_the_limit_answers_413_naming_it(client_for, tournament, size):
    body = manual_round(size)
    assert len(body) > MAX_BODY_BYTES
    before = rows()
    response = client_for("alice").post(
        rounds_url(tournament), body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response.json() == {"detail": response.json()["detail"]}
    assert f"{MAX_BODY_BYTES // 1024} KB" in response.json()["detail"]
    assert rows() == before


def test_a_form_body_over_the_limit_answers_413(client_for, tournament):
    body = "method=manual&tables=" + "1," * (MAX_BODY_BYTES // 2 + 10)
    response = client_for("alice").post(
        rounds_url(tournament), body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 413
    assert "KB" in response.json()["detail"]


def test_many_problems_answer_a_capped_body_with_a_count(client_for, tournament):
    body = manual_round(MAX_BODY_BYTES - 4096)
    problems = len(json.loads(body)["tables"]) * 2 + 1  # two unknown ids a table + unseated
    before = rows()
    response = client_for("alice").post(
        rounds_url(tournament), body, content_type="application/json"
    )
    assert response.status_code == 400
    answer = response.json()
    assert len(answer["tables"]) == MAX_LISTED_ERRORS
    assert answer["non_field_errors"] == [
        f"… and {problems - MAX_LISTED_ERRORS:,} more problems not listed here."
    ]
    assert len(response.content) < 10_000
    assert rows() == before


def test_drf_field_errors_are_capped_too(client_for, game):
    racks = [{"player": "x"}] * 2000  # each rack a wrong type: DRF's own errors
    response = client_for("bob").post(
        f"/api/v1/games/{game.id}/results/",
        {"based_on": 0, "end": "rummikub", "racks": racks},
        format="json",
    )
    assert response.status_code == 400
    answer = response.json()
    assert len(answer["racks"]) <= MAX_LISTED_ERRORS
    assert answer["racks"][0]["player"]
    assert "more problems not listed here" in answer["non_field_errors"][-1]
    assert len(response.content) < 10_000
