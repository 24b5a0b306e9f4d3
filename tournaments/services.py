"""Writes for tournaments, staff, players and rounds — each one transaction.

Every function takes keyword arguments only, validates its whole input first (a
`RuleError` names the field and the problem, and nothing is saved), then writes. `by` is
the user doing it: history rows record who and when.
"""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Max
from django.utils.text import slugify

from scoring.errors import RuleError, raise_all
from scoring.rules import DEFAULT_PRESET, PRESET_RANKING, PRESET_TABLE_SIZE, resolve_rules
from scoring.seating import plan_rounds, seat_random, seat_swiss, table_rank_spreads
from scoring.seating import quality as seating_quality_figures
from scoring.standings import validate_ranking

from .models import Player, Round, SeatingPlan, StaffMember, Tournament

MAX_NAME = 100
# A club's player list is a few KB; a megabyte is surely a wrong file.
MAX_CSV_BYTES = 1024 * 1024
MAX_ROUNDS = 100


# --- small validators (shared by every write below) -------------------------------------


def _text(field: str, value: object, *, max_length: int, required: bool = True) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise RuleError(field, "must be text.")
    value = value.strip()
    if "\x00" in value:
        # No database column takes NUL characters (PostgreSQL refuses them outright).
        raise RuleError(field, "must not contain NUL characters.")
    if required and not value:
        raise RuleError(field, "is required.")
    if len(value) > max_length:
        raise RuleError(field, f"is {len(value)} characters long; at most {max_length} allowed.")
    return value


def _int(field: str, value: object, *, low: int, high: int, nullable: bool) -> int | None:
    if value is None:
        if nullable:
            return None
        raise RuleError(field, "is required.")
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(field, f"must be a whole number, not {value!r}.")
    if not low <= value <= high:
        raise RuleError(field, f"must be between {low} and {high}; got {value}.")
    return value


def _choice(field: str, value: object, choices: type) -> str:
    allowed = [c.value for c in choices]  # type: ignore[attr-defined]
    if value not in allowed:
        raise RuleError(field, f"{value!r} is not one of {', '.join(allowed)}.")
    return value  # type: ignore[return-value]


def stamp_history_user(instance: Any, by: Any) -> Any:
    """Tell django-simple-history who makes this change (API calls bypass its middleware)."""
    if by is not None and getattr(by, "is_authenticated", False):
        instance._history_user = by
    return instance


def bump_results_version(tournament: Tournament) -> None:
    """Count one more change that affects standings, in the caller's transaction."""
    Tournament.objects.filter(pk=tournament.pk).update(results_version=F("results_version") + 1)
    tournament.refresh_from_db(fields=["results_version"])
    # Imported here: the standings service imports this module.
    from scoring.services import standings_changed

    standings_changed(tournament)


# --- tournaments -------------------------------------------------------------------------


def _unique_slug(base: str) -> str:
    base = base[:50] or "tournament"
    slug, n = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _rule_overrides(rules: object) -> Mapping[str, Any]:
    """The `rules` a user sent: an object of option: value pairs (or nothing)."""
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise RuleError("rules", "must be an object of option: value pairs.")
    return rules


def _settings_errors(values: Mapping[str, Any]) -> list[RuleError]:
    """Check the plain settings shared by create and update; returns what is wrong."""
    checks = {
        "table_size": {"low": 2, "high": 4, "nullable": False},
        "games_per_table": {"low": 1, "high": 12, "nullable": True},
        "rounds_planned": {"low": 1, "high": MAX_ROUNDS, "nullable": True},
        "target_score": {"low": 1, "high": 1_000_000, "nullable": True},
    }
    errors: list[RuleError] = []
    for field, bounds in checks.items():
        if field in values:
            try:
                _int(field, values[field], **bounds)
            except RuleError as error:
                errors.append(error)
    for field in ("results_need_confirmation", "public"):
        if field in values and not isinstance(values[field], bool):
            errors.append(RuleError(field, "must be true or false."))
    starts_on = values.get("starts_on")
    if starts_on is not None and not isinstance(starts_on, date):
        errors.append(RuleError("starts_on", "must be a date (YYYY-MM-DD)."))
    return errors


@transaction.atomic
def tournament_create(
    *,
    by: Any,
    name: str,
    slug: str | None = None,
    starts_on: date | None = None,
    preset: str | None = None,
    rules: Mapping[str, Any] | None = None,
    ranking: Sequence[str] | None = None,
    table_size: int | None = None,
    games_per_table: int | None = None,
    rounds_planned: int | None = None,
    target_score: int | None = None,
    results_need_confirmation: bool = False,
    public: bool = True,
) -> Tournament:
    """Create a tournament from a preset plus single-option overrides; `by` organises it."""
    errors: list[RuleError] = []
    try:
        name = _text("name", name, max_length=120)
    except RuleError as error:
        errors.append(error)
    if slug:
        if slugify(slug) != slug or len(slug) > 60:
            errors.append(RuleError("slug", "use lowercase letters, digits and hyphens only."))
        elif Tournament.objects.filter(slug=slug).exists():
            errors.append(RuleError("slug", f"a tournament with slug '{slug}' already exists."))
    preset = preset or DEFAULT_PRESET
    rule_set = None
    try:
        rule_set = resolve_rules(preset, _rule_overrides(rules))
    except RuleError as error:
        errors.extend(error.flatten())
    try:
        ranking = validate_ranking(
            list(PRESET_RANKING.get(preset, ())) if ranking is None else ranking
        )
    except RuleError as error:
        errors.extend(error.flatten())
    if table_size is None:
        table_size = PRESET_TABLE_SIZE.get(preset, 4)
    errors += _settings_errors(
        {
            "table_size": table_size,
            "games_per_table": games_per_table,
            "rounds_planned": rounds_planned,
            "target_score": target_score,
            "results_need_confirmation": results_need_confirmation,
            "public": public,
            "starts_on": starts_on,
        }
    )
    raise_all(errors)
    assert rule_set is not None

    tournament = stamp_history_user(
        Tournament(
            slug=slug or _unique_slug(slugify(name)),
            name=name,
            starts_on=starts_on,
            rules=rule_set.as_dict(),
            ranking=list(ranking),
            table_size=table_size,
            games_per_table=games_per_table,
            rounds_planned=rounds_planned,
            target_score=target_score,
            results_need_confirmation=results_need_confirmation,
            public=public,
        ),
        by,
    )
    tournament.save()
    if _user_or_none(by) is not None:
        stamp_history_user(
            StaffMember(tournament=tournament, user=by, role=StaffMember.Role.ORGANISER), by
        ).save()
    return tournament


UPDATABLE = {
    "name",
    "starts_on",
    "status",
    "preset",
    "rules",
    "ranking",
    "table_size",
    "games_per_table",
    "rounds_planned",
    "target_score",
    "results_need_confirmation",
    "public",
}


def _overrides(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The options of stored rules that differ from their preset."""
    preset = resolve_rules(rules["preset"]).as_dict()
    return {k: v for k, v in rules.items() if k != "preset" and preset.get(k) != v}


def tournament_has_results(tournament: Tournament) -> bool:
    from games.models import Result

    return Result.objects.filter(game__table__round__tournament=tournament).exists()


@transaction.atomic
def tournament_update(*, tournament: Tournament, by: Any, **changes: Any) -> Tournament:
    """Change settings. Rules cannot change once a result exists; the slug never changes."""
    unknown = sorted(set(changes) - UPDATABLE)
    errors: list[RuleError] = [RuleError(f, "cannot be changed.") for f in unknown]
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if "name" in changes:
        try:
            changes["name"] = _text("name", changes["name"], max_length=120)
        except RuleError as error:
            errors.append(error)
    if "status" in changes:
        try:
            _choice("status", changes["status"], Tournament.Status)
        except RuleError as error:
            errors.append(error)
    errors += _settings_errors(changes)

    affects_standings = False
    if "preset" in changes or "rules" in changes:
        if tournament_has_results(tournament):
            field = "rules" if "rules" in changes else "preset"
            errors.append(RuleError(field, "rules cannot change once a result has been entered."))
        else:
            preset = changes.get("preset") or tournament.rules["preset"]
            try:
                overrides = dict(_rule_overrides(changes.get("rules")))
                if "preset" not in changes:
                    overrides = {**_overrides(tournament.rules), **overrides}
                changes["rules"] = resolve_rules(preset, overrides).as_dict()
            except RuleError as error:
                errors.extend(error.flatten())
    if "ranking" in changes:
        try:
            changes["ranking"] = list(validate_ranking(changes["ranking"]))
            affects_standings = changes["ranking"] != tournament.ranking
        except RuleError as error:
            errors.extend(error.flatten())
    raise_all(errors)

    changes.pop("preset", None)
    for field, value in changes.items():
        setattr(tournament, field, value)
    stamp_history_user(tournament, by).save()
    if affects_standings:
        bump_results_version(tournament)
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament, by: Any) -> None:
    """Delete a tournament that has no results yet; one with results is kept."""
    if tournament_has_results(tournament):
        raise RuleError((), "a tournament with entered results cannot be deleted.")
    stamp_history_user(tournament, by).delete()


@transaction.atomic
def staff_add(*, tournament: Tournament, by: Any, username: str, role: str) -> StaffMember:
    """Give a user a role in the tournament (or change the role they have)."""
    errors: list[RuleError] = []
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        errors.append(RuleError("username", f"there is no user named '{username}'."))
    try:
        _choice("role", role, StaffMember.Role)
    except RuleError as error:
        errors.append(error)
    raise_all(errors)
    member = StaffMember.objects.filter(tournament=tournament, user=user).first()
    if member is None:
        member = StaffMember(tournament=tournament, user=user, role=role)
    elif member.role != role:
        if (
            member.role == StaffMember.Role.ORGANISER
            and tournament.staff.filter(role=StaffMember.Role.ORGANISER).count() == 1
        ):
            raise RuleError("role", f"'{username}' is the only organiser; add another first.")
        member.role = role
    stamp_history_user(member, by).save()
    return member


# --- players -----------------------------------------------------------------------------


def _player_fields(values: Mapping[str, Any]) -> dict[str, Any]:
    """Validate name/club/rating; raises all problems at once."""
    cleaned: dict[str, Any] = {}
    errors: list[RuleError] = []
    for field, required in (("name", True), ("club", False)):
        if field in values:
            try:
                cleaned[field] = _text(field, values[field], max_length=MAX_NAME, required=required)
            except RuleError as error:
                errors.append(error)
    if "rating" in values:
        try:
            cleaned["rating"] = _int("rating", values["rating"], low=0, high=10_000, nullable=True)
        except RuleError as error:
            errors.append(error)
    if "status" in values:
        try:
            cleaned["status"] = _choice("status", values["status"], Player.Status)
        except RuleError as error:
            errors.append(error)
    raise_all(errors)
    return cleaned


def _next_numbers(tournament: Tournament, count: int) -> Iterable[int]:
    # The tournament row lock serialises numbering between concurrent registrations.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    top = tournament.players.aggregate(top=Max("number"))["top"] or 0
    return range(top + 1, top + 1 + count)


@transaction.atomic
def player_register(
    *, tournament: Tournament, by: Any, name: str, club: str = "", rating: int | None = None
) -> Player:
    """Register one player; start numbers count up from 1. Late entries are welcome."""
    fields = _player_fields({"name": name, "club": club, "rating": rating})
    (number,) = _next_numbers(tournament, 1)
    player = stamp_history_user(Player(tournament=tournament, number=number, **fields), by)
    player.save()
    bump_results_version(tournament)
    return player


@transaction.atomic
def player_update(*, player: Player, by: Any, **changes: Any) -> Player:
    """Change a player's name, club, rating or status (withdraw / reinstate)."""
    unknown = sorted(set(changes) - {"name", "club", "rating", "status"})
    raise_all([RuleError(f, "cannot be changed.") for f in unknown])
    fields = _player_fields(changes)
    standing_change = any(
        getattr(player, field) != value for field, value in fields.items() if field != "rating"
    )
    for field, value in fields.items():
        setattr(player, field, value)
    stamp_history_user(player, by).save()
    if standing_change:
        # Standings rows show names, clubs and who withdrew.
        bump_results_version(player.tournament)
    return player


def _decode_csv(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RuleError("file", "is not UTF-8 text; save the spreadsheet as CSV UTF-8.") from None


@transaction.atomic
def players_import_csv(*, tournament: Tournament, by: Any, data: bytes | str) -> list[Player]:
    """Register every row of a `name,club,rating` CSV (header row first) — all rows or none.

    Errors name the line: "line 4: rating 'abc' must be a whole number."
    """
    if len(data) > MAX_CSV_BYTES:
        raise RuleError("file", f"is larger than {MAX_CSV_BYTES // 1024} KiB.")
    text = _decode_csv(data)
    reader = csv.reader(io.StringIO(text))
    try:
        table = list(reader)
    except csv.Error as error:  # e.g. a cell longer than the csv module allows
        raise RuleError("file", f"line {reader.line_num}: {error}.") from None
    header = [h.strip().lower() for h in (table[0] if table else [])]
    if "name" not in header:
        raise RuleError("file", "line 1: the header row must name the columns name,club,rating.")
    unknown = [h for h in header if h not in {"name", "club", "rating"}]
    if unknown:
        raise RuleError("file", f"line 1: unknown column '{unknown[0]}'; use name,club,rating.")
    rows: list[dict[str, Any]] = []
    errors: list[RuleError] = []
    for line, cells in enumerate(table[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue  # blank lines are harmless
        if len(cells) > len(header):
            errors.append(
                RuleError("file", f"line {line}: {len(cells)} columns, header has {len(header)}.")
            )
            continue
        values: dict[str, Any] = dict(zip(header, (c.strip() for c in cells), strict=False))
        rating = values.get("rating") or None
        if rating is not None:
            try:
                values["rating"] = int(rating)
            except ValueError:
                errors.append(
                    RuleError("file", f"line {line}: rating '{rating}' must be a whole number.")
                )
                continue
        else:
            values["rating"] = None
        try:
            rows.append(_player_fields(values))
        except RuleError as error:
            errors += [
                RuleError("file", f"line {line}: {e.path[0]} {e.message}") for e in error.flatten()
            ]
    if not rows and not errors:
        errors.append(RuleError("file", "has no player rows."))
    raise_all(errors)
    numbers = _next_numbers(tournament, len(rows))
    players = [
        stamp_history_user(Player(tournament=tournament, number=n, **row), by)
        for n, row in zip(numbers, rows, strict=True)
    ]
    for player in players:
        player.save()
    bump_results_version(tournament)
    return players


# --- rounds ------------------------------------------------------------------------------


def starter_of(game_number: int, seats: int) -> int:
    """Game n of a series is started by seat ((n-1) mod seats) + 1."""
    return (game_number - 1) % seats + 1


def _check_manual_tables(
    tournament: Tournament, tables: object, active: Mapping[int, Player]
) -> list[list[int]]:
    """Every active player exactly once, tables of 2..table_size, nobody else."""
    if not isinstance(tables, list) or not tables:
        raise RuleError("tables", "list the tables, each a list of player ids.")
    errors: list[RuleError] = []
    known = dict(tournament.players.values_list("id", "status"))
    seen: set[int] = set()
    for index, table in enumerate(tables, start=1):
        if not isinstance(table, list) or any(
            isinstance(p, bool) or not isinstance(p, int) for p in table
        ):
            errors.append(RuleError("tables", f"table {index}: must be a list of player ids."))
            continue
        if not 2 <= len(table) <= tournament.table_size:
            errors.append(
                RuleError(
                    "tables",
                    f"table {index}: seats {len(table)} players; a table seats 2 to "
                    f"{tournament.table_size}.",
                )
            )
        for pid in table:
            if pid not in known:
                errors.append(RuleError("tables", f"table {index}: unknown player {pid}."))
            elif known[pid] != Player.Status.ACTIVE:
                errors.append(RuleError("tables", f"table {index}: player {pid} has withdrawn."))
            elif pid in seen:
                errors.append(RuleError("tables", f"table {index}: player {pid} is seated twice."))
            seen.add(pid)
    missing = [p for p in active if p not in seen]
    if missing:
        names = ", ".join(f"{p} ({active[p].name})" for p in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        errors.append(RuleError("tables", f"active players not seated: {names}{more}."))
    raise_all(errors)
    return tables  # type: ignore[return-value]


@transaction.atomic
def round_open(
    *,
    tournament: Tournament,
    by: Any,
    method: str = Round.Method.MANUAL,
    tables: object = None,
    seed: object = None,
) -> Round:
    """Open the next round: seat every active player and create the tables' games.

    `manual` takes `tables` (player ids per table, seat order); `random`, `swiss` and
    `plan` seat the round with `scoring.seating`, reproducibly from `seed` (drawn when
    not given and stored with the round). The seating's quality is stored with it.
    """
    from games.models import Game, Seat, Table

    method = _choice("method", method, Round.Method)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    active = {p.id: p for p in tournament.players.filter(status=Player.Status.ACTIVE)}
    if len(active) < 2:
        raise RuleError("method", "at least two active players are needed to open a round.")
    if method != Round.Method.MANUAL and tables is not None:
        raise RuleError("tables", f"'{method}' seating draws the tables itself; leave them out.")
    if seed is None:
        seed = secrets.randbelow(2**31)
    _int("seed", seed, low=0, high=2**62, nullable=False)
    number = (tournament.rounds.aggregate(top=Max("number"))["top"] or 0) + 1
    history = round_history(tournament, before=number)
    ranked = None
    if method == Round.Method.MANUAL:
        seating = _check_manual_tables(tournament, tables, active)
    elif method == Round.Method.RANDOM:
        seating = seat_random(list(active), history, tournament.table_size, seed).tables
    elif method == Round.Method.SWISS:
        ranked = ranked_players(tournament, active)
        seating = seat_swiss(ranked, history, tournament.table_size, seed).tables
    else:
        seating, seed = _planned_tables(tournament, number, list(active), history, seed)

    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        method=method,
        seed=None if method == Round.Method.MANUAL else seed,
        quality=_quality(seating, history, ranked),
        created_by=_user_or_none(by),
    )
    for table_number, player_ids in enumerate(seating, start=1):
        table = Table.objects.create(round=round_, number=table_number)
        for position, pid in enumerate(player_ids, start=1):
            stamp_history_user(
                Seat(table=table, round=round_, player_id=pid, position=position), by
            ).save()
        games = tournament.games_per_table or len(player_ids)
        Game.objects.bulk_create(
            Game(table=table, number=n, starter_position=starter_of(n, len(player_ids)))
            for n in range(1, games + 1)
        )
    if tournament.status == Tournament.Status.UPCOMING:
        tournament.status = Tournament.Status.RUNNING
        stamp_history_user(tournament, by).save(update_fields=["status", "updated_at"])
    return round_


def _quality(
    tables: Sequence[Sequence[int]], history: list, ranked: Sequence[int] | None
) -> dict[str, Any]:
    """The seating figures stored with a round; a Swiss round also keeps each table's rank
    spread, so the organiser sees which tables mix far-apart players."""
    quality: dict[str, Any] = seating_quality_figures(tables, history, ranked)
    if ranked is not None:
        quality["rank_spreads"] = table_rank_spreads(tables, ranked)
    return quality


def _planned_tables(
    tournament: Tournament, number: int, players: list[int], history: list, seed: int
) -> tuple[list[list[int]], int]:
    """Round `number` of the stored plan; planned (again) when there is none yet or the
    active players changed since — the rounds played stay as the new plan's history."""
    if tournament.rounds_planned is None:
        raise RuleError("method", "a planned schedule needs the tournament's rounds_planned.")
    if number > tournament.rounds_planned:
        raise RuleError(
            "method", f"all {tournament.rounds_planned} planned rounds are open; use random."
        )
    plan = SeatingPlan.objects.filter(tournament=tournament).first()
    planned = plan.tables_for(number, players) if plan else None
    if planned is not None:
        return planned, plan.seed
    schedule = plan_rounds(
        players, tournament.rounds_planned - number + 1, tournament.table_size, seed, history
    )
    SeatingPlan.objects.update_or_create(
        tournament=tournament,
        defaults={
            "seed": seed,
            "players": sorted(players),
            "first_round": number,
            "rounds": [[list(table) for table in s.tables] for s in schedule],
        },
    )
    return [list(table) for table in schedule[0].tables], seed


def round_history(tournament: Tournament, *, before: int) -> list[list[list[int]]]:
    """The seatings of the rounds before `before`: tables of player ids in seat order."""
    from games.models import Seat

    rounds: dict[int, dict[int, list[int]]] = {}
    for round_number, table_number, pid in (
        Seat.objects.filter(round__tournament=tournament, round__number__lt=before)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "player_id")
    ):
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(pid)
    return [list(tables.values()) for _, tables in sorted(rounds.items())]


def ranked_players(tournament: Tournament, active: Mapping[int, Player]) -> list[int]:
    """The active players in current standings order; before any result (all equal), by
    rating, then start number — so a Swiss first round still seeds the strongest first."""
    from scoring.services import standings_recompute

    snapshot = standings_recompute(tournament_id=tournament.pk)
    rank = {row["player"]["id"]: row["rank"] for row in snapshot.rows} if snapshot else {}
    return sorted(
        active,
        key=lambda p: (rank.get(p, len(rank) + 1), -(active[p].rating or 0), active[p].number),
    )


def _user_or_none(by: Any) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


def seating_quality(tournament: Tournament, round_: Round) -> dict[str, int]:
    """The quality of a round as it is seated now (after a swap, say), given the rounds
    before it; a Swiss round's rank spread is measured against the current standings."""
    history = round_history(tournament, before=round_.number + 1)
    current, earlier = history[-1], history[:-1]
    ranked = None
    if "rank_spread" in (round_.quality or {}):
        active = {
            p.id: p for p in tournament.players.filter(pk__in=[p for t in current for p in t])
        }
        ranked = ranked_players(tournament, active)
    return _quality(current, earlier, ranked)


@transaction.atomic
def seat_swap(*, round_: Round, by: Any, player_a: object, player_b: object) -> Round:
    """Two players of one round exchange seats, at one table or across two.

    Refused once any game at an affected table has a result (any version, even one
    awaiting confirmation): the series there has begun. The seat rows are replaced, so
    their history shows who sat where before and who made the swap. The round's seating
    quality is computed again.
    """
    from games.models import Game, Result, Seat

    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    errors: list[RuleError] = []
    seats: dict[str, Seat] = {}
    for field, pid in (("player_a", player_a), ("player_b", player_b)):
        if isinstance(pid, bool) or not isinstance(pid, int):
            errors.append(RuleError(field, "choose a player."))
            continue
        seat = Seat.objects.select_related("player").filter(round=round_, player_id=pid).first()
        if seat is None:
            errors.append(RuleError(field, f"player {pid} has no seat in round {round_.number}."))
        else:
            seats[field] = seat
    if not errors and player_a == player_b:
        errors.append(RuleError("player_b", "choose two different players."))
    raise_all(errors)
    a, b = seats["player_a"], seats["player_b"]
    tables = {a.table_id, b.table_id}
    # Locking the games makes a result entered at the same moment wait for the swap (and
    # then see the new seats) or land first (and then the swap is refused below).
    list(Game.objects.select_for_update().filter(table_id__in=tables).values_list("pk"))
    if Result.objects.filter(game__table_id__in=tables).exists():
        raise RuleError((), "a game at these tables already has a result; seats stay as they are.")
    # Delete, then create: swapping the players in place would break the one-seat-per-round
    # and one-player-per-position constraints half-way through.
    swapped = [(a, b.player), (b, a.player)]
    for seat, _ in swapped:
        seat._change_reason = "seat swap"
        stamp_history_user(seat, by).delete()
    for seat, player in swapped:
        new = Seat(table_id=seat.table_id, round=round_, player=player, position=seat.position)
        new._change_reason = "seat swap"
        stamp_history_user(new, by).save()
    round_.quality = seating_quality(round_.tournament, round_)
    round_.save(update_fields=["quality"])
    return round_
