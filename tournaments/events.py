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
* page generation — a random token in the shared cache per tournament (by slug) that
  moves when something its public pages show has changed: a standings snapshot whose
  rows differ from the last one shown (`standings_shown`), the tournament, its rounds
  (opened, cancelled, seats swapped, clock set), stages and divisions. A result alone
  moves nothing: it reaches the public pages through the snapshot it changes, so an
  unconfirmed version awaiting confirmation, or a penalty that leaves the table as it
  was, invalidates nothing. Rendered pages kept in the shared cache remember the token
  they were rendered at and are served only while it is still the current one
  (`config.page_cache`); anonymous readers' ETags are made from it
  (`games.views.caching`), so they answer 304 until a real change.
* coalescing — a change does not move the token itself: it writes the *next* token, and
  the first reader at least `PAGE_CACHE_COALESCE_SECONDS` (1 s) after the last move
  promotes it. A burst of results then moves a tournament's pages at most about once a
  second, and the last change of the burst is shown within that second (no timer: the
  readers promote it, and nothing needs promoting while nobody reads).
* running mark — a key in the shared cache saying "a recompute of this tournament is
  running", holding the id of the task that runs it (`recompute_begin`). A tournament's
  recomputes run one at a time: a second one that starts meanwhile (the next result's,
  on the worker's other process) does not compute the same table beside it — it is put
  back on the queue (`recompute_later`, `RETRY_SECONDS`) and keeps its pending mark, so a
  burst of results holds at most one recompute running and one waiting. Two at once
  each took about twice as long on a busy machine and the older one's table was
  superseded before it was shown; one after another, the last result is in the table
  at most two recomputes after it lands. A mark left by a worker killed mid-recompute is
  taken over by its own task's redelivery (the same task id), or expires after
  `RUNNING_SECONDS`.
* shown digest — a digest of the rows and ranking of the last standings snapshot stored,
  kept in the shared cache: a recompute that stores the same table (a new version, the
  same rows) moves no page.
"""

from __future__ import annotations

import logging
import secrets
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F
from django.db.models.signals import post_delete, post_save
from django.dispatch import Signal, receiver

from . import jobs
from .models import Round, Season, Tournament

logger = logging.getLogger(__name__)

# The Celery task names of `games.tasks` (the job is found by name, never imported here).
RECOMPUTE_TASK = "games.recompute_standings"
REPAIR_TASK = "games.repair_standings"
SEASON_TASK = "games.recompute_season"
RATINGS_TASK = "games.update_ratings"
WEBHOOK_TASK = "games.deliver_webhook"
WEBHOOK_REPAIR_TASK = "games.repair_webhooks"
# A burst of entries within this window is folded into one recompute.
COALESCE_SECONDS = 0.5
# A pending mark outlives a lost task by at most this long.
PENDING_SECONDS = 120
# A running mark outlives a killed recompute by at most this long: past Celery's hard
# time limit (`CELERY_TASK_TIME_LIMIT`, 90 s) the task is dead anyway.
RUNNING_SECONDS = 100
# A recompute that finds another one of its tournament running tries again this soon.
RETRY_SECONDS = 0.2


def results_changed(tournament: Tournament) -> None:
    """Count one more change that affects standings, in the caller's transaction, and
    recompute the standings once it commits.

    One statement (an UPDATE that answers the new version). It locks the tournament row
    until the commit, so the results of one tournament are counted in the order they
    commit; a result, which only shares the tournament's row lock until here, calls it
    last (`games.services.locks`)."""
    quote = connection.ops.quote_name
    table, field, key = Tournament._meta.db_table, "results_version", "id"  # the columns
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(table)} SET {quote(field)} = {quote(field)} + 1"
            f" WHERE {quote(key)} = %s RETURNING {quote(field)}",
            [tournament.pk],
        )
        row = cursor.fetchone()
    if row is not None:
        tournament.results_version = row[0]
    standings_changed(tournament)


def standings_changed(tournament: Tournament) -> None:
    """Recompute the standings once the current transaction commits.

    One transaction that changes many things (a CSV import, a seeded demo) enqueues one
    recompute, not one per change. The callbacks waiting for this commit are looked up on
    the connection, so a rolled-back change leaves nothing behind.
    """
    tournament_id = tournament.pk
    # No page moves here: the pages follow the snapshot this recompute stores
    # (`standings_shown`), and only if its table differs from the one shown.
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(
        getattr(func, "standings_of", None) == tournament_id
        for _, func, *_ in connection.run_on_commit
    ):
        return

    def enqueue() -> None:
        enqueue.standings_of = None  # type: ignore[attr-defined]  # done: count anew
        request_recompute(tournament_id)

    enqueue.standings_of = tournament_id  # type: ignore[attr-defined]
    transaction.on_commit(enqueue)


def page_generation_key(slug: str) -> str:
    return f"pages:{slug}:generation"


def _next_generation_key(slug: str) -> str:
    return f"pages:{slug}:next"


def _shown_key(slug: str) -> str:
    return f"pages:{slug}:shown"


def _token() -> str:
    return secrets.token_hex(6)


def page_generation(slug: str) -> str | None:
    """The current page generation of the tournament (a token), or None while the shared
    cache cannot be read (then nothing is kept). Promotes the next token when a change
    is waiting and the last move is at least `PAGE_CACHE_COALESCE_SECONDS` old: one
    round trip to the cache, two when it promotes."""
    current_key, next_key = page_generation_key(slug), _next_generation_key(slug)
    try:
        values = cache.get_many([current_key, next_key])
        current, upcoming = values.get(current_key), values.get(next_key)
        if current is None:
            # A first reader, or a cleared cache: a new token, free to move at once.
            cache.add(current_key, (upcoming or _token(), 0.0), timeout=None)
            current = cache.get(current_key) or (upcoming or _token(), 0.0)
        token, moved_at = current
        now = time.time()
        if (
            upcoming
            and upcoming != token
            and now - moved_at >= settings.PAGE_CACHE_COALESCE_SECONDS
        ):
            # Two readers may promote at once: the same token, so the same generation.
            cache.set(current_key, (upcoming, now), timeout=None)
            return upcoming
        return token
    except Exception:
        logger.warning("cache unreachable; pages of %s are not cached", slug)
        return None


# Sent after each page change counted here: the pages' cache of this process
# (`config.page_cache`) forgets the generation it read, so this process asks again.
page_generation_counted = Signal()


def _bump_generation(slug: str) -> None:
    page_generation_counted.send(sender=None, slug=slug)
    try:
        cache.set(_next_generation_key(slug), _token(), timeout=None)
    except Exception:
        logger.warning("cache unreachable; cached pages of %s live out their time", slug)


def pages_changed(slug: str) -> None:
    """Move the page generation once the current transaction commits (at once outside
    one), coalesced (see "coalescing" above). Each call counts: no callback of an
    earlier, perhaps never committed, block can swallow it."""
    transaction.on_commit(lambda: _bump_generation(slug))


def standings_shown(slug: str, digest: str) -> None:
    """A standings snapshot whose table has this digest is stored: once it commits, the
    pages move if the table differs from the last one stored (or if that is unknown)."""

    def compare() -> None:
        key = _shown_key(slug)
        try:
            if cache.get(key) == digest:
                return
            cache.set(key, digest, timeout=None)
        except Exception:
            logger.warning("cache unreachable; pages of %s moved regardless", slug)
        _bump_generation(slug)

    transaction.on_commit(compare)


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
    if jobs.mode() != jobs.BROKER:
        # In this process (no broker): inline at once (tests), or on the job thread after
        # the response, coalesced there by the same key (`tournaments.jobs`).
        return jobs.enqueue(task, arg, countdown=COALESCE_SECONDS, key=pending_key)
    try:
        if not cache.add(pending_key, 1, timeout=PENDING_SECONDS):
            return True
    except Exception:  # a cache outage must not lose the recompute: enqueue regardless
        logger.warning("cache unreachable; enqueueing %s(%s) anyway", task, arg)
    if not jobs.enqueue(task, arg, countdown=COALESCE_SECONDS):
        # The change is committed; only what follows from it is late. The periodic repair
        # or the next read brings it up to date.
        logger.warning("broker unreachable; %s(%s) stays stale", task, arg)
        clear_mark(pending_key)
        return False
    return True


def _running_key(tournament_id: int) -> str:
    return f"standings:running:{tournament_id}"


def recompute_begin(tournament_id: int, task_id: str | None) -> bool:
    """Take the tournament's running mark for the task `task_id` (see "running mark");
    False when another task holds it. Always True in this process's own modes (inline
    and thread: the thread runs one job at a time) and while the cache is unreachable
    (a recompute twice is harmless, one lost is not)."""
    if jobs.mode() != jobs.BROKER or not task_id:
        return True
    key = _running_key(tournament_id)
    try:
        return bool(cache.add(key, task_id, timeout=RUNNING_SECONDS)) or cache.get(key) == task_id
    except Exception:
        logger.warning("cache unreachable; recompute of %s runs unmarked", tournament_id)
        return True


def recompute_end(tournament_id: int, task_id: str | None) -> None:
    """Give the running mark back (only if it is still this task's)."""
    if jobs.mode() != jobs.BROKER or not task_id:
        return
    key = _running_key(tournament_id)
    try:
        if cache.get(key) == task_id:
            cache.delete(key)
    except Exception:
        logger.warning("cache unreachable; running mark of %s left to expire", tournament_id)


def recompute_later(tournament_id: int) -> bool:
    """Put the recompute back on the queue, to start once the running one is done; its
    pending mark stays, so the results landing meanwhile add nothing."""
    if jobs.enqueue(RECOMPUTE_TASK, tournament_id, countdown=RETRY_SECONDS):
        return True
    clear_pending(tournament_id)
    return False


def clear_pending(tournament_id: int) -> None:
    clear_mark(_pending_key(tournament_id))


def clear_mark(pending_key: str) -> None:
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


# Sent when a new standings snapshot of a tournament is stored (the circuits, a layer up,
# follow it: `circuits.signals`).
standings_stored = Signal()


def standings_followed(tournament_id: int) -> None:
    """A new standings snapshot of the tournament is stored: its season and, if it is
    rated, its club's ratings follow (and whoever listens to `standings_stored`)."""
    standings_stored.send(sender=None, tournament_id=tournament_id)
    row = Tournament.objects.filter(pk=tournament_id).values("season_id", "club_id", "rated")
    held = row.first()
    if held is None:
        return
    if held["season_id"] is not None:
        season_changed(held["season_id"])
    club_id = held["club_id"]
    if held["rated"] and club_id is not None:
        transaction.on_commit(lambda: _request(RATINGS_TASK, club_id, ratings_pending_key(club_id)))


# Saved or deleted tournaments and rounds (a round opened, cancelled, its seats swapped,
# its clock set) change what their pages show; results and players come through
# `results_changed` above.
@receiver([post_save, post_delete], sender=Tournament)
def _tournament_saved(sender: type, instance: Tournament, **kwargs: object) -> None:
    pages_changed(instance.slug)


@receiver([post_save, post_delete], sender=Round)
def _round_saved(sender: type, instance: Round, **kwargs: object) -> None:
    # The services hold the round's tournament already; a query only when they do not.
    if Round.tournament.is_cached(instance):
        pages_changed(instance.tournament.slug)
        return
    for slug in Tournament.objects.filter(pk=instance.tournament_id).values_list("slug")[:1]:
        pages_changed(slug[0])
