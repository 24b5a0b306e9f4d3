"""The check-in page: who may see it, a tap marks one player absent (and back), everyone
present in one post, refusals said on the page, and the query count stays flat."""

from __future__ import annotations

import pytest

from tests.factories import make_tournament
from tests.web import text
from tournaments.models import Absence

pytestmark = pytest.mark.django_db


@pytest.fixture
def saturday(alice, bob):
    """Eight players, no round yet."""
    return make_tournament(alice, name="Saturday", scorekeepers=[bob], players=8)


@pytest.mark.parametrize(
    ("who", "status"), [("anon", 302), ("mallory", 403), ("bob", 200), ("alice", 200)]
)
def test_staff_see_the_check_in(as_user, saturday, who, status):
    response = as_user(who).get(f"/t/{saturday.slug}/checkin/1/")
    assert response.status_code == status


def test_the_next_round_is_the_default(as_user, saturday):
    response = as_user("bob").get(f"/t/{saturday.slug}/checkin/")
    assert response.status_code == 302
    assert response["Location"] == f"/t/{saturday.slug}/checkin/1/"


def test_a_tap_marks_absent_and_back(as_user, saturday):
    ada = saturday.players.get(number=1)
    client = as_user("bob")
    url = f"/t/{saturday.slug}/checkin/1/"
    response = client.post(url, {"player": ada.pk, "present": "0"})
    assert response.status_code == 302
    assert response["Location"] == f"{url}#player-{ada.pk}"
    assert Absence.objects.filter(player=ada, round_number=1).exists()
    page = text(client.get(url))
    assert 'aria-pressed="false"' in page and "7</strong> present" in page
    client.post(url, {"player": ada.pk, "present": "1"})
    assert not Absence.objects.exists()


def test_everyone_present(as_user, saturday):
    client = as_user("alice")
    url = f"/t/{saturday.slug}/checkin/2/"
    for player in saturday.players.all()[:3]:
        client.post(url, {"player": player.pk, "present": "0"})
    response = client.post(url + "everyone/", follow=True)
    assert "Everyone is present for round 2 (3 were absent)." in text(response)
    assert not Absence.objects.exists()


def test_a_withdrawn_player_is_refused_on_the_page(as_user, saturday):
    ada = saturday.players.get(number=1)
    saturday.players.filter(pk=ada.pk).update(status="withdrawn")
    response = as_user("alice").post(
        f"/t/{saturday.slug}/checkin/1/", {"player": ada.pk, "present": "0"}, follow=True
    )
    assert "#1 Player 1 has withdrawn" in text(response)
    assert not Absence.objects.exists()


@pytest.mark.parametrize("data", [{}, {"player": "x", "present": "0"}, {"player": 1}])
def test_a_bad_post_is_said_and_saves_nothing(as_user, saturday, data):
    response = as_user("alice").post(f"/t/{saturday.slug}/checkin/1/", data, follow=True)
    assert response.status_code == 200
    assert "Choose a player" in text(response)
    assert not Absence.objects.exists()


def test_the_page_costs_the_same_queries_for_more_players(
    as_user, saturday, alice, django_assert_max_num_queries
):
    client = as_user("alice")
    url = f"/t/{saturday.slug}/checkin/1/"
    client.get(url)  # warm the session and the role cache
    with django_assert_max_num_queries(14):
        client.get(url)
    big = make_tournament(alice, name="Big", players=60)
    with django_assert_max_num_queries(14):
        client.get(f"/t/{big.slug}/checkin/1/")


def test_opening_a_round_lists_the_absent(as_user, saturday):
    ada = saturday.players.get(number=1)
    client = as_user("alice")
    client.post(f"/t/{saturday.slug}/checkin/1/", {"player": ada.pk, "present": "0"})
    page = text(client.get(f"/t/{saturday.slug}/rounds/new/"))
    assert "Present players (7)" in page and "Absent in round 1 (1)" in page


@pytest.mark.parametrize(
    ("typed", "expected", "said"),
    [
        ("2", 2, "#1 Player 1 sits at table 2."),
        ("", None, "#1 Player 1 sits at any table."),
        ("0", None, "#1 Player 1: fixed table must be"),
        ("two", None, "#1 Player 1: fixed table"),
    ],
)
def test_set_a_fixed_table_from_the_player_list(as_user, saturday, typed, expected, said):
    response = as_user("alice").post(
        f"/t/{saturday.slug}/players/1/fixed-table/", {"fixed_table": typed}, follow=True
    )
    assert said in text(response)
    assert saturday.players.get(number=1).fixed_table == expected
