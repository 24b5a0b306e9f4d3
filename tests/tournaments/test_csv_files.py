"""CSV files both ways: the safe writer every export uses (formula cells, BOM, numbers),
and the player import — delimiter read off the header, row limit, bulk writes with
history, numbering after the players already registered."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.errors import RuleError
from tests.factories import make_tournament
from tests.web import text
from tournaments.csv_files import RowError, csv_text, header_delimiter, line_of, safe_cell
from tournaments.models import Player
from tournaments.services.players import players_import_csv

pytestmark = pytest.mark.django_db


def read(content: bytes) -> list[list[str]]:
    """The rows of a downloaded CSV, after checking it starts with the BOM."""
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


# --- the writer ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell", ["=1+2", "+1", "-1", "-3", "@SUM(A1)", "\t=1", "\r=1", '=HYPERLINK("http://x")']
)
def test_a_text_cell_that_a_spreadsheet_would_run_gets_a_quote(cell):
    assert safe_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", [-3, 0, 12, -1.5, None, "Ada", "", "1=1", " =1", "Zoë"])
def test_numbers_and_harmless_text_are_written_as_they_are(cell):
    assert safe_cell(cell) is cell


def test_csv_text_starts_with_a_bom_and_keeps_negative_numbers_numbers():
    written = csv_text(["name", "score"], [["=cmd", -16], ["-3", 5]])
    assert written == "\ufeffname,score\r\n'=cmd,-16\r\n'-3,5\r\n"


def test_a_carriage_return_or_newline_in_a_cell_is_quoted():
    written = csv_text(["name"], [["\r=1"], ["a\rb"], ["a\nb"]])
    assert written == '\ufeffname\r\n"\'\r=1"\r\n"a\rb"\r\n"a\nb"\r\n'


def test_the_players_csv_neutralises_formula_cells(as_user, club):
    Player.objects.filter(tournament=club, number=1).update(name="=1+2", club="-3")
    Player.objects.filter(tournament=club, number=2).update(name="@SUM(A1)", club="\tx")
    rows = read(as_user("alice").get(reverse("tournament-players-csv", args=[club.slug])).content)
    assert rows[1] == ["1", "'=1+2", "'-3", "1500", "active"]
    assert rows[2] == ["2", "'@SUM(A1)", "'\tx", "1501", "active"]


# --- the import: delimiter -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [("name,club,rating", ","), ("name;club;rating", ";"), ("name\tclub\trating", "\t"),
     ("name", ","), ("name;club,rating;", ";")],
)  # fmt: skip
def test_the_delimiter_is_the_one_the_header_uses(header, expected):
    assert header_delimiter(header + "\nAda,Lyon;x\n") == expected


@pytest.mark.parametrize(
    ("data", "delimiter", "name"),
    [
        ('name;club;rating\nZoë;Kraków;1500\nAda;"Lyon; Rhône";\n', ";", "semicolon"),
        ("name\tclub\trating\nZoë\tKraków\t1500\nAda\tLyon; Rhône\t\n", "\t", "tab"),
        ('name,club,rating\nZoë,Kraków,1500\nAda,"Lyon; Rhône",\n', ",", "comma"),
    ],
)
def test_import_reads_semicolon_and_tab_files(alice, data, delimiter, name):
    t = make_tournament(alice)
    imported = players_import_csv(tournament=t, by=alice, data=("\ufeff" + data).encode())
    assert (imported.delimiter, imported.delimiter_name) == (delimiter, name)
    assert [(p.name, p.club, p.rating) for p in imported.players] == [
        ("Zoë", "Kraków", 1500),
        ("Ada", "Lyon; Rhône", None),
    ]


def test_the_page_says_which_delimiter_it_read(as_user, club):
    data = "name;club;rating\nZoë;Kraków;1500\n".encode()
    response = as_user("alice").post(
        reverse("tournament-players-import", args=[club.slug]),
        {"file": SimpleUploadedFile("p.csv", data)},
        follow=True,
    )
    assert "1 player imported. The file's cells were separated by semicolons." in (
        text(response).replace("&#x27;", "'")
    )
    assert club.players.get(number=9).club == "Kraków"


# --- the import: row limit -----------------------------------------------------------------


def test_import_refuses_more_rows_than_the_limit_before_checking_any(alice, settings):
    settings.CSV_IMPORT_MAX_ROWS = 3
    t = make_tournament(alice)
    # Every row is bad too: only the limit is reported, as no row was looked at.
    data = "name,rating\n" + "".join(f",x{n}\n" for n in range(4))
    with pytest.raises(RuleError) as caught:
        players_import_csv(tournament=t, by=alice, data=data)
    assert [(e.path, e.message) for e in caught.value.flatten()] == [
        (("file",), "has more than 3 player rows; import at most 3.")
    ]
    assert t.players.count() == 0


def test_blank_lines_do_not_count_against_the_limit(alice, settings):
    settings.CSV_IMPORT_MAX_ROWS = 3
    t = make_tournament(alice)
    imported = players_import_csv(tournament=t, by=alice, data="name\nA\n\nB\n\n\nC\n\n")
    assert [p.name for p in imported.players] == ["A", "B", "C"]


# --- the import: bulk writes ---------------------------------------------------------------


def test_import_writes_history_rows_with_the_user(alice):
    t = make_tournament(alice)
    imported = players_import_csv(tournament=t, by=alice, data="name,club\nA,X\nB,Y\n")
    history = Player.history.filter(tournament_id=t.pk).order_by("number")
    assert [(h.id, h.number, h.name, h.history_type, h.history_user) for h in history] == [
        (p.pk, p.number, p.name, "+", alice) for p in imported.players
    ]


def test_import_numbers_after_the_players_already_there(alice):
    t = make_tournament(alice, players=3)
    imported = players_import_csv(tournament=t, by=alice, data="name\nD\nE\n")
    assert [(p.number, p.name) for p in imported.players] == [(4, "D"), (5, "E")]
    assert list(t.players.order_by("number").values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert all(p.pk for p in imported.players)


def test_import_is_all_or_nothing_with_its_history(alice):
    t = make_tournament(alice, players=2)
    history_before = Player.history.count()
    data = "name,rating\n" + "".join(f"P{n},{1000 + n}\n" for n in range(500)) + "Last,high\n"
    with pytest.raises(RuleError, match="line 502: rating 'high'"):
        players_import_csv(tournament=t, by=alice, data=data)
    assert t.players.count() == 2
    assert Player.history.count() == history_before


def test_import_takes_as_many_queries_for_many_rows_as_for_few(postgres, alice):
    # PostgreSQL inserts any number of rows in one statement; SQLite's bound on query
    # parameters splits a bulk insert into batches, so the count is only constant there.
    def queries_for(rows: int) -> int:
        t = make_tournament(alice, name=f"Cup {rows}")
        data = "name\n" + "".join(f"P{n}\n" for n in range(rows))
        with CaptureQueriesContext(connection) as queries:
            players_import_csv(tournament=t, by=alice, data=data)
        assert t.players.count() == rows
        return len(queries)

    assert queries_for(200) == queries_for(2)


def test_import_errors_are_ordered_by_their_line_not_by_their_words():
    # A translated message need not start with "line 4:"; the order comes from the line.
    errors = [RowError(12, "Zeile 12: …"), RuleError("file", "leer"), RowError(3, "wiersz 3")]
    assert [line_of(error) for error in sorted(errors, key=line_of)] == [0, 3, 12]
