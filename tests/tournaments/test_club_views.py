"""The club organisers' pages: create a club, its members (add, edit with
history, import, export), organisers, seasons; a tournament held under a club and its
players linked to members. Bad input shows beside the field and saves nothing; strangers
get 403."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import make_tournament
from tests.html import assert_in_html
from tests.web import field_errors, text
from tournaments.models import Club, ClubOrganiser, Member, Season
from tournaments.services.clubs import (
    club_create,
    member_create,
    season_create,
    tournament_hold_under,
)


@pytest.fixture
def haifa(alice):
    return club_create(by=alice, name="Haifa Joker")


def test_the_home_page_lists_clubs_and_offers_to_create_one(as_user, haifa):
    page = text(as_user("anon").get(reverse("home")))
    assert reverse("club-detail", args=[haifa.slug]) in page
    assert reverse("club-create") not in page
    assert reverse("club-create") in text(as_user("mallory").get(reverse("home")))


def test_creating_a_club_makes_the_creator_its_organiser(as_user, mallory):
    client = as_user("mallory")
    response = client.post(reverse("club-create"), {"name": "Tel Aviv Tiles"})
    club = Club.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("club-members", args=[club.slug])
    assert ClubOrganiser.objects.filter(club=club, user=mallory).exists()


def test_a_club_needs_a_name_and_anonymous_users_sign_in(as_user):
    page = text(as_user("mallory").post(reverse("club-create"), {"name": "  "}))
    assert field_errors(page, "id_name")
    assert not Club.objects.exists()
    response = as_user("anon").get(reverse("club-create"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("club-members", []),
        ("club-members-csv", []),
        ("season-create", []),
        ("member-edit", ["member"]),
    ],
)
def test_a_stranger_gets_403_on_the_organiser_pages(as_user, alice, haifa, name, args):
    member = member_create(club=haifa, by=alice, name="Ada")
    url = reverse(name, args=[haifa.slug, *[member.pk for _ in args]])
    assert as_user("mallory").get(url).status_code == 403
    assert as_user("mallory").post(url, {"name": "X"}).status_code == 403
    assert as_user("anon").get(url).status_code == 302
    assert as_user("alice").get(url).status_code == 200
    assert as_user("root").get(url).status_code == 200
    assert Member.objects.get().name == "Ada" and not Season.objects.exists()


def test_strangers_cannot_post_imports_or_organisers(as_user, haifa):
    client = as_user("mallory")
    upload = SimpleUploadedFile("m.csv", b"name\nAda\n", content_type="text/csv")
    url = reverse("club-members-import", args=[haifa.slug])
    assert client.post(url, {"file": upload}).status_code == 403
    url = reverse("club-organiser-add", args=[haifa.slug])
    assert client.post(url, {"username": "mallory"}).status_code == 403
    assert not Member.objects.exists() and haifa.organisers.count() == 1


def test_the_club_page_links_its_organisers_to_their_pages(as_user, haifa):
    url = reverse("club-detail", args=[haifa.slug])
    members = reverse("club-members", args=[haifa.slug])
    assert members in text(as_user("alice").get(url))
    assert members not in text(as_user("mallory").get(url))
    member = member_create(club=haifa, by=haifa.organisers.get().user, name="Ada")
    url = reverse("member-detail", args=[haifa.slug, member.pk])
    edit = reverse("member-edit", args=[haifa.slug, member.pk])
    assert edit in text(as_user("alice").get(url))
    assert edit not in text(as_user("anon").get(url))


def test_adding_a_member_and_a_taken_code_beside_the_field(as_user, alice, haifa):
    client = as_user("alice")
    url = reverse("club-members", args=[haifa.slug])
    response = client.post(url, {"name": "Ada", "code": "H-1", "joined_on": "2024-09-01"})
    assert response.status_code == 302
    assert Member.objects.get().joined_on == date(2024, 9, 1)
    page = text(client.post(url, {"name": "Bram", "code": "H-1", "joined_on": ""}))
    assert field_errors(page, "id_code") == ["membership number H-1 is taken in Haifa Joker."]
    page = text(client.post(url, {"name": "", "code": "", "joined_on": "soon"}))
    assert field_errors(page, "id_joined_on") == ["Enter a valid date."]
    assert Member.objects.count() == 1


def test_the_member_list_query_count_does_not_grow(
    as_user, alice, haifa, django_assert_max_num_queries
):
    for n in range(30):
        member_create(club=haifa, by=alice, name=f"Member {n}", code=f"H-{n}")
    client = as_user("alice")
    with django_assert_max_num_queries(8):
        page = text(client.get(reverse("club-members", args=[haifa.slug])))
    assert "Members (30)" in page
    with django_assert_max_num_queries(8):
        client.get(reverse("club-detail", args=[haifa.slug]))


def test_editing_a_member_keeps_the_history(as_user, alice, haifa):
    member = member_create(club=haifa, by=alice, name="Ada", code="H-1")
    member_create(club=haifa, by=alice, name="Bram", code="H-2")
    client = as_user("alice")
    url = reverse("member-edit", args=[haifa.slug, member.pk])
    response = client.post(url, {"name": "Ada L.", "code": "H-1", "joined_on": "2023-01-05"})
    assert response.status_code == 302
    page = text(client.get(url))
    assert_in_html('Ada <span class="dir-arrow">→</span> <strong>Ada L.</strong>', page)
    assert "by alice" in page
    page = text(client.post(url, {"name": "Ada X", "code": "H-2", "joined_on": ""}))
    assert field_errors(page, "id_code") == ["membership number H-2 is taken in Haifa Joker."]
    member.refresh_from_db()
    assert (member.name, member.code, member.joined_on) == ("Ada L.", "H-1", date(2023, 1, 5))


def test_importing_members_from_the_page(as_user, haifa):
    client = as_user("alice")
    url = reverse("club-members-import", args=[haifa.slug])
    good = SimpleUploadedFile("m.csv", b"name,code\nAda,H-1\nBram,H-2\n", content_type="text/csv")
    response = client.post(url, {"file": good}, follow=True)
    assert "2 members imported." in text(response)
    bad = SimpleUploadedFile("m.csv", b"name,code\n,H-3\nChana,H-1\n", content_type="text/csv")
    page = text(client.post(url, {"file": bad}))
    errors = field_errors(page, "id_file")
    assert [e.split(":")[0] for e in errors] == ["line 2", "line 3"]
    assert haifa.members.count() == 2
    export = client.get(reverse("club-members-csv", args=[haifa.slug]))
    assert export.content.decode("utf-8-sig").splitlines()[1:] == ["Ada,H-1,", "Bram,H-2,"]


def test_adding_an_organiser_by_username(as_user, haifa, bob):
    client = as_user("alice")
    url = reverse("club-organiser-add", args=[haifa.slug])
    page = text(client.post(url, {"username": "nobody"}))
    assert field_errors(page, "id_username") == ["no user can be added under that name."]
    assert client.post(url, {"username": "bob"}).status_code == 302
    assert haifa.organisers.filter(user=bob).exists()
    assert as_user("bob").get(reverse("club-members", args=[haifa.slug])).status_code == 200


def test_declaring_a_season_and_its_errors_beside_the_fields(as_user, haifa):
    client = as_user("alice")
    url = reverse("season-create", args=[haifa.slug])
    page = text(client.post(url, {"name": "", "rule": "best", "best": "", "cap": "0"}))
    assert field_errors(page, "id_name")
    assert field_errors(page, "id_best") == ["best N of M needs N, a whole number of at least 1"]
    page = text(client.post(url, {"name": "Spring", "rule": "places", "place_points": "10, 12"}))
    assert field_errors(page, "id_place_points") == [
        "points may not rise from one place to the next"
    ]
    page = text(client.post(url, {"name": "Spring", "rule": "places", "place_points": "10, x"}))
    assert field_errors(page, "id_place_points") == ["Give whole numbers separated by commas."]
    assert not Season.objects.exists()
    data = {"name": "Spring", "rule": "places", "place_points": "10 8 6", "cap": "9"}
    response = client.post(url, data)
    season = Season.objects.get()
    assert response["Location"] == reverse("season-detail", args=[haifa.slug, season.slug])
    assert season.rule == {"rule": "places", "best": None, "place_points": [10, 8, 6], "cap": 9}


def test_holding_a_tournament_under_a_club_and_season(as_user, alice, haifa):
    season = season_create(club=haifa, by=alice, name="Spring", rule={"rule": "sum"})
    tournament = make_tournament(alice)
    client = as_user("alice")
    url = reverse("tournament-club", args=[tournament.slug])
    assert "Club &amp; season" in text(client.get(url))
    page = text(client.post(url, {"club": "", "season": season.pk, "rated": "on"}))
    assert field_errors(page, "id_season") == ["Spring is not a season of this club."]
    tournament.refresh_from_db()
    assert tournament.club is None
    response = client.post(url, {"club": haifa.pk, "season": season.pk, "rated": "on"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.club, tournament.season, tournament.rated) == (haifa, season, True)


def test_only_the_clubs_organisers_may_hold_a_tournament_under_it(as_user, alice, bob, haifa):
    tournament = make_tournament(bob)
    client = as_user("bob")
    url = reverse("tournament-club", args=[tournament.slug])
    assert "You organise no club" in text(client.get(url))
    page = text(client.post(url, {"club": haifa.pk}))
    assert field_errors(page, "id_club")  # not one of bob's clubs
    tournament.refresh_from_db()
    assert tournament.club is None
    assert as_user("mallory").get(url).status_code == 403


def test_confirming_name_matches_and_linking_one_player(as_user, alice, haifa):
    members = [member_create(club=haifa, by=alice, name=f"Player {n}") for n in (1, 2, 3)]
    tournament = make_tournament(alice, players=4)
    tournament_hold_under(tournament=tournament, by=alice, club=haifa)
    client = as_user("alice")
    url = reverse("tournament-members", args=[tournament.slug])
    page = text(client.get(url))
    assert page.count('name="player"') == 3
    players = {p.number: p for p in tournament.players.all()}
    confirm = reverse("links-confirm", args=[tournament.slug])
    client.post(confirm, {"player": [players[1].pk, players[2].pk, "x"]})
    linked = dict(tournament.players.exclude(member=None).values_list("number", "member_id"))
    assert linked == {1: members[0].pk, 2: members[1].pk}
    link = reverse("player-link", args=[tournament.slug, 4])
    page = text(client.post(link, {"member": members[0].pk}))
    assert field_errors(page, "member-4") == ["Player 1 is already Player 1 (#1)."]
    assert client.post(link, {"member": members[2].pk}).status_code == 302
    assert client.post(reverse("player-link", args=[tournament.slug, 1]), {"member": ""})
    linked = dict(tournament.players.exclude(member=None).values_list("number", "member_id"))
    assert linked == {2: members[1].pk, 4: members[2].pk}
    assert as_user("mallory").post(confirm, {"player": [players[3].pk]}).status_code == 403
    assert as_user("mallory").get(url).status_code == 403


def test_the_links_page_query_count_does_not_grow(
    as_user, alice, haifa, django_assert_max_num_queries
):
    for n in range(1, 31):
        member_create(club=haifa, by=alice, name=f"Player {n}")
    tournament = make_tournament(alice, players=30)
    tournament_hold_under(tournament=tournament, by=alice, club=haifa)
    client = as_user("alice")
    with django_assert_max_num_queries(12):
        page = text(client.get(reverse("tournament-members", args=[tournament.slug])))
    assert page.count('name="player"') == 30
