"""Row locks that writes take, always in one order: the tournament row first, then the
table, then the game (then a penalty of the game).

Terms
-----
tournament-level write
    A write that changes what every result of the tournament depends on: its rules or
    status, a round opened, undone or re-seated, a seat swapped, a player withdrawn or
    edited, a stage or division changed, the tournament finished or deleted. It locks the
    tournament row ``FOR UPDATE`` (`lock_tournament`), so it waits for every open
    table-level write of the tournament and every one of those waits for it.
table-level write
    A write about one game: a result entered or confirmed, a penalty recorded or voided,
    an extension, a game forfeited (`lock_game`). It locks the tournament row only
    ``FOR KEY SHARE`` on PostgreSQL, then its table's row ``FOR NO KEY UPDATE`` and the
    game's ``FOR UPDATE``. Table-level writes at different tables of one tournament
    therefore run side by side; two at the same table (two games of a match, a penalty
    and a result) queue at the table's row, since a match table's games depend on each
    other (`games.services.matches`).

Why these modes (PostgreSQL's row-lock conflict table): ``FOR KEY SHARE`` conflicts with
``FOR UPDATE`` only, so tournament-level writes and table-level ones exclude each other,
while table-level writes neither wait for each other's tournament lock nor for one
another's UPDATE of the tournament's own columns: a table-level write counts the change
in `Tournament.results_version` and sets `Tournament.first_result_at` (the first time) with
a plain UPDATE, which locks the row ``FOR NO KEY UPDATE`` — compatible with ``FOR KEY
SHARE``. ``FOR SHARE`` would not do: two result writers each holding it could not both
UPDATE the row (each would wait for the other's share: a deadlock). The UPDATE queues
table-level writes behind one another from that statement to their commit, so it comes
last in each of them (`tournaments.events.results_changed`); nothing else of theirs
writes a row that another table's write touches (webhook deliveries and the standings
recompute are made once the transaction commits). A tournament-level write must lock
with ``FOR UPDATE`` (as `lock_tournament` does) before it changes the tournament: a
plain UPDATE, or ``FOR NO KEY UPDATE``, would not wait for an open result. A
tournament-level write waiting for the results in flight may be overtaken by results
that start meanwhile (PostgreSQL grants a compatible row lock at once); in a burst it
waits until the results in flight at one moment have all committed.

Locks last until the surrounding transaction ends; every caller is `transaction.atomic`.
Every write that locks or changes a row of a tournament takes this order, including those
of the layer below, which lock the tournament row themselves (`tournament_update`,
`tournament_delete`, `player_register`, `player_update`). Should PostgreSQL still give a
transaction up (deadlock, serialization failure), nothing was saved and the user is told
to try again (409, `config.api.conflict_message`); it is not retried behind their back.

On SQLite (the club laptop) row locks do not exist (`select_for_update` is ignored, and
the ``FOR KEY SHARE`` clause is only added on PostgreSQL): there every transaction begins
with `BEGIN IMMEDIATE`, taking the database's one write lock before it reads
(config/settings.py, DATABASES), so writes queue whole, one after another, waiting up to
the busy timeout; the order above then costs nothing and cannot deadlock.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.db.models import Subquery

from tournaments.models import Tournament

from ..models import Game, Table


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """The tournament row, locked FOR UPDATE and freshly read (a tournament-level write)."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)


def _share_tournament_of(game_pk: int) -> Tournament:
    """The game's tournament row, freshly read, locked FOR KEY SHARE on PostgreSQL (one
    statement: the game's own rows are read, not locked, by the subquery)."""
    # No ordering: a model's default one would join (and lock) more rows.
    tournament_id = Game.objects.filter(pk=game_pk).order_by().values("table__round__tournament_id")
    query = Tournament.objects.filter(pk=Subquery(tournament_id)).order_by().query
    sql, params = query.sql_with_params()
    if connection.vendor == "postgresql":
        sql += " FOR KEY SHARE"
    found = list(Tournament.objects.raw(sql, params))
    if not found:
        raise Game.DoesNotExist("Game matching query does not exist.")
    return found[0]


def lock_game(game: Game | int) -> Game:
    """The game row for a table-level write: its tournament's row shared, its table's and
    its own locked, in that order; the game, its table, round and tournament read fresh."""
    pk = game.pk if isinstance(game, Game) else game
    tournament = _share_tournament_of(pk)
    # Its own statement, after the tournament's: the table is locked only once no
    # tournament-level write holds the tournament (the lock order).
    list(
        Table.objects.select_for_update(no_key=True, of=("self",))
        .filter(pk=Subquery(Game.objects.filter(pk=pk).order_by().values("table_id")))
        .order_by()
        .values_list("pk")
    )
    locked = Game.objects.select_for_update(of=("self",)).select_related("table__round").get(pk=pk)
    # The freshly read tournament, not a second copy of it.
    locked.table.round.tournament = tournament
    return locked


def mark_first_result(tournament: Tournament, now: datetime) -> None:
    """A table-level write stored the tournament's first result (`first_result_at`): from
    then on the rules are frozen. The caller read it unset under the shared tournament
    lock; a tournament-level write, which reads it, waits for this transaction. Two first
    results at once both read it unset: the one that updates second waits for the first
    to commit, then finds it set (the filter is read again) and leaves the earlier
    moment. Nothing ever clears it."""
    Tournament.objects.filter(pk=tournament.pk, first_result_at__isnull=True).update(
        first_result_at=now
    )
    tournament.first_result_at = now
