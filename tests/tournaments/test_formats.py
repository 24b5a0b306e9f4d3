"""New tournament from a format: the page, the API (list and apply) and what a template
creates (the stages, rules and slots are then played in
tests/games/test_formats_end_to_end.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.errors import RuleError
from scoring.formats import CATALOGUE
from tests.web import field_errors, text
from tournaments.models import Stage, Tournament
from tournaments.services.formats import tournament_from_format

pytestmark = pytest.mark.django_db


def _api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.mark.parametrize("chosen", CATALOGUE, ids=lambda f: f.key)
def test_every_format_creates_its_stages_and_rules(alice, chosen):
    tournament = tournament_from_format(by=alice, format=chosen.key, name=f"T {chosen.key}")
    stages = list(tournament.stages.order_by("number"))
    assert [s.name for s in stages] == [p.name for p in chosen.stages]
    for stage, plan in zip(stages, chosen.stages, strict=True):
        assert stage.status == Stage.Status.UPCOMING
        assert stage.games_per_table == plan.games_per_table
        assert stage.seating == plan.seating
        assert stage.cut_top == plan.cut_top
    assert tournament.games_per_table == chosen.games_per_table
    assert tournament.target_score == chosen.target_score
    assert tournament.qualify_slots == chosen.qualify_slots
    if chosen.ranking:
        assert tournament.ranking == list(chosen.ranking)
    assert [d.name for d in tournament.divisions.all()] == list(chosen.divisions)


def test_an_unknown_format_is_refused_and_nothing_saved(alice):
    with pytest.raises(RuleError) as caught:
        tournament_from_format(by=alice, format="chess", name="X")
    assert caught.value.path == ("format",)
    assert not Tournament.objects.exists()


def test_the_api_lists_and_applies_a_format(alice):
    listed = _api().get("/api/v1/formats/")
    assert listed.status_code == 200
    assert [f["key"] for f in listed.json()] == [f.key for f in CATALOGUE]
    belgian = next(f for f in listed.json() if f["key"] == "belgian-open")
    assert belgian["source"] and belgian["stages"][1]["settings"]["seating"] == "alternating"
    refused = _api().post("/api/v1/formats/tournament/", {"format": "belgian-open"}, format="json")
    assert refused.status_code in (401, 403)
    bad = _api(alice).post("/api/v1/formats/tournament/", {"format": "nope"}, format="json")
    assert bad.status_code == 400 and "format" in bad.json()
    made = _api(alice).post(
        "/api/v1/formats/tournament/",
        {"format": "belgian-open", "name": "Open 2026", "starts_on": "2026-12-05"},
        format="json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["games_per_table"] == 3
    stages = _api(alice).get(f"/api/v1/tournaments/{made.json()['slug']}/stages/").json()
    assert [(s["name"], s["games_per_table"], s["seating"]) for s in stages] == [
        ("Qualification", 3, "random"),
        ("Semi-finals", 2, "alternating"),
        ("Final", 1, "random"),
    ]


def test_the_page_offers_the_catalogue_and_creates(as_user):
    url = reverse("tournament-from-format")
    page = text(as_user("alice").get(url))
    for chosen in CATALOGUE:
        assert chosen.name in page
    assert "Source:" in page
    new = text(as_user("alice").get(reverse("tournament-create")))
    assert "Start from a format" in new
    bad = as_user("alice").post(url, {"format": "", "name": "X"})
    assert bad.status_code == 200 and field_errors(text(bad), "id_format")
    made = as_user("alice").post(url, {"format": "japanese-championship", "name": "JP Open"})
    assert made.status_code == 302
    tournament = Tournament.objects.get(name="JP Open")
    assert tournament.stages.count() == 3
