"""Builders for result payloads in tests, and a played club evening."""

from __future__ import annotations

from games.models import Game
from games.services.results import result_submit
from games.services.standings import standings_recompute
from tests.factories import make_tournament, open_round
from tournaments.selectors import name_matches
from tournaments.services.clubs import players_link_matches, tournament_hold_under


def seated(game: Game) -> list[int]:
    return list(game.table.seats.order_by("position").values_list("player_id", flat=True))


def rummikub_racks(game: Game, *loser_tiles: str) -> list[dict]:
    """Seat 1 went out; the other seats hold `loser_tiles` in seat order."""
    players = seated(game)
    racks = [{"player": players[0], "tiles": ""}]
    racks += [{"player": p, "tiles": t} for p, t in zip(players[1:], loser_tiles, strict=True)]
    return racks


def enter_rummikub(game: Game, by, *loser_tiles: str, based_on: int = 0):
    players = seated(game)
    if not loser_tiles:
        loser_tiles = ("R4 B10 K2", "J 7", "O3")[: len(players) - 1]
    return result_submit(
        game=game,
        by=by,
        based_on=based_on,
        end="rummikub",
        winner=players[0],
        racks=rummikub_racks(game, *loser_tiles),
    )


def evening(alice, club, season, name, *, played=True, rated=True):
    """A tournament of 8 players held under the club, linked by name, one round played."""
    tournament = make_tournament(alice, name=name, players=8)
    tournament = tournament_hold_under(
        tournament=tournament, by=alice, club=club, season=season, rated=rated
    )
    players_link_matches(
        tournament=tournament, by=alice, player_ids=[p.pk for p, _ in name_matches(tournament)]
    )
    open_round(tournament, alice)
    if played:
        for game in Game.objects.filter(table__round__tournament=tournament):
            enter_rummikub(game, alice)
    standings_recompute(tournament_id=tournament.pk)
    return tournament
