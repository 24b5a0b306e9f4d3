"""Members CSV import (`members_import_csv`) and the player import's `member` column:
whole files or nothing, every bad row named by line and column at once."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied

from scoring.errors import RuleError
from tests.factories import make_tournament
from tournaments.exports import members_csv
from tournaments.models import Member, Player
from tournaments.services.clubs import (
    club_create,
    member_create,
    members_import_csv,
    player_link,
    tournament_hold_under,
)
from tournaments.services.players import players_import_csv


@pytest.fixture
def club(alice):
    return club_create(by=alice, name="Haifa Joker")


def test_a_members_csv_adds_every_row_and_reads_semicolons(alice, club):
    data = "\ufeffname;code;joined_on\nAda;H-1;2024-09-01\nBram;;\n\nChana;H-3;\n".encode()
    imported = members_import_csv(club=club, by=alice, data=data)
    assert imported.delimiter_name == "semicolon"
    rows = list(club.members.order_by("name").values_list("name", "code", "joined_on"))
    assert rows == [("Ada", "H-1", date(2024, 9, 1)), ("Bram", "", None), ("Chana", "H-3", None)]
    assert club.members.get(name="Ada").history.get().history_user == alice


def test_bad_member_rows_are_all_reported_and_nothing_is_saved(alice, club):
    member_create(club=club, by=alice, name="Dov", code="H-9")
    data = (
        "name,code,joined_on\n"
        "Ada,H-1,2024-09-01\n"
        ",H-2,\n"  # line 3: no name
        "Bram,H-9,\n"  # line 4: code taken in the club
        "Chana,H-5,1st May\n"  # line 5: not a date
        "Eli,H-1,\n"  # line 6: code twice in the file
    )
    with pytest.raises(RuleError) as caught:
        members_import_csv(club=club, by=alice, data=data)
    messages = [error.message for error in caught.value.flatten()]
    assert [m.split(":")[0] for m in messages] == ["line 3", "line 4", "line 5", "line 6"]
    assert messages[0].startswith("line 3: name ")
    assert "line 4: code membership number H-9 is taken" in messages[1]
    assert messages[2] == "line 5: joined_on '1st May' must be a date (YYYY-MM-DD)."
    assert messages[3] == "line 6: code H-1 is on line 2 too."
    assert {error.path for error in caught.value.flatten()} == {("file",)}
    assert list(club.members.values_list("name", flat=True)) == ["Dov"]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("name,number\nAda,1\n", "line 1: unknown column 'number'; use name,code,joined_on."),
        ("name,code,joined_on\n", "has no member rows."),
        (b"name\n\xff\n", "is not UTF-8 text; save the spreadsheet as CSV UTF-8."),
    ],
)
def test_a_wrong_members_file_is_refused_whole(alice, club, data, expected):
    with pytest.raises(RuleError) as caught:
        members_import_csv(club=club, by=alice, data=data)
    assert caught.value.message == expected
    assert not club.members.exists()


def test_only_the_clubs_organisers_import_members(mallory, club):
    with pytest.raises(PermissionDenied):
        members_import_csv(club=club, by=mallory, data="name\nAda\n")
    assert not Member.objects.exists()


def test_the_members_export_reads_back_as_an_import(alice, club):
    member_create(club=club, by=alice, name="=Ada", code="H-1", joined_on=date(2024, 1, 2))
    member_create(club=club, by=alice, name="Bram")
    text = members_csv(club)
    assert text.startswith("\ufeffname,code,joined_on\r\n")
    assert "'=Ada,H-1,2024-01-02\r\n" in text
    other = club_create(by=alice, name="Other")
    members_import_csv(club=other, by=alice, data=text)
    assert sorted(other.members.values_list("code", "joined_on")) == [
        ("", None),
        ("H-1", date(2024, 1, 2)),
    ]


def test_the_player_import_links_by_membership_code(alice, club):
    ada = member_create(club=club, by=alice, name="Ada Lovelace", code="H-1")
    tournament = tournament_hold_under(tournament=make_tournament(alice), by=alice, club=club)
    data = "name,club,rating,member\nAda,Haifa,1700,H-1\nBram,,,\n"
    players_import_csv(tournament=tournament, by=alice, data=data)
    linked = dict(tournament.players.values_list("name", "member_id"))
    assert linked == {"Ada": ada.pk, "Bram": None}


def test_unknown_twice_or_taken_codes_are_all_reported_and_nothing_is_saved(alice, club):
    ada = member_create(club=club, by=alice, name="Ada", code="H-1")
    member_create(club=club, by=alice, name="Bram", code="H-2")
    other = club_create(by=alice, name="Other")
    member_create(club=other, by=alice, name="Zed", code="O-1")
    tournament = make_tournament(alice, players=1)
    tournament = tournament_hold_under(tournament=tournament, by=alice, club=club)
    player_link(player=tournament.players.get(), by=alice, member=ada)
    data = (
        "name,member\n"
        "Ann,H-1\n"  # line 2: Ada is linked to Player 1 already
        "Zed,O-1\n"  # line 3: another club's code
        "Bo,H-2\n"
        "Bea,H-2\n"  # line 5: twice
        ",H-3\n"  # line 6: no name, and an unknown code
    )
    with pytest.raises(RuleError) as caught:
        players_import_csv(tournament=tournament, by=alice, data=data)
    messages = [error.message for error in caught.value.flatten()]
    assert messages == [
        "line 2: member Ada ('H-1') is already Player 1.",
        "line 3: no member of Haifa Joker has the code 'O-1'.",
        "line 5: member 'H-2' is on line 4 already.",
        messages[3],
        "line 6: no member of Haifa Joker has the code 'H-3'.",
    ]
    assert messages[3].startswith("line 6: name ")
    assert tournament.players.count() == 1


def test_a_member_column_needs_a_tournament_under_a_club(alice):
    tournament = make_tournament(alice)
    with pytest.raises(RuleError) as caught:
        players_import_csv(tournament=tournament, by=alice, data="name,member\nAda,\nBo,H-1\n")
    assert caught.value.message == "line 3: member — Club Open is not under a club."
    assert not Player.objects.exists()
    players_import_csv(tournament=tournament, by=alice, data="name,member\nAda,\n")
    assert tournament.players.get().member is None
