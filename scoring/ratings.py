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
recommends for free-for-all games.

Why the update is written out here
----------------------------------
``rate_game`` performs openskill's ``PlackettLuce().rate`` for teams of one player with
its default parameters — the same float operations in the same order, so the same bits
(a test compares them on random games with ties) — without the library's per-call
overhead: since openskill 6 every rating object draws a ``uuid4`` and ``rate`` deep-copies
its teams, which made 3,200 games cost 400-700 ms instead of about 30 (and a full
recompute of a club's history 2.3 s instead of a few hundred ms).

Determinism
-----------
A game's update reads only the ratings before it, and games are applied in a fixed order
(the caller's: tournament date, round, table, game number). Recomputing every game from
the start performs the same float operations in the same order as updating game by game,
so the numbers are identical, not merely close — a stored rating (a double in the
database) round-trips exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.stages import places

# openskill's PlackettLuce defaults.
START_MU = 25.0
START_SIGMA = 25.0 / 3.0
_BETA_SQUARED = (25.0 / 6.0) ** 2
_KAPPA = 0.0001
_TAU_SQUARED = (25.0 / 300.0) * (25.0 / 300.0)


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
    placed = places(scores)
    # openskill sorts the teams by place, stably, from the members in id order.
    members = sorted(sorted(scores), key=placed.__getitem__)
    ranks = [placed[m] for m in members]
    mus: list[float] = []
    sigmas: list[float] = []
    c_squared = 0.0
    for m in members:
        rating = ratings.get(m, NEW)
        mus.append(rating.mu)
        # Additive dynamics (tau): every game makes the estimate a little less sure first.
        sigmas.append(math.sqrt(rating.sigma * rating.sigma + _TAU_SQUARED))
        c_squared += sigmas[-1] ** 2 + _BETA_SQUARED
    c = math.sqrt(c_squared)
    exps = [math.exp(mu / c) for mu in mus]
    # sum_q[q]: exp(mu / c) summed over the players placed at q's place or after it.
    sum_q = [0.0] * len(members)
    for i, rank_i in enumerate(ranks):
        for q, rank_q in enumerate(ranks):
            if rank_i >= rank_q:
                sum_q[q] += exps[i]
    tied = [ranks.count(rank) for rank in ranks]
    new: dict[int, Rating] = {}
    for i, m in enumerate(members):
        omega = delta = 0.0
        for q, rank_q in enumerate(ranks):
            if rank_q <= ranks[i]:
                share = exps[i] / sum_q[q]
                delta += share * (1 - share) / tied[q]
                if q == i:
                    omega += (1 - share) / tied[q]
                else:
                    omega -= share / tied[q]
        variance = sigmas[i] ** 2
        omega *= variance / c
        delta *= variance / c**2
        delta *= math.sqrt(variance) / c  # openskill's default gamma
        new[m] = Rating(mus[i] + omega, sigmas[i] * math.sqrt(max(1 - delta, _KAPPA)))
    return new


def rate_games(
    games: Iterable[Mapping[int, int]], start: Mapping[int, Rating] | None = None
) -> dict[int, Rating]:
    """Every member's rating after ``games`` (in order), from ``start`` (default: all new)."""
    ratings = dict(start or {})
    for scores in games:
        ratings.update(rate_game(ratings, scores))
    return ratings
