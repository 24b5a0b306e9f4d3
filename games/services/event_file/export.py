"""Writing the event file: a whole tournament as one JSON document (`event_file_export`),
read from the database; nothing is written.

Terms (`games.services.event_file`): start number — how the document refers to a player.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import F
from django.utils import timezone

from tournaments.models import Absence, Player, Stage, StageEntry, Tournament

from ...models import Extension, Game, Penalty, RackEntry, Result, Seat, Table
from ..stages import StageRow, stage_rows
from ..standings import standings_recompute
from .schema import (
    FORMAT,
    FORMAT_VERSION,
    GENERATOR,
    RACK_FIELDS,
    STAGE_FIELDS,
    STAGE_GRAPH_FIELDS,
    TOURNAMENT_FIELDS,
)


def _when(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def _username(user: Any) -> str | None:
    return None if user is None else user.username


def event_file_export(tournament: Tournament) -> dict[str, Any]:
    """The tournament as an event file. Not checked here: who may read it (anyone who
    may see the tournament; the views check that). The standings are those of the
    current results version (computed and stored now if no snapshot has it yet)."""
    snapshot = standings_recompute(tournament_id=tournament.pk)
    assert snapshot is not None
    players = list(tournament.players.select_related("member__person", "person").order_by("pk"))
    number = {p.pk: p.number for p in players}
    lots = {row["player"]["id"]: row["metrics"]["lot"] for row in snapshot.rows}
    divisions = list(tournament.divisions.order_by("order", "name", "pk"))
    slug = {d.pk: d.slug for d in divisions}
    in_divisions: dict[int, list[str]] = defaultdict(list)
    memberships = Player.divisions.through.objects.filter(player__tournament=tournament)
    for player_id, division_id in (
        memberships.order_by("division__order", "division__name", "division_id").values_list(
            "player_id", "division_id"
        )
        if divisions
        else []
    ):
        in_divisions[player_id].append(slug[division_id])
    stages = list(
        tournament.stages.select_related("side_of", "source", "tournament").order_by("number")
    )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "exported_at": _when(timezone.now()),
        "generator": GENERATOR,
        "tournament": _tournament_out(tournament),
        "divisions": [
            {
                "slug": d.slug,
                "name": d.name,
                "order": d.order,
                "prizes": list(d.prizes),
                "created_at": _when(d.created_at),
            }
            for d in divisions
        ],
        "players": [_player_out(p, lots[p.pk], in_divisions[p.pk]) for p in players],
        "absences": [
            {"round": a.round_number, "player": number[a.player_id]}
            for a in Absence.objects.filter(tournament=tournament).order_by(
                "round_number", "player__number"
            )
        ],
        "stages": _stages_out(stages, number, slug),
        "rounds": _rounds_out(tournament, number, {s.pk: s.number for s in stages}),
        "standings": {
            "results_version": snapshot.computed_version,
            "ranking": list(snapshot.ranking),
            "rows": [_standing_out(row) for row in snapshot.rows],
        },
    }


def _tournament_out(tournament: Tournament) -> dict[str, Any]:
    club = tournament.club
    return {
        "slug": tournament.slug,
        **{field: getattr(tournament, field) for field in TOURNAMENT_FIELDS},
        "target_games_cap": tournament.target_games_cap,
        "starts_on": None if tournament.starts_on is None else tournament.starts_on.isoformat(),
        "rated": tournament.rated,
        "first_result_at": _when(tournament.first_result_at),
        "club": None if club is None else {"slug": club.slug, "name": club.name},
        "qualify_slots": tournament.qualify_slots,
        "qualify_event": tournament.qualify_event,
        "qualify_stage": None
        if tournament.qualify_stage is None
        else tournament.qualify_stage.number,
    }


def _player_out(player: Player, lot: int, divisions: list[str]) -> dict[str, Any]:
    member = player.member
    return {
        "number": player.number,
        "name": player.name,
        "club": player.club,
        "rating": player.rating,
        "status": player.status,
        "member": None if member is None else {"code": member.code, "name": member.name},
        "fixed_table": player.fixed_table,
        "joined_round": player.joined_round,
        "registered_at": _when(player.registered_at),
        "lot": lot,
        "divisions": divisions,
        "already_qualified": player.already_qualified,
        "person": _person_out(player),
    }


def _person_out(player: Player) -> dict[str, str] | None:
    """The player's person (their own link, else their member's): name and federation id,
    what any club may see of a person (`tournaments.models.people`)."""
    person = player.person or (player.member.person if player.member else None)
    return None if person is None else {"name": person.name, "federation_id": person.federation_id}


def _standing_out(row: dict[str, Any]) -> dict[str, Any]:
    out = {
        "rank": row["rank"],
        "player": row["player"]["number"],
        "name": row["player"]["name"],
        "status": row["player"]["status"],
        "metrics": row["metrics"],
    }
    if row.get("notes"):
        out["notes"] = row["notes"]
    return out


def _stages_out(
    stages: list[Stage], number: dict[int, int], division: dict[int, str]
) -> list[dict[str, Any]]:
    """Every stage with its entry list and standings: one query for the entry lists, and
    a stage's own handful for its standings (a tournament has a few stages)."""
    if not stages:
        return []
    entries = _by(StageEntry.objects.filter(stage__in=stages), "stage_id")
    return [
        {
            "number": stage.number,
            **{field: getattr(stage, field) for field in STAGE_FIELDS},
            "rounds_planned": stage.rounds_planned,
            **{field: getattr(stage, field) for field in STAGE_GRAPH_FIELDS},
            "source": None if stage.source is None else stage.source.number,
            "final_order": [[rank, number[player]] for rank, player in stage.final_order],
            "status": stage.status,
            "side_of": None if stage.side_of is None else stage.side_of.number,
            "division": None if stage.division_id is None else division.get(stage.division_id),
            "created_at": _when(stage.created_at),
            "entries": [
                {"player": number[e.player_id], "seed_rank": e.seed_rank, "carried": e.carried}
                for e in sorted(entries[stage.pk], key=lambda e: (e.seed_rank, number[e.player_id]))
            ],
            "standings": [_stage_row_out(row) for row in stage_rows(stage)],
        }
        for stage in stages
    ]


def _stage_row_out(row: StageRow) -> dict[str, Any]:
    out = {
        "rank": row.rank,
        "player": row.player.number,
        "carried": row.carried,
        "metrics": row.metrics,
    }
    if row.race_wins is not None:
        out["race_wins"] = row.race_wins
    return out


def _by(rows: Iterable[Any], key: str) -> dict[int, list[Any]]:
    """The rows (model instances or `values()` dicts) grouped by `key`, in their order."""
    grouped: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        grouped[row[key] if isinstance(row, dict) else getattr(row, key)].append(row)
    return grouped


def _rounds_out(
    tournament: Tournament, number: dict[int, int], stage_number: dict[int, int]
) -> list[dict[str, Any]]:
    """Every round with its tables, seats, games, results, racks, penalties and extensions:
    one query per kind, whatever the size."""
    # Rows as dicts, not model instances: some 10,000 of them at 200 players x 7 rounds,
    # and building the instances was most of the export's time.
    in_tournament = {"table__round__tournament": tournament}
    tables = _by(Table.objects.filter(round__tournament=tournament).values(), "round_id")
    seats = _by(Seat.objects.filter(round__tournament=tournament).values(), "table_id")
    games = _by(Game.objects.filter(**in_tournament).values(), "table_id")
    results = _by(
        Result.objects.filter(game__table__round__tournament=tournament).values(
            "id", "game_id", "version", "end", "status", "submitted_at", "confirmed_at",
            submitted_by_name=F("submitted_by__username"),
            confirmed_by_name=F("confirmed_by__username"),
        ),
        "game_id",
    )  # fmt: skip
    racks = _by(
        RackEntry.objects.filter(result__game__table__round__tournament=tournament).values(
            "result_id", "player_id", *RACK_FIELDS
        ),
        "result_id",
    )
    penalties = _by(
        Penalty.objects.filter(game__table__round__tournament=tournament)
        .select_related("recorded_by", "voided_by")
        .order_by("recorded_at", "pk"),
        "game_id",
    )
    extensions = _by(Extension.objects.filter(game__table__round__tournament=tournament), "game_id")

    def game_out(game: dict[str, Any]) -> dict[str, Any]:
        return {
            "number": game["number"],
            "starter_position": game["starter_position"],
            "results": [_result_out(r, racks[r["id"]], number) for r in results[game["id"]]],
            "penalties": [_penalty_out(p, number) for p in penalties[game["id"]]],
            "extensions": [
                {"player": number[e.player_id], "used": e.used} for e in extensions[game["id"]]
            ],
        }

    def table_out(table: dict[str, Any]) -> dict[str, Any]:
        return {
            "number": table["number"],
            "seats": [_seat_out(s, number) for s in seats[table["id"]]],
            "games": [game_out(g) for g in games[table["id"]]],
        }

    return [
        {
            "number": r.number,
            "stage": None if r.stage_id is None else stage_number.get(r.stage_id),
            "method": r.method,
            "seed": r.seed,
            "quality": r.quality,
            "created_at": _when(r.created_at),
            "ends_at": _when(r.ends_at),
            "tables": [table_out(t) for t in tables[r.pk]],
        }
        for r in tournament.rounds.order_by("number")
    ]


def _seat_out(seat: dict[str, Any], number: dict[int, int]) -> dict[str, Any]:
    return {
        "position": seat["position"],
        "player": number[seat["player_id"]],
        "absent_from": seat["absent_from"],
        "absence": seat["absence"],
    }


def _result_out(result: dict[str, Any], racks: list[dict], number: dict[int, int]) -> dict:
    return {
        "version": result["version"],
        "end": result["end"],
        "status": result["status"],
        "submitted_by": result["submitted_by_name"],
        "submitted_at": _when(result["submitted_at"]),
        "confirmed_by": result["confirmed_by_name"],
        "confirmed_at": _when(result["confirmed_at"]),
        "racks": [
            {"player": number[rack["player_id"]], **{f: rack[f] for f in RACK_FIELDS}}
            for rack in racks
        ],
    }


def _penalty_out(penalty: Penalty, number: dict[int, int]) -> dict[str, Any]:
    return {
        "player": number[penalty.player_id],
        "kind": penalty.kind,
        "tiles_drawn": penalty.tiles_drawn,
        "points": penalty.points,
        "note": penalty.note,
        "recorded_by": _username(penalty.recorded_by),
        "recorded_at": _when(penalty.recorded_at),
        "voided": penalty.voided,
        "voided_by": _username(penalty.voided_by),
        "voided_at": _when(penalty.voided_at),
    }
