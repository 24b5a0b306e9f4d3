"""Writes for results and penalties — each one transaction.

A result submission is validated and scored by the pure engine (`scoring.game`) and stored
as a new version; nothing is ever edited in place. `based_on` names the version the entry
replaces, so two scorekeepers who both corrected version 1 cannot silently overwrite each
other: the second gets a `ResultConflict` naming the current version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Max, Sum
from django.utils import timezone

from scoring.errors import RuleError, raise_all
from scoring.game import GameIn, RackIn, score_game
from scoring.tiles import parse_tiles
from tournaments.models import Player, Tournament
from tournaments.selectors import can_organise, can_score
from tournaments.services import bump_results_version, stamp_history_user

from .models import Game, Penalty, RackEntry, Result

NO_MELD_CHOICES = (None, "could_not", "declined")
# Far beyond any real sanction, far below what the points column holds.
MAX_SANCTION_POINTS = 10_000


class ResultConflict(RuleError):
    """The entry is based on a version that is no longer the latest."""

    def __init__(self, *, based_on: int, current_version: int) -> None:
        self.current_version = current_version
        super().__init__(
            "based_on",
            f"this entry is based on version {based_on}, but the game is now at version "
            f"{current_version}; reload it and enter your correction again.",
        )


def _require_scorekeeper(by: Any, tournament: Tournament) -> None:
    if not can_score(by, tournament):
        raise PermissionDenied("Only the tournament's organisers and scorekeepers may do this.")


def _lock_game(game: Game | int) -> Game:
    """The game row, locked until commit: result writes to one game take turns."""
    pk = game.pk if isinstance(game, Game) else game
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__round__tournament")
        .get(pk=pk)
    )


def latest_version(game: Game) -> int:
    return game.results.aggregate(top=Max("version"))["top"] or 0


def _whole(path: tuple[str | int, ...], value: object, *, nullable: bool) -> int | None:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(path, f"must be a whole number, not {value!r}.")
    if value < 0:
        raise RuleError(path, f"cannot be negative; got {value}.")
    return value


def _rack_in(index: int, rack: object, seated: Mapping[int, Player]) -> RackIn:
    """One rack from the request, in the engine's terms. Raises every problem it finds."""
    if not isinstance(rack, Mapping):
        raise RuleError(("racks", index), "each rack must be an object with a player.")
    errors: list[RuleError] = []
    unknown = sorted(set(rack) - {"player", "tiles", "points", "tile_count", "jokers", "no_meld"})
    errors += [RuleError(("racks", index, key), "is not a rack field.") for key in unknown]
    player = rack.get("player")
    if isinstance(player, bool) or not isinstance(player, int):
        errors.append(RuleError(("racks", index, "player"), "give the player's id."))
    elif player not in seated:
        errors.append(
            RuleError(("racks", index, "player"), f"player {player} is not seated at this table.")
        )
    tiles = rack.get("tiles")
    given_tiles = tiles is not None
    has_totals = any(rack.get(k) is not None for k in ("points", "tile_count")) or rack.get(
        "jokers"
    ) not in (None, 0)
    if given_tiles and has_totals:
        errors.append(
            RuleError(("racks", index, "tiles"), "give either tiles or points, not both.")
        )
    parsed = None
    if given_tiles:
        if not isinstance(tiles, str):
            errors.append(RuleError(("racks", index, "tiles"), "must be text like 'R5 K13 J'."))
        else:
            try:
                parsed = parse_tiles(tiles, field=("racks", index, "tiles"))
            except RuleError as error:
                errors.extend(error.flatten())
    values: dict[str, int | None] = {}
    for key, nullable in (("points", True), ("tile_count", True), ("jokers", True)):
        try:
            values[key] = _whole(("racks", index, key), rack.get(key), nullable=nullable)
        except RuleError as error:
            errors.append(error)
    if not given_tiles and values.get("points") is None and not errors:
        errors.append(RuleError(("racks", index, "points"), "give the rack's tiles or its points."))
    no_meld = rack.get("no_meld")
    if no_meld not in NO_MELD_CHOICES:
        errors.append(
            RuleError(("racks", index, "no_meld"), f"{no_meld!r} is not could_not or declined.")
        )
    raise_all(errors)
    return RackIn(
        player=player,  # type: ignore[arg-type]
        tiles=parsed,
        points=values["points"],
        tile_count=values["tile_count"],
        jokers=values["jokers"] or 0,
        no_meld=no_meld,  # type: ignore[arg-type]
    )


def _game_in(*, end: object, winner: object, racks: object, seated: Mapping[int, Player]) -> GameIn:
    """The request as the engine's input: every seated player once, nobody else."""
    errors: list[RuleError] = []
    if end not in ("rummikub", "pool_exhausted"):
        errors.append(RuleError("end", f"{end!r} is not rummikub or pool_exhausted."))
    if winner is not None and (
        isinstance(winner, bool) or not isinstance(winner, int) or winner not in seated
    ):
        errors.append(RuleError("winner", f"player {winner!r} is not seated at this table."))
    if not isinstance(racks, Sequence) or isinstance(racks, str | bytes) or not racks:
        errors.append(RuleError("racks", "list one rack for each seated player."))
        raise_all(errors)
    rack_ins: list[RackIn] = []
    seen: set[int] = set()
    for index, rack in enumerate(racks):  # type: ignore[arg-type]
        try:
            rack_in = _rack_in(index, rack, seated)
        except RuleError as error:
            errors.extend(error.flatten())
            continue
        if rack_in.player in seen:
            errors.append(
                RuleError(("racks", index, "player"), f"player {rack_in.player} has two racks.")
            )
        seen.add(rack_in.player)
        rack_ins.append(rack_in)
    missing = [p for p in seated if p not in seen]
    if missing and not errors:
        names = ", ".join(f"{p} ({seated[p].name})" for p in missing)
        errors.append(RuleError("racks", f"no rack for seated player {names}."))
    raise_all(errors)
    return GameIn(end=end, racks=tuple(rack_ins), winner=winner)  # type: ignore[arg-type]


@transaction.atomic
def result_submit(
    *,
    game: Game | int,
    by: Any,
    based_on: object,
    end: object,
    racks: object,
    winner: object = None,
) -> Result:
    """Validate, score and store a new version of a game's result.

    Confirmed at once, unless the tournament wants a second person to confirm; then it
    waits as `submitted`. A newer entry discards an unconfirmed older one; a newer
    confirmed version supersedes the older confirmed one.
    """
    game = _lock_game(game)
    tournament = game.table.round.tournament
    _require_scorekeeper(by, tournament)
    if isinstance(based_on, bool) or not isinstance(based_on, int) or based_on < 0:
        raise RuleError("based_on", "give the version this entry replaces (0 for the first).")
    current = latest_version(game)
    if based_on != current:
        raise ResultConflict(based_on=based_on, current_version=current)

    seated = {seat.player_id: seat.player for seat in game.table.seats.select_related("player")}
    outcome = score_game(
        _game_in(end=end, winner=winner, racks=racks, seated=seated), tournament.rule_set
    )

    confirm_now = not tournament.results_need_confirmation
    now = timezone.now()
    _retire_older(game, confirming=confirm_now)
    try:
        # The savepoint keeps the transaction usable if the unique version constraint
        # fires (a concurrent writer that slipped past the lock, e.g. on SQLite).
        with transaction.atomic():
            result = stamp_history_user(
                Result(
                    game=game,
                    version=current + 1,
                    end=end,
                    status=Result.Status.CONFIRMED if confirm_now else Result.Status.SUBMITTED,
                    submitted_by=by,
                    confirmed_by=by if confirm_now else None,
                    confirmed_at=now if confirm_now else None,
                ),
                by,
            )
            result.save()
    except IntegrityError:
        raise ResultConflict(based_on=based_on, current_version=latest_version(game)) from None
    RackEntry.objects.bulk_create(
        RackEntry(
            result=result,
            player_id=rack.player,
            tiles=rack.tiles,
            points=rack.points,
            tile_count=rack.tile_count,
            jokers=rack.jokers,
            no_meld=rack.no_meld,
            charge=rack.charge,
            score=rack.score,
            winner=rack.winner,
        )
        for rack in outcome.racks
    )
    if confirm_now:
        bump_results_version(tournament)
    return result


def _retire_older(game: Game, *, confirming: bool) -> None:
    """Before a new version lands: pending entries are discarded; a confirmed one is
    superseded when the new version is itself confirmed (one confirmed per game)."""
    for older in game.results.filter(status=Result.Status.SUBMITTED):
        older.status = Result.Status.DISCARDED
        older.save(update_fields=["status"])
    if confirming:
        for older in game.results.filter(status=Result.Status.CONFIRMED):
            older.status = Result.Status.SUPERSEDED
            older.save(update_fields=["status"])


@transaction.atomic
def result_confirm(*, result: Result, by: Any) -> Result:
    """A second staff member confirms a submitted result (an organiser may confirm their
    own entry); it replaces the game's confirmed version, if any."""
    game = _lock_game(result.game_id)
    tournament = game.table.round.tournament
    _require_scorekeeper(by, tournament)
    result = Result.objects.get(pk=result.pk)
    if result.status != Result.Status.SUBMITTED:
        raise RuleError(
            (),
            f"version {result.version} is {result.status}; only a submitted entry can be "
            "confirmed.",
        )
    if result.submitted_by_id == by.pk and not can_organise(by, tournament):
        raise PermissionDenied("Someone other than who entered the result must confirm it.")
    _retire_older(game, confirming=True)
    result.status = Result.Status.CONFIRMED
    result.confirmed_by = by
    result.confirmed_at = timezone.now()
    stamp_history_user(result, by).save(update_fields=["status", "confirmed_by", "confirmed_at"])
    bump_results_version(tournament)
    return result


@transaction.atomic
def penalty_record(
    *,
    game: Game | int,
    by: Any,
    player: object,
    kind: object,
    note: object = "",
    points: object = None,
) -> Penalty:
    """Record a penalty (RULES.md §6): tiles drawn come from the tournament's rules; a
    sanction's points come off the player's score in this game."""
    game = _lock_game(game)
    tournament = game.table.round.tournament
    _require_scorekeeper(by, tournament)
    rules = tournament.rule_set
    errors: list[RuleError] = []
    seated = set(game.table.seats.values_list("player_id", flat=True))
    if isinstance(player, bool) or not isinstance(player, int) or player not in seated:
        errors.append(RuleError("player", f"player {player!r} is not seated at this table."))
    draws = {
        Penalty.Kind.TIMEOUT: rules.timeout_draw,
        Penalty.Kind.FAILED_MANIPULATION: rules.failed_manipulation_draw,
        Penalty.Kind.SANCTION: 0,
    }
    if kind not in draws:
        errors.append(
            RuleError("kind", f"{kind!r} is not timeout, failed_manipulation or sanction.")
        )
    if kind == Penalty.Kind.SANCTION:
        if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            errors.append(RuleError("points", "a sanction needs a whole number of points > 0."))
        elif points > MAX_SANCTION_POINTS:
            errors.append(
                RuleError("points", f"a sanction is at most {MAX_SANCTION_POINTS} points.")
            )
    elif points not in (None, 0):
        errors.append(RuleError("points", "only a sanction carries points."))
    if note is None:
        note = ""
    if not isinstance(note, str) or len(note) > 300:
        errors.append(RuleError("note", "must be text of at most 300 characters."))
    raise_all(errors)
    penalty = stamp_history_user(
        Penalty(
            game=game,
            player_id=player,
            kind=kind,
            tiles_drawn=draws[kind],  # type: ignore[index]
            points=points if kind == Penalty.Kind.SANCTION else 0,
            note=note.strip(),  # type: ignore[union-attr]
            recorded_by=by,
        ),
        by,
    )
    penalty.save()
    bump_results_version(tournament)  # penalties count in standings (and sanctions score)
    return penalty


@transaction.atomic
def penalty_void(*, penalty: Penalty, by: Any) -> Penalty:
    """Void a penalty recorded by mistake; the row and its history stay."""
    penalty = (
        Penalty.objects.select_for_update()
        .select_related("game__table__round__tournament")
        .get(pk=penalty.pk)
    )
    tournament = penalty.game.table.round.tournament
    _require_scorekeeper(by, tournament)
    if penalty.voided:
        raise RuleError((), "this penalty is already void.")
    penalty.voided = True
    penalty.voided_by = by
    penalty.voided_at = timezone.now()
    stamp_history_user(penalty, by).save()
    bump_results_version(tournament)
    return penalty


def sanction_points(game: Game) -> dict[int, int]:
    """Unvoided sanction points per player in one game."""
    rows = (
        game.penalties.filter(kind=Penalty.Kind.SANCTION, voided=False)
        .values("player_id")
        .annotate(total=Sum("points"))
    )
    return {row["player_id"]: row["total"] for row in rows}
