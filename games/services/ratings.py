"""Club members' ratings from the confirmed games of the club's rated tournaments
(`scoring.ratings`), kept as one `RatingChange` per member and game.

Terms (see `games.models` and `scoring.ratings`): rating, rating change, position.

* rated game — a game of a rated tournament of the club with a confirmed result in which
  at least two players are linked to members. **Decision:** a game is rated among its
  members only, in the order of their game scores; players not linked to a member do not
  take part (they have no rating to carry from one event to the next).
* club order — the club's rated games by tournament date (then tournament id), round,
  table and game number; `position` is the index in that order.
* update — the job after a result: it finds the first game whose stored changes do not
  match the current confirmed result or position (usually the newest game, so it rates one
  game), drops the changes from there on and rates again from there. A recompute drops
  them all and rates from the first game; both give the same numbers (`scoring.ratings`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connection, transaction

from scoring.ratings import Rating, rate_game
from tournaments.models import Member

from ..models import RackEntry, RatingChange, Result

INSERT_CHANGE = f"""
INSERT INTO {RatingChange._meta.db_table}
    (member_id, game_id, result_id, position, score, mu, sigma)
VALUES (%s, %s, %s, %s, %s, %s, %s)
"""


@dataclass(frozen=True)
class RatedGame:
    position: int
    game: int
    result: int
    scores: dict[int, int]  # member -> game score after sanction points


def _rack_rows(club_id: int) -> Iterator[tuple]:
    confirmed = RackEntry.objects.scored().filter(
        result__status=Result.Status.CONFIRMED,
        result__game__table__round__tournament__club_id=club_id,
        result__game__table__round__tournament__rated=True,
        player__member__isnull=False,
    )
    return (
        confirmed.order_by(
            "result__game__table__round__tournament__starts_on",
            "result__game__table__round__tournament_id",
            "result__game__table__round__number",
            "result__game__table__number",
            "result__game__number",
            "player__member_id",
        )
        .values_list("result__game_id", "result_id", "player__member_id", "net_score")
        .iterator()
    )


def rated_games(club_id: int) -> list[RatedGame]:
    """The club's rated games in club order, with each member's game score."""
    games: list[RatedGame] = []
    current: tuple[int, int] | None = None
    scores: dict[int, int] = {}
    for game_id, result_id, member_id, score in _rack_rows(club_id):
        if current != (game_id, result_id):
            if current is not None and len(scores) >= 2:
                games.append(RatedGame(len(games), current[0], current[1], scores))
            current, scores = (game_id, result_id), {}
        scores[member_id] = score
    if current is not None and len(scores) >= 2:
        games.append(RatedGame(len(games), current[0], current[1], scores))
    return games


def _first_difference(club_id: int, games: list[RatedGame]) -> int:
    """The position of the first game whose stored changes are not what rating it now
    would read: another result, position or score (a sanction recorded since)."""
    stored: dict[int, tuple[int, int, dict[int, int]]] = {}
    for game_id, result_id, position, member, score in RatingChange.objects.filter(
        member__club_id=club_id
    ).values_list("game_id", "result_id", "position", "member_id", "score"):
        stored.setdefault(game_id, (result_id, position, {}))[2][member] = score
    for game in games:
        if stored.pop(game.game, None) != (game.result, game.position, game.scores):
            return game.position
    # Every current game matches; a stored game no longer rated (a result unconfirmed, a
    # tournament no longer rated) sits after them all, or nothing changed at all.
    return len(games) if not stored else min(position for _, position, _ in stored.values())


@transaction.atomic
def ratings_update(*, club_id: int, from_scratch: bool = False) -> int:
    """Rate the club's games from the first one that changed (or from the first of all);
    returns how many games were rated now. Locks the club's members' row set so two
    workers never interleave."""
    list(Member.objects.select_for_update().filter(club_id=club_id).values_list("pk"))
    games = rated_games(club_id)
    start = 0 if from_scratch else _first_difference(club_id, games)
    RatingChange.objects.filter(member__club_id=club_id, position__gte=start).delete()
    ratings = current_ratings(club_id)
    # (member, game, result, position, score, mu, sigma): INSERT_CHANGE's parameters.
    rows: list[tuple[int, int, int, int, int, float, float]] = []
    for game in games[start:]:
        new = rate_game(ratings, game.scores)
        ratings.update(new)
        rows.extend(
            (member, game.game, game.result, game.position, game.scores[member], r.mu, r.sigma)
            for member, r in new.items()
        )
    # Plain parameter rows, not model instances: a full recompute writes a row per member
    # and game (12,800 for 200 evenings), and the ORM's per-value preparation of
    # `bulk_create` took 2 of its 3.5 seconds.
    with connection.cursor() as cursor:
        cursor.executemany(INSERT_CHANGE, rows)
    return len(games) - start


def current_ratings(club_id: int) -> dict[int, Rating]:
    """Each rated member's newest rating."""
    ratings: dict[int, Rating] = {}
    for member, mu, sigma in (
        RatingChange.objects.filter(member__club_id=club_id)
        .order_by("position")
        .values_list("member_id", "mu", "sigma")
    ):
        ratings[member] = Rating(mu, sigma)
    return ratings
