"""Builders for result payloads in tests."""

from __future__ import annotations

from games.models import Game
from games.services.results import result_submit


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
