"""Tournament, staff, player and round services: what they store and what they refuse."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.models import Game, Seat, Table
from games.services.rounds import round_open
from scoring.errors import RuleError
from scoring.rules import PRESETS
from tests.factories import make_tournament, open_round
from tournaments.models import Player, Round, StaffMember, Tournament
from tournaments.services.players import player_register, player_update, players_import_csv
from tournaments.services.tournaments import (
    NO_SUCH_USER,
    staff_add,
    tournament_create,
    tournament_update,
)

pytestmark = pytest.mark.django_db


def paths(error: RuleError) -> set[tuple]:
    return {e.path for e in error.flatten()}


def messages(error: RuleError) -> str:
    return " | ".join(e.message for e in error.flatten())


# --- tournaments ---------------------------------------------------------------------------


def test_create_stores_resolved_rules_and_makes_creator_organiser(alice):
    t = tournament_create(by=alice, name="Club Open", preset="league", rules={"turn_seconds": 90})
    assert t.slug == "club-open"
    assert t.rules == {**PRESETS["league"].as_dict(), "turn_seconds": 90}
    assert t.ranking == ["score"]
    assert t.table_size == 4
    assert StaffMember.objects.get(tournament=t).role == "organiser"
    assert t.history.first().history_user == alice


def test_mso_defaults_to_tables_of_two(alice):
    assert tournament_create(by=alice, name="MSO", preset="mso").table_size == 2


def test_derived_slugs_stay_unique(alice):
    first = tournament_create(by=alice, name="Club Open")
    second = tournament_create(by=alice, name="Club Open")
    assert (first.slug, second.slug) == ("club-open", "club-open-2")


@pytest.mark.parametrize(
    ("options", "path", "needle"),
    [
        ({"preset": "chess"}, ("preset",), "chess"),
        ({"rules": {"joker_bonus": 5}}, ("rules", "joker_bonus"), "joker_bonus"),
        ({"rules": {"joker_penalty": "30"}}, ("rules", "joker_penalty"), "joker_penalty"),
        ({"rules": {"joker_penalty": -1}}, ("rules", "joker_penalty"), "joker_penalty"),
        ({"ranking": ["score", "score"]}, ("ranking",), "twice"),
        ({"ranking": ["elo"]}, ("ranking",), "elo"),
        ({"table_size": 5}, ("table_size",), "between 2 and 4"),
        ({"games_per_table": 0}, ("games_per_table",), "between"),
        ({"name": "  "}, ("name",), "required"),
        ({"slug": "Not A Slug"}, ("slug",), "lowercase"),
    ],
)
def test_create_refuses_bad_settings_and_saves_nothing(alice, options, path, needle):
    options = {"name": "Club Open", **options}
    with pytest.raises(RuleError) as caught:
        tournament_create(by=alice, **options)
    assert path in paths(caught.value)
    assert needle in messages(caught.value)
    assert Tournament.objects.count() == 0
    assert StaffMember.objects.count() == 0


def test_create_reports_every_bad_field_at_once(alice):
    with pytest.raises(RuleError) as caught:
        tournament_create(by=alice, name="", rules={"win_bonus": -5}, table_size=9)
    assert {("name",), ("rules", "win_bonus"), ("table_size",)} <= paths(caught.value)


def test_update_overrides_one_option_and_keeps_the_others(alice):
    t = tournament_create(by=alice, name="Open", rules={"joker_penalty": 50})
    tournament_update(tournament=t, by=alice, rules={"turn_seconds": 60})
    t.refresh_from_db()
    assert (t.rules["joker_penalty"], t.rules["turn_seconds"]) == (50, 60)


def test_ranking_change_bumps_results_version(alice):
    t = tournament_create(by=alice, name="Open")
    before = t.results_version
    tournament_update(tournament=t, by=alice, ranking=["score", "games_won"])
    t.refresh_from_db()
    assert t.results_version == before + 1


def test_rules_frozen_once_a_result_exists(alice, bob):
    from tests.games.helpers import enter_rummikub

    t = make_tournament(alice, players=4)
    round_ = open_round(t, alice)
    enter_rummikub(round_.tables.get().games.first(), alice)
    with pytest.raises(RuleError) as caught:
        tournament_update(tournament=t, by=alice, rules={"joker_penalty": 50})
    assert ("rules", "joker_penalty") in paths(caught.value)
    t.refresh_from_db()
    assert t.rules["joker_penalty"] == 30


def test_slug_cannot_change(alice):
    t = tournament_create(by=alice, name="Open")
    with pytest.raises(RuleError) as caught:
        tournament_update(tournament=t, by=alice, slug="other")
    assert ("slug",) in paths(caught.value)


# --- staff ---------------------------------------------------------------------------------


def test_staff_add_and_change_role(alice, bob):
    t = tournament_create(by=alice, name="Open")
    member = staff_add(tournament=t, by=alice, username="bob", role="scorekeeper")
    assert member.role == "scorekeeper"
    staff_add(tournament=t, by=alice, username="bob", role="organiser")
    assert StaffMember.objects.get(user=bob).role == "organiser"


@pytest.mark.parametrize("username", ["nobody", "bob"])
def test_staff_add_checks_the_role_before_the_name(alice, bob, username):
    """A bad role answers the same whether or not the name exists: no probe without an add."""
    t = tournament_create(by=alice, name="Open")
    with pytest.raises(RuleError) as caught:
        staff_add(tournament=t, by=alice, username=username, role="referee")
    assert paths(caught.value) == {("role",)}
    assert t.staff.count() == 1


@pytest.fixture
def inactive(django_user_model):
    return django_user_model.objects.create_user("ghost", password="ghost-123", is_active=False)


@pytest.mark.parametrize("username", ["nobody", "ghost", "Bob", "", "bob "])
def test_an_organiser_hears_one_answer_for_any_unaddable_name(alice, bob, inactive, username):
    t = tournament_create(by=alice, name="Open")
    with pytest.raises(RuleError) as caught:
        staff_add(tournament=t, by=alice, username=username, role="scorekeeper")
    assert caught.value.path == ("username",)
    assert caught.value.message == NO_SUCH_USER
    assert username not in caught.value.message or not username
    assert t.staff.count() == 1


@pytest.mark.parametrize(
    ("username", "needle"), [("nobody", "no user named 'nobody'"), ("ghost", "deactivated")]
)
def test_a_superuser_is_told_what_is_wrong(alice, root, inactive, username, needle):
    t = tournament_create(by=alice, name="Open")
    with pytest.raises(RuleError) as caught:
        staff_add(tournament=t, by=root, username=username, role="scorekeeper")
    assert caught.value.path == ("username",)
    assert needle in caught.value.message
    assert t.staff.count() == 1


def test_last_organiser_cannot_be_demoted(alice):
    t = tournament_create(by=alice, name="Open")
    with pytest.raises(RuleError, match="only organiser"):
        staff_add(tournament=t, by=alice, username="alice", role="scorekeeper")


# --- players -------------------------------------------------------------------------------


def test_register_numbers_players_and_records_history(alice):
    t = tournament_create(by=alice, name="Open")
    a = player_register(tournament=t, by=alice, name=" Ada ", club="Haifa", rating=1700)
    b = player_register(tournament=t, by=alice, name="Bram")
    assert (a.number, a.name, b.number) == (1, "Ada", 2)
    assert a.history.get().history_user == alice


@pytest.mark.parametrize(
    ("fields", "path"),
    [({"name": ""}, ("name",)), ({"name": "x" * 101}, ("name",)), ({"rating": -3}, ("rating",))],
)
def test_register_refuses_bad_fields(alice, fields, path):
    t = tournament_create(by=alice, name="Open")
    with pytest.raises(RuleError) as caught:
        player_register(tournament=t, by=alice, **{"name": "Ada", **fields})
    assert path in paths(caught.value)
    assert t.players.count() == 0


def test_withdraw_player_keeps_history(alice):
    t = make_tournament(alice, players=2)
    player = t.players.first()
    player_update(player=player, by=alice, status="withdrawn")
    assert [h.status for h in player.history.order_by("history_date")] == ["active", "withdrawn"]


def test_import_csv_registers_every_row(alice):
    t = tournament_create(by=alice, name="Open")
    data = b"name,club,rating\nAda,Haifa,1700\nBram,,\n\nChana,Utrecht,1500\n"
    players = players_import_csv(tournament=t, by=alice, data=data).players
    assert [(p.number, p.name, p.club, p.rating) for p in players] == [
        (1, "Ada", "Haifa", 1700),
        (2, "Bram", "", None),
        (3, "Chana", "Utrecht", 1500),
    ]


def test_import_csv_is_all_or_nothing_and_names_lines(alice):
    t = tournament_create(by=alice, name="Open")
    data = "name,club,rating\nAda,Haifa,1700\n,Utrecht,1500\nBram,Tel Aviv,strong\n"
    with pytest.raises(RuleError) as caught:
        players_import_csv(tournament=t, by=alice, data=data)
    text = messages(caught.value)
    assert "line 3" in text and "name" in text
    assert "line 4" in text and "strong" in text
    assert paths(caught.value) == {("file",)}
    assert t.players.count() == 0


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ("who,club\nAda,Haifa\n", "line 1"),
        ("name,club,email\nAda,Haifa,a@b\n", "email"),
        ("name,club,rating\n", "no player rows"),
        (b"name\n\xff\xfe\n", "UTF-8"),
    ],
)
def test_import_csv_refuses_bad_files(alice, data, needle):
    t = tournament_create(by=alice, name="Open")
    with pytest.raises(RuleError, match=needle):
        players_import_csv(tournament=t, by=alice, data=data)
    assert t.players.count() == 0


# --- rounds --------------------------------------------------------------------------------


def test_manual_round_creates_tables_seats_and_games_with_rotating_starter(alice):
    t = make_tournament(alice, players=7)
    ids = list(t.players.order_by("number").values_list("id", flat=True))
    round_ = round_open(tournament=t, by=alice, method="manual", tables=[ids[:4], ids[4:]])
    assert (round_.number, round_.method) == (1, "manual")
    tables = list(round_.tables.order_by("number"))
    assert [
        list(tb.seats.order_by("position").values_list("player_id", flat=True)) for tb in tables
    ] == [ids[:4], ids[4:]]
    assert [(g.number, g.starter_position) for g in tables[0].games.all()] == [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
    ]
    assert [(g.number, g.starter_position) for g in tables[1].games.all()] == [
        (1, 1),
        (2, 2),
        (3, 3),
    ]
    assert round_.quality == {
        "repeat_pairs": 0,
        "max_meetings": 1,
        "starter_balance": 1,
        "same_club_pairs": 1,  # the factory's clubs: players 1 and 4 of club 0
    }
    t.refresh_from_db()
    assert t.status == "running"


def test_games_per_table_setting_wraps_the_starter(alice):
    t = make_tournament(alice, players=3, games_per_table=5)
    round_ = open_round(t, alice)
    starters = list(round_.tables.get().games.values_list("starter_position", flat=True))
    assert starters == [1, 2, 3, 1, 2]


def test_second_round_counts_repeat_meetings(alice):
    t = make_tournament(alice, players=8)
    ids = list(t.players.order_by("number").values_list("id", flat=True))
    open_round(t, alice, [ids[:4], ids[4:]])
    second = open_round(t, alice, [ids[:2] + ids[4:6], ids[2:4] + ids[6:]])
    assert second.number == 2
    assert (second.quality["repeat_pairs"], second.quality["max_meetings"]) == (4, 2)


@pytest.mark.parametrize(
    ("tables", "needle"),
    [
        (lambda ids: [ids[:4], [*ids[4:7], 99999]], "unknown player 99999"),
        (lambda ids: [ids[:4], [*ids[4:], ids[0]]], "seated twice"),
        (lambda ids: [ids[:4], ids[4:7]], "not seated"),
        (lambda ids: [ids[:5], ids[5:]], "seats 5 players"),
        (lambda ids: [ids[:7], ids[7:]], "seats 1 players"),
        (lambda ids: [], "list the tables"),
        (lambda ids: [["a", "b"]], "list of player ids"),
    ],
)
def test_manual_round_refuses_bad_seating_and_saves_nothing(alice, tables, needle):
    t = make_tournament(alice, players=8)
    ids = list(t.players.order_by("number").values_list("id", flat=True))
    with pytest.raises(RuleError) as caught:
        round_open(tournament=t, by=alice, method="manual", tables=tables(ids))
    assert needle in messages(caught.value)
    assert paths(caught.value) == {("tables",)}
    assert (Round.objects.count(), Table.objects.count(), Seat.objects.count()) == (0, 0, 0)


def test_round_refuses_a_withdrawn_player(alice):
    t = make_tournament(alice, players=5)
    ids = list(t.players.order_by("number").values_list("id", flat=True))
    player_update(player=Player.objects.get(pk=ids[4]), by=alice, status="withdrawn")
    with pytest.raises(RuleError, match="withdrawn"):
        round_open(tournament=t, by=alice, method="manual", tables=[ids[:3], ids[3:]])
    assert Round.objects.count() == 0
    # Without the withdrawn player the same round opens.
    assert open_round(t, alice, [ids[:2], ids[2:4]]).number == 1


# --- constraints live in the database -------------------------------------------------------


def test_database_forbids_a_second_seat_in_a_round(alice):
    t = make_tournament(alice, players=4)
    round_ = open_round(t, alice)
    table = round_.tables.get()
    seat = table.seats.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(round=round_, number=2).seats.create(
            round=round_, player=seat.player, position=1
        )


def test_database_forbids_two_players_in_one_position(alice):
    t = make_tournament(alice, players=5)
    ids = list(t.players.order_by("number").values_list("id", flat=True))
    round_ = open_round(t, alice, [ids[:3], ids[3:]])
    table = round_.tables.get(number=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(pk=table.seats.get(position=2).pk).update(position=1)


def test_database_forbids_a_repeated_game_number(alice):
    t = make_tournament(alice, players=4)
    table = open_round(t, alice).tables.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(table=table, number=1, starter_position=1)


def test_import_csv_refuses_a_file_over_the_limit(alice):
    from tournaments.services.players import MAX_CSV_BYTES

    t = tournament_create(by=alice, name="Open")
    data = b"name\n" + b"Ada\n" * (MAX_CSV_BYTES // 4)
    with pytest.raises(RuleError, match="larger than"):
        players_import_csv(tournament=t, by=alice, data=data)
    assert t.players.count() == 0
