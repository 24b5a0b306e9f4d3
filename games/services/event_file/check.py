"""Checking an event file before it is read: the JSON Schema, then the references between
its parts (start numbers, stages, versions of a result) and the rules it names. Each
problem is a `RuleError` naming its JSON path (`event_file_problems`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import jsonschema_rs
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator, FormatChecker

from scoring.errors import RuleError
from scoring.rules import RuleSet
from scoring.standings import validate_ranking
from tournaments.models import Stage
from tournaments.services.divisions import SLUG as DIVISION_SLUG
from tournaments.services.stages import stage_settings_checked

from ...models import Penalty, Result
from .schema import STAGE_FIELDS, STAGE_GRAPH_FIELDS, event_file_schema

# The most schema problems one answer lists (a person fixes the first ones and retries).
MAX_SCHEMA_ERRORS = 20


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


def _false_when_raising(check: Callable[[object], bool]) -> Callable[[object], bool]:
    """`check` for jsonschema-rs, which, unlike jsonschema, lets a check's exception escape:
    a well-formed but impossible time ("2026-13-40T25:00:00Z": `parse_datetime` raises)
    fails the format instead of crashing the import."""

    def checked(value: object) -> bool:
        try:
            return check(value)
        except ValueError:
            return False

    return checked


@cache
def _fast_validator() -> jsonschema_rs.Draft202012Validator:
    """The schema compiled once per process by jsonschema-rs (Rust): it says whether a
    document is valid some 50 times faster than the pure-Python validator, with the same
    format checks."""
    return jsonschema_rs.Draft202012Validator(
        event_file_schema(),
        formats={"date-time": _false_when_raising(_is_time), "date": _false_when_raising(_is_date)},
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
        numbers = {stage.get("number") for stage in document.get("stages", [])}
        if (
            tournament.get("qualify_stage") is not None
            and tournament["qualify_stage"] not in numbers
        ):
            self.errors.append(
                RuleError(
                    ("tournament", "qualify_stage"),
                    _("no stage {stage} in the file.").format(stage=tournament["qualify_stage"]),
                )
            )
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
                        **{f: stage.get(f, d) for f, d in STAGE_GRAPH_FIELDS.items()},
                        "source": stage.get("source"),
                    },
                    stage["number"],
                    [],
                    side=side,
                )
            except RuleError as exc:
                self.errors += [RuleError((*path, *e.path), e.message) for e in exc.flatten()]
            self._side_of(stage, by_number, side, (*path, "side_of"))
            self._stage_division(stage, side, (*path, "division"))
            source = stage.get("source")
            if source is not None and (
                source not in by_number
                or source >= stage["number"]
                or by_number[source]["kind"] == Stage.Kind.SIDE
            ):
                self.errors.append(
                    RuleError(
                        (*path, "source"),
                        _("no main stage {stage} before this one.").format(stage=source),
                    )
                )
            for o, (_rank, player) in enumerate(stage.get("final_order") or []):
                self._known(player, (*path, "final_order", o))
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
