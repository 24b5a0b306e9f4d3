"""Reading an event file back: its size and depth refused before it is parsed, then the
whole tournament imported as a new one in one transaction (`event_file_import`), its
standings recomputed from the results.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any, cast

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, connection, models, transaction
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError, raise_all
from scoring.placement import Finish, finishes
from scoring.rules import RuleSet
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
from tournaments.permissions import SignedIn, User, signed_in
from tournaments.services.validation import max_length_of, signed_in_or_none, stamp_history_user

from ...models import Extension, Game, Penalty, RackEntry, Result, Seat, Table
from .check import event_file_problems
from .schema import RACK_FIELDS, STAGE_FIELDS, STAGE_GRAPH_FIELDS, TOURNAMENT_FIELDS

# The largest event file an import reads by default (setting `EVENT_FILE_MAX_BYTES`; a
# weekend open of 200 players x 7 rounds is some 1.5 MiB).
MAX_EVENT_FILE_BYTES = 16 * 1024 * 1024


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


def _stamp(value: str | None) -> datetime:
    """A time the file must give (a result's entry, a penalty's record): the schema
    requires it as a date-time, so `_time` finds one."""
    return cast(datetime, _time(value))


@transaction.atomic
def event_file_import(*, by: User, document: object, slug: str | None = None) -> Tournament:
    """A new tournament from an event file, `by` its organiser; under `slug` when given,
    else under the document's. One transaction: nothing is saved unless all of it is."""
    if signed_in_or_none(by) is None or not getattr(by, "is_active", False):
        raise PermissionDenied(_("Sign in to import a tournament."))
    by = signed_in(by)  # refused just above when anonymous
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
    if document["tournament"].get("qualify_stage") in stages:
        tournament.qualify_stage = stages[document["tournament"]["qualify_stage"]]
        tournament.save(update_fields=["qualify_stage"])
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
    return min(times, key=_stamp) if times else None


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
    kept = [(division, at) for division, at in timed if at]
    _keep_times([division for division, at in kept], "created_at", (at for d, at in kept))
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
        built = Stage(
            tournament=tournament,
            number=row["number"],
            status=row["status"],
            side_of=side_of,
            division=divisions[row["division"]] if row.get("division") else None,
            rounds_planned=row.get("rounds_planned"),
            **{field: row[field] for field in STAGE_FIELDS},
            **{f: row.get(f, d) for f, d in STAGE_GRAPH_FIELDS.items()},
            final_order=[
                [rank, players[player].pk] for rank, player in row.get("final_order") or []
            ],
        )
        if not built.entry and built.number > 1 and built.kind != Stage.Kind.SIDE:
            built.entry = "top" if built.cut_top is not None else "min_score"
        return built

    main = [row for row in rows if row["kind"] != Stage.Kind.SIDE]
    stages = {s.number: s for s in Stage.objects.bulk_create(stage(row) for row in main)}
    side = [row for row in rows if row["kind"] == Stage.Kind.SIDE]
    stages |= {
        s.number: s
        for s in Stage.objects.bulk_create(stage(row, stages[row["side_of"]]) for row in side)
    }
    sourced = [stages[row["number"]] for row in main if row.get("source")]
    for row in main:
        if row.get("source"):
            stages[row["number"]].source = stages[row["source"]]
    if sourced:
        Stage.objects.bulk_update(sourced, ["source"])
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
    by: SignedIn,
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


def _results_in(games: list[tuple[Game, dict]], players: dict[int, Player], by: SignedIn) -> None:
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
                submitted_at=_stamp(r["submitted_at"]),
            ),
            r,
        )
        for game, g in games
        for r in g["results"]
    ]
    Result.objects.bulk_create(result for result, _ in pairs)
    _insert_rows(
        RackEntry,
        ("result", "player", *RACK_FIELDS, *Finish._fields),
        (
            (
                result.pk,
                players[rack["player"]].pk,
                *(rack[f] for f in RACK_FIELDS),
                *placed[rack["player"]],
            )
            for result, r in pairs
            for placed in [_finishes(r["racks"])]
            for rack in r["racks"]
        ),
    )


def _finishes(racks: list[dict]) -> dict[int, Finish]:
    """Each rack's finish in its game, placed by the engine as a result entered here is
    (the file does not carry it: it follows from the racks' scores and winners)."""
    return finishes(
        {rack["player"]: rack["score"] for rack in racks},
        {rack["player"] for rack in racks if rack["winner"]},
    )


def _column(model: type[models.Model], name: str) -> str:
    """The column of one of the model's own fields (`_insert_rows` names no relation's
    reverse side, which has none)."""
    return cast(str, cast(models.Field, model._meta.get_field(name)).column)


def _insert_rows(model: type[models.Model], fields: tuple[str, ...], rows: Iterable[tuple]) -> None:
    """Insert `rows` (values of `fields`, in order) into `model`'s table in one
    `executemany`. For the racks, four per result: the ORM's `bulk_create` spent most of
    an import compiling their SQL value by value; the values here are plain numbers,
    text, booleans and ids, which need no conversion, and the database's own constraints
    still hold every row."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = ", ".join(quote(_column(model, f)) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(rows))


def _penalties_in(games: list[tuple[Game, dict]], players: dict[int, Player], by: SignedIn) -> None:
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
            recorded_at=_stamp(p["recorded_at"]),
        )
        for game, p in rows
    )
