"""A stage's rounds planned ("round 2 of 3": model, form, API, event file) and the close
button that says what is missing before anyone clicks it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game
from games.services.event_file.export import event_file_export
from games.services.event_file.schema import event_file_schema
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.web import field_errors, text
from tournaments.models import Stage
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    """An API client sending `user`'s token."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def staged(alice, bob):
    tournament = make_tournament(alice, scorekeepers=[bob], players=8, games_per_table=1)
    stage_create(tournament=tournament, by=alice, name="Qualification", rounds_planned=3)
    stage_create(tournament=tournament, by=alice, name="Final", kind="final", cut_top=4)
    return tournament


def _stage_url(tournament, number=1):
    return reverse("stage-detail", kwargs={"slug": tournament.slug, "stage_number": number})


def test_a_running_stage_says_round_n_of_planned(as_user, staged, alice):
    page = text(as_user("anon").get(_stage_url(staged)))
    assert "3 rounds planned" in page
    open_round(staged, alice)
    open_round(staged, alice)
    page = text(as_user("anon").get(_stage_url(staged)))
    assert page.count("round 2 of 3") == 2  # the timeline and the stage's own line
    home = text(as_user("anon").get(reverse("tournament-detail", kwargs={"slug": staged.slug})))
    assert "Qualification: round 2 of 3" in home


def test_rounds_planned_through_the_form_and_the_api(as_user, alice, staged):
    url = reverse("stage-new", kwargs={"slug": staged.slug})
    bad = as_user("alice").post(
        url,
        {
            "name": "Semi",
            "kind": "semi_final",
            "cut_top": "4",
            "cut_ties": "lot",
            "carry_over": "none",
            "rounds_planned": "0",
        },
    )
    assert bad.status_code == 200
    assert field_errors(text(bad), "id_rounds_planned")
    assert not Stage.objects.filter(name="Semi").exists()
    api = _api(alice)
    answer = api.patch(
        f"/api/v1/tournaments/{staged.slug}/stages/2/", {"rounds_planned": 2}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["rounds_planned"] == 2
    refused = api.patch(
        f"/api/v1/tournaments/{staged.slug}/stages/2/", {"rounds_planned": 0}, format="json"
    )
    assert refused.status_code == 400
    assert "rounds_planned" in refused.json()
    assert Stage.objects.get(tournament=staged, number=2).rounds_planned == 2


def test_the_event_file_carries_a_stages_rounds_planned(staged):
    document = event_file_export(staged)
    assert [s["rounds_planned"] for s in document["stages"]] == [3, None]
    stage_schema = event_file_schema()["$defs"]["stage"]
    assert "rounds_planned" in stage_schema["properties"]
    assert "rounds_planned" not in stage_schema["required"]  # older files still import


def test_the_close_button_says_what_is_missing_before_the_click(as_user, staged, alice, bob):
    round_ = open_round(staged, alice)
    games = list(Game.objects.filter(table__round=round_).order_by("table__number"))
    enter_rummikub(games[0], bob)
    page = text(as_user("alice").get(_stage_url(staged)))
    button = re.search(r"<button[^>]*>\s*Close Qualification and commit this cut\s*</button>", page)
    assert button and "disabled" in button.group(0)
    assert 'aria-describedby="close-blockers"' in button.group(0)
    blockers = re.search(r'id="close-blockers".*?</div>', page, re.S).group(0)
    assert "Round 1: 1 game missing at table 2" in blockers
    enter_rummikub(games[1], bob)
    page = text(as_user("alice").get(_stage_url(staged)))
    button = re.search(r"<button[^>]*>\s*Close Qualification and commit this cut\s*</button>", page)
    assert "disabled" not in button.group(0)
    assert 'id="close-blockers"' not in page
