"""Standings snapshots: computing one from the database and asking for one.

`standings_changed` is called inside every transaction that bumps a tournament's
`results_version`; once that transaction commits it enqueues `recompute_standings`.
`standings_recompute` reads everything it needs in a fixed handful of queries, lets the
pure `scoring.standings` rank it, and stores the snapshot for that version.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict

from django.db import IntegrityError, transaction

from games.models import Penalty, RackEntry, Result
from tournaments.models import Player, Tournament

from .models import Standings
from .standings import GameLine, compute_standings


def standings_changed(tournament: Tournament) -> None:
    """Recompute the standings once the current transaction commits.

    One transaction that changes many things (a CSV import, a seeded demo) enqueues one
    recompute, not one per change. The callbacks waiting for this commit are looked up on
    the connection, so a rolled-back change leaves nothing behind.
    """
    from .tasks import recompute_standings

    tournament_id = tournament.pk
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(
        getattr(func, "standings_of", None) == tournament_id
        for _, func, *_ in connection.run_on_commit
    ):
        return

    def enqueue() -> None:
        recompute_standings.delay(tournament_id)

    enqueue.standings_of = tournament_id  # type: ignore[attr-defined]
    transaction.on_commit(enqueue)


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
