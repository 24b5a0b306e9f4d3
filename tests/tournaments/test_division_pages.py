"""The organiser's division pages: add one (errors beside the fields, nothing saved),
choose its players, change its prizes, delete it; the registration and edit forms'
division boxes; organisers only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web import field_errors, text
from tournaments.models import Division
from tournaments.services.divisions import division_create
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def url(club, name="tournament-divisions", *args):
    return reverse(name, args=[club.slug, *args])


def test_add_a_division_then_choose_its_players(club, as_user):
    client = as_user("alice")
    added = client.post(url(club), {"name": "Juniors ≤ 14", "prizes": "Trophy\nBook\n"})
    division = Division.objects.get()
    assert added["Location"] == url(club, "division-edit", division.slug)
    assert (division.slug, division.prizes) == ("juniors-14", ["Trophy", "Book"])
    page = text(client.get(added["Location"]))
    assert "#1 Player 1" in page
    ids = [str(p.pk) for p in club.players.filter(number__in=(2, 5))]
    saved = client.post(added["Location"], {"save": "players", "players": ids})
    assert saved.status_code == 302
    assert sorted(division.players.values_list("number", flat=True)) == [2, 5]
    listing = text(client.get(url(club)))
    assert "Trophy · Book" in listing and ">2</td>" in listing


def test_bad_input_is_named_beside_the_field(club, as_user):
    division_create(tournament=club, by=club.staff.get(role="organiser").user, name="Juniors")
    page = text(as_user("alice").post(url(club), {"name": "juniors", "slug": "a b", "order": "x"}))
    assert field_errors(page, "id_order") == ["Enter a whole number."]
    page = text(as_user("alice").post(url(club), {"name": "juniors", "slug": "a b"}))
    assert field_errors(page, "id_slug")
    page = text(as_user("alice").post(url(club), {"name": "juniors"}))
    assert field_errors(page, "id_name") == ["juniors is a division already."]
    assert Division.objects.count() == 1


def test_change_prizes_and_delete(club, as_user, alice):
    division = division_create(tournament=club, by=alice, name="Juniors")
    client = as_user("alice")
    edit = url(club, "division-edit", "juniors")
    saved = client.post(edit, {"save": "settings", "name": "Under 14", "prizes": "Cup"})
    assert saved.status_code == 302
    division.refresh_from_db()
    assert (division.name, division.slug, division.prizes) == ("Under 14", "juniors", ["Cup"])
    stage_create(tournament=club, by=alice, name="Qualification")
    stage_create(tournament=club, by=alice, name="Juniors final", cut_top=2, division="juniors")
    kept = client.post(url(club, "division-delete", "juniors"), follow=True)
    assert "Juniors final" in text(kept)
    assert Division.objects.exists()
    club.stages.filter(number=2).update(division=None)
    client.post(url(club, "division-delete", "juniors"))
    assert not Division.objects.exists()


@pytest.mark.parametrize(("who", "status"), [("anon", 302), ("mallory", 404), ("bob", 403)])
def test_only_organisers_see_the_pages(club, as_user, alice, who, status):
    division_create(tournament=club, by=alice, name="Juniors")
    assert as_user(who).get(url(club)).status_code in (status, 403, 404, 302)
    answer = as_user(who).post(url(club), {"name": "Seniors"})
    assert answer.status_code != 200 or "Seniors" not in text(answer)
    assert not Division.objects.filter(name="Seniors").exists()


def test_register_and_edit_players_with_divisions(club, as_user, alice):
    division_create(tournament=club, by=alice, name="Juniors")
    division_create(tournament=club, by=alice, name="Seniors")
    client = as_user("alice")
    form = text(client.get(url(club, "tournament-players")))
    assert 'name="divisions" value="juniors"' in form
    client.post(url(club, "tournament-players"), {"name": "Kid", "divisions": ["juniors"]})
    kid = club.players.get(name="Kid")
    assert [d.slug for d in kid.divisions.all()] == ["juniors"]
    edit = reverse("player-edit", args=[club.slug, kid.number])
    page = text(client.get(edit))
    assert 'value="juniors"' in page and "checked" in page.split('value="juniors"')[1][:40]
    client.post(edit, {"number": kid.number, "name": "Kid", "divisions": ["seniors"]})
    assert [d.slug for d in kid.divisions.all()] == ["seniors"]
    bad = client.post(edit, {"number": kid.number, "name": "Kid", "divisions": ["kids"]})
    assert "Select a valid choice" in text(bad)
    assert [d.slug for d in kid.divisions.all()] == ["seniors"]


def test_no_divisions_no_boxes(club, as_user):
    form = text(as_user("alice").get(url(club, "tournament-players")))
    assert 'name="divisions"' not in form
