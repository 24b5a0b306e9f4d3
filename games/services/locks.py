"""Row locks that writes take, always in one order: the tournament row first, then the
game. Two writes that touch the same tournament (a result and a seat swap, a rules change
and a first result, two "open round" clicks) therefore queue behind one another instead
of each holding a lock the other waits for (a deadlock).

Locks last until the surrounding transaction ends; every caller is `transaction.atomic`.
Every write that locks or changes a row of a tournament takes this order, including those
of the layer below, which lock the tournament row themselves (`tournament_update`,
`tournament_delete`, `player_register`, `player_update`); a penalty is locked after its
game. Should PostgreSQL still give a transaction up (deadlock, serialization failure),
nothing was saved and the user is told to try again (409, `config.api.conflict_message`);
it is not retried behind their back.

On SQLite (the club laptop) `select_for_update` is ignored: there every transaction
begins with `BEGIN IMMEDIATE`, taking the database's one write lock before it reads
(config/settings.py, DATABASES), so writes queue whole, one after another, waiting up to
the busy timeout; the order above then costs nothing and cannot deadlock.
"""

from __future__ import annotations

from tournaments.models import Tournament

from ..models import Game


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """The tournament row, locked and freshly read."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)


def lock_game(game: Game | int) -> Game:
    """The game row, locked after its tournament's row; related rows read with it."""
    pk = game.pk if isinstance(game, Game) else game
    tournament_id = (
        Game.objects.filter(pk=pk).values_list("table__round__tournament_id", flat=True).get()
    )
    tournament = lock_tournament(tournament_id)
    locked = Game.objects.select_for_update(of=("self",)).select_related("table__round").get(pk=pk)
    # The locked, freshly read tournament, not a second unlocked copy of it.
    locked.table.round.tournament = tournament
    return locked
