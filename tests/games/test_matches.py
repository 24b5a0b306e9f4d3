"""Target-score matches at the tables (games.services.matches): the games after the
deciding one closed, a game after the decision refused (409 over the API, nothing saved),
a correction that undoes the decision reopening the match, games added to a match that
needs them, the games cap, and the setting itself (frozen once a result exists)."""

from __future__ import annotations

import json

import jsonschema
import pytest
from django.urls import reverse

from games.models import Game, Result
from games.services.event_file.export import event_file_export
from games.services.event_file.load import event_file_import
from games.services.event_file.schema import event_file_schema
from games.services.matches import MatchDecided, table_match
from games.services.results import result_submit
from games.services.standings import standings_recompute
from scoring.errors import RuleError
from tests.api import seated
from tests.factories import make_tournament, open_round
from tests.web import as_user, text  # noqa: F401 (fixture)
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


def enter(game: Game, by, winner_seat: int, losses: tuple[int, ...], based_on: int = 0):
    """A game won by the seat `winner_seat` (1-based), the others holding `losses` points
    in seat order: the winner scores their sum, each loser minus their points."""
    players = seated(game)
    winner = players[winner_seat - 1]
    others = iter(losses)
    racks = [
        {"player": p, "tiles": ""} if p == winner else {"player": p, "points": next(others)}
        for p in players
    ]
    return result_submit(
        game=game, by=by, based_on=based_on, end="rummikub", winner=winner, racks=racks
    )


def games_of(tournament) -> list[Game]:
    return list(Game.objects.filter(table__round__tournament=tournament).order_by("number"))


@pytest.fixture
def match(alice):
    """A tournament to 100 points, 4 players at one table, a series of 4 games."""
    tournament = make_tournament(
        alice, name="Target Night", players=4, games_per_table=4, target_score=100
    )
    open_round(tournament, alice)
    return tournament


def test_the_match_is_decided_mid_series_and_the_rest_closed(match, alice):
    g1, g2, g3, _g4 = games_of(match)
    enter(g1, alice, 1, (20, 10, 10))  # Player 1: 40
    enter(g2, alice, 1, (30, 10, 10))  # 90
    state = table_match(match, g1.table)
    assert state.status == "running" and state.totals[seated(g1)[0]] == 90
    enter(g3, alice, 1, (10, 6, 6))  # 112 of 100: decided
    state = table_match(match, g1.table)
    assert state.decided and state.winner == seated(g1)[0] and state.games == 3
    assert state.totals[state.winner] == 112
    assert [g.number for g in games_of(match)] == [1, 2, 3]  # game 4 closed


def test_a_game_after_the_decision_is_refused_and_a_correction_reopens(match, alice):
    g1, *_, g4 = games_of(match)
    enter(g4, alice, 2, (5, 5, 5))  # entered early, while the match still runs
    enter(g1, alice, 1, (50, 30, 30))  # 110 after game 1: decided at once
    assert table_match(match, g1.table).games == 1
    versions = Result.objects.count()
    with pytest.raises(MatchDecided) as refused:
        enter(g4, alice, 2, (5, 5, 6), based_on=1)
    assert "game 4 is not played" in refused.value.message
    assert "Player 1, 110 of 100" in refused.value.message
    assert Result.objects.count() == versions
    # A correction of game 1 undoes the decision: the match runs on, games 2 and 3 open.
    enter(g1, alice, 1, (5, 5, 5), based_on=1)
    state = table_match(match, g1.table)
    assert state.status == "running" and state.games == 1
    assert [g.number for g in games_of(match)] == [1, 2, 3, 4]  # games 2 and 3 back
    enter(games_of(match)[1], alice, 3, (1, 1, 1))  # accepted again


def test_a_match_still_running_after_its_games_gets_another(alice):
    tournament = make_tournament(alice, name="Long", players=2, table_size=2,
                                 games_per_table=1, target_score=100)  # fmt: skip
    open_round(tournament, alice)
    (g1,) = games_of(tournament)
    enter(g1, alice, 1, (30,))
    assert [g.number for g in games_of(tournament)] == [1, 2]
    g2 = games_of(tournament)[1]
    assert g2.starter_position == 2
    enter(g2, alice, 1, (80,))  # 110: decided, no game 3
    assert [g.number for g in games_of(tournament)] == [1, 2]


def test_the_games_cap_seats_at_most_that_many_and_ends_the_match(alice):
    tournament = make_tournament(alice, name="Capped", players=4, games_per_table=4,
                                 target_score=500, target_games_cap=2)  # fmt: skip
    open_round(tournament, alice)
    g1, g2 = games_of(tournament)
    enter(g1, alice, 1, (10, 10, 10))
    enter(g2, alice, 2, (5, 5, 5))
    state = table_match(tournament, g1.table)
    assert state.decided and state.decided_by == "cap" and state.winner == seated(g1)[0]
    assert len(games_of(tournament)) == 2


def test_target_and_cap_are_frozen_once_a_result_exists(match, alice):
    with pytest.raises(RuleError) as early:
        tournament_update(tournament=match, by=alice, target_games_cap=0)
    assert early.value.path == ("target_games_cap",)
    tournament_update(tournament=match, by=alice, target_games_cap=6)
    enter(games_of(match)[0], alice, 1, (1, 1, 1))
    match.refresh_from_db()
    with pytest.raises(RuleError) as frozen:
        tournament_update(tournament=match, by=alice, target_score=200)
    assert frozen.value.path == ("target_score",)
    tournament_update(tournament=match, by=alice, target_score=100, name="Same target")


# --- the table page ------------------------------------------------------------------------


def table_page(client, tournament, **query):
    url = reverse("table-entry", kwargs={"slug": tournament.slug, "round_number": 1,
                                         "table_number": 1})  # fmt: skip
    return client.get(url, query)


def test_the_table_page_says_the_match_is_decided_and_offers_no_further_game(
    match,
    alice,
    as_user,  # noqa: F811
):
    g1, g2, g3, _g4 = games_of(match)
    enter(g1, alice, 1, (20, 10, 10))
    page = text(table_page(as_user("alice"), match))
    assert "Match to 100" in page and "Player 1 40" in page
    assert 'id="game-2-title"' in page  # game 2 is open for entry
    enter(g2, alice, 1, (30, 10, 10))
    enter(g3, alice, 1, (10, 6, 6))
    page = text(table_page(as_user("alice"), match))
    assert "match decided: Player 1, 112 of 100" in page
    assert 'class="entry"' not in page  # no form: every game to play is closed
    assert "Enter game 4" not in page
    # a counted game can still be corrected
    assert 'class="entry"' in text(table_page(as_user("alice"), match, game=2))
    assert 'class="entry"' not in text(table_page(as_user("alice"), match, game=4))


# --- the standings -------------------------------------------------------------------------


def test_standings_count_matches_won_match_points_and_the_countback(match, alice):
    tournament_update(
        tournament=match,
        by=alice,
        ranking=["matches_won", "match_points", "best_game", "second_best_game", "third_best_game"],
    )
    g1, g2, g3, _g4 = games_of(match)
    enter(g1, alice, 1, (20, 10, 10))  # Player 1 +40, Player 2 -20, 3 -10, 4 -10
    enter(g2, alice, 2, (30, 10, 10))  # Player 2 +50
    snapshot = standings_recompute(tournament_id=match.pk)
    rows = {row["player"]["name"]: row for row in snapshot.rows}
    assert {name: row["metrics"]["matches_won"] for name, row in rows.items()} == dict.fromkeys(
        rows, 0
    )  # still running: nobody has a match
    enter(g3, alice, 1, (40, 10, 10))  # Player 1: 40 - 30 + 60 = 70; Player 2: -20+50-40 = -10
    assert table_match(match, g1.table).status == "running"
    enter(games_of(match)[3], alice, 1, (20, 10, 10))  # Player 1: 110 of 100
    snapshot = standings_recompute(tournament_id=match.pk)
    rows = {row["player"]["name"]: row for row in snapshot.rows}
    assert rows["Player 1"]["rank"] == 1
    assert rows["Player 1"]["metrics"]["matches_won"] == 1
    assert rows["Player 1"]["metrics"]["match_points"] == 4
    assert rows["Player 2"]["metrics"]["matches_won"] == 0
    # Player 1's games: 40, -30, 60, 40 -> best 60, second 40, third 40
    metrics = rows["Player 1"]["metrics"]
    assert (metrics["best_game"], metrics["second_best_game"], metrics["third_best_game"]) == (
        60,
        40,
        40,
    )


# --- the event file ------------------------------------------------------------------------


def test_the_event_file_carries_the_target_and_the_cap(match, alice, carol):
    match = tournament_update(tournament=match, by=alice, target_games_cap=5)
    g1, *_ = games_of(match)
    enter(g1, alice, 1, (60, 30, 30))  # decided in game 1
    document = json.loads(json.dumps(event_file_export(match)))
    jsonschema.Draft202012Validator(event_file_schema()).validate(document)
    assert (document["tournament"]["target_score"], document["tournament"]["target_games_cap"]) == (
        100,
        5,
    )
    copied = event_file_import(by=carol, document=document, slug="target-copy")
    assert (copied.target_score, copied.target_games_cap) == (100, 5)
    state = table_match(copied, games_of(copied)[0].table)
    assert state.decided and state.totals[state.winner] == 120
    # a file written before the cap existed still imports, with no cap
    del document["tournament"]["target_games_cap"]
    jsonschema.Draft202012Validator(event_file_schema()).validate(document)
    older = event_file_import(by=carol, document=document, slug="target-older")
    assert older.target_games_cap is None
