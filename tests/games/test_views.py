"""The scorekeeper's pages: a table's series (results, corrections, conflicts, penalties),
the turn timer's timeout, the confirmation queue and the missing-results overview."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.models import Game, Penalty, RackEntry, Result
from tests.games.helpers import enter_rummikub, seated
from tests.html import assert_in_html
from tests.web import field_errors, text
from tournaments.models import StaffMember, Tournament

pytestmark = pytest.mark.django_db


def table_url(tournament: Tournament, table: int = 1, round_: int = 1) -> str:
    return reverse(
        "table-entry",
        kwargs={"slug": tournament.slug, "round_number": round_, "table_number": table},
    )


def game_of(tournament: Tournament, number: int = 1, table: int = 1) -> Game:
    return Game.objects.get(table__round__tournament=tournament, table__number=table, number=number)


def entry(game: Game, *, based_on: int = 0, end: str = "rummikub", winner="seat1", racks=()):
    """The table page's POST for one game: racks by seat, each a dict of rack fields."""
    players = seated(game)
    data = {
        "game": game.number,
        "action": "result",
        f"g{game.number}-based_on": based_on,
        f"g{game.number}-end": end,
        f"g{game.number}-winner": players[0] if winner == "seat1" else (winner or ""),
    }
    for position, rack in enumerate(racks, start=1):
        for key, value in rack.items():
            data[f"g{game.number}-r{position}-{key}"] = value
    return data


GOOD = ({"tiles": ""}, {"tiles": "R4 B10 K2"}, {"tiles": "J 7"}, {"points": "3", "tile_count": "1"})


def test_a_whole_game_by_tiles_and_totals(as_user, club):
    game = game_of(club)
    response = as_user("bob").post(table_url(club), entry(game, racks=GOOD))
    assert response.status_code == 302
    assert response["Location"].endswith("?game=2#game-2")  # on to the next game
    result = Result.objects.get(game=game)
    assert (result.version, result.status) == (1, "confirmed")
    scores = dict(result.racks.values_list("player__number", "score"))
    assert scores == {1: 16 + 37 + 3, 2: -16, 3: -37, 4: -3}
    page = text(as_user("bob").get(table_url(club), {"game": 1}))
    assert "Confirmed: version 1" in page
    assert 'value="R4 B10 K2"' not in page  # prefilled in canonical order
    assert 'value="B10 R4 K2"' in page and "= 16 points" in page


def test_a_bad_tile_is_shown_beside_its_input_and_nothing_is_saved(as_user, club):
    game = game_of(club)
    racks = ({"tiles": ""}, {"tiles": "R4 X10"}, {"tiles": "J 7"}, {"points": "-3"})
    response = as_user("bob").post(table_url(club), entry(game, racks=racks))
    page = text(response)
    assert response.status_code == 200
    assert "Nothing was saved" in page
    assert any("'X10'" in e for e in field_errors(page, "id_g1-r2-tiles"))
    assert any("negative" in e for e in field_errors(page, "id_g1-r4-points"))
    assert 'value="R4 X10"' in page  # the input is kept for correcting
    assert Result.objects.count() == 0 and RackEntry.objects.count() == 0


def test_rule_errors_about_the_game_land_on_the_game_fields(as_user, club):
    game = game_of(club)
    racks = ({"tiles": "R1"}, {"tiles": "R4"}, {"tiles": "J"}, {"tiles": "K3"})
    page = text(as_user("bob").post(table_url(club), entry(game, racks=racks)))
    assert "empty" in " ".join(field_errors(page, "id_g1-r1-tiles"))
    assert Result.objects.count() == 0


def test_a_correction_becomes_version_two_with_the_history_visible(as_user, played):
    game = game_of(played)
    racks = ({"tiles": ""}, {"tiles": "R4"}, {"tiles": "J"}, {"tiles": "K3"})
    response = as_user("alice").post(table_url(played), entry(game, based_on=1, racks=racks))
    assert response.status_code == 302
    assert list(game.results.values_list("version", "status")) == [
        (1, "superseded"),
        (2, "confirmed"),
    ]
    page = text(as_user("bob").get(table_url(played), {"game": 1}))
    assert "History: 2 versions" in page
    assert "<strong>Version 1</strong> — Superseded" in page
    assert "entered by alice" in page and "entered by bob" in page


def test_a_stale_entry_shows_the_conflict_and_overwrites_nothing(as_user, played):
    game = game_of(played)
    racks = ({"tiles": ""}, {"tiles": "R5"}, {"tiles": "J"}, {"tiles": "K3"})
    response = as_user("alice").post(table_url(played), entry(game, based_on=0, racks=racks))
    page = text(response)
    assert "Someone entered version 1 meanwhile" in page and "(bob," in page
    assert game.results.count() == 1
    # The input is kept, now based on version 1: sending it again replaces that knowingly.
    assert 'name="g1-based_on" value="1"' in page and 'value="R5"' in page
    again = entry(game, based_on=1, racks=racks)
    assert as_user("alice").post(table_url(played), again).status_code == 302
    assert game.results.get(status="confirmed").version == 2


def test_penalties_record_show_and_void(as_user, club):
    game = game_of(club)
    players = seated(game)
    client = as_user("bob")
    data = {"game": 1, "action": "penalty", "p1-player": players[1], "p1-kind": "sanction"}
    page = text(client.post(table_url(club), data))
    assert "sanction needs" in " ".join(field_errors(page, "id_p1-points"))
    assert Penalty.objects.count() == 0
    assert client.post(table_url(club), {**data, "p1-points": "5"}).status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.points, penalty.recorded_by.username) == (5, "bob")
    client.post(table_url(club), {"game": 1, "action": "void", "penalty": penalty.pk})
    penalty.refresh_from_db()
    assert penalty.voided
    assert "(void)" in text(client.get(table_url(club)))


def test_unknown_game_or_action_is_404(as_user, club):
    assert as_user("bob").post(table_url(club), {"game": 9, "action": "result"}).status_code == 404
    assert as_user("bob").post(table_url(club), {"game": 1, "action": "nap"}).status_code == 404
    assert as_user("bob").post(table_url(club), {"game": "x"}).status_code == 404


def test_a_stranger_cannot_post_a_result(as_user, club):
    game = game_of(club)
    assert as_user("mallory").post(table_url(club), entry(game, racks=GOOD)).status_code == 403
    assert as_user("anon").post(table_url(club), entry(game, racks=GOOD)).status_code == 302
    assert Result.objects.count() == 0


# --- the turn timer ------------------------------------------------------------------------


def timeout_url(tournament: Tournament, game: int = 1) -> str:
    return reverse(
        "timeout-record",
        kwargs={"slug": tournament.slug, "round_number": 1, "table_number": 1, "game_number": game},
    )


def test_timer_page_starts_with_the_starter_of_the_first_open_game(as_user, played):
    page = text(
        as_user("bob").get(
            reverse(
                "table-timer",
                kwargs={"slug": played.slug, "round_number": 1, "table_number": 1},
            )
        )
    )
    assert "Game 2: Player 2 starts." in page
    assert 'data-seconds="120"' in page


def test_timeout_is_recorded_for_the_player(as_user, club):
    player = seated(game_of(club))[2]
    response = as_user("bob").post(timeout_url(club), {"player": player}, HTTP_HX_REQUEST="true")
    assert "Recorded: timeout for Player 3, draws 1." in text(response)
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.player_id, penalty.tiles_drawn) == ("timeout", player, 1)


def test_timeout_for_someone_not_seated_is_refused(as_user, club):
    stranger = club.players.get(number=8).pk  # at table 2
    response = as_user("bob").post(timeout_url(club), {"player": stranger}, HTTP_HX_REQUEST="true")
    assert "Not recorded" in text(response) and 'data-ok="0"' in text(response)
    assert Penalty.objects.count() == 0
    plain = as_user("bob").post(timeout_url(club), {"player": stranger})
    assert plain.status_code == 302 and plain["Location"].endswith("timer/?game=1")


def test_timeout_needs_a_scorekeeper(as_user, club):
    player = seated(game_of(club))[0]
    assert as_user("mallory").post(timeout_url(club), {"player": player}).status_code == 403
    assert as_user("bob").get(timeout_url(club)).status_code == 405


# --- double entry --------------------------------------------------------------------------


@pytest.fixture
def double_entry(club, carol, alice):
    from tournaments.services.tournaments import staff_add, tournament_update

    tournament_update(tournament=club, by=alice, results_need_confirmation=True)
    staff_add(tournament=club, by=alice, username="carol", role=StaffMember.Role.SCOREKEEPER)
    return club


def test_confirmation_queue(as_user, double_entry, bob, carol):
    result = enter_rummikub(game_of(double_entry), bob)
    assert result.status == "submitted"
    queue = reverse("confirm-queue", kwargs={"slug": double_entry.slug})
    assert "Confirm version 1" in text(as_user("bob").get(queue))
    confirm = reverse("confirm-result", kwargs={"slug": double_entry.slug, "pk": result.pk})
    assert as_user("carol").post(confirm).status_code == 302
    result.refresh_from_db()
    assert (result.status, result.confirmed_by) == ("confirmed", carol)
    assert "Nothing waits" in text(as_user("carol").get(queue))


def test_the_submitter_cannot_confirm_their_own_entry(as_user, double_entry, bob):
    result = enter_rummikub(game_of(double_entry), bob)
    confirm = reverse("confirm-result", kwargs={"slug": double_entry.slug, "pk": result.pk})
    page = text(as_user("bob").post(confirm, follow=True))
    assert "Someone other than who entered the result must confirm it." in page
    result.refresh_from_db()
    assert result.status == "submitted"


def test_missing_results(as_user, played):
    page = text(as_user("bob").get(reverse("results-missing", kwargs={"slug": played.slug})))
    assert "game 2, game 3, game 4" in page
    assert "game 1," not in page


def test_results_csv_has_every_confirmed_rack(as_user, played):
    response = as_user("alice").get(reverse("results-csv", kwargs={"slug": played.slug}))
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("round,table,game,version,end,seat,player_number")
    assert len(lines) == 1 + 8
    assert lines[2].startswith("1,1,1,1,rummikub,2,2,Player 2,,B10 R4 K2,16,3,0,,16,-16,0,0,")


# --- one game per screen --------------------------------------------------------------------


def test_the_page_opens_on_the_first_game_without_a_result(as_user, played):
    page = text(as_user("bob").get(table_url(played)))
    assert "Game 2 of 4" in page and "starts: Player 2 (seat 2)" in page
    assert page.count('<form method="post" action="?game=') == 1  # one game's form only
    assert 'name="g2-based_on"' in page and 'name="g1-based_on"' not in page
    # Game 1 folded to its scores with an Edit link; games 3 and 4 to "not entered".
    assert "Player 1 +56" in page and "Player 4 -3" in page
    assert_in_html(
        '<a class="button secondary fold-edit" href="?game=1#game-1" aria-label="Edit game 1">',
        page,
    )
    assert 'aria-label="Enter game 3"' in page and page.count("not entered") == 2


def test_any_game_opens_by_its_number(as_user, played):
    page = text(as_user("bob").get(table_url(played), {"game": 3}))
    assert "Game 3 of 4" in page and 'name="g3-based_on"' in page
    assert "Game 9" not in text(as_user("bob").get(table_url(played), {"game": 9}))


def test_saving_moves_to_the_next_game_without_a_result(as_user, played):
    game3 = game_of(played, 3)
    response = as_user("bob").post(table_url(played), entry(game3, racks=GOOD))
    assert response["Location"].endswith("?game=4#game-4")
    game4 = game_of(played, 4)
    response = as_user("bob").post(table_url(played), entry(game4, racks=GOOD))
    assert response["Location"].endswith("?game=2#game-2")  # wraps round to the one left
    game2 = game_of(played, 2)
    response = as_user("bob").post(table_url(played), entry(game2, racks=GOOD))
    assert "?game=" not in response["Location"]
    page = text(as_user("bob").get(response["Location"]))
    assert "All 4 games are entered." in page and '<form method="post" action="?game=' not in page


def test_the_form_is_marked_for_offline_sending_and_takes_an_idempotency_key(as_user, club):
    page = text(as_user("bob").get(table_url(club)))
    assert "data-offline" in page and 'name="idempotency_key" value=""' in page
    data = entry(game_of(club), racks=GOOD) | {"idempotency_key": "abc-123"}
    assert as_user("bob").post(table_url(club), data).status_code == 302


# --- the winner and the blank rack -------------------------------------------------------------


def test_the_one_blank_rack_makes_the_winner_when_none_is_chosen(as_user, club):
    game = game_of(club)
    racks = ({"tiles": "R4"}, {"tiles": ""}, {"tiles": "J"}, {"tiles": "K3"})
    response = as_user("bob").post(table_url(club), entry(game, winner="", racks=racks))
    assert response.status_code == 302
    winners = RackEntry.objects.filter(winner=True).values_list("player__number", flat=True)
    assert list(winners) == [2]


def test_a_new_game_starts_as_a_rummikub_end(as_user, club):
    page = text(as_user("bob").get(table_url(club)))
    assert 'value="rummikub" id="id_g1-end_0" checked' in page or (
        'id="id_g1-end_0" checked' in page
    )


# --- errors a person can act on -----------------------------------------------------------------


def test_three_mistakes_show_three_messages_at_once_naming_the_players(as_user, club):
    game = game_of(club)
    # Seat 1 is chosen as winner but holds a tile; seat 2 wrote a tile that does not
    # exist; seat 4 gave negative points. Each in a different stage of the checks.
    racks = ({"tiles": "R4"}, {"tiles": "R4 X10"}, {"tiles": "J 7"}, {"points": "-3"})
    page = text(as_user("bob").post(table_url(club), entry(game, racks=racks)))
    assert Result.objects.count() == 0
    summary = re.search(r'<div class="error-summary" id="game-1-errors"(.*?)</div>', page, re.S)
    assert summary, "the summary sits at the top of the game"
    assert "Nothing was saved: 3 problems to correct" in summary.group(1)
    items = [
        (target, html.unescape(message))
        for target, message in re.findall(
            r'<li><a href="#([^"]+)">(.*?)</a></li>', summary.group(1)
        )
    ]
    # In the order of the page, each linked to its input.
    assert [target for target, _ in items] == [
        "id_g1-r1-tiles",
        "id_g1-r2-tiles",
        "id_g1-r4-points",
    ]
    assert items[0][1].startswith("Player 1 (seat 1) went out, so their rack must be empty")
    assert items[1][1].startswith("Player 2 (seat 2): unknown colour 'X'")
    assert items[2][1] == "Player 4 (seat 4): points cannot be negative, got -3"
    for _, message in items:
        assert re.search(r"\bplayer \d", message) is None  # the engine's "player <id>"
    # The same messages beside the fields; the form posts to the summary's anchor.
    assert field_errors(page, "id_g1-r4-points") == [items[2][1]]
    assert 'action="?game=1#game-1-errors"' in page
    assert page.index("error-summary") < page.index('name="g1-end"')


def test_a_number_the_form_cannot_read_is_named_in_the_summary(as_user, club):
    game = game_of(club)
    racks = ({"tiles": ""}, {"tiles": "R4"}, {"tiles": "J"}, {"points": "many"})
    page = html.unescape(text(as_user("bob").post(table_url(club), entry(game, racks=racks))))
    summary = page[
        page.index('class="error-summary"') : page.index(
            "</ul>", page.index('class="error-summary"')
        )
    ]
    assert '<a href="#id_g1-r4-points">Player 4 (seat 4): ' in summary


@pytest.mark.parametrize("game", [None, 1])
def test_the_table_page_takes_a_bounded_number_of_queries(
    as_user, played, django_assert_max_num_queries, game
):
    client = as_user("bob")
    query = {"game": game} if game else {}
    with django_assert_max_num_queries(12):  # 11 measured; folded games cost none
        assert client.get(table_url(played), query).status_code == 200
