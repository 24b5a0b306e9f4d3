"""Players edited before or during the event (start number, name, club, rating) with their
history on the edit page; the withdraw confirmation page; the standings without the
withdrawn players (`?withdrawn=hide`) on the page, in its polled fragment, in the CSV
and in the API."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from scoring.errors import RuleError
from tests.html import assert_in_html, html_text
from tests.web import field_errors, text
from tournaments.models import Player
from tournaments.selectors import choice_shown
from tournaments.services.players import player_update

pytestmark = pytest.mark.django_db


def edit_url(club, number: int) -> str:
    return reverse("player-edit", args=[club.slug, number])


# --- the service and the API ----------------------------------------------------------------


def test_a_new_start_number_during_the_event(club, alice):
    player = club.players.get(number=3)
    before = club.results_version
    player_update(player=player, by=alice, number=12, club="Haifa")
    player.refresh_from_db()
    assert (player.number, player.club) == (12, "Haifa")
    club.refresh_from_db()
    assert club.results_version == before + 1  # the standings rows show numbers
    latest = player.history.latest()
    assert (latest.number, latest.history_user) == (12, alice)
    assert latest.prev_record.number == 3


@pytest.mark.parametrize(
    ("number", "words"),
    [(4, "#4 is Player 4's start number already"), (0, "between 1 and"), (None, "required")],
)
def test_a_taken_or_bad_number_is_refused_by_name(club, alice, number, words):
    player = club.players.get(number=3)
    with pytest.raises(RuleError) as refused:
        player_update(player=player, by=alice, number=number, name="Renamed")
    assert [e.path for e in refused.value.flatten()] == [("number",)]
    assert words in str(refused.value)
    player.refresh_from_db()
    assert (player.number, player.name) == (3, "Player 3")
    assert player.history.count() == 1


def test_the_api_changes_a_number_and_refuses_a_taken_one(club, alice):
    client = APIClient()
    client.force_authenticate(alice)
    player = club.players.get(number=3)
    address = f"/api/v1/tournaments/{club.slug}/players/{player.pk}/"
    taken = client.patch(address, {"number": 4, "rating": 1900}, format="json")
    assert taken.status_code == 400
    assert taken.json() == {"number": ["#4 is Player 4's start number already; choose a free one."]}
    player.refresh_from_db()
    assert (player.number, player.rating) == (3, 1502)
    wrong_type = client.patch(address, {"number": "12"}, format="json")
    assert wrong_type.status_code == 400 and "number" in wrong_type.json()
    done = client.patch(address, {"number": 12}, format="json")
    assert done.status_code == 200 and done.json()["number"] == 12


# --- the edit page ----------------------------------------------------------------------------


def test_the_edit_page_saves_and_shows_the_history(club, as_user):
    client = as_user("alice")
    listing = text(client.get(reverse("tournament-players", args=[club.slug])))
    assert edit_url(club, 3) in listing
    form = text(client.get(edit_url(club, 3)))
    assert 'name="number" value="3"' in form and "registered by alice" in form
    done = client.post(
        edit_url(club, 3), {"number": "12", "name": "Ada", "club": "Haifa", "rating": "1600"}
    )
    assert done.status_code == 302
    page = text(client.get(edit_url(club, 12)))
    assert "changed by alice" in page
    for change in (
        'Start number: 3 <span class="dir-arrow">→</span> <strong>12</strong>',
        'Name: Player 3 <span class="dir-arrow">→</span> <strong>Ada</strong>',
        'Club: Club 2 <span class="dir-arrow">→</span> <strong>Haifa</strong>',
        'Rating: 1502 <span class="dir-arrow">→</span> <strong>1600</strong>',
    ):
        assert_in_html(change, page)
    assert page.index("changed by alice") < page.index("registered by alice")  # newest first


def test_the_edit_page_names_a_taken_number_beside_it(club, as_user):
    response = as_user("alice").post(
        edit_url(club, 3), {"number": "4", "name": "Player 3", "club": "Club 2", "rating": "1502"}
    )
    assert response.status_code == 200
    assert field_errors(text(response), "id_number") == [
        "#4 is Player 4's start number already; choose a free one."
    ]
    assert club.players.get(number=3).name == "Player 3"


def test_the_edit_page_names_bad_input_beside_each_field(club, as_user):
    response = as_user("alice").post(
        edit_url(club, 3), {"number": "x", "name": "", "club": "", "rating": "-5"}
    )
    page = text(response)
    assert field_errors(page, "id_number") == ["Enter a whole number."]
    response = as_user("alice").post(
        edit_url(club, 3), {"number": "3", "name": "", "club": "", "rating": "-5"}
    )
    page = text(response)
    assert field_errors(page, "id_name") == ["is required."]
    assert field_errors(page, "id_rating") == ["must be between 0 and 10000; got -5."]
    assert club.players.get(number=3).history.count() == 1


@pytest.mark.parametrize("who", ["bob", "mallory"])
def test_the_edit_page_is_for_organisers(club, as_user, who):
    client = as_user(who)
    assert client.get(edit_url(club, 3)).status_code == 403
    assert client.post(edit_url(club, 3), {"number": "12", "name": "X"}).status_code == 403
    assert club.players.filter(number=3, name="Player 3").exists()


# --- withdraw, with a confirmation ------------------------------------------------------------


def test_withdraw_asks_first_and_says_what_it_means(club, as_user):
    client = as_user("alice")
    address = reverse("player-withdraw", args=[club.slug, 3])
    assert address in text(client.get(reverse("tournament-players", args=[club.slug])))
    page = text(client.get(address))
    assert "Withdraw #3 Player 3 (Club 2)?" in page
    assert "not seated in any round opened from now on" in page
    assert "Every game they have played stays" in page
    assert club.players.get(number=3).status == "active"  # a GET changes nothing
    # Their table of round 1 is in play: the page asks what happens to its games.
    assert "Say what happens to them" in page
    refused = client.post(address)
    assert refused.status_code == 400 and club.players.get(number=3).status == "active"
    done = client.post(address, {"unplayed": "plays_on"}, follow=True)
    assert "#3 Player 3 is withdrawn." in text(done)
    assert club.players.get(number=3).status == "withdrawn"


def test_withdraw_is_for_organisers(club, as_user):
    address = reverse("player-withdraw", args=[club.slug, 3])
    assert as_user("bob").get(address).status_code == 403
    assert as_user("bob").post(address).status_code == 403
    assert club.players.get(number=3).status == "active"


# --- standings without the withdrawn players --------------------------------------------------


@pytest.fixture
def withdrawn(club, alice):
    player_update(player=club.players.get(number=2), by=alice, status="withdrawn")
    return club


def test_the_page_hides_withdrawn_players_on_request(withdrawn, client):
    detail = reverse("tournament-detail", args=[withdrawn.slug])
    shown = text(client.get(detail))
    assert "Hide withdrawn players (1)" in shown
    assert html_text(shown).count("· withdrawn") == 1
    hidden = text(client.get(detail, {"withdrawn": "hide"}))
    assert "1 withdrawn player hidden" in hidden
    assert "Player 2<" not in hidden and "· withdrawn" not in html_text(hidden)
    live = reverse("standings-live", args=[withdrawn.slug])
    assert f'hx-get="{live}?withdrawn=hide"' in hidden  # the polls keep it hidden
    assert f"{reverse('standings-csv', args=[withdrawn.slug])}?withdrawn=hide" in hidden


def test_the_polled_fragment_keeps_them_hidden(withdrawn, client):
    live = reverse("standings-live", args=[withdrawn.slug])
    fragment = text(client.get(live, {"withdrawn": "hide"}))
    assert "Player 2<" not in fragment
    assert f'hx-get="{live}?withdrawn=hide"' in fragment
    assert "Player 2<" in text(client.get(live))


def _csv_numbers(response) -> list[str]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return [row["number"] for row in csv.DictReader(io.StringIO(body.decode("utf-8-sig")))]


def test_the_csvs_leave_them_out_on_request(withdrawn, client):
    page_csv = reverse("standings-csv", args=[withdrawn.slug])
    api_csv = f"/api/v1/tournaments/{withdrawn.slug}/standings.csv"
    for address in (page_csv, api_csv):
        assert "2" in _csv_numbers(client.get(address))
        assert sorted(_csv_numbers(client.get(address, {"withdrawn": "hide"}))) == [
            "1", "3", "4", "5", "6", "7", "8",
        ]  # fmt: skip


def test_the_api_leaves_them_out_on_request(withdrawn, client):
    address = f"/api/v1/tournaments/{withdrawn.slug}/standings/"
    whole = client.get(address).json()
    assert (whole["count"], whole["rows"][-1]["player"]["status"]) == (8, "withdrawn")
    hidden = client.get(address, {"withdrawn": "hide"}).json()
    assert hidden["count"] == 7
    assert {row["player"]["status"] for row in hidden["rows"]} == {"active"}
    assert client.get(address, {"withdrawn": "maybe"}).status_code == 400


def test_the_edit_page_reads_the_history_in_one_query(
    club, alice, as_user, django_assert_max_num_queries
):
    player = club.players.get(number=3)
    for n in range(15):
        player_update(player=player, by=alice, rating=1000 + n)
    client = as_user("alice")
    client.get(edit_url(club, 3))
    with django_assert_max_num_queries(8):
        page = text(client.get(edit_url(club, 3)))
    assert page.count("changed by alice") == 15


# --- the history shows a status by its label ----------------------------------------------


def test_the_history_shows_the_status_label_not_the_stored_value(club, alice, as_user):
    player = club.players.get(number=3)
    player_update(player=player, by=alice, status="withdrawn")
    client = as_user("alice")
    page = text(client.get(edit_url(club, 3)))
    withdrawn = 'Status: Active <span class="dir-arrow">→</span> <strong>Withdrawn</strong>'
    assert_in_html(withdrawn, page)
    assert "Status: <strong>Active</strong>" in page  # registered
    dutch = text(client.get(edit_url(club, 3), HTTP_ACCEPT_LANGUAGE="nl"))
    translation.deactivate()  # a Dutch request leaves Dutch active in this thread
    assert "<strong>Teruggetrokken</strong>" in dutch
    assert "<strong>withdrawn</strong>" not in dutch


def test_the_admin_history_shows_the_status_label(club, alice, as_user):
    player = club.players.get(number=3)
    player_update(player=player, by=alice, status="withdrawn")
    page = text(as_user("root").get(reverse("admin:tournaments_player_history", args=[player.pk])))
    changes = page[page.index('id="change-history"') :]
    assert "Withdrawn" in changes and "withdrawn\n" not in changes
    assert "&rarr;&nbsp;&nbsp;Withdrawn" in changes


def test_choice_shown_maps_choices_and_leaves_other_values():
    history = Player.history.model
    assert str(choice_shown(history, "status", "withdrawn")) == "Withdrawn"
    assert choice_shown(history, "status", "gone") == "gone"  # no longer a choice: as stored
    assert choice_shown(history, "name", "Ada") == "Ada"
    assert choice_shown(history, "status", None) is None
