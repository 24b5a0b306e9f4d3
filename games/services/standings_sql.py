"""The standings' SQL: the confirmed racks of one tournament summed per series, per player
and per finishing place, in plain SQL that PostgreSQL and SQLite both run
(`games.services.standings` runs them and hands the rows to the pure `scoring.standings`).

Terms: a *series* is a player's confirmed games at one table, summed; a *rack* row is one
seat's confirmed line in one game, its game's sanction points taken off; *placed* rows are
the racks with their finishing places (`scoring.placement`: stored with each rack, placed
again here only in the games with a sanction); the *countback* reads per-game scores for
the tie-break of that name; *match* rows are the target-score matches' game lines
(`scoring.match`).
"""

from __future__ import annotations

from scoring.placement import DEFAULT_PLACEMENT_POINTS, PlacementTable

# One row per series: a player's confirmed games at one table, summed, with the table's
# round. A sanction takes its points off that player's score in that game, so sanctions are
# summed per (game, player) first and joined to the racks. The tournament's tables are
# picked before the racks are joined, so each rack is joined once (to its confirmed result
# and game) rather than to result, game, table and round in turn; the round is looked up
# per series, after the sum. Plain SQL that SQLite runs too; columns in SeriesLine's order.
# Each confirmed rack with its game's sanction points taken off, for this tournament's
# games only; both queries below sum these rows, one per series, one per player.
# The tournament's tables whose games count (their round before `before`, in the stage).
_TABLES = """
          SELECT tbl.id
          FROM games_table tbl
          JOIN tournaments_round rnd ON rnd.id = tbl.round_id
          WHERE rnd.tournament_id = %(tournament)s AND rnd.number < %(before)s
            AND (%(every_stage)s OR rnd.stage_id = %(stage)s
                 OR (%(first_stage)s AND rnd.stage_id IS NULL))
"""
_RACKS_OF = """
    FROM games_rackentry rack
    JOIN games_result result ON result.id = rack.result_id
    JOIN games_game game ON game.id = result.game_id
    LEFT JOIN (
        SELECT penalty.game_id, penalty.player_id, CAST(SUM(penalty.points) AS INTEGER) AS points
        FROM games_penalty penalty
        JOIN tournaments_player player ON player.id = penalty.player_id
        WHERE player.tournament_id = %(tournament)s
          AND penalty.kind = %(sanction)s AND NOT penalty.voided
        GROUP BY penalty.game_id, penalty.player_id
    ) sanction ON sanction.game_id = result.game_id AND sanction.player_id = rack.player_id
    WHERE result.status = %(confirmed)s
      {substitutes}
      AND game.table_id IN ({tables})
"""
_RACKS_OF = _RACKS_OF.replace("{tables}", _TABLES)
_RACKS = _RACKS_OF.format(substitutes="AND (rack.substitute = '' OR %(credit_substitutes)s)")
_SUMS = """
           COUNT(*) AS games,
           SUM(CASE WHEN rack.winner THEN 1 ELSE 0 END) AS won,
           SUM(CASE WHEN rack.winner AND result."end" = %(rummikub)s THEN 1 ELSE 0 END)
               AS rummikubs,
           SUM(rack.score - COALESCE(sanction.points, 0)) AS score,
           SUM(CASE WHEN rack.winner THEN 0 ELSE rack.charge END) AS charge,
           MAX(rack.score - COALESCE(sanction.points, 0)) AS best_game
"""
# Grouped by (player, table) and only then joined to the round: grouping by round and
# table directly made PostgreSQL sort all the racks instead of hashing them.
SERIES_SQL = f"""
SELECT series.player_id, rnd.number, series.table_id, series.games, series.won,
       series.rummikubs, series.score, series.charge, series.best_game
FROM (
    SELECT rack.player_id, game.table_id, {_SUMS}
    {_RACKS}
    GROUP BY rack.player_id, game.table_id
) series
JOIN games_table tbl ON tbl.id = series.table_id
JOIN tournaments_round rnd ON rnd.id = tbl.round_id
"""
TOTALS_SQL = f"""
SELECT rack.player_id, {_SUMS}
{_RACKS}
GROUP BY rack.player_id
"""
# The per-player sums with the two series metrics that are sums over the series too
# (`PlayerTotals` with `table_wins` and `opponents_score`), for a ranking that uses them but
# not head_to_head: the series are summed in the database and only one row per player comes
# back, instead of one per series for the engine to sum. A table is won by each player whose
# series score there is the table's highest; opponents' score adds, for each series, the
# played scores of everyone else at the table: the table's seated players' scores summed,
# less the player's own (the sum of the player's series), once per series. The series'
# sums are cast to whole numbers of the usual size (they are small), so that PostgreSQL
# sums them again as integers, not as numerics (the SUM of a bigint): the steps after the
# series took as long as summing the racks.
_SERIES_SUMS = ("games", "won", "rummikubs", "score", "charge", "best_game")
SERIES_TOTALS_SQL = f"""
WITH series AS (
    SELECT sums.player_id, sums.table_id,
           {", ".join(f"CAST(sums.{c} AS INTEGER) AS {c}" for c in _SERIES_SUMS)}
    FROM (
        SELECT rack.player_id, game.table_id, {_SUMS}
        {_RACKS}
        GROUP BY rack.player_id, game.table_id
    ) sums
), played AS (
    SELECT series.player_id, CAST(SUM(series.score) AS INTEGER) AS score
    FROM series
    GROUP BY series.player_id
), seated AS (
    SELECT series.table_id, MAX(series.score) AS top, CAST(SUM(played.score) AS INTEGER) AS score
    FROM series
    JOIN played ON played.player_id = series.player_id
    GROUP BY series.table_id
)
SELECT series.player_id, SUM(series.games), SUM(series.won), SUM(series.rummikubs),
       SUM(series.score), SUM(series.charge), MAX(series.best_game),
       SUM(CASE WHEN series.score = seated.top THEN 1 ELSE 0 END),
       SUM(seated.score) - COUNT(*) * SUM(series.score)
FROM series
JOIN seated ON seated.table_id = series.table_id
GROUP BY series.player_id
"""
# Each player's finishing places (placement points, `scoring.placement`), counted: per
# (player, table size, place, shared first place, won) the number of games. Each rack
# stores its finish (`RackEntry.place`, `place_shared`, `seats`: `scoring.placement.Finish`)
# by its result's scores, worked out by the engine when the result was stored; a sanction
# recorded afterwards can cost a loser a place, so the games with an unvoided sanction
# (few) are placed again here, the others read as stored, with no sort of the racks. The
# place is worked out over every rack of the result — a substitute's seat takes its place
# at the table too — and only then are the substitutes' racks left out (unless credited).
# A game placed again: its racks' sanction points looked up rack by rack (an index probe
# each: joining the tournament's sanctions summed made PostgreSQL, misjudging how few racks
# there were, scan them for every rack), then one window over its racks, ordered winners
# first (all equal), then losers by game score after sanction points, highest first,
# RANK() is the place (as
# `scoring.placement.finishing_places`: equal scores share the better place); the winners
# are not moved by sanctions, so whether place 1 is shared is as stored. Whether a loser's
# place is shared is not read (`shared` is false for a loser): it changes none of the
# loser's points, and a first place is a winner's alone. Window functions: SQLite 3.28+
# and PostgreSQL.
_GAME_SCORE = "rack.score - COALESCE(sanction.points, 0)"
# The games of the tournament with an unvoided sanction.
_SANCTIONED = """
    SELECT penalty.game_id
    FROM games_penalty penalty
    JOIN tournaments_player player ON player.id = penalty.player_id
    WHERE player.tournament_id = %(tournament)s
      AND penalty.kind = %(sanction)s AND NOT penalty.voided
"""
# `won`, `rummikub`: 1 or 0; `charge`: what a loser paid (0 for a winner).
_PAID = """CASE WHEN rack.winner THEN 1 ELSE 0 END AS won,
           CASE WHEN rack.winner AND result."end" = %(rummikub)s THEN 1 ELSE 0 END AS rummikub,
           CASE WHEN rack.winner THEN 0 ELSE rack.charge END AS charge"""
_PLACED = f"""
    SELECT rack.player_id, rack.winner, rack.substitute = '' AS own, {_PAID},
           rack.score, rack.seats, rack.place, rack.winner AND rack.place_shared AS shared
    FROM games_rackentry rack
    JOIN games_result result ON result.id = rack.result_id
    JOIN games_game game ON game.id = result.game_id
    WHERE result.status = %(confirmed)s
      AND game.table_id IN ({_TABLES})
      AND result.game_id NOT IN ({_SANCTIONED})
    UNION ALL
    SELECT sanctioned.player_id, sanctioned.winner, sanctioned.own, sanctioned.won,
           sanctioned.rummikub, sanctioned.charge, sanctioned.score, sanctioned.seats,
           RANK() OVER (
               PARTITION BY sanctioned.result_id
               ORDER BY CASE WHEN sanctioned.winner THEN 0 ELSE 1 END,
                        CASE WHEN sanctioned.winner THEN 0 ELSE sanctioned.score END DESC
           ) AS place, sanctioned.shared
    FROM (
        SELECT rack.result_id, rack.player_id, rack.winner, rack.substitute = '' AS own,
               {_PAID},
               rack.score - COALESCE((
                   SELECT CAST(SUM(penalty.points) AS INTEGER)
                   FROM games_penalty penalty
                   WHERE penalty.game_id = result.game_id
                     AND penalty.player_id = rack.player_id
                     AND penalty.kind = %(sanction)s AND NOT penalty.voided
               ), 0) AS score,
               rack.seats, rack.winner AND rack.place_shared AS shared
        FROM games_rackentry rack
        JOIN games_result result ON result.id = rack.result_id
        JOIN games_game game ON game.id = result.game_id
        WHERE result.status = %(confirmed)s
          AND game.table_id IN ({_TABLES})
          AND result.game_id IN ({_SANCTIONED})
    ) sanctioned
"""
_PLACE_KEY = "placed.seats, placed.place, placed.shared, placed.winner"
PLACES_SQL = f"""
SELECT placed.player_id, {_PLACE_KEY}, COUNT(*)
FROM ({_PLACED}) placed
WHERE placed.own OR %(credit_substitutes)s
GROUP BY placed.player_id, {_PLACE_KEY}
"""
# The per-player sums with placement points and first places beside them, in the same
# pass over the racks, for a ranking by placement without series metrics: one row per
# player, as `TOTALS_SQL`. The points of each rack's place are looked up here, by table
# size and place, in the tournament's placement table (`scoring.placement`, passed as
# parameters `points_<seats>_<place>`: `placement_points`); a first place is a winner's
# whose place 1 is not shared.
PLACEMENT_SIZES = sorted(DEFAULT_PLACEMENT_POINTS)
_POINTS = (
    "CASE placed.seats "
    + " ".join(
        f"WHEN {seats} THEN CASE placed.place "
        + " ".join(f"WHEN {place} THEN %(points_{seats}_{place})s" for place in range(1, seats + 1))
        + " END"
        for seats in PLACEMENT_SIZES
    )
    + " END"
)
PLACED_TOTALS_SQL = f"""
SELECT placed.player_id, COUNT(*), SUM(placed.won), SUM(placed.rummikub), SUM(placed.score),
       SUM(placed.charge), MAX(placed.score), SUM({_POINTS}),
       SUM(CASE WHEN placed.winner AND NOT placed.shared THEN 1 ELSE 0 END)
FROM ({_PLACED}) placed
WHERE placed.own OR %(credit_substitutes)s
GROUP BY placed.player_id
"""


def placement_points(table: PlacementTable) -> dict[str, int]:
    """`PLACED_TOTALS_SQL`'s parameters: the points of each place at each table size."""
    return {
        f"points_{seats}_{place}": table[seats][place - 1]
        for seats in PLACEMENT_SIZES
        for place in range(1, seats + 1)
    }


# Each player's three best single games (countback: second_best_game, third_best_game).
COUNTBACK_SQL = f"""
SELECT ranked.player_id, ranked.score
FROM (
    SELECT rack.player_id, {_GAME_SCORE} AS score,
           ROW_NUMBER() OVER (PARTITION BY rack.player_id ORDER BY {_GAME_SCORE} DESC) AS n
    {_RACKS}
) ranked
WHERE ranked.n <= 3
"""
# Every seat's line in every confirmed game, by table and game number: the target-score
# matches (`scoring.match`). A substitute's seat counts for the seat's match.
MATCH_SQL = f"""
SELECT game.table_id, game.number, rack.player_id, {_GAME_SCORE}, rack.winner, result."end"
{_RACKS_OF.format(substitutes="")}
"""
