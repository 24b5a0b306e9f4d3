"""Celery tasks: thin shells that call one service with ids.

Database hiccups (a restarted PostgreSQL, a dropped connection) are retried with growing,
jittered delays; the recompute is idempotent, so running it twice is harmless.
"""

from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction

from tournaments.events import (
    RATINGS_TASK,
    RECOMPUTE_TASK,
    REPAIR_TASK,
    SEASON_TASK,
    WEBHOOK_REPAIR_TASK,
    WEBHOOK_TASK,
    clear_mark,
    clear_pending,
    ratings_pending_key,
    recompute_begin,
    recompute_end,
    recompute_later,
    season_pending_key,
    standings_followed,
)
from tournaments.services.webhook_deliveries import (
    retry_delay,
    webhook_deliver,
    webhook_deliver_in_process,
    webhooks_repair,
)

from .models import Standings
from .services.export_jobs import IMPORT_TASK, event_file_import_run
from .services.ratings import ratings_update
from .services.seasons import season_recompute
from .services.standings import (
    standings_announce,
    standings_prune,
    standings_recompute,
    standings_repair,
)

DATABASE_ERRORS = (OperationalError, InterfaceError)
# The recomputes (standings, seasons, ratings) are idempotent: retried on database hiccups
# with growing, jittered delays.
RECOMPUTE_RETRIES = {
    "autoretry_for": DATABASE_ERRORS,
    "retry_backoff": 1,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}


@shared_task(name=RECOMPUTE_TASK, bind=True, **RECOMPUTE_RETRIES)
def recompute_standings(self: Any, tournament_id: int) -> int | None:
    # One recompute of a tournament at a time (tournaments.events, "running mark"): this
    # one waits its turn on the queue, still pending.
    task_id = self.request.id
    if not recompute_begin(tournament_id, task_id):
        recompute_later(tournament_id)
        return None
    try:
        # Cleared before the version is read: a change committed after this point asks
        # for a new recompute instead of being folded into this one.
        clear_pending(tournament_id)
        snapshot = recompute_in_one_snapshot(tournament_id)
        if snapshot is None:
            return None
        standings_prune(tournament_id=tournament_id)
        standings_followed(tournament_id)
        standings_announce(snapshot)
        return snapshot.computed_version
    finally:
        recompute_end(tournament_id, task_id)


def recompute_in_one_snapshot(tournament_id: int) -> Standings | None:
    """`standings_recompute`, its reads in one snapshot of the database on PostgreSQL.

    It reads the results version, then the results, each in its own statement; a result
    committed between them was counted in a table labelled with the version before it,
    and the next recompute, which stores the same table, moved no page
    (`tournaments.events.standings_shown`): the public pages showed that older version
    (and "updating…") until the next change. It struck bench.final_day's burst before
    results at different tables committed side by side (`games.services.locks`), and
    since. One REPEATABLE READ transaction reads the version and the results as of one
    moment. Not on SQLite, whose every transaction takes the one write lock
    (config/settings.py): the club laptop's recompute reads as before; nor inside a
    transaction already open (a test's), whose snapshot is not this one's to choose.

    The running mark keeps a tournament's recomputes one at a time; should two store the
    same version at once all the same, the second's insert is a serialization failure
    under REPEATABLE READ, and the task retries it like any database hiccup."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return standings_recompute(tournament_id=tournament_id)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return standings_recompute(tournament_id=tournament_id)


@shared_task(
    name=REPAIR_TASK,
    autoretry_for=DATABASE_ERRORS,
    retry_backoff=5,
    retry_backoff_max=120,
    max_retries=3,
)
def repair_standings() -> list[int]:
    return standings_repair()


@shared_task(name=SEASON_TASK, **RECOMPUTE_RETRIES)
def recompute_season(season_id: int) -> int | None:
    clear_mark(season_pending_key(season_id))
    snapshot = season_recompute(season_id=season_id)
    return None if snapshot is None else snapshot.computed_version


@shared_task(name=RATINGS_TASK, **RECOMPUTE_RETRIES)
def update_ratings(club_id: int) -> int:
    clear_mark(ratings_pending_key(club_id))
    return ratings_update(club_id=club_id)


@shared_task(
    name=WEBHOOK_TASK,
    bind=True,
    autoretry_for=DATABASE_ERRORS,
    retry_backoff=1,
    retry_backoff_max=60,
    max_retries=8,
)
def deliver_webhook(self: Any, delivery_id: int) -> str:
    """One attempt; a failed one comes back after `retry_delay` until the attempts run
    out (counted on the delivery row, so a redelivered task does not start over). In
    process (no broker) the service queues its own retries (`tournaments.jobs`)."""
    if self.request.is_eager:
        return webhook_deliver_in_process(delivery_id=delivery_id)
    status = webhook_deliver(delivery_id=delivery_id)
    if status == "pending":
        # The attempts are counted on the row; this bound only stops a runaway task (what
        # is left pending then is the periodic repair's).
        attempts = self.request.retries + 1
        raise self.retry(countdown=retry_delay(attempts), max_retries=settings.WEBHOOK_ATTEMPTS + 8)
    return status


@shared_task(name=WEBHOOK_REPAIR_TASK, autoretry_for=DATABASE_ERRORS, max_retries=3)
def repair_webhooks() -> list[int]:
    return webhooks_repair()


@shared_task(name=IMPORT_TASK)
def import_event_file(job_id: int) -> str | None:
    # Not retried: an import is one transaction, and a second try after a hiccup would
    # meet the slug the first one may have taken.
    return event_file_import_run(job_id)
