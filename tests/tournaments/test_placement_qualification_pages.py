"""Placement points and qualification slots on the organiser's pages: the placement table
typed on the tournament form (an error beside the field, nothing saved), the rules panel
showing it, the slots on the settings page and the "already qualified" flag on the
player form; the standings page's badges and the qualified list's link."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services.standings import standings_recompute
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.web import field_errors, text
from tournaments import rules_panel
from tournaments.forms.organise import parse_points_table, points_table_text
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("typed", "table"),
    [
        ("4: 5 3 1 0; 3: 4 2 0", {"4": [5, 3, 1, 0], "3": [4, 2, 0]}),
        ("4: 5/3/1/0\n2 = 3, 0", {"4": [5, 3, 1, 0], "2": [3, 0]}),
        ("4: 5 three 1 0", {"4": [5, "three", 1, 0]}),  # left for the rules to name
        ("four", {"four": []}),
    ],
)
def test_a_typed_placement_table_is_read_as_the_rules_take_it(typed, table):
    assert parse_points_table(typed) == table


def test_a_stored_table_is_shown_as_typed():
    shown = points_table_text({"2": [4, 0], "3": [4, 2, 0], "4": [5, 3, 1, 0]})
    assert shown == "4: 5 3 1 0; 3: 4 2 0; 2: 4 0"
    assert parse_points_table(shown) == {"4": [5, 3, 1, 0], "3": [4, 2, 0], "2": [4, 0]}


def test_create_with_a_placement_table(as_user):
    response = as_user("alice").post(
        reverse("tournament-create"),
        {
            "name": "City Cup",
            "preset": "standard",
            "placement_points": "4: 5 3 1 0",
            "ranking": "placement_points, first_places, score",
            "public": "on",
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="City Cup")
    assert tournament.rules["placement_points"]["4"] == [5, 3, 1, 0]
    assert tournament.ranking == ["placement_points", "first_places", "score"]


def test_a_bad_placement_table_shows_beside_its_field_and_saves_nothing(as_user):
    response = as_user("alice").post(
        reverse("tournament-create"),
        {"name": "City Cup", "preset": "standard", "placement_points": "4: 5 3 1"},
    )
    assert response.status_code == 200
    errors = " ".join(field_errors(text(response), "id_placement_points"))
    assert "a table of 4 needs 4 places, not 3" in errors
    assert not Tournament.objects.exists()


def test_the_rules_panel_shows_the_placement_table(as_user):
    page = text(
        as_user("anon").get(
            reverse("rules-preview"), {"preset": "standard", "placement_points": "4: 6 3 1 0"}
        )
    )
    assert (
        'data-option="placement_points">'
        "tables of 4: 6/3/1/0 · tables of 3: 4/2/0 · tables of 2: 4/0"
    ) in page


def test_the_placement_table_is_a_translatable_phrase_per_table_size(monkeypatch):
    # Each size goes through the catalog as a whole phrase (word order is the language's).
    asked = []

    def catalog(context, message):
        asked.append((context, message))
        return "{points} bij tafels van {size}"

    monkeypatch.setattr(rules_panel, "pgettext", catalog)
    shown = rules_panel.as_shown({"4": [4, 3, 1, 0], "3": [4, 2, 0]})
    assert shown == "4/3/1/0 bij tafels van 4 · 4/2/0 bij tafels van 3"
    assert asked == [("placement points by table size", "tables of {size}: {points}")] * 2


@pytest.fixture
def played(alice):
    tournament = make_tournament(alice, name="City Cup", players=8)
    open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament, number=1):
        enter_rummikub(game, alice)
    return tournament


def test_slots_on_the_settings_page_and_the_flag_on_the_player_form(as_user, played):
    client = as_user("alice")
    edit = reverse("tournament-edit", kwargs={"slug": played.slug})
    form = {
        "name": "City Cup",
        "status": "running",
        "preset": "standard",
        "public": "on",
        "qualify_slots": "2",
        "qualify_event": "",
    }
    response = client.post(edit, form)
    assert "name the event" in " ".join(field_errors(text(response), "id_qualify_event"))
    played.refresh_from_db()
    assert played.qualify_slots is None

    response = client.post(edit, {**form, "qualify_event": "National final"})
    assert response.status_code == 302
    played.refresh_from_db()
    assert (played.qualify_slots, played.qualify_event) == (2, "National final")

    leader = standings_recompute(tournament_id=played.pk).rows[0]["player"]
    player_edit = reverse(
        "player-edit", kwargs={"slug": played.slug, "player_number": leader["number"]}
    )
    response = client.post(
        player_edit, {"number": leader["number"], "name": leader["name"], "already_qualified": "on"}
    )
    assert response.status_code in (200, 302)
    assert played.players.get(pk=leader["id"]).already_qualified is True

    standings_recompute(tournament_id=played.pk)
    page = text(as_user("anon").get(reverse("tournament-detail", kwargs={"slug": played.slug})))
    assert "The top 2 players qualify for National final" in page
    assert page.count("badge-qualified") == 2 and page.count("badge-already") == 1
    assert reverse("qualified-csv", kwargs={"slug": played.slug}) in page
