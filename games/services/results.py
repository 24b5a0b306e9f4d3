"""Writes for results and penalties — each one transaction.

A result submission is validated and scored by the pure engine (`scoring.game`) and stored
as a new version; nothing is ever edited in place. `based_on` names the version the entry
replaces, so two scorekeepers who both corrected version 1 cannot silently overwrite each
other: the second gets a `ResultConflict` naming the current version.

Every write is a table-level one (`games.services.locks`): it shares the tournament's row
lock, so results at different tables are stored side by side, and takes its table's and
game's (`locks.lock_game`); it asks `require(by, tournament, "score")` before anything
else. Its last statement counts the change on the tournament row
(`tournaments.events.results_changed`): from there to the commit the tournament's other
table-level writes wait for it, so nothing else comes after it.

A submission may carry an idempotency key (see `games.models`): sent again with the same
key it answers the version the first one stored (`Result.replayed` is then true) instead
of storing another, even when the first one's answer never reached the client. The key
is checked before `based_on`, since a retry is still based on the version before its own.
The same key with a different body is a `IdempotencyKeyReused` (409) naming the key. A
replay is answered before `require_open`: a retry that arrives after the tournament was
finished still learns that its entry was stored.

Not checked here: whether the racks can have happened and what they score — that is the
engine's (`scoring.game`), in its own words; only the request's shape (types, known
fields, players seated at this table) is read here.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import cast

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError, raise_all
from scoring.game import ENDS, GameIn, RackIn, check_readable, score_game
from scoring.rules import RuleSet
from scoring.tiles import parse_tiles
from tournaments.events import results_changed
from tournaments.lifecycle import require_open
from tournaments.models import Player, Tournament, Webhook
from tournaments.permissions import User, can_organise, require, signed_in
from tournaments.services.validation import collect, max_length_of, stamp_history_user
from tournaments.services.webhooks import webhooks_emit

from ..models import Absence, Game, Penalty, RackEntry, Result, Seat
from ..words import seat_label
from .locks import lock_game, mark_first_result
from .matches import keep_in_step, refuse_after_decision


def table_at(game: Game) -> tuple[int, int]:
    """Where an action on the game happens, for `require(..., at=)`: a table link may score
    there (round number, table number)."""
    return game.table.round.number, game.table.number


# Far beyond any real sanction, far below what the points column holds.
MAX_SANCTION_POINTS = 10_000


class ResultConflict(Conflict):
    """The entry is based on a version that is no longer the latest."""

    def __init__(self, *, based_on: int, current_version: int) -> None:
        self.current_version = current_version
        super().__init__(
            "based_on",
            _(
                "this entry is based on version {based_on}, but the game is now at version "
                "{current}; reload it and enter your correction again."
            ).format(based_on=based_on, current=current_version),
            current_version=current_version,
        )


class IdempotencyKeyReused(Conflict):
    """The idempotency key was already used for a different submission of this game."""

    def __init__(self, key: str, version: int) -> None:
        super().__init__(
            "idempotency_key",
            _(
                "the key {key} was already used for version {version} of this game with "
                "different racks; send a new key for a new entry."
            ).format(key=repr(key), version=version),
            version=version,
        )


# Printable ASCII without spaces: a UUID, a ULID or any client's counter fits.
_IDEMPOTENCY_KEY = re.compile(r"[!-~]{1,64}", re.ASCII)


def _idempotency_key(key: object) -> str | None:
    if key is None or key == "":
        return None
    if not isinstance(key, str) or not _IDEMPOTENCY_KEY.fullmatch(key):
        raise RuleError(
            "idempotency_key",
            _("must be 1 to 64 printable characters without spaces, e.g. a UUID."),
        )
    return key


def _fingerprint(**body: object) -> str:
    text = json.dumps(body, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(game: Game, key: str | None, fingerprint: str) -> Result | None:
    """The version a submission with this key stored before, if any."""
    if key is None:
        return None
    earlier = game.results.filter(idempotency_key=key).first()
    if earlier is None:
        return None
    if earlier.idempotency_fingerprint != fingerprint:
        raise IdempotencyKeyReused(key, earlier.version)
    earlier.replayed = True
    return earlier


def latest_version(game: Game) -> int:
    return game.results.aggregate(top=Max("version"))["top"] or 0


RACK_FIELDS = {"player", "tiles", "points", "tile_count", "jokers", "no_meld", "substitute"}
MAX_SUBSTITUTE_NAME = max_length_of(RackEntry, "substitute")
# The longest rack text read: what RackEntry.tiles stores (canonical text is never longer).
MAX_RACK_TEXT = max_length_of(RackEntry, "tiles")


def _number_or_none(path: tuple[str | int, ...], value: object) -> int | None:
    """A whole number or nothing; what range it may take is the engine's to say."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    name = str(path[-1]).replace("_", " ")
    raise RuleError(
        path, _("{name} must be a whole number, not {value}.").format(name=name, value=repr(value))
    )


def seated_for(game: Game) -> dict[int, Player]:
    """The players who have a rack in this game: the table's seats, without one whose
    player withdrew before it and whose table plays on without them
    (`games.services.withdrawals`)."""
    return {seat.player_id: seat.player for seat in _seats(game)}


def _seats(game: Game) -> list[Seat]:
    """The seats of `seated_for`, each with its player."""
    return [
        seat
        for seat in game.table.seats.select_related("player")
        if not (
            seat.absence == Absence.PLAYS_ON
            and seat.absent_from is not None  # always set with an absence (a constraint)
            and seat.absent_from <= game.number
        )
    ]


def _substitutes(racks: object) -> dict[int, str]:
    """The substitute named on each rack (by player id), checked: text of at most
    `MAX_SUBSTITUTE_NAME` characters; empty or null = the seat's player played."""
    names: dict[int, str] = {}
    errors: list[RuleError] = []
    if not isinstance(racks, Sequence) or isinstance(racks, str | bytes):
        return names
    for index, rack in enumerate(racks):
        if not isinstance(rack, Mapping) or rack.get("substitute") is None:
            continue
        name = rack["substitute"]
        if not isinstance(name, str) or len(name.strip()) > MAX_SUBSTITUTE_NAME:
            errors.append(
                RuleError(
                    ("racks", index, "substitute"),
                    _(
                        "give the substitute's name, at most {max_substitute_name} characters."
                    ).format(max_substitute_name=MAX_SUBSTITUTE_NAME),
                )
            )
        elif name.strip() and isinstance(rack.get("player"), int):
            names[rack["player"]] = name.strip()
    raise_all(errors)
    return names


def _rack_in(index: int, rack: object, seated: Mapping[int, str]) -> RackIn:
    """One rack of the request in the engine's terms.

    Only the request's shape is checked here (an object of known fields, text tiles,
    whole numbers, a player seated at this table); whether such a rack can exist is
    `scoring.game`'s to say, in its own words. ``seated`` labels each seated player
    ("Ada (seat 2)"); every message about a seated player's rack starts with it, and the
    engine gets it to name the player too.
    """

    def at(key: str) -> tuple[str | int, ...]:
        return ("racks", index, key)

    if not isinstance(rack, Mapping):
        raise RuleError(("racks", index), _("each rack must be an object with a player."))
    errors = [
        RuleError(at(key), _("is not a rack field.")) for key in sorted(set(rack) - RACK_FIELDS)
    ]
    player = rack.get("player")
    if isinstance(player, bool) or not isinstance(player, int):
        errors.append(RuleError(at("player"), _("give the player's id.")))
    elif player not in seated:
        errors.append(
            RuleError(
                at("player"),
                _("player {player} is not seated at this table.").format(player=player),
            )
        )
    tiles = rack.get("tiles")
    parsed = None
    if tiles is not None and not isinstance(tiles, str):
        errors.append(RuleError(at("tiles"), _("must be text like 'R5 K13 J'.")))
    elif tiles is not None and len(tiles) > MAX_RACK_TEXT:
        errors.append(
            RuleError(
                at("tiles"),
                _("is longer than {max_rack_text} characters.").format(max_rack_text=MAX_RACK_TEXT),
            )
        )
    elif tiles is not None:
        parsed = collect(errors, parse_tiles, tiles, field=at("tiles"))
    totals = {
        key: collect(errors, _number_or_none, at(key), rack.get(key))
        for key in ("points", "tile_count", "jokers")
    }
    no_meld = rack.get("no_meld")
    if no_meld is not None and not isinstance(no_meld, str):
        errors.append(
            RuleError(
                at("no_meld"),
                _("{no_meld} is not could_not or declined.").format(no_meld=repr(no_meld)),
            )
        )
    label = seated.get(player) if isinstance(player, int) else None
    if label:
        errors = [
            RuleError(
                error.path, _("{label}: {message}").format(label=label, message=error.message)
            )
            for error in errors
        ]
    raise_all(errors)
    return RackIn(
        player=player,  # type: ignore[arg-type]
        tiles=parsed,
        points=totals["points"],
        tile_count=totals["tile_count"],
        jokers=totals["jokers"] or 0,
        no_meld=no_meld,
        name=label,
    )


def _game_in(
    *, end: object, winner: object, racks: object, seated: Mapping[int, str], rules: RuleSet
) -> GameIn:
    """The request as the engine's input: every seated player has a rack. What the end,
    the winner and the racks may be is checked by the engine (`scoring.game`); when some
    rack cannot even be read, the engine still checks the others, so every problem of the
    submission is reported at once."""
    errors: list[RuleError] = []
    if not isinstance(end, str):
        errors.append(
            RuleError(
                "end",
                _("{end} is not one of {choices}.").format(end=repr(end), choices=", ".join(ENDS)),
            )
        )
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int)):
        errors.append(
            RuleError("winner", _("{winner} is not a player's id.").format(winner=repr(winner)))
        )
    if not isinstance(racks, Sequence) or isinstance(racks, str | bytes) or not racks:
        errors.append(RuleError("racks", _("list one rack for each seated player.")))
        raise_all(errors)
    listed = cast("Sequence[object]", racks)  # refused just above when not a list
    read = [collect(errors, _rack_in, index, rack, seated) for index, rack in enumerate(listed)]
    rack_ins = [rack for rack in read if rack is not None]
    # The engine checks what it can read too (a winner that is not an id has its error).
    if errors and isinstance(end, str) and (winner is None or type(winner) is int):
        errors += check_readable(end, winner, read, rules)
    entered = {rack.player for rack in rack_ins}
    missing = [p for p in seated if p not in entered]
    # A player entered twice is the engine's to name; a missing one only this table knows.
    if missing and not errors and len(entered) == len(rack_ins):
        names = ", ".join(seated[p] for p in missing)
        errors.append(
            RuleError("racks", _("no rack for seated player {names}.").format(names=names))
        )
    raise_all(errors)
    return GameIn(end=end, racks=tuple(rack_ins), winner=winner)  # type: ignore[arg-type]


@transaction.atomic
def result_submit(
    *,
    game: Game | int,
    by: User,
    based_on: object,
    end: object,
    racks: object,
    winner: object = None,
    idempotency_key: object = None,
) -> Result:
    """Validate, score and store a new version of a game's result.

    A rack may name a `substitute` who played that seat in this game (the rack is still
    the seat's player's; the standings count it for them only when the tournament credits
    substitute games). A seat whose player withdrew and whose table plays on has no rack
    from then on (`seated_for`).

    Confirmed at once, unless the tournament wants a second person to confirm; then it
    waits as `submitted`. A newer entry discards an unconfirmed older one; a newer
    confirmed version supersedes the older confirmed one. With an `idempotency_key`
    used before for this game, the version it stored (`replayed` set), nothing new.
    """
    game = lock_game(game)
    tournament = game.table.round.tournament
    require(by, tournament, "score", at=table_at(game))
    by = signed_in(by)  # require refused the anonymous visitor
    key = _idempotency_key(idempotency_key)
    fingerprint = _fingerprint(based_on=based_on, end=end, racks=racks, winner=winner)
    earlier = _replay(game, key, fingerprint)
    if earlier is not None:
        return earlier
    require_open(tournament)
    if isinstance(based_on, bool) or not isinstance(based_on, int) or based_on < 0:
        raise RuleError("based_on", _("give the version this entry replaces (0 for the first)."))
    current = latest_version(game)
    if based_on != current:
        raise ResultConflict(based_on=based_on, current_version=current)
    refuse_after_decision(tournament, game)

    # Who has a rack in this game, named as messages name them: "Ada (seat 2)".
    seated = {seat.player_id: seat_label(seat.player, seat.position) for seat in _seats(game)}
    substitutes = _substitutes(racks)
    outcome = score_game(
        _game_in(end=end, winner=winner, racks=racks, seated=seated, rules=tournament.rule_set),
        tournament.rule_set,
    )

    confirm_now = not tournament.results_need_confirmation
    now = timezone.now()
    try:
        # The savepoint keeps the transaction usable if the unique version constraint
        # fires (a concurrent writer that slipped past the lock, e.g. on SQLite), and
        # takes back the retiring of older versions with it.
        with transaction.atomic():
            retire_older(game, confirming=confirm_now)
            result = stamp_history_user(
                Result(
                    game=game,
                    version=current + 1,
                    end=cast(str, end),  # score_game above refused any other end
                    status=Result.Status.CONFIRMED if confirm_now else Result.Status.SUBMITTED,
                    submitted_by=by,
                    confirmed_by=by if confirm_now else None,
                    confirmed_at=now if confirm_now else None,
                    idempotency_key=key,
                    idempotency_fingerprint=fingerprint if key else "",
                ),
                by,
            )
            result.save()
    except IntegrityError:
        # A twin of this very submission that slipped past the lock is its answer.
        twin = _replay(game, key, fingerprint)
        if twin is not None:
            return twin
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
            **outcome.finishes[rack.player]._asdict(),
            substitute=substitutes.get(rack.player, ""),
        )
        for rack in outcome.racks
    )
    if confirm_now:
        keep_in_step(tournament, game.table)
        _announce(tournament, game, result)  # once the transaction commits
    if tournament.first_result_at is None:
        mark_first_result(tournament, now)
    if confirm_now:
        results_changed(tournament)  # last: see the module docstring
    return result


def retire_older(game: Game, *, confirming: bool) -> None:
    """Before a new version lands: pending entries are discarded; a confirmed one is
    superseded when the new version is itself confirmed (one confirmed per game)."""
    retired = {Result.Status.SUBMITTED: Result.Status.DISCARDED}
    if confirming:
        retired[Result.Status.CONFIRMED] = Result.Status.SUPERSEDED
    # One query, nothing found in the usual case (a game's first entry).
    for older in game.results.filter(status__in=list(retired)):
        older.status = retired[Result.Status(older.status)]
        older.save(update_fields=["status"])


@transaction.atomic
def result_confirm(*, result: Result, by: User) -> Result:
    """A second staff member confirms a submitted result (an organiser may confirm their
    own entry); it replaces the game's confirmed version, if any."""
    game = lock_game(result.game_id)
    tournament = game.table.round.tournament
    require(by, tournament, "score", at=table_at(game))
    require_open(tournament)
    by = signed_in(by)  # require refused the anonymous visitor
    result = Result.objects.get(pk=result.pk)
    if result.status != Result.Status.SUBMITTED:
        raise RuleError(
            (),
            _("version {version} is {status}; only a submitted entry can be confirmed.").format(
                version=result.version, status=result.status
            ),
        )
    if result.submitted_by_id == by.pk and not can_organise(by, tournament):
        raise PermissionDenied(_("Someone other than who entered the result must confirm it."))
    refuse_after_decision(tournament, game)
    retire_older(game, confirming=True)
    result.status = Result.Status.CONFIRMED
    result.confirmed_by = by
    result.confirmed_at = timezone.now()
    stamp_history_user(result, by).save(update_fields=["status", "confirmed_by", "confirmed_at"])
    keep_in_step(tournament, game.table)
    results_changed(tournament)
    _announce(tournament, game, result)
    return result


def confirmed_payload(game: Game, result: Result) -> dict:
    """What the `result.confirmed` webhook says: where the game was played, the version
    and each rack's score (players by start number and name, as the sheets name them)."""
    positions = dict(game.table.seats.values_list("player_id", "position"))
    racks = [
        {
            "seat": positions.get(player_id),
            "player": {"number": number, "name": name},
            "score": score,
            "winner": winner,
        }
        for player_id, number, name, score, winner in RackEntry.objects.filter(result=result)
        .order_by("player__number")
        .values_list("player_id", "player__number", "player__name", "score", "winner")
    ]
    racks.sort(key=lambda rack: (rack["seat"] is None, rack["seat"] or 0))
    return {
        "round": game.table.round.number,
        "table": game.table.number,
        "game": {"id": game.pk, "number": game.number},
        "version": result.version,
        "end": result.end,
        "racks": racks,
    }


def _announce(tournament: Tournament, game: Game, result: Result) -> None:
    webhooks_emit(
        tournament=tournament,
        event=Webhook.Event.RESULT_CONFIRMED,
        payload=lambda: confirmed_payload(game, result),
    )


@transaction.atomic
def penalty_record(
    *,
    game: Game | int,
    by: User,
    player: object,
    kind: object,
    note: object = "",
    points: object = None,
) -> Penalty:
    """Record a penalty (docs/rules/penalties.md): tiles drawn come from the tournament's rules; a
    sanction's points come off the player's score in this game."""
    game = lock_game(game)
    tournament = game.table.round.tournament
    require(by, tournament, "score", at=table_at(game))
    require_open(tournament)
    by = signed_in(by)  # require refused the anonymous visitor
    rules = tournament.rule_set
    errors: list[RuleError] = []
    seated = set(game.table.seats.values_list("player_id", flat=True))
    if isinstance(player, bool) or not isinstance(player, int) or player not in seated:
        errors.append(
            RuleError(
                "player",
                _("player {player} is not seated at this table.").format(player=repr(player)),
            )
        )
    draws: dict[object, int] = {
        Penalty.Kind.TIMEOUT: rules.timeout_draw,
        Penalty.Kind.FAILED_MANIPULATION: rules.failed_manipulation_draw,
        Penalty.Kind.SANCTION: 0,
    }
    if kind not in draws:
        errors.append(
            RuleError(
                "kind",
                _("{kind} is not timeout, failed_manipulation or sanction.").format(
                    kind=repr(kind)
                ),
            )
        )
    if kind == Penalty.Kind.SANCTION:
        if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            errors.append(RuleError("points", _("a sanction needs a whole number of points > 0.")))
        elif points > MAX_SANCTION_POINTS:
            errors.append(
                RuleError(
                    "points",
                    _("a sanction is at most {max_sanction_points} points.").format(
                        max_sanction_points=MAX_SANCTION_POINTS
                    ),
                )
            )
    elif points not in (None, 0):
        errors.append(RuleError("points", _("only a sanction carries points.")))
    if note is None:
        note = ""
    note_length = max_length_of(Penalty, "note")
    if not isinstance(note, str) or len(note) > note_length:
        errors.append(
            RuleError(
                "note",
                _("must be text of at most {note_length} characters.").format(
                    note_length=note_length
                ),
            )
        )
    raise_all(errors)
    # What the checks above proved of the request's values (raise_all refused the rest).
    player_id, kind_name, note_text = cast(int, player), cast(str, kind), cast(str, note)
    penalty = stamp_history_user(
        Penalty(
            game=game,
            player_id=player_id,
            kind=kind_name,
            tiles_drawn=draws[kind],
            points=cast(int, points) if kind == Penalty.Kind.SANCTION else 0,
            note=note_text.strip(),
            recorded_by=by,
        ),
        by,
    )
    penalty.save()
    keep_in_step(tournament, game.table)  # a sanction changes a match total
    results_changed(tournament)  # penalties count in standings (and sanctions score)
    return penalty


@transaction.atomic
def penalty_void(*, penalty: Penalty, by: User) -> Penalty:
    """Void a penalty recorded by mistake; the row and its history stay."""
    # The tournament row first, then the game, then the penalty (`games.services.locks`):
    # one statement locking all the joined rows at once could take the game before the
    # tournament and deadlock with a result entered at the same moment.
    game = lock_game(Penalty.objects.values_list("game_id", flat=True).get(pk=penalty.pk))
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    penalty.game = game
    tournament = game.table.round.tournament
    require(by, tournament, "score", at=table_at(game))
    require_open(tournament)
    by = signed_in(by)  # require refused the anonymous visitor
    if penalty.voided:
        raise RuleError((), _("this penalty is already void."))
    penalty.voided = True
    penalty.voided_by = by
    penalty.voided_at = timezone.now()
    stamp_history_user(penalty, by).save()
    keep_in_step(tournament, game.table)
    results_changed(tournament)
    return penalty
