"""The tournament pages: who may open them, what a bad input shows (and that it saves
nothing), and how many queries the public pages take."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Seat
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub
from tests.html import assert_in_html
from tests.web import field_errors, hidden_fields, text
from tournaments.models import Player, Round, StaffMember, Tournament
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


def url(name: str, tournament: Tournament, **kwargs) -> str:
    return reverse(name, kwargs={"slug": tournament.slug, **kwargs})


# --- who sees what -------------------------------------------------------------------------


def test_home_lists_public_tournaments_and_private_ones_with_a_role(as_user, alice, bob):
    make_tournament(alice, name="Open Day")
    make_tournament(alice, name="Members Only", public=False, scorekeepers=[bob])
    assert "Members Only" not in text(as_user("anon").get("/"))
    assert "Members Only" not in text(as_user("mallory").get("/"))
    page = text(as_user("bob").get("/"))
    assert "Open Day" in page and "Members Only" in page


def test_home_groups_by_status(as_user, alice):
    make_tournament(alice, name="Next Week")
    running = make_tournament(alice, name="Today", players=4)
    open_round(running, alice)
    page = text(as_user("anon").get("/"))
    assert page.index("Running") < page.index("Today") < page.index("Upcoming")
    assert page.index("Upcoming") < page.index("Next Week") < page.index("Finished")


PUBLIC_PAGES = [
    ("tournament-detail", {}),
    ("round-detail", {"round_number": 1}),
    ("player-detail", {"player_number": 1}),
    ("standings-live", {}),
    ("standings-csv", {}),
]
ORGANISER_PAGES = [
    ("tournament-edit", {}),
    ("tournament-staff", {}),
    ("tournament-players", {}),
    ("tournament-players-csv", {}),
    ("round-open", {}),
    ("results-csv", {}),
]
SCOREKEEPER_PAGES = [
    ("round-sheets", {"round_number": 1}),
    ("results-missing", {}),
    ("confirm-queue", {}),
    ("table-entry", {"round_number": 1, "table_number": 1}),
    ("table-timer", {"round_number": 1, "table_number": 1}),
]


@pytest.mark.parametrize(("name", "kwargs"), PUBLIC_PAGES)
def test_public_pages_are_open_to_all_but_private_ones_are_hidden(
    as_user, club, alice, name, kwargs, django_capture_on_commit_callbacks
):
    assert as_user("anon").get(url(name, club, **kwargs)).status_code == 200
    # Through the service, committed: the anonymous answers kept of the public pages
    # (config.page_cache) are dropped when the tournament is saved.
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(tournament=club, by=alice, public=False)
    assert as_user("anon").get(url(name, club, **kwargs)).status_code == 404
    assert as_user("mallory").get(url(name, club, **kwargs)).status_code == 404
    assert as_user("bob").get(url(name, club, **kwargs)).status_code == 200


@pytest.mark.parametrize(("name", "kwargs"), ORGANISER_PAGES)
@pytest.mark.parametrize(
    ("who", "status"),
    [("anon", 302), ("mallory", 403), ("bob", 403), ("alice", 200), ("root", 200)],
)
def test_organiser_pages(as_user, club, name, kwargs, who, status):
    response = as_user(who).get(url(name, club, **kwargs))
    assert response.status_code == status
    if who == "anon":
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("name", "kwargs"), SCOREKEEPER_PAGES)
@pytest.mark.parametrize(
    ("who", "status"),
    [("anon", 302), ("mallory", 403), ("bob", 200), ("alice", 200), ("root", 200)],
)
def test_scorekeeper_pages(as_user, club, name, kwargs, who, status):
    assert as_user(who).get(url(name, club, **kwargs)).status_code == status


def test_private_tournament_staff_pages_are_404_for_a_signed_in_stranger(as_user, club):
    Tournament.objects.filter(pk=club.pk).update(public=False)
    assert as_user("mallory").get(url("tournament-edit", club)).status_code == 404
    assert (
        as_user("mallory").get(url("table-entry", club, round_number=1, table_number=1)).status_code
        == 404
    )


def test_anonymous_login_redirect_does_not_reveal_whether_a_tournament_exists(as_user):
    response = as_user("anon").get(reverse("tournament-edit", kwargs={"slug": "no-such-thing"}))
    assert response.status_code == 302


def test_forms_need_the_csrf_token(alice, club):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(url("tournament-players", club), {"name": "Zoe"})
    assert response.status_code == 403
    assert not Player.objects.filter(name="Zoe").exists()


def test_login_page_signs_in_and_returns_to_the_page(bob, club):
    client = Client()
    target = url("table-entry", club, round_number=1, table_number=1)
    page = client.get(target, follow=True)
    assert 'for="id_username"' in text(page)
    response = client.post(
        reverse("login"), {"username": "bob", "password": "bob-pass-123", "next": target}
    )
    assert response["Location"] == target
    assert client.get(target).status_code == 200


# --- creating and editing a tournament -----------------------------------------------------


def test_create_a_tournament_with_preset_and_overrides(as_user, alice):
    response = as_user("alice").post(
        reverse("tournament-create"),
        {
            "name": "Spring Cup",
            "preset": "league",
            "turn_seconds": "90",
            "loss_cap": "none",
            "no_meld_pays_each": "true",
            "public": "on",
        },
    )
    tournament = Tournament.objects.get(name="Spring Cup")
    assert response["Location"] == url("tournament-players", tournament)
    assert tournament.rules["turn_seconds"] == 90
    assert tournament.rules["loss_cap"] is None
    assert tournament.rules["no_meld_pays_each"] is True
    assert tournament.rules["win_bonus"] == 50  # from the preset
    assert tournament.ranking == ["score"]
    assert StaffMember.objects.get(tournament=tournament).user == alice


def test_create_shows_each_error_beside_its_field_and_saves_nothing(as_user):
    response = as_user("alice").post(
        reverse("tournament-create"),
        {
            "name": "",
            "preset": "standard",
            "joker_penalty": "lots",
            "turn_seconds": "5",
            "table_size": "7",
            "ranking": "score, height",
        },
    )
    page = text(response)
    assert response.status_code == 200
    assert field_errors(page, "id_name")
    assert "lots" in " ".join(field_errors(page, "id_joker_penalty"))
    assert "10 to 3600" in " ".join(field_errors(page, "id_turn_seconds"))
    assert "between 2 and 4" in " ".join(field_errors(page, "id_table_size"))
    assert "height" in " ".join(field_errors(page, "id_ranking"))
    assert Tournament.objects.count() == 0


def test_rules_panel_shows_every_option_with_overrides_applied(as_user):
    response = as_user("anon").get(
        reverse("rules-preview"), {"preset": "mso", "loss_cap": "10", "ranking": ""}
    )
    page = text(response)
    assert 'data-option="joker_penalty">50' in page  # the preset's
    assert "<td>Joker penalty</td>" in page  # the option's name in words, not its key
    assert_in_html(
        '<td class="override" data-option="loss_cap">10 <span class="muted">(preset: none)', page
    )
    assert "(the preset's)" in page and "1. Score" in page
    bad = text(as_user("anon").get(reverse("rules-preview"), {"preset": "mso", "loss_cap": "0"}))
    assert "loss_cap must be" in bad


def test_create_form_renders_the_rules_panel(as_user):
    page = text(as_user("alice").get(reverse("tournament-create")))
    assert 'id="rules-panel"' in page and 'data-option="turn_seconds">120' in page
    assert 'hx-get="/rules/preview/"' in page


def test_edit_keeps_unchanged_rules_once_results_exist(as_user, played):
    response = as_user("alice").post(
        url("tournament-edit", played),
        {
            "name": "Club Open Final",
            "status": "running",
            "preset": "standard",
            "ranking": "score, games_won",
            "table_size": "4",
            "public": "on",
        },
    )
    assert response.status_code == 302
    played.refresh_from_db()
    assert played.name == "Club Open Final"
    assert played.ranking == ["score", "games_won"]


def test_edit_refuses_a_rule_change_once_results_exist(as_user, played):
    response = as_user("alice").post(
        url("tournament-edit", played),
        {
            "name": "Club Open",
            "status": "running",
            "preset": "standard",
            "joker_penalty": "50",
            "table_size": "4",
            "public": "on",
        },
    )
    # A page loaded before the first result still had the option editable: the refusal
    # is beside the option, nothing is saved.
    page = text(response)
    assert response.status_code == 200
    assert "are locked" in page
    assert field_errors(page, "id_joker_penalty") == [
        "cannot change once a result has been entered; it stays as it was."
    ]
    played.refresh_from_db()
    assert played.rules["joker_penalty"] == 30


# --- staff and players ---------------------------------------------------------------------


def test_add_a_scorekeeper_and_an_unknown_user(as_user, club, mallory):
    """Both are invited, alike: nobody joins without accepting, and the
    answer does not tell an existing account from an unknown name."""
    client = as_user("alice")
    staff = url("tournament-staff", club)
    for name in ("mallory", "nobody"):
        response = client.post(staff, {"username": name, "role": "scorekeeper"})
        assert response.status_code == 302
    assert not club.staff.filter(user=mallory).exists()
    assert set(club.staff_invitations.values_list("username", flat=True)) == {"mallory", "nobody"}


def test_register_a_player(as_user, club):
    response = as_user("alice").post(url("tournament-players", club), {"name": "Zoe", "club": "X"})
    assert response.status_code == 302
    assert club.players.get(name="Zoe").number == 9


def test_csv_import_names_the_bad_lines_and_imports_nothing(as_user, club):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = b"name,club,rating\nZoe,X,1500\n,Y,1400\nYael,Z,abc\n"
    response = as_user("alice").post(
        url("tournament-players-import", club),
        {"file": SimpleUploadedFile("p.csv", data, content_type="text/csv")},
    )
    errors = field_errors(text(response), "id_file")
    assert any(e.startswith("line 3:") for e in errors)
    assert any(e.startswith("line 4:") and "abc" in e for e in errors)
    assert club.players.count() == 8


def test_csv_import_registers_every_row(as_user, club):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = "name,club,rating\nZoë,X,1500\nYael,,\n".encode()
    response = as_user("alice").post(
        url("tournament-players-import", club), {"file": SimpleUploadedFile("p.csv", data)}
    )
    assert response.status_code == 302
    assert list(club.players.filter(number__gt=8).values_list("name", flat=True)) == ["Zoë", "Yael"]


def test_withdraw_and_reinstate(as_user, club):
    client = as_user("alice")
    client.post(url("player-status", club, player_number=3), {"status": "withdrawn"})
    assert club.players.get(number=3).status == "withdrawn"
    client.post(url("player-status", club, player_number=3), {"status": "active"})
    assert club.players.get(number=3).status == "active"
    client.post(url("player-status", club, player_number=3), {"status": "gone"})
    assert club.players.get(number=3).status == "active"


def test_players_csv(as_user, club):
    response = as_user("alice").get(url("tournament-players-csv", club))
    assert response.content.startswith("\ufeff".encode())  # the BOM Excel needs
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "number,name,club,rating,status"
    assert lines[1].startswith("1,Player 1,Club 0,1500,active")
    assert len(lines) == 9


# --- rounds --------------------------------------------------------------------------------


def test_open_a_round_by_start_numbers(as_user, club):
    client = as_user("alice")
    preview = client.post(
        url("round-open", club), {"method": "manual", "tables": "1 3 5 7\n2, 4, 6, 8\n"}
    )
    assert "preview of round 2" in text(preview)
    assert club.rounds.count() == 1
    response = client.post(
        url("round-open", club),
        {**hidden_fields(text(preview)), "action": "open", "open_anyway": "on"},
    )
    assert response["Location"] == url("round-detail", club, round_number=2)
    round_ = club.rounds.get(number=2)
    first = Seat.objects.filter(round=round_, table__number=1).order_by("position")
    assert [seat.player.number for seat in first] == [1, 3, 5, 7]
    assert round_.quality["repeat_pairs"] > 0


@pytest.mark.parametrize(
    ("tables", "needle"),
    [("1 3 5 7\n2 4 6 99", "start number '99'"), ("1 3 5 7\n2 4 6", "not seated"), ("", "list")],
)
def test_open_round_errors_are_shown_and_nothing_is_opened(as_user, club, tables, needle):
    response = as_user("alice").post(
        url("round-open", club), {"method": "manual", "tables": tables}
    )
    assert needle in " ".join(field_errors(text(response), "id_tables"))
    assert club.rounds.count() == 1


def test_swap_seats_across_tables(as_user, club):
    one = club.players.get(number=1)
    eight = club.players.get(number=8)
    response = as_user("alice").post(
        url("seat-swap", club, round_number=1), {"player_a": one.pk, "player_b": eight.pk}
    )
    assert response.status_code == 302
    assert Seat.objects.get(player=one, round__number=1).table.number == 2
    assert Seat.objects.get(player=eight, round__number=1).position == 1
    assert Seat.history.filter(history_type="-", history_user__username="alice").count() == 2


def test_swap_is_refused_once_a_result_exists(as_user, played):
    one, two = played.players.filter(number__in=(1, 2))
    response = as_user("alice").post(
        url("seat-swap", played, round_number=1), {"player_a": one.pk, "player_b": two.pk}
    )
    assert "already has a result" in text(response)
    assert Seat.objects.get(player=one, round__number=1).position == 1


def test_find_my_table(as_user, club):
    page = text(as_user("anon").get(url("round-detail", club, round_number=1), {"q": "player 6"}))
    assert "<strong>Player 6</strong> (#6): table 2, seat 2." in page
    page = text(as_user("anon").get(url("round-detail", club, round_number=1), {"q": "#3"}))
    assert "table 1, seat 3" in page


def test_sheets_have_one_page_per_table_with_a_qr_code(as_user, club, settings):
    settings.PUBLIC_BASE_URL = "http://127.0.0.1:8000"
    page = text(as_user("bob").get(url("round-sheets", club, round_number=1)))
    assert page.count('<section class="sheet"') == 2
    assert page.count("<svg") == 2
    # The QR carries the table link (from PUBLIC_BASE_URL), not the bare entry page.
    link = "http://127.0.0.1:8000" + url("table-entry", club, round_number=1, table_number=2)
    assert link + "link/" in page
    assert "starts: 4. Player 4" in page
    assert page.count("Series total") == 2


# --- player page and query bounds ----------------------------------------------------------


def test_player_page_shows_every_game_and_the_chart(as_user, played):
    page = text(as_user("anon").get(url("player-detail", played, player_number=2)))
    assert page.count("<tr>") == 1 + 4  # header + the four games of the series
    assert '<span class="tiles">B10 R4 K2</span> = 16' in page or "= 16" in page
    assert "<polyline" in page and "after R1: -16" in page


@pytest.fixture
def seeded(alice, bob):
    """Three rounds of 16 players, every game entered, a few penalties."""
    from games.services.results import penalty_record

    tournament = make_tournament(alice, scorekeepers=[bob], players=16)
    for _ in range(3):
        open_round(tournament, alice)
    for game in Game.objects.filter(table__round__tournament=tournament):
        enter_rummikub(game, bob)
        if game.number == 2:
            seated = list(game.table.seats.values_list("player_id", flat=True))
            penalty_record(game=game, by=bob, player=seated[1], kind="sanction", points=5)
    return tournament


@pytest.mark.parametrize(
    ("name", "kwargs", "limit"),
    [
        ("tournament-detail", {}, 6),
        ("standings-live", {}, 4),
        ("round-detail", {"round_number": 2}, 10),
        ("player-detail", {"player_number": 5}, 11),  # + the divisions they are in
    ],
)
def test_public_pages_take_a_bounded_number_of_queries(
    as_user, seeded, django_assert_max_num_queries, name, kwargs, limit
):
    client = as_user("anon")
    client.get(url("tournament-detail", seeded))  # the first read computes the snapshot
    with django_assert_max_num_queries(limit):
        assert client.get(url(name, seeded, **kwargs)).status_code == 200


def test_round_page_query_count_does_not_grow_with_the_round(
    as_user, seeded, alice, django_assert_max_num_queries
):
    for n in range(20):
        Player.objects.create(tournament=seeded, number=100 + n, name=f"Late {n}")
    round_ = open_round(seeded, alice)
    client = as_user("alice")
    with django_assert_max_num_queries(14):
        assert (
            client.get(url("round-detail", seeded, round_number=round_.number)).status_code == 200
        )


def test_round_exists_only_in_its_own_tournament(as_user, club, alice):
    other = make_tournament(alice, name="Other", players=4)
    assert as_user("anon").get(url("round-detail", other, round_number=1)).status_code == 404
    assert Round.objects.count() == 1
