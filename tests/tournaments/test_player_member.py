"""A player linked to a club member at registration and on the player's edit page
the services refuse what the links page refuses (a member of
another club, one already another player), naming `member`, and save nothing; the member
page then lists the new event."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.errors import RuleError
from tests.api import rows
from tests.factories import make_tournament
from tests.web import field_errors
from tournaments.models import Player
from tournaments.services.clubs import club_create, member_create, tournament_hold_under
from tournaments.services.players import player_register, player_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def held(alice):
    """Club Open (4 players) held under Haifa Joker (members Ada, with a code, and Bo);
    Cy is a member of Tel Aviv Tiles, which alice runs too."""
    tournament = make_tournament(alice, players=4)
    haifa = club_create(by=alice, name="Haifa Joker")
    tournament = tournament_hold_under(tournament=tournament, by=alice, club=haifa)
    tel_aviv = club_create(by=alice, name="Tel Aviv Tiles")
    tournament.members = {
        "ada": member_create(club=haifa, by=alice, name="Ada Peretz", code="H-1"),
        "bo": member_create(club=haifa, by=alice, name="Bo Levi"),
        "cy": member_create(club=tel_aviv, by=alice, name="Cy Cohen"),
    }
    return tournament


def versions(tournament) -> int:
    tournament.refresh_from_db(fields=["results_version"])
    return tournament.results_version


# --- services ------------------------------------------------------------------------------


def test_register_links_the_member(held, alice):
    ada = held.members["ada"]
    player = player_register(tournament=held, by=alice, name="Ada", member=ada.pk)
    assert Player.objects.get(pk=player.pk).member == ada
    assert player.history.first().member_id == ada.pk  # the history says who linked whom


def test_a_blank_name_is_the_members_name(held, alice):
    player = player_register(tournament=held, by=alice, name=" ", member=held.members["bo"].pk)
    assert (player.name, player.member) == ("Bo Levi", held.members["bo"])
    with pytest.raises(RuleError) as caught:
        player_register(tournament=held, by=alice, name="")  # no member: a name is needed
    assert caught.value.path == ("name",)


def test_update_links_and_unlinks_and_counts_as_a_results_change(held, alice):
    player = held.players.get(number=2)
    before = versions(held)
    player_update(player=player, by=alice, member=held.members["bo"].pk)
    assert Player.objects.get(pk=player.pk).member == held.members["bo"]
    assert versions(held) == before + 1  # the season and ratings read the link
    player_update(player=player, by=alice, member=None)
    assert Player.objects.get(pk=player.pk).member is None
    player_update(player=player, by=alice, name="Player 2")  # no change of link: no bump
    assert versions(held) == before + 2


@pytest.mark.parametrize(
    ("member", "message"),
    [
        ("cy", "no member of Haifa Joker has the id"),
        ("ada", "Ada Peretz is already Player 1 (#1)."),
        ("text", "must be a member's id"),
    ],
)
def test_a_member_refused_names_member_and_saves_nothing(held, alice, member, message):
    player_update(player=held.players.get(number=1), by=alice, member=held.members["ada"].pk)
    value = held.members[member].pk if member in held.members else "ada"
    second = held.players.get(number=2)
    before = rows()
    with pytest.raises(RuleError) as registered:
        player_register(tournament=held, by=alice, name="", member=value)
    # Every problem of the input at once: the name and the member.
    assert {e.path for e in registered.value.flatten()} == {("name",), ("member",)}
    with pytest.raises(RuleError) as updated:
        player_update(player=second, by=alice, member=value)
    assert updated.value.path == ("member",)
    assert message in updated.value.message
    assert rows() == before
    assert Player.objects.get(pk=second.pk).member is None


def test_a_tournament_under_no_club_links_no_member(alice, held):
    plain = make_tournament(alice, name="Plain Open")
    with pytest.raises(RuleError, match="is not held under a club"):
        player_register(tournament=plain, by=alice, name="Ada", member=held.members["ada"].pk)
    assert not plain.players.exists()


# --- pages -----------------------------------------------------------------------------


def test_the_registration_form_links_a_member_and_the_member_page_lists_the_event(held, as_user):
    alice = as_user("alice")
    url = reverse("tournament-players", args=[held.slug])
    page = alice.get(url).content.decode()
    assert 'name="member"' in page
    assert "Ada Peretz (H-1)" in page and "Bo Levi" in page
    assert "Cy Cohen" not in page  # another club's member is no choice here

    ada = held.members["ada"]
    done = alice.post(url, {"name": "Ada", "member": ada.pk})
    assert done.status_code == 302
    player = held.players.get(name="Ada")
    assert player.member == ada
    assert "member: Ada Peretz" in alice.get(url).content.decode()

    member_page = alice.get(reverse("member-detail", args=["haifa-joker", ada.pk]))
    assert held.name in member_page.content.decode()
    assert reverse("tournament-detail", args=[held.slug]) in member_page.content.decode()


def test_the_form_shows_a_member_taken_beside_the_field_and_saves_nothing(held, as_user):
    alice = as_user("alice")
    url = reverse("tournament-players", args=[held.slug])
    ada = held.members["ada"]
    alice.post(url, {"name": "Ada", "member": ada.pk})
    page = alice.get(url).content.decode()
    assert "Ada Peretz (H-1) — already #5 Ada" in page  # said before it is refused

    before = rows()
    refused = alice.post(url, {"name": "Ada again", "member": ada.pk})
    assert refused.status_code == 200
    assert field_errors(refused.content.decode(), "id_member") == [
        "Ada Peretz is already Ada (#5)."
    ]
    assert rows() == before


def test_the_edit_page_changes_the_member(held, as_user):
    alice = as_user("alice")
    player = held.players.get(number=3)
    url = reverse("player-edit", args=[held.slug, 3])
    page = alice.get(url).content.decode()
    assert 'name="member"' in page
    done = alice.post(
        url,
        {"number": 3, "name": player.name, "club": player.club, "rating": player.rating,
         "member": held.members["bo"].pk},
    )  # fmt: skip
    assert done.status_code == 302
    assert Player.objects.get(pk=player.pk).member == held.members["bo"]
    # The history says who linked whom: "Club member: — → Bo Levi".
    page = alice.get(url).content.decode()
    shown = 'Club member: — <span class="dir-arrow">→</span> <strong>Bo Levi</strong>'
    assert shown in " ".join(page.split())


def test_a_tournament_under_no_club_has_no_member_field(club, as_user):
    page = as_user("alice").get(reverse("tournament-players", args=[club.slug]))
    assert 'name="member"' not in page.content.decode()
