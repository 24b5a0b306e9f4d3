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

from dataclasses import dataclass

from django.db import connection, transaction

from scoring.ratings import Rating, rate_game
from tournaments.models import Member, Player, Round, Tournament

from ..models import Game, Penalty, RackEntry, RatingChange, Result, Table

_CHANGES = RatingChange._meta.db_table
INSERT_CHANGES = f"""
INSERT INTO {_CHANGES} (member_id, game_id, result_id, position, score, mu, sigma)
VALUES (%s, %s, %s, %s, %s, %s, %s)
"""
# PostgreSQL: every row in one statement, as arrays (a club's full recompute writes a row
# per member and game: 12,800 for 200 evenings, which `executemany` sent as 12,800
# statements). Floats travel as their shortest repr, so the stored doubles are exact.
INSERT_CHANGES_UNNEST = f"""
INSERT INTO {_CHANGES} (member_id, game_id, result_id, position, score, mu, sigma)
SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::int[], %s::int[],
                     %s::float8[], %s::float8[])
"""
# The rated racks in club order, each score after the player's unvoided sanction points
# in that game. One plain query: the ORM's per-rack correlated subquery and its row
# building cost more than the read itself.
RATED_RACKS = f"""
SELECT g.id, res.id, p.member_id, r.score - COALESCE(s.total, 0)
FROM {RackEntry._meta.db_table} r
JOIN {Result._meta.db_table} res ON res.id = r.result_id AND res.status = %s
JOIN {Game._meta.db_table} g ON g.id = res.game_id
JOIN {Table._meta.db_table} t ON t.id = g.table_id
JOIN {Round._meta.db_table} rd ON rd.id = t.round_id
JOIN {Tournament._meta.db_table} tt ON tt.id = rd.tournament_id
JOIN {Player._meta.db_table} p ON p.id = r.player_id
LEFT JOIN (
    SELECT pe.game_id, pe.player_id, SUM(pe.points) AS total
    FROM {Penalty._meta.db_table} pe
    WHERE pe.kind = %s AND NOT pe.voided
    GROUP BY pe.game_id, pe.player_id
) s ON s.game_id = g.id AND s.player_id = r.player_id
WHERE tt.club_id = %s AND tt.rated AND p.member_id IS NOT NULL
ORDER BY tt.starts_on, tt.id, rd.number, t.number, g.number, p.member_id
"""


@dataclass(frozen=True)
class RatedGame:
    position: int
    game: int
    result: int
    scores: dict[int, int]  # member -> game score after sanction points


def _rack_rows(club_id: int) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(RATED_RACKS, [Result.Status.CONFIRMED, Penalty.Kind.SANCTION, club_id])
        return cursor.fetchall()


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


# One stored rating change: (id, game, result, position, member, score, mu, sigma).
StoredChange = tuple[int, int, int, int, int, int, float, float]
# A change to store: (member, game, result, position, score, mu, sigma).
NewChange = tuple[int, int, int, int, int, float, float]
DELETE_BATCH = 10_000


def _stored_changes(club_id: int) -> list[StoredChange]:
    """The club's stored rating changes in club order: one query, read once for the first
    difference, the ratings before it and the rows to keep."""
    return list(
        RatingChange.objects.filter(member__club_id=club_id)
        .order_by("position", "member_id")
        .values_list("id", "game_id", "result_id", "position", "member_id", "score", "mu", "sigma")
    )


def _first_difference(stored_changes: list[StoredChange], games: list[RatedGame]) -> int:
    """The position of the first game whose stored changes are not what rating it now
    would read: another result, position or score (a sanction recorded since)."""
    stored: dict[int, tuple[int, int, dict[int, int]]] = {}
    for _id, game_id, result_id, position, member, score, _mu, _sigma in stored_changes:
        stored.setdefault(game_id, (result_id, position, {}))[2][member] = score
    for game in games:
        if stored.pop(game.game, None) != (game.result, game.position, game.scores):
            return game.position
    # Every current game matches; a stored game no longer rated (a result unconfirmed, a
    # tournament no longer rated) sits after them all, or nothing changed at all.
    return len(games) if not stored else min(position for _, position, _ in stored.values())


def _ratings_before(stored_changes: list[StoredChange], start: int) -> dict[int, Rating]:
    """Each member's rating after their last stored change before position `start`."""
    ratings: dict[int, Rating] = {}
    for _id, _game, _result, position, member, _score, mu, sigma in stored_changes:
        if position >= start:
            break
        ratings[member] = Rating(mu, sigma)
    return ratings


def _write_changes(stored_changes: list[StoredChange], start: int, rows: list[NewChange]) -> None:
    """Make the stored changes from position `start` on equal `rows`, touching only the
    rows that differ: a recompute that finds the same numbers (every game before a
    correction's, a full recompute of an unchanged history) writes nothing, and a new game
    inserts its own rows in one statement."""
    kept = {(c[4], c[1]): c for c in stored_changes if c[3] >= start}  # (member, game)
    fresh: list[NewChange] = []
    for row in rows:
        member, game, result, position, score, mu, sigma = row
        old = kept.get((member, game))
        if old is not None and old[2:4] + old[5:] == (result, position, score, mu, sigma):
            del kept[(member, game)]
        else:
            fresh.append(row)
    # What is left of `kept` is stale or rewritten: gone before the inserts (one change per
    # member and game is a constraint).
    stale = [change[0] for change in kept.values()]
    for i in range(0, len(stale), DELETE_BATCH):
        RatingChange.objects.filter(pk__in=stale[i : i + DELETE_BATCH]).delete()
    if not fresh:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            columns = [list(column) for column in zip(*fresh, strict=True)]
            cursor.execute(INSERT_CHANGES_UNNEST, columns)
        else:
            cursor.executemany(INSERT_CHANGES, fresh)


@transaction.atomic
def ratings_update(*, club_id: int, from_scratch: bool = False) -> int:
    """Rate the club's games from the first one that changed (or from the first of all);
    returns how many games were rated now. Locks the club's members' row set so two
    workers never interleave.

    Two reads whatever the history's length (the rated racks, the stored changes); after
    one new game it rates that game alone and writes its rows in one statement; a full
    recompute rates every game and writes only the changes that came out different."""
    list(Member.objects.select_for_update().filter(club_id=club_id).values_list("pk"))
    games = rated_games(club_id)
    stored_changes = _stored_changes(club_id)
    start = 0 if from_scratch else _first_difference(stored_changes, games)
    ratings = _ratings_before(stored_changes, start)
    rows: list[NewChange] = []
    for game in games[start:]:
        new = rate_game(ratings, game.scores)
        ratings.update(new)
        rows.extend(
            (member, game.game, game.result, game.position, game.scores[member], r.mu, r.sigma)
            for member, r in new.items()
        )
    _write_changes(stored_changes, start, rows)
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
