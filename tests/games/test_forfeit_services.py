"""Service tests: late entries, withdrawal during a round (plays on / forfeit), forfeits of
one game, substitutes — and the standings that follow them."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from games.models import Absence, Game, RackEntry, Result, Seat
from games.services.results import result_submit
from games.services.rounds import round_open
from games.services.standings import standings_recompute
from games.services.withdrawals import game_forfeit, player_withdraw
from scoring.errors import Conflict, RuleError
from scoring.standings import GameLine, compute_standings
from tests.api import rows, versions
from tests.factories import make_tournament, open_round
from tests.games.helpers import enter_rummikub, seated
from tournaments.models import Player
from tournaments.services.players import player_register
from tournaments.services.tournaments import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(alice, bob):
    """Eight players, round 1 open: two tables of four, four games each; game 1 of
    table 1 played (seat 1 went out)."""
    tournament = make_tournament(alice, scorekeepers=[bob], players=8)
    round1 = open_round(tournament, alice)
    table = round1.tables.get(number=1)
    enter_rummikub(table.games.get(number=1), bob)
    return tournament, table


def paths(error: RuleError) -> set[tuple]:
    return {e.path for e in error.flatten()}


def row_of(snapshot, player: Player) -> dict:
    return next(row for row in snapshot.rows if row["player"]["id"] == player.pk)


def player_at(table, position: int) -> Player:
    return table.seats.get(position=position).player


# --- late entries ---------------------------------------------------------------------------


def test_a_late_entry_joins_from_the_next_round(club, alice):
    tournament, _ = club
    late = player_register(tournament=tournament, by=alice, name="Late Larry")
    assert late.joined_round == 2
    early = Player.objects.filter(tournament=tournament, number=1).get()
    assert early.joined_round is None


def test_a_late_entry_is_seated_in_the_next_round(club, alice):
    tournament, _ = club
    late = player_register(tournament=tournament, by=alice, name="Late Larry")
    round2 = round_open(tournament=tournament, by=alice, method="random", open_anyway=True)
    assert Seat.objects.filter(round=round2, player=late).exists()


@pytest.mark.parametrize(
    ("treatment", "games_played"),
    [("not_played", 0), ("zero", 4), ("average", 4)],
)
def test_standings_mark_a_late_entry_and_count_missed_rounds(club, alice, treatment, games_played):
    tournament, _ = club
    late = player_register(tournament=tournament, by=alice, name="Late Larry")
    tournament_update(tournament=tournament, by=alice, missed_rounds=treatment)
    row = row_of(standings_recompute(tournament_id=tournament.pk), late)
    # One missed round of four games (tables of four, one game per seat).
    assert row["notes"] == {"joined_round": 2, "missed_rounds": treatment, "missed_games": 4}
    assert row["metrics"]["games_played"] == games_played


def test_changing_the_missed_rounds_option_changes_the_standings_version(club, alice):
    tournament, _ = club
    before = versions(tournament)
    tournament_update(tournament=tournament, by=alice, missed_rounds="average")
    assert versions(tournament) == before + 1


def test_an_unknown_missed_rounds_option_is_refused(club, alice):
    tournament, _ = club
    with pytest.raises(RuleError) as caught:
        tournament_update(tournament=tournament, by=alice, missed_rounds="double", forfeit_rule="x")
    assert paths(caught.value) == {("missed_rounds",), ("forfeit_rule",)}
    tournament.refresh_from_db()
    assert (tournament.missed_rounds, tournament.forfeit_rule) == ("not_played", "shared")


# --- withdrawal during a round --------------------------------------------------------------


def test_withdrawing_a_seated_player_asks_about_the_unplayed_games(club, alice):
    tournament, table = club
    leaver = player_at(table, 2)
    before, version = rows(), versions(tournament)
    with pytest.raises(RuleError) as caught:
        player_withdraw(player=leaver, by=alice)
    (error,) = caught.value.flatten()
    assert error.path == ("unplayed",)
    assert "table 1 of round 1 with games 2, 3, 4 unplayed" in error.message
    assert leaver.name in error.message
    leaver.refresh_from_db()
    assert leaver.status == "active"
    assert (rows(), versions(tournament)) == (before, version)


@pytest.mark.parametrize("choice", ["later", "", 3, "forfeits"])
def test_withdraw_with_an_unknown_choice_is_refused(club, alice, choice):
    _tournament, table = club
    leaver = player_at(table, 2)
    before = rows()
    with pytest.raises(RuleError) as caught:
        player_withdraw(player=leaver, by=alice, unplayed=choice)
    assert paths(caught.value) == {("unplayed",)}
    assert rows() == before
    assert Player.objects.get(pk=leaver.pk).status == "active"


def test_withdraw_when_the_table_plays_on(club, alice, bob):
    tournament, table = club
    leaver = player_at(table, 2)
    version = versions(tournament)
    done = player_withdraw(player=leaver, by=alice, unplayed="plays_on")
    assert [game.number for game in done.games] == [2, 3, 4]
    assert done.forfeits == []
    seat = Seat.objects.get(pk=table.seats.get(position=2).pk)
    assert (seat.absent_from, seat.absence) == (2, Absence.PLAYS_ON)
    assert versions(tournament) == version + 1
    # Game 1's result stays, with the leaver's rack.
    assert RackEntry.objects.filter(player=leaver, result__status="confirmed").count() == 1
    game2 = table.games.get(number=2)
    others = [p for p in seated(game2) if p != leaver.pk]
    # A rack for the withdrawn seat is refused from game 2 on...
    with pytest.raises(RuleError) as caught:
        result_submit(
            game=game2,
            by=bob,
            based_on=0,
            end="rummikub",
            winner=others[0],
            racks=[{"player": others[0], "tiles": ""}]
            + [{"player": p, "tiles": "R5"} for p in (leaver.pk, *others[1:])],
        )
    assert ("racks", 1, "player") in paths(caught.value)
    # ...and three racks are a whole game.
    result = result_submit(
        game=game2,
        by=bob,
        based_on=0,
        end="rummikub",
        winner=others[0],
        racks=[{"player": others[0], "tiles": ""}]
        + [{"player": p, "tiles": "R5"} for p in others[1:]],
    )
    assert result.racks.count() == 3
    assert Player.objects.get(pk=leaver.pk).status == "withdrawn"


def test_plays_on_is_refused_when_one_player_would_be_left(alice, bob):
    tournament = make_tournament(alice, players=4, table_size=2)
    round1 = open_round(tournament, alice)
    leaver = round1.tables.get(number=1).seats.get(position=1).player
    with pytest.raises(RuleError) as caught:
        player_withdraw(player=leaver, by=alice, unplayed="plays_on")
    assert paths(caught.value) == {("unplayed",)}
    assert "choose forfeit" in str(caught.value)


def test_withdraw_with_forfeit_scores_the_remaining_games(club, alice):
    tournament, table = club
    leaver = player_at(table, 2)
    done = player_withdraw(player=leaver, by=alice, unplayed="forfeit")
    assert [result.game.number for result in done.forfeits] == [2, 3, 4]
    for game in table.games.filter(number__gte=2):
        result = game.results.get(status=Result.Status.CONFIRMED)
        assert result.end == Result.End.FORFEIT
        racks = {rack.player_id: rack for rack in result.racks.all()}
        assert racks[leaver.pk].forfeit and racks[leaver.pk].score == -98
        present = [rack for pid, rack in racks.items() if pid != leaver.pk]
        # 98 shared by three: 33, 33, 32 (the first two from the starter on get the rest).
        assert sorted(rack.score for rack in present) == [32, 33, 33]
        assert all(rack.winner for rack in present)
        assert sum(rack.score for rack in racks.values()) == 0
    # The game the leaver played stays as it was.
    game1 = table.games.get(number=1).results.get(status="confirmed")
    assert game1.end == "rummikub" and game1.racks.filter(player=leaver).exists()
    row = row_of(standings_recompute(tournament_id=tournament.pk), leaver)
    assert row["notes"] == {"forfeits": 3}
    assert row["metrics"]["games_played"] == 4
    assert row["player"]["status"] == "withdrawn"


def test_absent_only_forfeit_rule(club, alice):
    tournament, table = club
    tournament_update(tournament=tournament, by=alice, forfeit_rule="absent_only")
    leaver = player_at(table, 3)
    player_withdraw(player=leaver, by=alice, unplayed="forfeit")
    result = table.games.get(number=4).results.get(status="confirmed")
    scores = {rack.player_id: (rack.score, rack.winner) for rack in result.racks.all()}
    assert scores.pop(leaver.pk) == (-98, False)
    assert set(scores.values()) == {(0, False)}


def test_a_forfeit_is_a_result_version_that_can_be_corrected(club, alice, bob):
    _tournament, table = club
    leaver = player_at(table, 2)
    player_withdraw(player=leaver, by=alice, unplayed="forfeit")
    game = table.games.get(number=2)
    enter_rummikub(game, bob, based_on=1)
    assert list(game.results.values_list("version", "status", "end")) == [
        (1, "superseded", "forfeit"),
        (2, "confirmed", "rummikub"),
    ]


def test_withdrawing_twice_is_refused(club, alice):
    _, table = club
    leaver = player_at(table, 2)
    player_withdraw(player=leaver, by=alice, unplayed="plays_on")
    with pytest.raises(RuleError) as caught:
        player_withdraw(player=Player.objects.get(pk=leaver.pk), by=alice, unplayed="forfeit")
    assert paths(caught.value) == {("player",)}


def test_withdrawing_someone_not_seated_needs_no_choice(club, alice):
    tournament, _ = club
    late = player_register(tournament=tournament, by=alice, name="Late Larry")
    done = player_withdraw(player=late, by=alice)
    assert done.seat is None and done.games == []


def test_a_scorekeeper_cannot_withdraw(club, bob):
    _, table = club
    with pytest.raises(PermissionDenied):
        player_withdraw(player=player_at(table, 2), by=bob, unplayed="forfeit")


# --- forfeit of one game --------------------------------------------------------------------


def test_a_forfeit_on_a_game_already_played_is_refused(club, alice):
    tournament, table = club
    game1 = table.games.get(number=1)
    before, version = rows(), versions(tournament)
    with pytest.raises(Conflict) as caught:
        game_forfeit(game=game1, by=alice, player=player_at(table, 2).pk, based_on=1)
    assert caught.value.path == ("game",)
    assert "game 1 at table 1 already has a result" in caught.value.message
    assert (rows(), versions(tournament)) == (before, version)


def test_a_forfeit_for_a_player_not_at_the_table_is_refused(club, alice):
    tournament, table = club
    stranger = tournament.players.exclude(seats__table=table).first()
    before = rows()
    with pytest.raises(RuleError) as caught:
        game_forfeit(game=table.games.get(number=2), by=alice, player=stranger.pk, based_on=0)
    assert caught.value.path == ("player",)
    assert rows() == before


def test_a_forfeit_of_one_game(club, alice):
    _tournament, table = club
    absent = player_at(table, 4)
    result = game_forfeit(game=table.games.get(number=3), by=alice, player=absent.pk, based_on=0)
    assert result.status == "confirmed" and result.end == "forfeit"
    assert result.racks.get(player=absent).forfeit
    # Game 3 starts at seat 3: its present seats in play order are 3, 1, 2; 3 and 1 get 33.
    scores = {rack.player_id: rack.score for rack in result.racks.all()}
    assert scores[player_at(table, 3).pk] == 33
    assert scores[player_at(table, 1).pk] == 33
    assert scores[player_at(table, 2).pk] == 32


# --- substitutes ----------------------------------------------------------------------------


def _with_substitute(game: Game, by, name: str, seat_index: int = 1, based_on: int = 0):
    players = seated(game)
    racks = [{"player": players[0], "tiles": ""}]
    racks += [
        {"player": p, "tiles": t} for p, t in zip(players[1:], ("R4", "B10", "K2"), strict=False)
    ]
    racks[seat_index]["substitute"] = name
    return result_submit(
        game=game, by=by, based_on=based_on, end="rummikub", winner=players[0], racks=racks
    )


def test_a_substitute_game_counts_only_for_the_opponents(club, bob, alice):
    tournament, table = club
    game2 = table.games.get(number=2)
    result = _with_substitute(game2, bob, "  Sam Sub ")
    seat_player = Player.objects.get(pk=seated(game2)[1])
    assert result.racks.get(player=seat_player).substitute == "Sam Sub"
    snapshot = standings_recompute(tournament_id=tournament.pk)
    row = row_of(snapshot, seat_player)
    assert row["notes"] == {"substitute_games": 1, "substitute_games_credited": False}
    assert row["metrics"]["games_played"] == 1  # game 1 only
    winner = row_of(snapshot, Player.objects.get(pk=seated(game2)[0]))
    assert winner["metrics"]["games_played"] == 2
    assert winner["metrics"]["games_won"] == 2

    tournament_update(tournament=tournament, by=alice, credit_substitute_games=True)
    row = row_of(standings_recompute(tournament_id=tournament.pk), seat_player)
    assert row["metrics"]["games_played"] == 2
    assert row["notes"]["substitute_games_credited"] is True


def test_a_substitute_for_a_player_not_at_the_table_is_refused(club, bob):
    tournament, table = club
    game2 = table.games.get(number=2)
    stranger = tournament.players.exclude(seats__table=table).first()
    players = seated(game2)
    racks = [{"player": players[0], "tiles": ""}]
    racks += [{"player": p, "tiles": "R4"} for p in players[1:3]]
    racks.append({"player": stranger.pk, "tiles": "R4", "substitute": "Sam Sub"})
    before = rows()
    with pytest.raises(RuleError) as caught:
        result_submit(
            game=game2, by=bob, based_on=0, end="rummikub", winner=players[0], racks=racks
        )
    assert ("racks", 3, "player") in paths(caught.value)
    assert rows() == before


@pytest.mark.parametrize("name", [42, "x" * 101])
def test_a_bad_substitute_name_is_refused(club, bob, name):
    _, table = club
    before = rows()
    with pytest.raises(RuleError) as caught:
        _with_substitute(table.games.get(number=2), bob, name)
    assert paths(caught.value) == {("racks", 1, "substitute")}
    assert rows() == before


# --- the database path agrees with the engine's game-level path -----------------------------


def _engine_metrics(tournament) -> dict[int, dict]:
    """What `scoring.standings.compute_standings` makes of the confirmed racks read one by
    one (substitute flags and missed games included)."""
    racks = RackEntry.objects.filter(
        result__game__table__round__tournament=tournament, result__status="confirmed"
    ).values_list(
        "player_id",
        "result__game__table__round__number",
        "result__game__table_id",
        "result__game_id",
        "score",
        "charge",
        "winner",
        "result__end",
        "substitute",
    )
    lines = [
        GameLine(p, r, t, g, score, charge, won, won and end == "rummikub", substitute=bool(sub))
        for p, r, t, g, score, charge, won, end, sub in racks
    ]
    players = list(tournament.players.values_list("pk", "joined_round", "status"))
    rows = compute_standings(
        players=[p for p, _, _ in players],
        lines=lines,
        penalties={},
        ranking=tournament.ranking,
        lot_seed=f"{tournament.pk}:{tournament.slug}",
        withdrawn={p for p, _, status in players if status == "withdrawn"},
        credit_substitutes=tournament.credit_substitute_games,
        missed_games={p: (j - 1) * 4 for p, j, _ in players if j},
        missed_rounds=tournament.missed_rounds,
    )
    return {row.player: row.metrics for row in rows}


@pytest.mark.parametrize("ranking", [["games_won", "score"], ["score", "opponents_score"]])
@pytest.mark.parametrize("credit", [False, True])
@pytest.mark.parametrize("treatment", ["not_played", "zero", "average"])
def test_sql_standings_agree_with_the_engine(club, alice, bob, ranking, credit, treatment):
    tournament, table = club
    _with_substitute(table.games.get(number=2), bob, "Sam Sub", seat_index=2)
    player_withdraw(player=player_at(table, 3), by=alice, unplayed="forfeit")
    late = player_register(tournament=tournament, by=alice, name="Late Larry")
    round2 = round_open(tournament=tournament, by=alice, method="random", open_anyway=True)
    for game in Game.objects.filter(table__round=round2, number=1):
        _with_substitute(game, bob, "Sue Sub", seat_index=1)
    tournament_update(
        tournament=tournament,
        by=alice,
        ranking=ranking,
        credit_substitute_games=credit,
        missed_rounds=treatment,
    )
    tournament.refresh_from_db()
    snapshot = standings_recompute(tournament_id=tournament.pk)
    expected = _engine_metrics(tournament)
    for row in snapshot.rows:
        got = row["metrics"]
        assert got == {key: expected[row["player"]["id"]][key] for key in got}
    assert row_of(snapshot, late)["notes"]["missed_rounds"] == treatment
