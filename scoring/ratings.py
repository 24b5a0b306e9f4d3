"""Ratings across tournaments: a multiplayer skill rating per member. Pure Python;
the arithmetic is the ``openskill`` package's.

Terms
-----
rating
    A member's estimated skill as a normal distribution: ``mu`` (the estimate) and
    ``sigma`` (how unsure it is). A new member starts at mu 25, sigma 25/3.
finishing order
    The places at the table in one game, from the game scores (``stages.places``): the
    winner first, tied scores sharing a place. That order is all a game tells the rating.
shown rating
    The number people read: ``1000 + 40 * (mu - 3 * sigma)``, the conservative estimate
    (the skill the member has with ~99.9 % confidence) on a familiar scale; a new member
    shows 1000 and climbs as games make the estimate surer.

Why Plackett-Luce (openskill's ``PlackettLuce``)
-----------------------------------------------
Elo rates pairs; a Rummikub game is one result among 2-4 players. Plackett-Luce models
a whole finishing order at once (the probability that this player finished first, then
that one second among the rest, ...), handles ties, and needs no fixed number of players
per game — tables of 2, 3 and 4 are rated by one rule. It is the model openskill
recommends for free-for-all games, and it is fast (a 4-player game is a few microseconds).

Determinism
-----------
A game's update reads only the ratings before it, and games are applied in a fixed order
(the caller's: tournament date, round, table, game number). Recomputing every game from
the start performs the same float operations in the same order as updating game by game,
so the numbers are identical, not merely close — a stored rating (a double in the
database) round-trips exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from scoring.stages import places

_MODEL = PlackettLuce()
START_MU = _MODEL.mu
START_SIGMA = _MODEL.sigma


@dataclass(frozen=True)
class Rating:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def shown(self) -> int:
        return round(1000 + 40 * (self.mu - 3 * self.sigma))


NEW = Rating()


def rate_game(ratings: Mapping[int, Rating], scores: Mapping[int, int]) -> dict[int, Rating]:
    """The new ratings of the players of one game (``scores``: member -> game score).

    Members absent from ``ratings`` start as ``NEW``. Returns only the game's players.
    """
    if len(scores) < 2:
        raise ValueError("a rated game has at least 2 players")
    members = sorted(scores)
    placed = places(scores)
    teams = [[_MODEL.rating(*_pair(ratings.get(m, NEW)))] for m in members]
    rated = _MODEL.rate(teams, ranks=[placed[m] for m in members])
    return {m: Rating(team[0].mu, team[0].sigma) for m, team in zip(members, rated, strict=True)}


def _pair(rating: Rating) -> tuple[float, float]:
    return rating.mu, rating.sigma


def rate_games(
    games: Iterable[Mapping[int, int]], start: Mapping[int, Rating] | None = None
) -> dict[int, Rating]:
    """Every member's rating after ``games`` (in order), from ``start`` (default: all new)."""
    ratings = dict(start or {})
    for scores in games:
        ratings.update(rate_game(ratings, scores))
    return ratings
