"""Changes that the standings must follow, and asking a worker to follow them.

The standings job lives a layer up (`games.tasks`); this layer only knows its name, so
the services of every layer can announce a change without importing the job.

Terms:
* results version — `Tournament.results_version`, one more with every change that
  affects the standings (a result, a penalty, a player's name or status, the ranking),
  counted in the same transaction as the change.
* pending mark — a key in the shared cache saying "a recompute of this tournament is
  queued and has not started": a burst of results becomes few recomputes.
* followers — what is computed from a tournament's standings or games: its season's
  totals (`Season.version`) and, in a rated tournament, its club members' ratings. The
  standings job asks for them once it has stored a snapshot (`standings_followed`).
"""

from __future__ import annotations

import logging

from celery import current_app
from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from .models import Season, Tournament

logger = logging.getLogger(__name__)

# The Celery task names of `games.tasks` (the job is found by name, never imported here).
RECOMPUTE_TASK = "games.recompute_standings"
REPAIR_TASK = "games.repair_standings"
SEASON_TASK = "games.recompute_season"
RATINGS_TASK = "games.update_ratings"
# A burst of entries within this window is folded into one recompute.
COALESCE_SECONDS = 0.5
# A pending mark outlives a lost task by at most this long.
PENDING_SECONDS = 120


def results_changed(tournament: Tournament) -> None:
    """Count one more change that affects standings, in the caller's transaction, and
    recompute the standings once it commits."""
    Tournament.objects.filter(pk=tournament.pk).update(results_version=F("results_version") + 1)
    tournament.refresh_from_db(fields=["results_version"])
    standings_changed(tournament)


def standings_changed(tournament: Tournament) -> None:
    """Recompute the standings once the current transaction commits.

    One transaction that changes many things (a CSV import, a seeded demo) enqueues one
    recompute, not one per change. The callbacks waiting for this commit are looked up on
    the connection, so a rolled-back change leaves nothing behind.
    """
    tournament_id = tournament.pk
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(
        getattr(func, "standings_of", None) == tournament_id
        for _, func, *_ in connection.run_on_commit
    ):
        return

    def enqueue() -> None:
        request_recompute(tournament_id)

    enqueue.standings_of = tournament_id  # type: ignore[attr-defined]
    transaction.on_commit(enqueue)


def _pending_key(tournament_id: int) -> str:
    return f"standings:pending:{tournament_id}"


def request_recompute(tournament_id: int) -> bool:
    """Ask a worker to recompute; False when the broker could not be reached.

    A burst of results becomes few recomputes: while one recompute is queued and not yet
    started, further requests add nothing (a mark in the shared cache). The task clears
    the mark *before* it reads the version, so a change that lands after that read queues
    a new recompute and the standings always end at the final version.
    """
    return _request(RECOMPUTE_TASK, tournament_id, _pending_key(tournament_id))


def _request(task: str, arg: int, pending_key: str) -> bool:
    job = current_app.signature(task, args=(arg,))
    if current_app.conf.task_always_eager:
        # In-process (no broker): run it here. `apply`, not `apply_async`, which would ask
        # for a broker connection first and log "No hostname was supplied" every time.
        job.apply()
        return True
    try:
        if not cache.add(pending_key, 1, timeout=PENDING_SECONDS):
            return True
    except Exception:  # a cache outage must not lose the recompute: enqueue regardless
        logger.warning("cache unreachable; enqueueing %s(%s) anyway", task, arg)
    try:
        job.apply_async(countdown=COALESCE_SECONDS)
    except Exception:
        # The change is committed; only what follows from it is late. The periodic repair
        # or the next read brings it up to date.
        logger.warning("broker unreachable; %s(%s) stays stale", task, arg, exc_info=True)
        _clear(pending_key)
        return False
    return True


def clear_pending(tournament_id: int) -> None:
    _clear(_pending_key(tournament_id))


def _clear(pending_key: str) -> None:
    try:
        cache.delete(pending_key)
    except Exception:
        logger.warning("cache unreachable; pending mark %s not cleared", pending_key)


def season_pending_key(season_id: int) -> str:
    return f"season:pending:{season_id}"


def ratings_pending_key(club_id: int) -> str:
    return f"ratings:pending:{club_id}"


def season_changed(season_id: int) -> None:
    """Count one more change of the season's tournaments' standings and recompute its
    totals once the current transaction commits."""
    Season.objects.filter(pk=season_id).update(version=F("version") + 1)
    transaction.on_commit(lambda: _request(SEASON_TASK, season_id, season_pending_key(season_id)))


def standings_followed(tournament_id: int) -> None:
    """A new standings snapshot of the tournament is stored: its season and, if it is
    rated, its club's ratings follow."""
    row = Tournament.objects.filter(pk=tournament_id).values("season_id", "club_id", "rated")
    held = row.first()
    if held is None:
        return
    if held["season_id"] is not None:
        season_changed(held["season_id"])
    club_id = held["club_id"]
    if held["rated"] and club_id is not None:
        transaction.on_commit(lambda: _request(RATINGS_TASK, club_id, ratings_pending_key(club_id)))
