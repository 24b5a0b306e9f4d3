"""Writes for a tournament's players: register, change, import a CSV, delete one never
seated — each one transaction, refused first to anyone but the tournament's organisers.
`tournaments.words.same_name_warning` says when a name is registered already (a warning,
not a refusal: two players may share a name).

Errors name the field, or for a CSV the line: "line 4: rating 'abc' must be a whole
number."; a CSV is imported whole or not at all, in bulk (one insert for the players, one
for their history rows), and at most `settings.CSV_IMPORT_MAX_ROWS` rows at a time. Its
delimiter (`,` `;` or tab, `tournaments.csv_files`) is read off the header row.

Not checked here: who sits where (the draw, `games.services.rounds`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from django.db import IntegrityError, connection, transaction
from django.db.models import Max, ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError, RuleErrors, raise_all

from ..csv_files import (
    DELIMITERS,
    CSVTable,
    RowError,
    line_of,
    read_csv_table,
    row_error,
    too_many_cells,
)
from ..csv_files import MAX_CSV_BYTES as MAX_CSV_BYTES  # where the views read it
from ..events import results_changed
from ..lifecycle import require_open
from ..models import Club, Division, Member, Player, Round, Tournament
from ..permissions import User, require
from .clubs import club_member, member_link_check
from .divisions import divisions_of, pages_moved, set_divisions
from .validation import (
    choice,
    collect,
    max_length_of,
    signed_in_or_none,
    stamp_history_user,
    text,
    whole_number_between,
)

MAX_RATING = 10_000
CSV_COLUMNS = ("name", "club", "rating", "member", "divisions")
# A `divisions` cell names its divisions' slugs apart by spaces, `|` or `/` (the cells
# themselves are apart by `,` `;` or tab).
CSV_DIVISIONS_SPLIT = re.compile(r"[\s|/]+")
# Rows per INSERT statement of an import: well inside any driver's parameter limit.
IMPORT_BATCH = 1000
UPDATABLE = {
    *("name", "club", "rating", "status", "fixed_table", "number"),
    *("divisions", "member", "already_qualified"),
}
# Tables are numbered 1 up; a club hall has far fewer than this.
MAX_FIXED_TABLE = 500
# Start numbers are printed on table sheets and typed on phones: a few digits at most.
MAX_START_NUMBER = 99_999


def _player_fields(values: Mapping[str, Any]) -> dict[str, Any]:
    """Validate name/club/rating/status; raises all problems at once."""
    cleaned: dict[str, Any] = {}
    errors: list[RuleError] = []
    for field, required in (("name", True), ("club", False)):
        if field in values:
            cleaned[field] = collect(
                errors,
                text,
                field,
                values[field],
                max_length=max_length_of(Player, field),
                required=required,
            )
    if "rating" in values:
        cleaned["rating"] = collect(
            errors,
            whole_number_between,
            "rating",
            values["rating"],
            low=0,
            high=MAX_RATING,
            nullable=True,
        )
    if "status" in values:
        cleaned["status"] = collect(errors, choice, "status", values["status"], Player.Status)
    if "fixed_table" in values:
        # A mobility need: the draw seats this player at this table number every round.
        cleaned["fixed_table"] = collect(
            errors,
            whole_number_between,
            "fixed_table",
            values["fixed_table"],
            low=1,
            high=MAX_FIXED_TABLE,
            nullable=True,
        )
    if "already_qualified" in values:
        # Qualified at an earlier event: passes a qualification slot down (the standings).
        if isinstance(values["already_qualified"], bool):
            cleaned["already_qualified"] = values["already_qualified"]
        else:
            errors.append(RuleError("already_qualified", _("must be true or false.")))
    if "number" in values:
        cleaned["number"] = collect(
            errors,
            whole_number_between,
            "number",
            values["number"],
            low=1,
            high=MAX_START_NUMBER,
            nullable=False,
        )
    raise_all(errors)
    return cleaned


def joined_round_now(tournament: Tournament) -> int | None:
    """The round a player registered now joins from: the next one once round 1 exists
    (a late entry), else None (from the start). Under the tournament row lock."""
    top = tournament.rounds.aggregate(top=Max("number"))["top"]
    return None if top is None else top + 1


def _next_numbers(tournament: Tournament, count: int) -> range:
    # The tournament row lock serialises numbering between concurrent registrations.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    top = tournament.players.aggregate(top=Max("number"))["top"] or 0
    return range(top + 1, top + 1 + count)


def _lock(tournament: Tournament | int) -> Tournament:
    """The tournament row, locked and freshly read: its status is the one that counts, and
    a "finish" at the same moment waits for this write (or this write for it)."""
    pk = tournament.pk if isinstance(tournament, Tournament) else tournament
    return Tournament.objects.select_for_update().get(pk=pk)


@transaction.atomic
def player_register(
    *,
    tournament: Tournament,
    by: User,
    name: str,
    club: str = "",
    rating: int | None = None,
    fixed_table: int | None = None,
    divisions: object = None,
    member: object = None,
) -> Player:
    """Register one player; start numbers count up from 1. Late entries are welcome: one
    registered once round 1 exists joins from the next round (`joined_round`), and the
    rounds before it count as the tournament's `missed_rounds` says. `fixed_table`: the
    table number they always sit at (a mobility need), or None. `divisions`: the slugs
    (or rows) of the tournament's divisions they are in. `member`: the id of a member of
    the tournament's club to link them to (`clubs.member_link_check`), or None; a blank
    name is then the member's name (picking a member from the list is enough)."""
    require(by, tournament, "organise")
    require_open(_lock(tournament))
    errors: list[RuleError] = []
    linked = collect(errors, _member, tournament, member, None)
    if linked is not None and isinstance(name, str) and not name.strip():
        name = linked.name
    fields = collect(
        errors,
        _player_fields,
        {"name": name, "club": club, "rating": rating, "fixed_table": fixed_table},
    )
    chosen = collect(errors, divisions_of, tournament, divisions)
    raise_all(errors)
    (number,) = _next_numbers(tournament, 1)
    player = stamp_history_user(
        Player(
            tournament=tournament,
            number=number,
            joined_round=joined_round_now(tournament),
            member=linked,
            **fields,
        ),
        by,
    )
    player.save()
    set_divisions(player, chosen)
    results_changed(tournament)
    return player


def _member(tournament: Tournament, member_id: object, player: Player | None) -> Member | None:
    """The member `member_id` names, if the player may be linked to them (the club
    services' rule, as the links page applies it)."""
    member = club_member(tournament, member_id)
    member_link_check(tournament, member, player)
    return member


@transaction.atomic
def player_update(*, player: Player, by: User, **changes: Any) -> Player:
    """Change a player's name, club, rating, fixed table, start number, status (withdraw /
    reinstate) or linked member (an id, None: unlinked), before or during the event; the
    history keeps who changed what when. A start number another player has is refused
    (`number`): numbers stay unique."""
    require(by, player.tournament, "organise")
    # The tournament row before the player's (the one lock order, `games.services.locks`):
    # the standings count below updates it, and a delete of the tournament locks it first.
    tournament = _lock(player.tournament_id)
    require_open(tournament)
    raise_all([RuleError(f, _("cannot be changed.")) for f in sorted(set(changes) - UPDATABLE)])
    errors: list[RuleError] = []
    chosen = (
        collect(errors, divisions_of, player.tournament, changes.pop("divisions"))
        if "divisions" in changes
        else None
    )
    linking = "member" in changes
    member = (
        collect(errors, _member, tournament, changes.pop("member"), player) if linking else None
    )
    fields = collect(errors, _player_fields, changes) or {}
    raise_all(errors)
    if linking:
        fields["member"] = member
    if fields.get("number", player.number) != player.number:
        _number_free(player, fields["number"])
    # A member link changes what the club's season and ratings read: a change of results
    # (as `clubs.player_link`).
    standing_change = any(
        getattr(player, field) != value
        for field, value in fields.items()
        if field not in ("rating", "fixed_table")
    )
    for field, value in fields.items():
        setattr(player, field, value)
    try:
        with transaction.atomic():  # a savepoint: the unique index is the last word
            stamp_history_user(player, by).save()
    except IntegrityError:
        if "number" not in fields:
            raise  # some other constraint: not ours to explain
        raise RuleError(
            "number", _("#%(number)s is taken already.") % {"number": fields["number"]}
        ) from None
    if chosen is not None and set_divisions(player, chosen) and not standing_change:
        pages_moved(player.tournament)  # a division's standings list them now, or no more
    if standing_change:
        # Standings rows show names, clubs and who withdrew.
        results_changed(player.tournament)
    return player


def _number_free(player: Player, number: int) -> None:
    """A start number no other player of the tournament has (the tournament row is locked,
    so no registration can take it before this change is saved)."""
    other = player.tournament.players.filter(number=number).exclude(pk=player.pk).first()
    if other is not None:
        raise RuleError(
            "number",
            _("#%(number)s is %(player)s's start number already; choose a free one.")
            % {"number": number, "player": other.name},
        )


@transaction.atomic
def player_delete(*, player: Player, by: User) -> None:
    """Delete a player entered by mistake, who has never been seated. One who has a seat
    (in any round, played or not) is kept: a `Conflict` on `player` says to withdraw them
    instead. Their start number stays taken unless they were the last one registered."""
    require(by, player.tournament, "organise")
    tournament = _lock(player.tournament_id)
    require_open(tournament)
    try:
        # The seats (and racks, penalties) of the games app protect their player: the
        # database's own refusal, so nothing here needs to know those rows.
        with transaction.atomic():
            stamp_history_user(player, by).delete()
    except ProtectedError as error:
        round_ids = {getattr(row, "round_id", None) for row in error.protected_objects}
        first = (
            Round.objects.filter(pk__in={pk for pk in round_ids if pk is not None})
            .order_by("number")
            .first()
        )
        names = {"number": player.number, "name": player.name}
        if first is None:
            message = _("#%(number)s %(name)s has played or been seated; withdraw instead.")
        else:
            names["round"] = first.number
            message = _(
                "#%(number)s %(name)s has played or been seated in round %(round)s; "
                "withdraw instead."
            )
        raise Conflict("player", message % names) from None
    results_changed(tournament)


def _csv_table(data: bytes | str) -> CSVTable:
    """The header and rows of a player CSV; the size, the row count and the header must be
    right before any row is looked at."""
    return read_csv_table(data, columns=CSV_COLUMNS, rows="player rows")


def _csv_divisions(
    tournament: Tournament, table: CSVTable, errors: list[RuleError]
) -> dict[int, list[Division]]:
    """The divisions the rows' `divisions` cells name, by line; adds to `errors` every
    slug the tournament has no division for."""
    if "divisions" not in table.header:
        return {}
    column = table.header.index("divisions")
    found: dict[int, list[Division]] = {}
    for line, cells in table.lines:
        cell = cells[column].strip() if column < len(cells) else ""
        slugs = [slug for slug in CSV_DIVISIONS_SPLIT.split(cell) if slug]
        if not slugs:
            continue
        try:
            found[line] = divisions_of(tournament, slugs)
        except RuleError as error:
            errors.extend(row_error(line, e) for e in error.flatten())
    return found


def _csv_row(line: int, header: list[str], cells: list[str]) -> dict[str, Any]:
    """One player row of the CSV, checked; every error names the line."""
    if len(cells) > len(header):
        raise too_many_cells(line, len(cells), len(header))
    values: dict[str, Any] = dict(zip(header, (c.strip() for c in cells), strict=False))
    values.pop("divisions", None)  # read by `_csv_divisions`
    rating = values.get("rating") or None
    try:
        values["rating"] = None if rating is None else int(rating)
    except ValueError:
        raise RowError(
            line,
            _("line %(line)s: rating '%(value)s' must be a whole number.")
            % {"line": line, "value": rating},
        ) from None
    try:
        return _player_fields(values)
    except RuleError as error:
        raise RuleErrors(row_error(line, e) for e in error.flatten()) from None


@dataclass(frozen=True)
class PlayersImport:
    """What an import registered, and the delimiter it read the file with."""

    players: list[Player]
    delimiter: str

    @property
    def delimiter_name(self) -> str:
        """The delimiter by name: comma, semicolon or tab."""
        return DELIMITERS[self.delimiter]


def _csv_members(
    tournament: Tournament, table: CSVTable, errors: list[RuleError]
) -> dict[int, Member]:
    """The members the rows' `member` cells name, by line; adds to `errors` every code not
    of the tournament's club, named twice, or of a member linked to a player already."""
    if "member" not in table.header:
        return {}
    column = table.header.index("member")
    codes = {
        line: cells[column].strip()
        for line, cells in table.lines
        if column < len(cells) and cells[column].strip()
    }
    if codes and tournament.club_id is None:
        line = min(codes)
        errors.append(
            RowError(
                line,
                _("line %(line)s: member — %(tournament)s is not under a club.")
                % {"line": line, "tournament": tournament.name},
            )
        )
        return {}
    club_members = (
        Member.objects.none()
        if tournament.club_id is None
        else Member.objects.filter(club_id=tournament.club_id, code__in=codes.values())
    )
    known = {member.code: member for member in club_members}
    taken = dict(
        tournament.players.filter(member__in=known.values()).values_list("member_id", "name")
    )
    found: dict[int, Member] = {}
    seen: dict[str, int] = {}
    for line, code in codes.items():
        member = known.get(code)
        names = {"line": line, "code": code}
        if member is None:
            names["club"] = cast(Club, tournament.club).name  # refused above when None
            message = _("line %(line)s: no member of %(club)s has the code '%(code)s'.")
        elif code in seen:
            names["first"] = seen[code]
            message = _("line %(line)s: member '%(code)s' is on line %(first)s already.")
        elif member.pk in taken:
            names |= {"member": member.name, "player": taken[member.pk]}
            message = _("line %(line)s: member %(member)s ('%(code)s') is already %(player)s.")
        else:
            found[line], seen[code] = member, line
            continue
        errors.append(RowError(line, message % names))
    return found


def _history_of_new_players(tournament: Tournament, numbers: range, by: User) -> None:
    """The history rows of the players just numbered `numbers` ("+", made by `by`, now),
    copied by one INSERT ... SELECT from their rows: what django-simple-history's
    `bulk_create_with_history` writes, without building a historical model per row in
    Python (half an import's time at 5,000 rows)."""
    history = Player.history.model
    tracked = [
        field.column
        for field in history._meta.concrete_fields
        if not field.column.startswith("history_")
    ]
    columns = ", ".join(connection.ops.quote_name(column) for column in tracked)
    user = signed_in_or_none(by)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {connection.ops.quote_name(history._meta.db_table)} "
            f"({columns}, history_date, history_change_reason, history_type, history_user_id) "
            f"SELECT {columns}, %s, NULL, '+', %s FROM "
            f"{connection.ops.quote_name(Player._meta.db_table)} "
            "WHERE tournament_id = %s AND number >= %s AND number < %s ORDER BY number",
            [
                timezone.now(),
                user.pk if user is not None else None,
                tournament.pk,
                numbers.start,
                numbers.stop,
            ],
        )


@transaction.atomic
def players_import_csv(*, tournament: Tournament, by: User, data: bytes | str) -> PlayersImport:
    """Register every row of a `name,club,rating,member,divisions` CSV (header row first)
    — all rows or none. `member` (optional) is a membership code of the tournament's club:
    the player is linked to that member. `divisions` (optional) names the slugs of the
    tournament's divisions the player is in, apart by spaces, `|` or `/`."""
    require(by, tournament, "organise")
    tournament = _lock(tournament)
    require_open(tournament)
    table = _csv_table(data)
    rows: list[dict[str, Any]] = []
    errors: list[RuleError] = []
    for line, cells in table.lines:
        row = collect(errors, _csv_row, line, table.header, cells)
        if row is not None:
            rows.append({**row, "line": line})
    members = _csv_members(tournament, table, errors)
    in_divisions = _csv_divisions(tournament, table, errors)
    if not rows and not errors:
        errors.append(RuleError("file", _("has no player rows.")))
    raise_all(sorted(errors, key=line_of))
    numbers = _next_numbers(tournament, len(rows))
    joined = joined_round_now(tournament)
    lines = [row.pop("line") for row in rows]
    players = Player.objects.bulk_create(
        [
            Player(
                tournament=tournament,
                number=n,
                joined_round=joined,
                member=members.get(line),
                **row,
            )
            for n, row, line in zip(numbers, rows, lines, strict=True)
        ],
        batch_size=IMPORT_BATCH,
    )
    _history_of_new_players(tournament, numbers, by)
    # The players' divisions, in one insert (ids are known: the players are saved).
    Player.divisions.through.objects.bulk_create(
        [
            Player.divisions.through(player_id=player.pk, division_id=division.pk)
            for player, line in zip(players, lines, strict=True)
            for division in in_divisions.get(line, [])
        ],
        batch_size=IMPORT_BATCH,
    )
    results_changed(tournament)
    return PlayersImport(players=players, delimiter=table.delimiter)
