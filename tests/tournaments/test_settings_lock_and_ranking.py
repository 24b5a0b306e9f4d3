"""The settings page once results are in (what is locked is shown locked, with the reason;
what may still change says so; a stale page's change is refused beside its field) and
the ranking picked from named metrics, with the rules panel saying what is wrong."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.web import field_errors, text

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    """An API client sending `user`'s token."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


LOCKED = "Locked: results have been entered."


def edit_url(tournament) -> str:
    return reverse("tournament-edit", kwargs={"slug": tournament.slug})


def _tag(page: str, field_id: str) -> str:
    match = re.search(rf'<(?:input|select)[^>]*id="{field_id}"[^>]*>', page)
    assert match, field_id
    return match.group(0)


def _form(**changes) -> dict:
    base = {"name": "Club Open", "status": "running", "preset": "standard",
            "table_size": "4", "public": "on"}  # fmt: skip
    return {**base, **changes}


def test_before_any_result_nothing_is_locked(as_user, club):
    page = text(as_user("alice").get(edit_url(club)))
    assert "disabled" not in _tag(page, "id_preset_0")
    assert "disabled" not in _tag(page, "id_table_size")
    assert LOCKED not in page


def test_after_the_first_result_locked_fields_say_so(as_user, played):
    page = text(as_user("alice").get(edit_url(played)))
    for field in ("id_preset", "id_joker_penalty", "id_table_size", "id_games_per_table"):
        tag = _tag(page, f"{field}_0" if field == "id_preset" else field)
        assert "disabled" in tag, field
        assert f'aria-describedby="{field}_helptext"' in tag
        help_text = re.search(rf'id="{field}_helptext">(.*?)</div>', page, re.S).group(1)
        assert help_text.startswith(LOCKED), field
    for field in ("id_name", "id_starts_on", "id_public", "id_rounds_planned", "id_ranking_1"):
        assert "disabled" not in _tag(page, field), field
    assert "Still open: the name, the date" in page and "rounds planned" in page
    # The disabled fields' values still feed the live rules panel.
    assert '<input type="hidden" name="preset" value="standard">' in page


def test_a_stale_page_cannot_change_players_per_table(as_user, played):
    response = as_user("alice").post(edit_url(played), _form(table_size="3"))
    assert response.status_code == 200
    assert field_errors(text(response), "id_table_size") == [
        "cannot change once a result has been entered; it stays as it was."
    ]
    played.refresh_from_db()
    assert played.table_size == 4


def test_what_may_still_change_saves(as_user, played):
    response = as_user("alice").post(
        edit_url(played), _form(name="Club Open Final", rounds_planned="5")
    )
    assert response.status_code == 302
    played.refresh_from_db()
    assert (played.name, played.rounds_planned, played.table_size) == ("Club Open Final", 5, 4)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"table_size": 3}, "table_size"),
        ({"games_per_table": 2}, "games_per_table"),
        ({"preset": "mso"}, "preset"),
    ],
)
def test_the_api_refuses_locked_settings_naming_the_field(alice, played, body, field):
    answer = _api(alice).patch(f"/api/v1/tournaments/{played.slug}/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert field in answer.json()
    played.refresh_from_db()
    assert played.table_size == 4 and played.rules["preset"] == "standard"


def test_the_api_names_the_option_that_may_not_change(alice, played):
    answer = _api(alice).patch(
        f"/api/v1/tournaments/{played.slug}/", {"rules": {"joker_penalty": 50}}, format="json"
    )
    assert answer.status_code == 400
    assert "joker_penalty" in str(answer.json())


def test_the_same_values_again_pass_after_results(alice, played):
    answer = _api(alice).patch(
        f"/api/v1/tournaments/{played.slug}/", {"table_size": 4, "name": "Renamed"}, format="json"
    )
    assert answer.status_code == 200, answer.content


def test_presets_are_named_with_a_line_each(as_user):
    page = text(as_user("alice").get(reverse("tournament-create")))
    mso = re.search(r'<label for="id_preset_3">(.*?)</label>', page, re.S).group(1)
    assert 'value="mso"' in mso
    assert '<span class="preset-name">Mind Sports Olympiad (tables of 2)</span>' in mso
    assert "Head-to-head games, joker 50" in mso
    panel = text(as_user("anon").get(reverse("rules-preview"), {"preset": "mso"}))
    assert "Preset <strong>Mind Sports Olympiad (tables of 2)</strong>" in panel


def test_the_ranking_is_picked_in_order_from_named_metrics(as_user, club):
    page = text(as_user("alice").get(edit_url(club)))
    select = re.search(r'<select name="ranking_1".*?</select>', page, re.S).group(0)
    assert '<option value="games_won" selected>Games won (higher is better)</option>' in select
    assert '<option value="rack_total">Rack total (lower is better)</option>' in select
    assert "games_played" not in select  # information only: it cannot rank
    response = as_user("alice").post(
        edit_url(club),
        _form(ranking_1="won_per_game", ranking_2="", ranking_3="score_per_game", ranking_4=""),
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.ranking == ["won_per_game", "score_per_game"]


def test_a_wrong_ranking_is_shown_beside_it_and_in_the_panel(as_user, club):
    response = as_user("alice").post(edit_url(club), _form(ranking_1="score", ranking_2="score"))
    assert response.status_code == 200
    page = text(response)
    (message,) = field_errors(page, "id_ranking")
    assert "score" in message
    club.refresh_from_db()
    assert club.ranking == ["games_won", "score"]
    panel = text(
        as_user("anon").get(
            reverse("rules-preview"),
            {"preset": "standard", "ranking_1": "score", "ranking_2": "score"},
        )
    )
    assert "(as chosen — not valid yet, see above)" in panel
    assert "(the preset's)" not in panel
    assert "1. Score (higher is better)" in panel
    assert "Games won" not in panel.split("Ranking</strong>")[1]  # not the preset's ranking
