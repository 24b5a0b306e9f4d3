"""Standings snapshots: computing one from the database, and the one to show.

Every change that affects the standings bumps the tournament's `results_version` and asks
for a recompute on commit (`tournaments.events.results_changed`); the `games.tasks` job
then calls `standings_recompute`, which reads everything it needs in a fixed handful of
queries, lets the pure `scoring.standings` rank it, and stores the snapshot for that
version. Only the newest `settings.STANDINGS_KEEP` snapshots of a tournament are kept
(each is some 300 KB at 1,000 players): the job prunes the older ones after storing a new
one (`standings_prune`).

The tournament's options shape the sums: a substitute's racks are left out of the SQL sums
unless `credit_substitute_games`; a late entry's missed rounds (`Player.joined_round`) go
to the engine as missed games, counted as `missed_rounds` says. A row says so in its
`notes` (only when there is something to say): the joined round and treatment, the
substitute games in the seat and whether they are credited, the forfeits.

Not checked here: permissions. Snapshots are derived data that anyone who may see the
tournament may read (the views check visibility); recomputing changes nothing but them.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from scoring.match import MatchGame, match_state, match_totals
from scoring.placement import PlaceCount, PlacementTotals, placement_from_counts
from scoring.rules import games_at
from scoring.standings import (
    PlayerTotals,
    SeriesLine,
    compute_standings_from_series,
    compute_standings_from_totals,
    countback,
    lot_draw,
    needs_extra,
    needs_parts,
    needs_placement,
    needs_series,
)
from tournaments.events import request_recompute, standings_shown
from tournaments.models import Player, Tournament, Webhook
from tournaments.services.webhooks import webhooks_emit

from ..models import EncodedJSON, Penalty, RackEntry, Result, Standings, Table
from .qualification_slots import mark_qualified, slot_order
from .standings_sql import (
    COUNTBACK_SQL,
    MATCH_SQL,
    PLACED_TOTALS_SQL,
    PLACES_SQL,
    SERIES_SQL,
    SERIES_TOTALS_SQL,
    TOTALS_SQL,
    placement_points,
)

# Above any round number (a PositiveSmallIntegerField): every round counts.
EVERY_ROUND = 1 << 15


@dataclass(frozen=True)
class StageFilter:
    """The rounds of one stage (`id`); stage 1 also owns the rounds without a stage."""

    id: int
    first: bool


def _sums(
    sql: str,
    tournament_id: int,
    credit_substitutes: bool = False,
    before: int = EVERY_ROUND,
    stage: StageFilter | None = None,
    points: dict[str, int] | None = None,
) -> list[tuple]:
    params: dict[str, Any] = {
        **(points or {}),
        "credit_substitutes": credit_substitutes,
        "tournament": tournament_id,
        "before": before,
        "every_stage": stage is None,
        "stage": stage.id if stage else 0,
        "first_stage": bool(stage and stage.first),
        "confirmed": Result.Status.CONFIRMED.value,
        "rummikub": Result.End.RUMMIKUB.value,
        "sanction": Penalty.Kind.SANCTION.value,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def games_per_missed_round(tournament: Tournament) -> int:
    """The games a late entry missed in each round before they joined: a full table's
    series (`games_per_table`, else one game per seat of a full table)."""
    return games_at(tournament.table_size, tournament.games_per_table)


def ranked_rows(
    tournament: Tournament,
    players: list[int],
    penalties: dict[int, int],
    withdrawn: set[int],
    missed_games: dict[int, int] | None = None,
    before: int = EVERY_ROUND,
    stage: StageFilter | None = None,
    ranking: list[str] | None = None,
    carried: dict[int, int] | None = None,
    lots: dict[int, int] | None = None,
):
    """Rank from per-player totals when the ranking allows it (one row per player comes
    back: table wins and opponents' score summed per series in SQL; placement points and
    first places summed in the same pass, from each rack's stored place), from series
    lines only when it
    needs to know who sat in which series with whom: head_to_head (one row per series).
    Withdrawn players come after the active ones, ranked on from there (`scoring.standings`,
    "withdrawn"). Only the games of rounds numbered below `before` count, and of `stage`'s
    rounds when given (ranked by the stage's `ranking`, with its `carried` scores)."""
    ranking = ranking if ranking is not None else tournament.ranking
    common: dict[str, Any] = {  # the keyword arguments both computations take
        "players": players,
        "withdrawn": withdrawn,
        "penalties": penalties,
        "ranking": ranking,
        "carried": carried,
        "lot_seed": f"{tournament.pk}:{tournament.slug}",
        "missed_games": missed_games,
        "missed_rounds": tournament.missed_rounds,
        "lots": lots,
    }
    credit = tournament.credit_substitute_games
    # A stage ranks its entrants only (its rounds seat no one else).
    known = set(players)
    extra = _extra(tournament, ranking, credit, before, stage, known, lots or {})
    if extra:
        common["extra"] = extra
    if needs_parts(ranking):  # head_to_head: who sat in which series with whom
        if needs_placement(ranking):
            common["placed"] = _placed(tournament, credit, before, stage, known)
        rows = _sums(SERIES_SQL, tournament.pk, credit, before, stage)
        series = [SeriesLine(*row) for row in rows if row[0] in known]
        return compute_standings_from_series(series=series, **common)
    if needs_series(ranking):  # table wins, opponents' score: summed in SQL
        if needs_placement(ranking):
            common["placed"] = _placed(tournament, credit, before, stage, known)
        rows = _sums(SERIES_TOTALS_SQL, tournament.pk, credit, before, stage)
        totals = [PlayerTotals(*row) for row in rows if row[0] in known]
        return compute_standings_from_totals(totals=totals, series_summed=True, **common)
    if needs_placement(ranking):
        totals, common["placed"] = _placed_totals(tournament, credit, before, stage, known)
        return compute_standings_from_totals(totals=totals, **common)
    rows = _sums(TOTALS_SQL, tournament.pk, credit, before, stage)
    totals = [PlayerTotals(*row) for row in rows if row[0] in known]
    return compute_standings_from_totals(totals=totals, **common)


def _extra(
    tournament: Tournament,
    ranking: list[str],
    credit: bool,
    before: int,
    stage: StageFilter | None,
    known: set[int],
    lots: dict[int, int],
) -> dict[str, dict[int, int]]:
    """The `EXTRA_METRICS` (`scoring.standings`) the ranking uses; the match metrics also
    whenever the tournament has a target score, so its standings show them. One query
    each: the countback's three best games per player, every seat's line of every game."""
    wanted = needs_extra(ranking)
    extra: dict[str, dict[int, int]] = {}
    if wanted & {"second_best_game", "third_best_game"}:
        scores: dict[int, list[int]] = {}
        for player, score in _sums(COUNTBACK_SQL, tournament.pk, credit, before, stage):
            if player in known:
                scores.setdefault(player, []).append(score)
        extra.update(countback(scores))
    if wanted & {"matches_won", "match_points"} or tournament.target_score:
        won, points = (
            _matches(tournament, credit, before, stage, known, lots)
            if tournament.target_score
            else ({}, {})
        )
        extra["matches_won"], extra["match_points"] = won, points
    return extra


def _matches(
    tournament: Tournament,
    credit: bool,
    before: int,
    stage: StageFilter | None,
    known: set[int],
    lots: dict[int, int],
) -> tuple[dict[int, int], dict[int, int]]:
    """Matches won and match points over every decided target-score match
    (`scoring.match`), tables of one-game stage rounds left out (`games.services.matches`)."""
    one_game = set(
        Table.objects.filter(round__tournament=tournament)
        .filter(
            Q(round__stage__reseat_every_game=True) | Q(round__stage__race_target__isnull=False)
        )
        .values_list("pk", flat=True)
    )
    tables: dict[int, dict[int, dict[int, tuple[int, bool, bool]]]] = {}
    for table, number, player, score, winner, end in _sums(
        MATCH_SQL, tournament.pk, credit, before, stage
    ):
        if table not in one_game:
            line = (score, bool(winner), end == Result.End.RUMMIKUB)
            tables.setdefault(table, {}).setdefault(number, {})[player] = line
    seed = f"{tournament.pk}:{tournament.slug}"
    assert tournament.target_score is not None
    states = []
    for games in tables.values():
        seated = sorted({p for lines in games.values() for p in lines})
        played = []
        number = 1
        while number in games:
            lines = games[number]
            played.append(
                MatchGame(
                    {p: lines[p][0] if p in lines else 0 for p in seated},
                    frozenset(p for p, line in lines.items() if line[1]),
                    any(line[2] for line in lines.values()),
                )
            )
            number += 1
        states.append(
            match_state(
                seated,
                played,
                target=tournament.target_score,
                cap=tournament.target_games_cap,
                tiebreaks=tournament.ranking,
                lots={p: lots.get(p, lot_draw(seed, p)) for p in seated},
            )
        )
    totals = match_totals(states, tournament.rule_set.placement_table())
    won = {p: n for p, n in totals.won.items() if p in known}
    points = {p: n for p, n in totals.points.items() if p in known}
    return won, points


def _placed(
    tournament: Tournament,
    credit: bool,
    before: int,
    stage: StageFilter | None,
    known: set[int],
) -> PlacementTotals:
    """Placement points and first places (`scoring.placement`) from the finishing places
    counted in SQL (one query, a few rows per player), by the tournament's table."""
    counts = (
        PlaceCount(player, seats, place, bool(shared), bool(winner), games)
        for player, seats, place, shared, winner, games in _sums(
            PLACES_SQL, tournament.pk, credit, before, stage
        )
        if player in known
    )
    return placement_from_counts(counts, tournament.rule_set.placement_table())


def _placed_totals(
    tournament: Tournament,
    credit: bool,
    before: int,
    stage: StageFilter | None,
    known: set[int],
) -> tuple[list[PlayerTotals], PlacementTotals]:
    """The per-player sums and the placement totals from one query (`PLACED_TOTALS_SQL`,
    the points looked up by the tournament's placement table), one row per player."""
    totals = []
    placed = PlacementTotals()
    for player, games, won, rummikubs, score, charge, best, points, firsts in _sums(
        PLACED_TOTALS_SQL,
        tournament.pk,
        credit,
        before,
        stage,
        placement_points(tournament.rule_set.placement_table()),
    ):
        if player in known:
            totals.append(PlayerTotals(player, games, won, rummikubs, score, charge, best))
            placed.points[player], placed.firsts[player] = points, firsts
    return totals, placed


def standings_recompute(*, tournament_id: int) -> Standings | None:
    """The snapshot for the tournament's current results version (None if it is gone).

    Four SQL queries whatever the size: the tournament with the id of its snapshot at
    that version if there is one, the players with their penalty counts, the sums per
    player (per series when the ranking needs head_to_head; with table wins and opponents'
    score beside them when it uses those; with placement points and first places when it
    uses those), the insert returning the stored row's id (one more if another worker
    stored that version meanwhile; one more, the finishing places counted apart, when a
    ranking uses placement and series metrics both). Old snapshots are pruned by the job
    afterwards (`standings_prune`), not here.
    """
    current = Standings.objects.filter(
        tournament=OuterRef("pk"), computed_version=OuterRef("results_version")
    ).values("pk")
    tournament = (
        Tournament.objects.filter(pk=tournament_id).annotate(snapshot_id=Subquery(current)).first()
    )
    if tournament is None:
        return None
    if tournament.snapshot_id is not None:
        return Standings.objects.get(pk=tournament.snapshot_id)

    started = time.perf_counter()
    players = list(
        Player.objects.filter(tournament=tournament)
        .annotate(
            penalty_count=Count("penalties", filter=Q(penalties__voided=False)),
            substitute_games=_confirmed_racks(~Q(substitute="")),
            forfeits=_confirmed_racks(Q(forfeit=True)),
        )
        .values_list(
            "id",
            "number",
            "name",
            "club",
            "status",
            "penalty_count",
            "joined_round",
            "substitute_games",
            "forfeits",
            "lot",
            "already_qualified",
        )
    )
    per_round = games_per_missed_round(tournament)
    rows = ranked_rows(
        tournament,
        [p[0] for p in players],
        {p[0]: p[5] for p in players},
        {p[0] for p in players if p[4] == Player.Status.WITHDRAWN},
        {p[0]: (p[6] - 1) * per_round for p in players if p[6]},
        lots={p[0]: p[9] for p in players if p[9] is not None},
    )
    info = {p[0]: p for p in players}
    stored = [
        _with_notes(
            tournament,
            info[row.player],
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
            },
        )
        for row in rows
    ]
    if tournament.qualify_slots:
        mark_qualified(
            slot_order(tournament, stored),
            {p[0] for p in players if p[10]},
            tournament.qualify_slots,
        )
    version = tournament.results_version
    # Encoded once: the text stored is the text digested below.
    encoded = EncodedJSON(json.dumps(stored))
    snapshot = Standings(
        tournament=tournament,
        computed_version=version,
        ranking=list(tournament.ranking),
        rows=encoded,
        duration_ms=round((time.perf_counter() - started) * 1000),
    )
    if not _stored(snapshot):
        # Another worker stored this version first: its snapshot, the same table.
        return Standings.objects.get(tournament=tournament, computed_version=version)
    snapshot.rows = stored
    # The public pages move only if the table they show changed (a result awaiting
    # confirmation, or a penalty that changes no total, stores the same rows again). The
    # rows are built in a fixed order (keys and metrics alike), so their JSON, already
    # encoded to be stored, is the same for the same table.
    shown = hashlib.blake2b(repr(snapshot.ranking).encode(), digest_size=12)
    shown.update(encoded.encode())
    standings_shown(tournament.slug, shown.hexdigest())
    return snapshot


def _stored(snapshot: Standings) -> bool:
    """Insert the snapshot unless its version is stored already, and say whether it was
    (its id then set): one statement, which returns the id, with no BEGIN and COMMIT or
    savepoint around it (a worker runs in autocommit; `bulk_create` wrapped its insert in
    a transaction and could not return the id of a row that skips conflicts, which then
    had to be read back)."""
    fields = [f for f in Standings._meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(snapshot, add=True), connection) for f in fields]
    quote = connection.ops.quote_name
    table = quote(Standings._meta.db_table)
    returning = connection.features.can_return_columns_from_insert
    sql = (
        f"INSERT INTO {table} ({', '.join(quote(str(f.column)) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) "
        "ON CONFLICT (tournament_id, computed_version) DO NOTHING"
        + (" RETURNING id" if returning else "")
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        if returning:
            row = cursor.fetchone()
            pk = row[0] if row else None
        elif cursor.rowcount == 1:  # an SQLite before 3.35: no RETURNING; read it back
            cursor.execute(
                f"SELECT id FROM {table} WHERE tournament_id = %s AND computed_version = %s",
                [snapshot.tournament_id, snapshot.computed_version],
            )
            pk = cursor.fetchone()[0]
        else:
            pk = None
    if pk is None:
        return False
    snapshot.pk = pk
    snapshot._state.adding, snapshot._state.db = False, connection.alias
    return True


# How many rows of the standings the `standings.updated` webhook carries.
ANNOUNCED_ROWS = 10


def standings_announce(snapshot: Standings) -> None:
    """Tell the tournament's webhooks about a stored snapshot (once per snapshot and
    hook, however often the job finds it): its version and its top rows."""
    webhooks_emit(
        tournament=snapshot.tournament,
        event=Webhook.Event.STANDINGS_UPDATED,
        payload={
            "computed_version": snapshot.computed_version,
            "computed_at": snapshot.computed_at.isoformat(),
            "rows": [
                {"rank": row["rank"], "player": row["player"], "metrics": row["metrics"]}
                for row in snapshot.rows[:ANNOUNCED_ROWS]
            ],
        },
    )


def _confirmed_racks(condition: Q) -> Coalesce:
    """How many of the player's racks in confirmed results meet `condition` (a subquery,
    so it does not multiply the penalty count's join)."""
    racks = (
        RackEntry.objects.filter(condition, player=OuterRef("pk"), result__status="confirmed")
        .order_by()
        .values("player")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(racks), 0)


def _with_notes(tournament: Tournament, player: tuple, row: dict) -> dict:
    """The row with its `notes`, when there is something to say (rows without stay as
    they always were)."""
    notes = _notes(tournament, player)
    if notes:
        row["notes"] = notes
    return row


def _notes(tournament: Tournament, player: tuple) -> dict:
    """What a standings row says besides its metrics: a late entry's round and how their
    missed rounds count, and the substitute games and forfeits in the player's seat (with
    whether substitute games are credited to them)."""
    notes: dict = {}
    joined, substitutes, forfeits = player[6], player[7], player[8]
    if joined:
        notes["joined_round"] = joined
        notes["missed_rounds"] = tournament.missed_rounds
        notes["missed_games"] = (joined - 1) * games_per_missed_round(tournament)
    if substitutes:
        notes["substitute_games"] = substitutes
        notes["substitute_games_credited"] = tournament.credit_substitute_games
    if forfeits:
        notes["forfeits"] = forfeits
    return notes


def standings_prune(*, tournament_id: int) -> None:
    """Delete the tournament's snapshots older than the newest `STANDINGS_KEEP`, in one
    query. The newest always stays (at least one is kept), and so does a newer one another
    worker stored meanwhile: only snapshots below the kept ones' lowest version go.
    The standings job runs it after each recompute (`games.tasks`)."""
    oldest_kept = (
        Standings.objects.filter(tournament=tournament_id)
        .order_by("-computed_version")
        .values("computed_version")[settings.STANDINGS_KEEP - 1 : settings.STANDINGS_KEEP]
    )
    # With fewer snapshots than that, the subquery is empty (NULL) and nothing matches.
    Standings.objects.filter(
        tournament=tournament_id, computed_version__lt=Subquery(oldest_kept)
    ).delete()


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
        standings_prune(tournament_id=tournament_id)
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
