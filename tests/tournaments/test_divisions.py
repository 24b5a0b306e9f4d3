"""Divisions as the services keep them: add, change, delete, put players in them; bad
input refused by field with nothing saved; organisers only."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import RestrictedError

from scoring.errors import Conflict, RuleError
from tests.factories import make_tournament
from tournaments.models import Division, Tournament
from tournaments.services.divisions import (
    division_create,
    division_delete,
    division_update,
    player_divisions_set,
)
from tournaments.services.players import player_register, player_update, players_import_csv
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def fields_of(error: RuleError) -> list[str]:
    return [e.path[0] for e in error.flatten()]


def test_a_division_gets_a_slug_and_the_next_order(club, alice):
    juniors = division_create(
        tournament=club, by=alice, name="Juniors ≤ 14", prizes=["Trophy", "Book", "", ""]
    )
    seniors = division_create(tournament=club, by=alice, name="Seniors 60+")
    assert (juniors.slug, juniors.order, juniors.prizes) == ("juniors-14", 0, ["Trophy", "Book"])
    assert (seniors.slug, seniors.order) == ("seniors-60", 1)
    assert juniors.history.latest().history_user == alice


def test_prizes_are_stripped_and_must_be_a_list(club, alice):
    division = division_create(tournament=club, by=alice, name="Open", prizes=["Cup ", " Medal"])
    assert division.prizes == ["Cup", "Medal"]
    with pytest.raises(RuleError) as refused:
        division_create(tournament=club, by=alice, name="Other", prizes="Cup")
    assert fields_of(refused.value) == ["prizes"]


@pytest.mark.parametrize(
    ("values", "fields"),
    [
        ({"name": ""}, ["name"]),
        ({"name": "x" * 61}, ["name"]),
        ({"name": "Juniors", "slug": "no spaces"}, ["slug"]),
        ({"name": "Juniors", "order": -1}, ["order"]),
        ({"name": "Juniors", "order": "first"}, ["order"]),
        ({"name": "Juniors", "prizes": [1, 2]}, ["prizes"]),
        ({"name": "Juniors", "prizes": ["x"] * 21}, ["prizes"]),
        ({"name": "Juniors", "prizes": ["x" * 81]}, ["prizes"]),
        ({"name": "", "slug": "a b", "order": 5000}, ["name", "slug", "order"]),
        ({"name": "Juniors", "colour": "red"}, ["colour"]),
    ],
)
def test_bad_input_is_refused_by_field_and_nothing_is_saved(club, alice, values, fields):
    with pytest.raises(RuleError) as refused:
        division_create(tournament=club, by=alice, **values)
    assert fields_of(refused.value) == fields
    assert not Division.objects.exists()


def test_a_name_or_slug_taken_is_refused_whatever_the_case(club, alice):
    division_create(tournament=club, by=alice, name="Juniors")
    with pytest.raises(RuleError) as refused:
        division_create(tournament=club, by=alice, name="JUNIORS", slug="other")
    assert fields_of(refused.value) == ["name"]
    with pytest.raises(RuleError) as refused:
        division_create(tournament=club, by=alice, name="Young", slug="juniors")
    assert fields_of(refused.value) == ["slug"]
    assert Division.objects.count() == 1


def test_the_database_refuses_a_second_name_in_a_tournament(club, alice):
    division_create(tournament=club, by=alice, name="Juniors")
    with pytest.raises(IntegrityError), transaction.atomic():
        Division.objects.create(tournament=club, name="Juniors", slug="other")


def test_only_organisers_manage_divisions(club, alice, bob, mallory):
    for person in (bob, mallory):
        with pytest.raises(PermissionDenied):
            division_create(tournament=club, by=person, name="Juniors")
    division = division_create(tournament=club, by=alice, name="Juniors")
    with pytest.raises(PermissionDenied):
        player_divisions_set(player=club.players.first(), by=bob, divisions=["juniors"])
    with pytest.raises(PermissionDenied):
        division_delete(division=division, by=bob)
    assert not division.players.exists()


def test_a_rename_keeps_the_slug_and_moves_the_pages(club, alice):
    division = division_create(tournament=club, by=alice, name="Juniors")
    club.refresh_from_db()
    before = (club.updated_at, club.results_version)
    division = division_update(division=division, by=alice, name="Juniors ≤ 14", order=3)
    assert (division.name, division.slug, division.order) == ("Juniors ≤ 14", "juniors", 3)
    club.refresh_from_db()
    assert club.updated_at > before[0]
    assert club.results_version == before[1]  # the standings themselves did not change


def test_players_join_divisions_of_their_tournament_only(club, alice):
    juniors = division_create(tournament=club, by=alice, name="Juniors")
    seniors = division_create(tournament=club, by=alice, name="Seniors")
    other = make_tournament(alice, name="Other Open")
    elsewhere = division_create(tournament=other, by=alice, name="Juniors")
    player = club.players.get(number=1)
    assert player_divisions_set(player=player, by=alice, divisions=["seniors", "juniors"]) == [
        juniors,
        seniors,
    ]
    for bad in (["kids"], [elsewhere], "juniors;seniors", 7):
        with pytest.raises(RuleError) as refused:
            player_divisions_set(player=player, by=alice, divisions=bad)
        assert fields_of(refused.value) == ["divisions"]
    assert set(player.divisions.all()) == {juniors, seniors}
    player_divisions_set(player=player, by=alice, divisions=[])
    assert not player.divisions.exists()


def test_register_and_update_take_divisions(club, alice):
    division_create(tournament=club, by=alice, name="Juniors")
    player = player_register(tournament=club, by=alice, name="Kid", divisions=["juniors"])
    assert [d.slug for d in player.divisions.all()] == ["juniors"]
    with pytest.raises(RuleError) as refused:
        player_register(tournament=club, by=alice, name="", divisions=["kids"])
    assert fields_of(refused.value) == ["name", "divisions"]
    assert not club.players.filter(name="").exists()
    with pytest.raises(RuleError) as refused:
        player_update(player=player, by=alice, name="Renamed", divisions=["kids"])
    assert fields_of(refused.value) == ["divisions"]
    player.refresh_from_db()
    assert player.name == "Kid"
    player_update(player=player, by=alice, divisions=[])
    assert not player.divisions.exists()


def test_deleting_a_division_keeps_its_players(club, alice):
    division = division_create(tournament=club, by=alice, name="Juniors")
    player = club.players.get(number=1)
    player_divisions_set(player=player, by=alice, divisions=["juniors"])
    division_delete(division=division, by=alice)
    assert not Division.objects.exists()
    assert club.players.filter(pk=player.pk).exists()


def test_a_division_a_stage_is_limited_to_is_kept(club, alice):
    division = division_create(tournament=club, by=alice, name="Juniors")
    stage_create(tournament=club, by=alice, name="Qualification")
    stage_create(tournament=club, by=alice, name="Juniors final", cut_top=2, division="juniors")
    with pytest.raises(Conflict) as refused:
        division_delete(division=division, by=alice)
    assert fields_of(refused.value) == ["division"]
    assert "Juniors final" in str(refused.value)
    assert Division.objects.filter(pk=division.pk).exists()


# --- the CSV import's divisions column ----------------------------------------------------


def test_a_csv_import_puts_players_in_divisions(club, alice):
    division_create(tournament=club, by=alice, name="Juniors")
    division_create(tournament=club, by=alice, name="Seniors")
    data = "name;club;divisions\nKid;A;juniors\nGran;B;seniors | juniors\nAdult;C;\n"
    imported = players_import_csv(tournament=club, by=alice, data=data)
    by_name = {p.name: sorted(d.slug for d in p.divisions.all()) for p in imported.players}
    assert by_name == {"Kid": ["juniors"], "Gran": ["juniors", "seniors"], "Adult": []}


def test_a_csv_import_with_an_unknown_division_names_the_line(club, alice):
    division_create(tournament=club, by=alice, name="Juniors")
    before = club.players.count()
    data = "name,divisions\nKid,juniors\nOther,kids\n"
    with pytest.raises(RuleError) as refused:
        players_import_csv(tournament=club, by=alice, data=data)
    assert fields_of(refused.value) == ["file"]
    assert "line 3: divisions no division 'kids'" in str(refused.value)
    assert club.players.count() == before


def test_a_stages_division_holds_on_its_own_but_not_against_the_tournaments_delete(club, alice):
    division = division_create(tournament=club, by=alice, name="Juniors")
    stage_create(tournament=club, by=alice, name="Qualification")
    stage_create(tournament=club, by=alice, name="Juniors final", cut_top=2, division="juniors")
    with pytest.raises(RestrictedError), transaction.atomic():
        Division.objects.filter(pk=division.pk).delete()
    assert Division.objects.filter(pk=division.pk).exists()
    # The tournament's own cascade (the admin's, a club's) takes stage and division together.
    club.rounds.all().delete()
    Tournament.objects.filter(pk=club.pk).delete()
    assert not Division.objects.exists()
