"""The scorekeeper's pages: a table's series (results, corrections, conflicts, penalties),
the turn timer's timeout, the confirmation queue and the missing-results overview."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Penalty, RackEntry, Result
from tests.games.helpers import enter_rummikub, seated
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
    assert response["Location"].endswith("#game-1")
    result = Result.objects.get(game=game)
    assert (result.version, result.status) == (1, "confirmed")
    scores = dict(result.racks.values_list("player__number", "score"))
    assert scores == {1: 16 + 37 + 3, 2: -16, 3: -37, 4: -3}
    page = text(as_user("bob").get(table_url(club)))
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
    page = text(as_user("bob").get(table_url(played)))
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
    assert lines[2].startswith("1,1,1,1,rummikub,2,2,Player 2,B10 R4 K2,16,3,0,,16,-16,0,0,")
