"""The open event file: a whole tournament as one JSON document, written and read back.

Terms:
* event file — one JSON document (`format: rummitab-event-file`, `format_version: 1`)
  holding a tournament's rules and ranking, players, rounds with tables, seats and games,
  every version of every result with its racks, penalties (voided ones too), time
  extensions, check-in absences and the standings. Its JSON Schema is
  `games/schemas/event-file-1.schema.json` (draft 2020-12), served at
  `/api/v1/event-file.schema.json`; the schema's descriptions document every member.
* start number — how the document refers to a player everywhere (never a database id),
  so a document written by another tool needs no ids of ours.
* stages — the tournament's stages (qualification, semi-final, final, side events) in
  number order, each with its settings (cut, carry-over, race, re-seating), its entry
  list (`entries`: start number, seed rank, carried score) and its standings as the
  exporting site computed them (derived, like the tournament's standings: an import
  recomputes them). A round names its stage by number (`rounds[].stage`; absent or null:
  no stage, which belongs to stage 1). A file without stages (every file written before
  stages were exported) reads as before: the format's version stays 1, since a reader
  of version 1 that knows no stages refuses a file that has some rather than losing them.

Decisions where the rules are silent (docs/rules/decisions.md):
* Accounts do not travel. The document names who entered, confirmed, recorded or voided
  something by username, for the record; an import stamps the importing user in every
  such place (the original names stay in the document the organiser keeps) and keeps
  every timestamp. Staff, invitations, table links and seating plans are not exported.
* Club and member links are informative: an import links a player to no member and holds
  the tournament under no club, and is never `rated` (its games were rated, if at all,
  where they were played).
* divisions — the tournament's divisions (`divisions`: slug, name, order, prizes), each
  player's by slug (`players[].divisions`), a stage's by slug (`stages[].division`); the
  qualification slots (`tournament.qualify_slots`, `qualify_event`) and who qualified
  earlier (`players[].already_qualified`). All optional in a file: absent means none.
* Each player's tie-breaking lot travels with them (`Player.lot`), so the imported
  tournament ranks its ties exactly as the original did: the same standings, row for row,
  overall and in every stage.
* A stage's committed cut travels as its entry list; a cut not yet committed (a running
  stage closed later on the importing site) draws its lot at ties from the new
  tournament's id and slug, so a tie at that line may fall the other way there.
* A stage's settings are checked as the stage form checks them
  (`tournaments.services.stages.stage_settings_checked`); a side event names the main
  stage it comes from (`side_of`, a lower number), and only a side event names one.
* The document's standings are derived data: an import recomputes them from the results
  (the round-trip test checks that they come out the same) and does not read them.
* Who may import: any signed-in user, who becomes the new tournament's organiser, as for
  creating a tournament. A slug already taken is a 409 naming `tournament.slug` (unless
  another slug is given); a document that fails the schema, or whose references do not
  hold (a seat for an unknown start number, two confirmed versions of one game, ...), is a
  400 naming the JSON path of each problem. Nothing is saved then.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.text import slugify
from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator, FormatChecker

from scoring.errors import Conflict, RuleError, raise_all
from scoring.rules import OPTIONS, PRESET_NAMES, RuleSet
from scoring.standings import METRICS, validate_ranking
from tournaments.events import results_changed
from tournaments.models import (
    Absence,
    Division,
    Person,
    Player,
    Round,
    StaffMember,
    Stage,
    StageEntry,
    Tournament,
)
from tournaments.permissions import User
from tournaments.services.divisions import SLUG as DIVISION_SLUG
from tournaments.services.stages import stage_settings_checked
from tournaments.services.validation import max_length_of, signed_in_or_none, stamp_history_user

from ..models import Extension, Game, Penalty, RackEntry, Result, Seat, Table
from .stages import StageRow, stage_rows
from .standings import standings_recompute

FORMAT = "rummitab-event-file"
FORMAT_VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / "event-file-1.schema.json"
GENERATOR = "Rummitab"
# The largest event file an import reads by default (setting `EVENT_FILE_MAX_BYTES`; a
# weekend open of 200 players x 7 rounds is some 1.5 MiB).
MAX_EVENT_FILE_BYTES = 16 * 1024 * 1024
# The most schema problems one answer lists (a person fixes the first ones and retries).
MAX_SCHEMA_ERRORS = 20
# The deepest nesting of arrays and objects an import reads: twice what an exported file
# needs (the document, rounds, a round, its tables, a table, its games, a game, its
# results, a result, its racks, a rack, its tiles; tests/games/api/test_event_file_limits.py
# checks an exported file stays within half of it). A deeper file is refused before it is
# parsed: Python's JSON parser recurses, and a file nested some thousand levels deep ended
# in a RecursionError (a 500).
MAX_EVENT_FILE_DEPTH = 32
# Strings, in the text of a file, and the brackets outside them.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")

TOURNAMENT_FIELDS = (
    "name", "status", "rules", "ranking", "table_size", "games_per_table", "rounds_planned",
    "target_score", "results_need_confirmation", "club_avoidance", "public", "missed_rounds",
    "forfeit_rule", "credit_substitute_games",
)  # fmt: skip
# A stage's settings, as `tournaments.services.stages` checks them; `number`, `status`
# and `side_of` beside them.
STAGE_FIELDS = (
    "name", "kind", "ranking", "carry_over", "cut_top", "cut_min_score", "cut_ties",
    "reseat_every_game", "race_target", "race_cap",
)  # fmt: skip
RACK_FIELDS = (
    "tiles", "points", "tile_count", "jokers", "no_meld", "charge", "score", "winner",
    "substitute", "forfeit",
)  # fmt: skip


def rules_json_schema() -> dict[str, Any]:
    """`tournament.rules` of the JSON Schema, made from the rule options themselves
    (`scoring.rules.OPTIONS`: kinds, bounds, choices, null), so that a value the import
    would refuse is refused by the schema too. The published file keeps a copy, and
    tests/games/test_event_file_contract.py holds the two equal (it prints the value to
    paste when an option changes)."""

    def option_schema(name: str) -> dict[str, Any]:
        option = OPTIONS[name]
        if option.kind == "int":
            schema: dict[str, Any] = {
                "type": "integer",
                "minimum": option.minimum,
                "maximum": option.maximum,
            }
        elif option.kind == "bool":
            schema = {"type": "boolean"}
        elif option.kind == "points":
            schema = {
                "type": "object",
                "propertyNames": {"enum": ["2", "3", "4"]},
                "additionalProperties": {"type": "array", "items": {"type": "integer"}},
            }
        else:
            schema = {"enum": list(option.choices)}
        if option.nullable:
            if "enum" in schema:
                schema["enum"] = [*schema["enum"], None]
            else:
                schema["type"] = [schema["type"], "null"]
        schema["description"] = option.help
        return schema

    return {
        "type": "object",
        "required": ["preset"],
        "additionalProperties": False,
        "description": "The rule set: `preset` and the value of every rule option, all "
        "resolved; each option within the bounds the rules allow.",
        "properties": {
            "preset": {"enum": list(PRESET_NAMES), "description": "The preset it started from."},
            **{name: option_schema(name) for name in OPTIONS},
        },
    }


def ranking_json_schema() -> dict[str, Any]:
    """`tournament.ranking` of the JSON Schema: the metrics a ranking may name, each once
    (`scoring.standings.METRICS`, as `validate_ranking` checks them)."""
    return {
        "type": "array",
        "items": {"enum": [key for key, metric in METRICS.items() if metric.direction]},
        "minItems": 1,
        "uniqueItems": True,
        "description": "The standings metrics in ranking order (e.g. games_won, score, lot).",
    }


@cache
def event_file_schema() -> dict[str, Any]:
    """The JSON Schema of the event file, as kept in the repository."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _when(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def _username(user: Any) -> str | None:
    return None if user is None else user.username


# --- export -------------------------------------------------------------------------------


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
    stages = list(tournament.stages.select_related("side_of", "tournament").order_by("number"))
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
    what any club may see of a person (`tournaments.person_model`)."""
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
            "status": stage.status,
            "side_of": None if stage.side_of is None else stage.side_of.number,
            "division": division.get(stage.division_id),
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
            "stage": stage_number.get(r.stage_id),
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


# --- checking a document ------------------------------------------------------------------


# The schema's formats, checked as the import will read them (jsonschema's own date-time
# check needs a package of its own, and would let a time without its zone through).
FORMATS = FormatChecker(formats=())


@FORMATS.checks("date-time", raises=ValueError)
def _is_time(value: object) -> bool:
    if not isinstance(value, str):
        return True  # the schema's `type` says what is wrong
    parsed = parse_datetime(value)
    return parsed is not None and parsed.tzinfo is not None


@FORMATS.checks("date", raises=ValueError)
def _is_date(value: object) -> bool:
    return not isinstance(value, str) or parse_date(value) is not None


@cache
def _fast_validator() -> jsonschema_rs.Draft202012Validator:
    """The schema compiled once per process by jsonschema-rs (Rust): it says whether a
    document is valid some 50 times faster than the pure-Python validator, with the same
    format checks."""
    return jsonschema_rs.Draft202012Validator(
        event_file_schema(),
        formats={"date-time": _is_time, "date": _is_date},
        validate_formats=True,
    )


@cache
def _validator() -> Draft202012Validator:
    """The schema compiled once per process by jsonschema: it words the problems."""
    return Draft202012Validator(event_file_schema(), format_checker=FORMATS)


def schema_errors(document: object) -> list[RuleError]:
    """What in `document` fails the schema, each named by its JSON path (at most
    `MAX_SCHEMA_ERRORS`, in document order).

    A valid document (every import that succeeds) is checked by the fast validator alone;
    only an invalid one is walked again by jsonschema, whose messages and paths the
    answers have always given (the second walk costs nothing the person waits for: the
    import is refused anyway)."""
    if _fast_validator().is_valid(document):
        return []
    found = sorted(_validator().iter_errors(document), key=lambda e: [str(p) for p in e.path])
    return [RuleError(tuple(e.path), _short(e.message)) for e in found[:MAX_SCHEMA_ERRORS]]


def _short(message: str, limit: int = 200) -> str:
    """A schema message quotes the wrong value, which may be a whole object: cut it."""
    return message if len(message) <= limit else message[: limit - 1] + "…"


class _References:
    """The checks a schema cannot make: unique numbers, start numbers that exist, one
    confirmed version per game, racks of seated players, the database's own rules."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.errors: list[RuleError] = []
        self.numbers: set[int] = set()
        for i, player in enumerate(document["players"]):
            self._unique(self.numbers, player["number"], ("players", i, "number"))
        absent: set[tuple[int, int]] = set()
        for i, absence in enumerate(document["absences"]):
            self._known(absence["player"], ("absences", i, "player"))
            self._unique(absent, (absence["round"], absence["player"]), ("absences", i))
        self.divisions = self._divisions(document)
        self.stages = self._stages(document.get("stages", []))
        rounds: set[int] = set()
        for i, round_ in enumerate(document["rounds"]):
            self._unique(rounds, round_["number"], ("rounds", i, "number"))
            stage = round_.get("stage")
            if stage is not None and stage not in self.stages:
                self.errors.append(
                    RuleError(("rounds", i, "stage"), _("no stage {stage}.").format(stage=stage))
                )
            self._round(round_, ("rounds", i))
        for i, row in enumerate(document["standings"]["rows"]):
            self._known(row["player"], ("standings", "rows", i, "player"))

    def _unique(self, seen: set, value: Any, path: tuple) -> None:
        if value in seen:
            self.errors.append(RuleError(path, _("{value} appears twice.").format(value=value)))
        seen.add(value)

    def _known(self, player: int, path: tuple) -> bool:
        if player not in self.numbers:
            self.errors.append(
                RuleError(path, _("no player has start number {player}.").format(player=player))
            )
            return False
        return True

    def _divisions(self, document: dict[str, Any]) -> set[str]:
        """The divisions' slugs, names and prizes as the division form checks them; the
        players' divisions; the qualification slots, which come with their event."""
        slugs: set[str] = set()
        names: set[str] = set()
        for i, division in enumerate(document.get("divisions", [])):
            path = ("divisions", i)
            if not DIVISION_SLUG.match(division["slug"]):
                self.errors.append(
                    RuleError((*path, "slug"), _("use letters, digits, '-' and '_' only."))
                )
            self._unique(slugs, division["slug"], (*path, "slug"))
            name = division["name"].strip()
            if not name:
                self.errors.append(RuleError((*path, "name"), _("is required.")))
            self._unique(names, name.casefold(), (*path, "name"))
        for i, player in enumerate(document["players"]):
            seen: set[str] = set()
            for d, slug in enumerate(player.get("divisions", [])):
                where = ("players", i, "divisions", d)
                if slug not in slugs:
                    self.errors.append(RuleError(where, _("no division {slug}.").format(slug=slug)))
                self._unique(seen, slug, where)
        tournament = document["tournament"]
        if (tournament.get("qualify_slots") is None) != (not tournament.get("qualify_event")):
            self.errors.append(
                RuleError(
                    ("tournament", "qualify_slots"),
                    _("give the qualification slots and the event they qualify for together."),
                )
            )
        return slugs

    def _stages(self, stages: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
        """The stages by number; their settings as the stage form checks them, the side
        event's source, their entry lists."""
        numbers: set[int] = set()
        by_number: dict[int, dict[str, Any]] = {}
        for i, stage in enumerate(stages):
            self._unique(numbers, stage["number"], ("stages", i, "number"))
            by_number.setdefault(stage["number"], stage)
        for i, stage in enumerate(stages):
            path = ("stages", i)
            side = stage["kind"] == Stage.Kind.SIDE
            try:
                stage_settings_checked(
                    {
                        **{field: stage[field] for field in STAGE_FIELDS},
                        # Optional: files written before stages had it leave it out.
                        "rounds_planned": stage.get("rounds_planned"),
                    },
                    stage["number"],
                    [],
                    side=side,
                )
            except RuleError as exc:
                self.errors += [RuleError((*path, *e.path), e.message) for e in exc.flatten()]
            self._side_of(stage, by_number, side, (*path, "side_of"))
            self._stage_division(stage, side, (*path, "division"))
            entered: set[int] = set()
            for e, entry in enumerate(stage["entries"]):
                where = (*path, "entries", e, "player")
                if self._known(entry["player"], where):
                    self._unique(entered, entry["player"], where)
        return by_number

    def _stage_division(self, stage: dict[str, Any], side: bool, path: tuple) -> None:
        """A later main stage may be limited to a division (its cut takes only that
        division's players); stage 1 and side events take no cut, so none."""
        slug = stage.get("division")
        if slug is None:
            return
        if slug not in self.divisions:
            self.errors.append(RuleError(path, _("no division {slug}.").format(slug=slug)))
        elif side or stage["number"] == 1:
            self.errors.append(
                RuleError(path, _("stage 1 and side events take no cut: no division limits them."))
            )

    def _side_of(
        self, stage: dict[str, Any], stages: dict[int, dict[str, Any]], side: bool, path: tuple
    ) -> None:
        source = stage["side_of"]
        if not side:
            if source is not None:
                self.errors.append(RuleError(path, _("only a side event comes from a stage.")))
            return
        if source is None:
            self.errors.append(RuleError(path, _("a side event names the stage it comes from.")))
        elif source not in stages or source >= stage["number"]:
            self.errors.append(
                RuleError(path, _("no stage {stage} before this one.").format(stage=source))
            )
        elif stages[source]["kind"] == Stage.Kind.SIDE:
            self.errors.append(
                RuleError(path, _("stage {stage} is a side event itself.").format(stage=source))
            )

    def _round(self, round_: dict[str, Any], path: tuple) -> None:
        tables: set[int] = set()
        seated: set[int] = set()
        for t, table in enumerate(round_["tables"]):
            where = (*path, "tables", t)
            self._unique(tables, table["number"], (*where, "number"))
            at_table: set[int] = set()
            positions: set[int] = set()
            for s, seat in enumerate(table["seats"]):
                self._seat(seat, (*where, "seats", s), positions, seated)
                at_table.add(seat["player"])
            games: set[int] = set()
            for g, game in enumerate(table["games"]):
                self._unique(games, game["number"], (*where, "games", g, "number"))
                self._game(game, (*where, "games", g), at_table)

    def _seat(self, seat: dict, path: tuple, positions: set[int], seated: set[int]) -> None:
        self._unique(positions, seat["position"], (*path, "position"))
        if self._known(seat["player"], (*path, "player")) and seat["player"] in seated:
            self.errors.append(
                RuleError(
                    (*path, "player"),
                    _("player {player} has two seats.").format(player=seat["player"]),
                )
            )
        seated.add(seat["player"])
        if (seat["absent_from"] is None) != (seat["absence"] == ""):
            self.errors.append(
                RuleError((*path, "absence"), _("give absent_from and absence together."))
            )

    def _game(self, game: dict[str, Any], path: tuple, at_table: set[int]) -> None:
        versions: set[int] = set()
        confirmed = 0
        for r, result in enumerate(game["results"]):
            self._unique(versions, result["version"], (*path, "results", r, "version"))
            confirmed += result["status"] == Result.Status.CONFIRMED
            if confirmed > 1 and result["status"] == Result.Status.CONFIRMED:
                self.errors.append(
                    RuleError((*path, "results", r, "status"), _("a second confirmed version."))
                )
            racked: set[int] = set()
            for k, rack in enumerate(result["racks"]):
                where = (*path, "results", r, "racks", k)
                self._unique(racked, rack["player"], (*where, "player"))
                self._at_table(rack["player"], (*where, "player"), at_table)
                if rack["forfeit"] and rack["substitute"]:
                    self.errors.append(
                        RuleError((*where, "substitute"), _("a forfeited seat has no substitute."))
                    )
        for p, penalty in enumerate(game["penalties"]):
            self._penalty(penalty, (*path, "penalties", p), at_table)
        extended: set[int] = set()
        for e, extension in enumerate(game["extensions"]):
            where = (*path, "extensions", e, "player")
            self._unique(extended, extension["player"], where)
            self._at_table(extension["player"], where, at_table)

    def _at_table(self, player: int, path: tuple, at_table: set[int]) -> None:
        if self._known(player, path) and player not in at_table:
            self.errors.append(
                RuleError(
                    path, _("player {player} is not seated at this table.").format(player=player)
                )
            )

    def _penalty(self, penalty: dict[str, Any], path: tuple, at_table: set[int]) -> None:
        self._at_table(penalty["player"], (*path, "player"), at_table)
        sanction = penalty["kind"] == Penalty.Kind.SANCTION
        if sanction != (penalty["points"] > 0):
            self.errors.append(
                RuleError((*path, "points"), _("a sanction has points; other penalties none."))
            )
        if penalty["voided"] != (penalty["voided_at"] is not None):
            self.errors.append(
                RuleError((*path, "voided_at"), _("a voided penalty says when, only it."))
            )


def _rules_errors(tournament: dict[str, Any]) -> list[RuleError]:
    errors: list[RuleError] = []
    try:
        RuleSet.from_dict(tournament["rules"])
    except RuleError as exc:
        errors += [RuleError(("tournament", *e.path), e.message) for e in exc.flatten()]
    except TypeError as exc:
        errors.append(RuleError(("tournament", "rules"), str(exc)))
    try:
        validate_ranking(tournament["ranking"], ("tournament", "ranking"))
    except RuleError as exc:
        errors.append(exc)
    return errors


def event_file_problems(document: object) -> list[RuleError]:
    """Everything wrong with `document` as an event file (empty: it can be imported)."""
    errors = schema_errors(document)
    if errors:
        return errors
    assert isinstance(document, dict)
    return _rules_errors(document["tournament"]) + _References(document).errors


# --- import -------------------------------------------------------------------------------


def event_file_max_bytes() -> int:
    return getattr(settings, "EVENT_FILE_MAX_BYTES", MAX_EVENT_FILE_BYTES)


def event_file_size_check(size: int) -> None:
    """Refuse a file above `EVENT_FILE_MAX_BYTES`, naming the limit."""
    limit = event_file_max_bytes()
    if size > limit:
        raise RuleError(
            "file",
            _("is larger than {size} MiB, the most this site imports.").format(
                size=round(limit / (1024 * 1024), 1)
            ),
        )


def event_file_read(data: bytes) -> object:
    """The document in an uploaded file: UTF-8 JSON, at most `EVENT_FILE_MAX_BYTES`."""
    event_file_size_check(len(data))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RuleError("file", _("is not UTF-8 text.")) from None
    if json_depth(text) > MAX_EVENT_FILE_DEPTH:
        raise RuleError(
            "file",
            _("nests arrays and objects more than {depth} levels deep.").format(
                depth=MAX_EVENT_FILE_DEPTH
            ),
        )
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleError(
            "file",
            _("is not JSON: {problem} at line {line}.").format(problem=exc.msg, line=exc.lineno),
        ) from None
    except (ValueError, RecursionError):
        # A number of more digits than Python converts (sys.get_int_max_str_digits), or a
        # nesting the bracket count above did not see (it cannot: kept as a safety net).
        raise RuleError("file", _("holds a number too long to read.")) from None


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (without parsing it): the
    brackets outside strings, counted. Linear in the text's length, no recursion."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for bracket in brackets:
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _time(value: str | None) -> datetime | None:
    return None if value is None else parse_datetime(value)


@transaction.atomic
def event_file_import(*, by: User, document: object, slug: str | None = None) -> Tournament:
    """A new tournament from an event file, `by` its organiser; under `slug` when given,
    else under the document's. One transaction: nothing is saved unless all of it is."""
    if signed_in_or_none(by) is None or not getattr(by, "is_active", False):
        raise PermissionDenied(_("Sign in to import a tournament."))
    if slug and (slugify(slug) != slug or len(slug) > max_length_of(Tournament, "slug")):
        raise RuleError("slug", _("use lowercase letters, digits and hyphens only."))
    raise_all(event_file_problems(document))
    assert isinstance(document, dict)
    data = document["tournament"]
    slug = slug or data["slug"]
    taken = Conflict(
        ("tournament", "slug"),
        _("a tournament with slug '{slug}' already exists.").format(slug=slug),
    )
    if Tournament.objects.filter(slug=slug).exists():
        raise taken
    tournament = stamp_history_user(
        Tournament(
            slug=slug,
            **{field: data[field] for field in TOURNAMENT_FIELDS if field != "rules"},
            # Every option stored, as a tournament made here stores them: a file written
            # before an option existed (placement_points) gets its default.
            rules=RuleSet.from_dict(data["rules"]).as_dict(),
            starts_on=parse_date(data["starts_on"]) if data["starts_on"] else None,
            first_result_at=_time(data["first_result_at"] or _first_result(document)),
            qualify_slots=data.get("qualify_slots"),
            qualify_event=data.get("qualify_event") or "",
            target_games_cap=data.get("target_games_cap"),
        ),
        by,
    )
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError:
        raise taken from None  # taken meanwhile by a tournament created at the same moment
    stamp_history_user(
        StaffMember(tournament=tournament, user=by, role=StaffMember.Role.ORGANISER), by
    ).save()
    divisions = _divisions_in(tournament, document.get("divisions", []))
    players = _players_in(tournament, document["players"], divisions)
    Absence.objects.bulk_create(
        Absence(tournament=tournament, round_number=a["round"], player=players[a["player"]])
        for a in document["absences"]
    )
    stages = _stages_in(tournament, document.get("stages", []), players, divisions)
    _rounds_in(tournament, document["rounds"], players, stages, by)
    results_changed(tournament)
    return tournament


def _first_result(document: dict[str, Any]) -> str | None:
    """When the first result was entered, for a document that does not say: the rules
    of a tournament with results are frozen, whoever wrote the file."""
    times = [
        result["submitted_at"]
        for round_ in document["rounds"]
        for table in round_["tables"]
        for game in table["games"]
        for result in game["results"]
    ]
    return min(times, key=_time) if times else None


def _divisions_in(tournament: Tournament, rows: list[dict[str, Any]]) -> dict[str, Division]:
    divisions = Division.objects.bulk_create(
        Division(
            tournament=tournament,
            slug=row["slug"],
            name=row["name"].strip(),
            order=row["order"],
            prizes=row["prizes"],
        )
        for row in rows
    )
    timed = [(d, row.get("created_at")) for d, row in zip(divisions, rows, strict=True)]
    timed = [(division, at) for division, at in timed if at]
    _keep_times([division for division, at in timed], "created_at", (at for d, at in timed))
    return {d.slug: d for d in divisions}


def _people_by_federation_id(rows: list[dict[str, Any]]) -> dict[str, int]:
    """The persons of this site whose federation id a player of the file names (one query);
    merged duplicates hold none."""
    ids = {(row.get("person") or {}).get("federation_id", "") for row in rows} - {""}
    return dict(Person.objects.filter(federation_id__in=ids).values_list("federation_id", "pk"))


def _person_by_federation_id(row: dict[str, Any], people: dict[str, int]) -> int | None:
    """A file's player is linked to a person here by federation id only, never by name;
    a federation id two players of the file share links the first (a person plays once)."""
    federation_id = (row.get("person") or {}).get("federation_id", "")
    return people.pop(federation_id, None) if federation_id else None


def _players_in(
    tournament: Tournament, rows: list[dict[str, Any]], divisions: dict[str, Division]
) -> dict[int, Player]:
    people = _people_by_federation_id(rows)
    players = Player.objects.bulk_create(
        Player(
            tournament=tournament,
            **{f: row[f] for f in ("number", "name", "club", "rating", "status", "lot")},
            fixed_table=row["fixed_table"],
            joined_round=row["joined_round"],
            already_qualified=row.get("already_qualified", False),
            person_id=_person_by_federation_id(row, people),
        )
        for row in rows
    )
    _keep_times(players, "registered_at", (row["registered_at"] for row in rows))
    Player.divisions.through.objects.bulk_create(
        Player.divisions.through(player_id=player.pk, division_id=divisions[slug].pk)
        for player, row in zip(players, rows, strict=True)
        for slug in row.get("divisions", [])
    )
    return {p.number: p for p in players}


def _keep_times(objects: list[Any], field: str, values: Iterator[str] | Iterable[str]) -> None:
    """Put back the document's times where `auto_now_add` stamped the time of the import."""
    if not objects:
        return
    for obj, value in zip(objects, values, strict=True):
        setattr(obj, field, _time(value))
    type(objects[0]).objects.bulk_update(objects, [field], batch_size=500)


def _stages_in(
    tournament: Tournament,
    rows: list[dict[str, Any]],
    players: dict[int, Player],
    divisions: dict[str, Division],
) -> dict[int, Stage]:
    """The stages by number with their entry lists: the main stages first, then the side
    events, which point at them (`side_of`)."""

    def stage(row: dict[str, Any], side_of: Stage | None = None) -> Stage:
        return Stage(
            tournament=tournament,
            number=row["number"],
            status=row["status"],
            side_of=side_of,
            division=divisions[row["division"]] if row.get("division") else None,
            rounds_planned=row.get("rounds_planned"),
            **{field: row[field] for field in STAGE_FIELDS},
        )

    main = [row for row in rows if row["kind"] != Stage.Kind.SIDE]
    stages = {s.number: s for s in Stage.objects.bulk_create(stage(row) for row in main)}
    side = [row for row in rows if row["kind"] == Stage.Kind.SIDE]
    stages |= {
        s.number: s
        for s in Stage.objects.bulk_create(stage(row, stages[row["side_of"]]) for row in side)
    }
    timed = [row for row in main + side if row.get("created_at")]
    _keep_times(
        [stages[row["number"]] for row in timed], "created_at", (r["created_at"] for r in timed)
    )
    StageEntry.objects.bulk_create(
        StageEntry(
            stage=stages[row["number"]],
            player=players[entry["player"]],
            seed_rank=entry["seed_rank"],
            carried=entry["carried"],
        )
        for row in rows
        for entry in row["entries"]
    )
    return stages


def _rounds_in(
    tournament: Tournament,
    rows: list[dict[str, Any]],
    players: dict[int, Player],
    stages: dict[int, Stage],
    by: User,
) -> None:
    """Rounds, then tables, seats and games, then results, racks, penalties and
    extensions: one bulk insert per kind (ids come back from PostgreSQL and SQLite)."""
    rounds = Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=r["number"],
            stage=stages[r["stage"]] if r.get("stage") is not None else None,
            method=r["method"],
            seed=r["seed"],
            quality=r["quality"],
            ends_at=_time(r["ends_at"]),
            created_by=by,
        )
        for r in rows
    )
    _keep_times(rounds, "created_at", (r["created_at"] for r in rows))
    pairs = [
        (Table(round=round_, number=t["number"]), t)
        for round_, r in zip(rounds, rows, strict=True)
        for t in r["tables"]
    ]
    Table.objects.bulk_create(table for table, _ in pairs)
    Seat.objects.bulk_create(
        Seat(
            table=table,
            round_id=table.round_id,
            player=players[s["player"]],
            position=s["position"],
            absent_from=s["absent_from"],
            absence=s["absence"],
        )
        for table, t in pairs
        for s in t["seats"]
    )
    games = [
        (Game(table=table, number=g["number"], starter_position=g["starter_position"]), g)
        for table, t in pairs
        for g in t["games"]
    ]
    Game.objects.bulk_create(game for game, _ in games)
    _results_in(games, players, by)
    _penalties_in(games, players, by)
    Extension.objects.bulk_create(
        Extension(game=game, player=players[e["player"]], used=e["used"], recorded_by=by)
        for game, g in games
        for e in g["extensions"]
    )


def _results_in(games: list[tuple[Game, dict]], players: dict[int, Player], by: User) -> None:
    pairs = [
        (
            Result(
                game=game,
                version=r["version"],
                end=r["end"],
                status=r["status"],
                submitted_by=by,
                confirmed_by=by if r["confirmed_at"] else None,
                confirmed_at=_time(r["confirmed_at"]),
                submitted_at=_time(r["submitted_at"]),
            ),
            r,
        )
        for game, g in games
        for r in g["results"]
    ]
    Result.objects.bulk_create(result for result, _ in pairs)
    _insert_rows(
        RackEntry,
        ("result", "player", *RACK_FIELDS),
        (
            (result.pk, players[rack["player"]].pk, *(rack[f] for f in RACK_FIELDS))
            for result, r in pairs
            for rack in r["racks"]
        ),
    )


def _insert_rows(model: type, fields: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """Insert `rows` (values of `fields`, in order) into `model`'s table in one
    `executemany`. For the racks, four per result: the ORM's `bulk_create` spent most of
    an import compiling their SQL value by value; the values here are plain numbers,
    text, booleans and ids, which need no conversion, and the database's own constraints
    still hold every row."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(model._meta.get_field(f).column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(rows))


def _penalties_in(games: list[tuple[Game, dict]], players: dict[int, Player], by: User) -> None:
    rows = [(game, p) for game, g in games for p in g["penalties"]]
    Penalty.objects.bulk_create(
        Penalty(
            game=game,
            player=players[p["player"]],
            kind=p["kind"],
            tiles_drawn=p["tiles_drawn"],
            points=p["points"],
            note=p["note"],
            recorded_by=by,
            voided=p["voided"],
            voided_by=by if p["voided"] else None,
            voided_at=_time(p["voided_at"]),
            recorded_at=_time(p["recorded_at"]),
        )
        for game, p in rows
    )
