"""The names people see for who entered something (`tournaments.people`): a table link's
user reads "Table 1, round 1" on the table page's penalties and history, in the
confirmation queue and in results.csv, never its made-up username; a substitute shows in
results.csv and on the confirmation card; the save message is one sentence."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games.models import Game
from games.services.results import penalty_record, result_submit
from tests.games.helpers import enter_rummikub, seated
from tests.games.test_views import GOOD, entry, table_url
from tests.web import text
from tournaments.people import user_display_name
from tournaments.services.table_links import table_links_issue
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


def game_at(tournament, table: int = 1, number: int = 1) -> Game:
    return Game.objects.get(table__round__tournament=tournament, table__number=table, number=number)


@pytest.fixture
def link_user(club, alice):
    """The user of table 1's link in round 1 (username `club-open-r1-t1-link`)."""
    round_ = club.rounds.get(number=1)
    return table_links_issue(by=alice, round_=round_, table_numbers=[1])[1].user


def with_substitute(game: Game, by, name: str):
    players = seated(game)
    racks = [{"player": players[0], "tiles": ""}]
    racks += [
        {"player": p, "tiles": t} for p, t in zip(players[1:], ("R4", "B10", "K2"), strict=True)
    ]
    racks[1]["substitute"] = name
    return result_submit(
        game=game, by=by, based_on=0, end="rummikub", winner=players[0], racks=racks
    )


def test_the_display_name_of_a_link_user_is_its_table_and_of_a_person_the_username(link_user, bob):
    assert link_user.username.endswith("-r1-t1-link")
    assert user_display_name(link_user) == "Table 1, round 1"
    assert user_display_name(bob) == "bob"
    assert user_display_name(None) == ""


def test_the_table_page_names_the_table_not_the_link_username(as_user, club, link_user):
    enter_rummikub(game_at(club), link_user)
    penalty_record(
        game=game_at(club), by=link_user, player=seated(game_at(club))[1], kind="timeout"
    )
    page = text(as_user("bob").get(table_url(club), {"game": 1}))
    assert "-link" not in page
    assert "(Table 1, round 1, " in page  # the penalty list
    assert "entered by Table 1, round 1 at" in page  # the history of versions


def test_the_confirmation_queue_names_the_table_and_the_substitute(as_user, club, alice, link_user):
    tournament_update(tournament=club, by=alice, results_need_confirmation=True)
    with_substitute(game_at(club), link_user, "Zoë Stand-in")
    page = text(as_user("bob").get(reverse("confirm-queue", args=[club.slug])))
    assert "Entered by Table 1, round 1 at" in page
    assert "-link" not in page
    assert "substitute: Zoë Stand-in" in page


def test_results_csv_names_the_table_and_the_substitute(as_user, club, bob, link_user):
    with_substitute(game_at(club), link_user, "Zoë Stand-in")
    enter_rummikub(game_at(club, table=2), bob)
    response = as_user("alice").get(reverse("results-csv", args=[club.slug]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    by_table = {}
    for row in rows:
        by_table.setdefault(row["table"], []).append(row)
    assert {row["submitted_by"] for row in by_table["1"]} == {"Table 1, round 1"}
    assert {row["submitted_by"] for row in by_table["2"]} == {"bob"}
    assert [row["substitute"] for row in by_table["1"]] == ["", "Zoë Stand-in", "", ""]
    assert {row["substitute"] for row in by_table["2"]} == {""}


def test_the_save_message_is_a_sentence(as_user, club, alice):
    response = as_user("bob").post(table_url(club), entry(game_at(club), racks=GOOD), follow=True)
    assert "Game 1: version 1 saved and confirmed." in text(response)
    tournament_update(tournament=club, by=alice, results_need_confirmation=True)
    response = as_user("bob").post(
        table_url(club), entry(game_at(club, number=2), racks=GOOD), follow=True
    )
    page = text(response)
    assert "Game 2: version 1 saved; it awaits confirmation." in page
    assert "(Submitted (awaiting confirmation))" not in page
