"""Standings snapshots: computing one from the database and asking for one.

`standings_changed` is called inside every transaction that bumps a tournament's
`results_version`; once that transaction commits it enqueues `recompute_standings`.
`standings_recompute` reads everything it needs in a fixed handful of queries, lets the
pure `scoring.standings` rank it, and stores the snapshot for that version.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, defaultdict

from celery import current_app
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Max, OuterRef, Q, Subquery

from games.models import Penalty, RackEntry, Result
from tournaments.models import Player, Tournament

from .models import Standings
from .standings import GameLine, compute_standings

logger = logging.getLogger(__name__)

# A burst of entries within this window is folded into one recompute.
COALESCE_SECONDS = 0.5
# A pending mark outlives a lost task by at most this long.
PENDING_SECONDS = 120


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
    from .tasks import recompute_standings

    if current_app.conf.task_always_eager:
        recompute_standings.delay(tournament_id)
        return True
    key = _pending_key(tournament_id)
    try:
        if not cache.add(key, 1, timeout=PENDING_SECONDS):
            return True
    except Exception:  # a cache outage must not lose the recompute: enqueue regardless
        logger.warning("cache unreachable; enqueueing standings %s anyway", tournament_id)
    try:
        recompute_standings.apply_async((tournament_id,), countdown=COALESCE_SECONDS)
    except Exception:
        # The result is committed; only the standings are late. The periodic repair or
        # the next read brings them up to date.
        logger.warning("broker unreachable; standings of %s stay stale", tournament_id,
                       exc_info=True)
        clear_pending(tournament_id)
        return False
    return True


def clear_pending(tournament_id: int) -> None:
    try:
        cache.delete(_pending_key(tournament_id))
    except Exception:
        logger.warning("cache unreachable; pending mark of %s not cleared", tournament_id)


def standings_recompute(*, tournament_id: int) -> Standings | None:
    """The snapshot for the tournament's current results version (None if it is gone)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    version = tournament.results_version
    existing = Standings.objects.filter(tournament=tournament, computed_version=version).first()
    if existing is not None:
        return existing

    started = time.perf_counter()
    players = list(
        Player.objects.filter(tournament=tournament).values_list(
            "id", "number", "name", "club", "status"
        )
    )
    penalties: Counter[int] = Counter()
    sanctions: defaultdict[tuple[int, int], int] = defaultdict(int)
    for game_id, player_id, kind, points in Penalty.objects.filter(
        game__table__round__tournament=tournament, voided=False
    ).values_list("game_id", "player_id", "kind", "points"):
        penalties[player_id] += 1
        if kind == Penalty.Kind.SANCTION:
            sanctions[(game_id, player_id)] += points
    lines = [
        GameLine(
            player=player_id,
            round=round_number,
            table=table_id,
            game=game_id,
            score=score - sanctions.get((game_id, player_id), 0),
            charge=charge,
            winner=winner,
            rummikub=winner and end == Result.End.RUMMIKUB,
        )
        for player_id, round_number, table_id, game_id, score, charge, winner, end in (
            RackEntry.objects.filter(
                result__game__table__round__tournament=tournament,
                result__status=Result.Status.CONFIRMED,
            ).values_list(
                "player_id",
                "result__game__table__round__number",
                "result__game__table_id",
                "result__game_id",
                "score",
                "charge",
                "winner",
                "result__end",
            )
        )
    ]
    rows = compute_standings(
        players=[p[0] for p in players],
        lines=lines,
        penalties=penalties,
        ranking=tournament.ranking,
        lot_seed=f"{tournament.pk}:{tournament.slug}",
    )
    info = {p[0]: p for p in players}
    stored = [
        {
            "rank": row.rank,
            "player": {
                "id": row.player,
                "number": info[row.player][1],
                "name": info[row.player][2],
                "club": info[row.player][3],
                "status": info[row.player][4],
            },
            "metrics": row.metrics,
        }
        for row in rows
    ]
    try:
        with transaction.atomic():
            return Standings.objects.create(
                tournament=tournament,
                computed_version=version,
                ranking=list(tournament.ranking),
                rows=stored,
                duration_ms=round((time.perf_counter() - started) * 1000),
            )
    except IntegrityError:
        # Another worker stored this version first; theirs is the same table.
        return Standings.objects.get(tournament=tournament, computed_version=version)


def latest_standings(tournament: Tournament) -> Standings | None:
    return tournament.standings.order_by("-computed_version").first()


def stale_tournament_ids() -> list[int]:
    """Tournaments whose newest snapshot is behind their results version (or missing)."""
    newest = (
        Standings.objects.filter(tournament=OuterRef("pk"))
        .order_by("-computed_version")
        .values("computed_version")[:1]
    )
    return list(
        Tournament.objects.annotate(computed=Subquery(newest))
        .filter(Q(computed__isnull=True) | Q(computed__lt=F("results_version")))
        .values_list("pk", flat=True)
    )


def standings_repair() -> list[int]:
    """Bring every stale tournament's standings to its current version (periodic job)."""
    repaired = stale_tournament_ids()
    for tournament_id in repaired:
        standings_recompute(tournament_id=tournament_id)
    return repaired


def standings_for_read(tournament: Tournament) -> tuple[Standings, bool]:
    """The snapshot to show and whether it is stale.

    A stale snapshot is shown as it is (marked stale) while a worker catches up; when no
    worker can be asked, or there is no snapshot at all, it is computed here and now.
    """
    snapshot = latest_standings(tournament)
    if snapshot is not None and snapshot.computed_version >= tournament.results_version:
        return snapshot, False
    if snapshot is None or not request_recompute(tournament.pk):
        fresh = standings_recompute(tournament_id=tournament.pk)
        assert fresh is not None
        return fresh, fresh.computed_version < tournament.results_version
    return snapshot, True
