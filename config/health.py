"""`GET /health/`: can this instance serve, and are the standings keeping up?

For load balancers and monitoring: JSON, no authentication, no throttling (a plain Django
view, not the API), no session, no secrets (states only, never addresses or messages).

* database — a `SELECT 1`.
* cache — a write and a read on the shared cache (Redis), bypassing the per-process
  stand-in that the throttles fall back to.
* broker — a connection to the Celery broker, when one is configured ("not configured"
  when jobs run in-process).
* stale standings — tournaments whose newest snapshot is behind their `results_version`,
  and for how long the oldest of them has been: since the first change after its snapshot
  (each such change is saved with a history record and its time), not since the snapshot
  itself — a day-old snapshot of a quiet league is not "a day stale" the moment a result
  comes in. Without any such record the snapshot's time is used instead.

Status: 503 "failing" when the database is down or standings have been stale for longer
than `HEALTH_STALE_SECONDS` (no worker is catching up); 200 "degraded" when only the cache
or the broker is down, since the site keeps working then (throttles count per process,
standings are computed on read); 200 "ok" otherwise.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError, connection
from django.db.models import DateTimeField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.celery import app as celery_app
from config.fallback_cache import CACHE_ERRORS
from games.models import Penalty, Result, Standings
from games.services.standings import stale_tournament_ids
from tournaments.models import Player, Tournament

logger = logging.getLogger(__name__)

OK, DOWN = "ok", "down"
# The last state of each check in this process: a warning when one goes down, one line
# when it is back, rather than a warning at every probe.
_last: dict[str, str] = {}


def _note(check: str, state: str, error: BaseException | None = None) -> str:
    before = _last.get(check, OK)
    _last[check] = state
    if state == DOWN and before != DOWN:
        logger.warning("health: %s is down (%s)", check, type(error).__name__ if error else "?")
    elif state == OK and before == DOWN:
        logger.info("health: %s is back", check)
    return state


def check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        return _note("database", DOWN, error)
    return _note("database", OK)


def check_cache() -> str:
    cache = caches["default"]
    try:
        stamp = timezone.now().isoformat()
        cache.set("health:probe", stamp, 30)
        if cache.get("health:probe") != stamp:
            return _note("cache", DOWN)
    except CACHE_ERRORS as error:
        return _note("cache", DOWN, error)
    return _note("cache", OK)


def check_broker() -> str:
    if celery_app.conf.task_always_eager:
        return "not configured"
    options = {"socket_connect_timeout": 1, "socket_timeout": 1}
    try:
        with celery_app.connection_for_read(transport_options=options) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception as error:  # kombu wraps what the transport raises; any of it is "down"
        return _note("broker", DOWN, error)
    return _note("broker", OK)


def _first_change_after(model: Any, path: str) -> Subquery:
    """The time of the first history record of `model` in the outer tournament after
    its newest snapshot (`since`)."""
    return Subquery(
        model.history.model.objects.filter(
            **{path: OuterRef("pk")}, history_date__gt=OuterRef("since")
        )
        .order_by("history_date")
        .values("history_date")[:1],
        output_field=DateTimeField(),
    )


def stale_since() -> dict[int, datetime]:
    """When each stale tournament's standings went stale (two queries in all)."""
    ids = stale_tournament_ids()
    if not ids:
        return {}
    newest = Standings.objects.filter(tournament=OuterRef("pk")).order_by("-computed_version")
    rows = (
        Tournament.objects.filter(pk__in=ids)
        .annotate(snapshot_at=Subquery(newest.values("computed_at")[:1]))
        # Nothing ever entered and nothing to rank: no standings yet is not stale ones.
        .exclude(snapshot_at__isnull=True, results_version=0)
        .annotate(since=Coalesce("snapshot_at", "created_at"))
        .annotate(
            by_tournament=_first_change_after(Tournament, "id"),
            by_player=_first_change_after(Player, "tournament"),
            by_result=_first_change_after(Result, "game__table__round__tournament"),
            by_penalty=_first_change_after(Penalty, "player__tournament"),
        )
        .values_list("pk", "since", "by_tournament", "by_player", "by_result", "by_penalty")
    )
    return {pk: min(t for t in changes if t) if any(changes) else since
            for pk, since, *changes in rows}  # fmt: skip


def check_standings() -> dict[str, int]:
    since = stale_since()
    now = timezone.now()
    oldest = max(((now - when).total_seconds() for when in since.values()), default=0)
    return {
        "tournaments": len(since),
        "oldest_seconds": max(0, round(oldest)),
        "limit_seconds": settings.HEALTH_STALE_SECONDS,
    }


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    database = check_database()
    body: dict[str, Any] = {
        "status": OK,
        "database": database,
        "cache": check_cache(),
        "broker": check_broker(),
        "stale_standings": None,
    }
    failing = database != OK
    if not failing:
        try:
            body["stale_standings"] = standings = check_standings()
        except DatabaseError as error:  # gone between the two checks
            body["database"] = _note("database", DOWN, error)
            failing = True
        else:
            failing = standings["oldest_seconds"] > standings["limit_seconds"]
    if failing:
        body["status"] = "failing"
    elif DOWN in (body["cache"], body["broker"]):
        body["status"] = "degraded"
    return JsonResponse(body, status=503 if failing else 200)
