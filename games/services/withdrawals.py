"""Withdrawing a player whose table is in play, and forfeits — each one transaction.

Terms:
* unplayed game — a game of the player's table in the tournament's latest round that has
  no result yet, confirmed or awaiting confirmation (a pending entry stays for the
  scorekeepers to confirm or correct; it was played).
* unplayed choice — what happens to those games when their player withdraws (`unplayed`,
  `games.models.Absence`):
  * `plays_on` — the others play them without the withdrawn seat: a table of one fewer.
    Their result is entered without a rack for that seat (`results.seated_for`). The games
    keep their numbers and starters; a game the withdrawn seat was to start is started by
    the next present seat after it in seat order. Refused when fewer than two would
    remain (a game needs two racks): choose `forfeit` then.
  * `forfeit` — the withdrawn seat forfeits each of them: every one gets a new result
    version with end `forfeit`, scored by the tournament's `forfeit_rule`
    (`scoring.game.score_forfeit`), confirmed at once because it is the organiser's
    decision. It is a result like any other: shown, counted once, correctable by a newer
    version (e.g. if a substitute did play it after all).
* forfeit of one game (`game_forfeit`) — the same for one seat and one unplayed game, e.g.
  a player absent for one game only; a game already played is refused (409 on `game`).

Nothing is lost: the games the player played keep their results and count as before, and
the player's seat keeps the round and game they left from (`Seat.absent_from`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import Conflict, RuleError
from scoring.game import score_forfeit
from tournaments.events import results_changed
from tournaments.lifecycle import require_open
from tournaments.models import Player, Tournament
from tournaments.permissions import SignedIn, User, require, signed_in
from tournaments.services.validation import stamp_history_user

from ..models import Absence, Game, RackEntry, Result, Seat
from .locks import lock_game, lock_tournament, mark_first_result
from .matches import keep_in_step, refuse_after_decision
from .results import ResultConflict, latest_version, retire_older

PLAYED = (Result.Status.CONFIRMED, Result.Status.SUBMITTED)


@dataclass
class Withdrawal:
    """What a withdrawal did: the seat left (if a table was in play), the games it left,
    and the forfeit results it stored."""

    player: Player
    seat: Seat | None = None
    games: list[Game] = field(default_factory=list)
    forfeits: list[Result] = field(default_factory=list)


def open_seat(player: Player) -> tuple[Seat | None, list[Game]]:
    """The player's seat in the tournament's latest round and its unplayed games (none
    when they are not seated there, or everything there is played)."""
    latest = player.tournament.rounds.order_by("-number").first()
    if latest is None:
        return None, []
    seat = (
        Seat.objects.filter(round=latest, player=player)
        .select_related("table", "round", "player")
        .first()
    )
    if seat is None or seat.absent_from is not None:
        return None, []
    games = list(seat.table.games.exclude(results__status__in=PLAYED).order_by("number").distinct())
    return seat, games


def _label(player: Player) -> str:
    return f"#{player.number} {player.name}"


def _game_list(games: Sequence[Game]) -> str:
    numbers = [str(game.number) for game in games]
    return ngettext("game {numbers}", "games {numbers}", len(numbers)).format(
        numbers=", ".join(numbers)
    )


def _check_choice(unplayed: object, seat: Seat | None, games: list[Game]) -> None:
    choices = ", ".join(Absence.values)
    if unplayed is not None and unplayed not in Absence.values:
        raise RuleError(
            "unplayed",
            _("{unplayed} is not one of {choices}.").format(
                unplayed=repr(unplayed), choices=choices
            ),
        )
    if seat is None or not games:
        return
    where = _("table {table} of round {round}").format(
        table=seat.table.number, round=seat.round.number
    )
    if unplayed is None:
        raise RuleError(
            "unplayed",
            _(
                "{label} sits at {where} with {game_list} unplayed; say what happens to them: "
                "{choices}."
            ).format(
                label=_label(seat.player), where=where, game_list=_game_list(games), choices=choices
            ),
        )
    if unplayed == Absence.PLAYS_ON:
        others = seat.table.seats.exclude(pk=seat.pk).filter(absent_from__isnull=True).count()
        if others < 2:
            raise RuleError(
                "unplayed",
                _(
                    "only {others} player would be left at {where}; a game needs two: "
                    "choose forfeit."
                ).format(others=others, where=where),
            )


@transaction.atomic
def player_withdraw(*, player: Player, by: User, unplayed: object = None) -> Withdrawal:
    """Withdraw a player; when their table in the latest round still has unplayed games,
    `unplayed` (plays_on | forfeit) says what happens to them (see the module docstring).
    A player already withdrawn is refused on `player`."""
    tournament = lock_tournament(player.tournament_id)
    require(by, tournament, "organise")
    require_open(tournament)
    by = signed_in(by)  # require refused the anonymous visitor
    player = Player.objects.select_for_update().get(pk=player.pk)
    player.tournament = tournament
    if player.status == Player.Status.WITHDRAWN:
        raise RuleError("player", _("{label} has already withdrawn.").format(label=_label(player)))
    seat, games = open_seat(player)
    _check_choice(unplayed, seat, games)
    done = Withdrawal(player=player, seat=seat if games else None, games=games)
    if seat is not None and games:
        seat.absent_from = games[0].number
        seat.absence = str(unplayed)
        stamp_history_user(seat, by).save(update_fields=["absent_from", "absence"])
        if unplayed == Absence.FORFEIT:
            done.forfeits = [_store_forfeit(game, by, tournament) for game in games]
    player.status = Player.Status.WITHDRAWN
    stamp_history_user(player, by).save(update_fields=["status"])
    results_changed(tournament)
    return done


def _absent_in(game: Game, extra: int | None = None) -> set[int]:
    """The players whose seat forfeits this game: seats left with `forfeit` by then."""
    absent = {
        seat.player_id
        for seat in game.table.seats.all()
        if seat.absence == Absence.FORFEIT
        and seat.absent_from is not None
        and seat.absent_from <= game.number
    }
    return absent | ({extra} if extra is not None else set())


def _present_in_play_order(game: Game, absent: set[int]) -> list[int]:
    """The seats that play this game, in play order from its starter (the points of a
    shared forfeit that do not divide go to the first of them)."""
    seats = [
        seat
        for seat in game.table.seats.all()
        if seat.player_id not in absent
        and not (
            seat.absence == Absence.PLAYS_ON
            and seat.absent_from is not None
            and seat.absent_from <= game.number
        )
    ]
    seats.sort(key=lambda seat: (seat.position - game.starter_position) % 4)
    return [seat.player_id for seat in seats]


def _store_forfeit(
    game: Game, by: SignedIn, tournament: Tournament, extra: int | None = None
) -> Result:
    absent = _absent_in(game, extra)
    present = _present_in_play_order(game, absent)
    outcome = score_forfeit(
        present=present,
        absent=sorted(absent),
        rule=tournament.forfeit_rule,
        rules=tournament.rule_set,
    )
    now = timezone.now()
    retire_older(game, confirming=True)
    result = stamp_history_user(
        Result(
            game=game,
            version=latest_version(game) + 1,
            end=Result.End.FORFEIT,
            status=Result.Status.CONFIRMED,
            submitted_by=by,
            confirmed_by=by,
            confirmed_at=now,
        ),
        by,
    )
    result.save()
    RackEntry.objects.bulk_create(
        RackEntry(
            result=result,
            player_id=rack.player,
            points=rack.points,
            charge=rack.charge,
            score=rack.score,
            winner=rack.winner,
            **outcome.finishes[rack.player]._asdict(),
            forfeit=rack.player in absent,
        )
        for rack in outcome.racks
    )
    if tournament.first_result_at is None:
        mark_first_result(tournament, now)
    return result


@transaction.atomic
def game_forfeit(*, game: Game | int, by: User, player: object, based_on: object) -> Result:
    """Record that `player`'s seat forfeits one unplayed game (organisers only), scored by
    the tournament's `forfeit_rule`. A game with a result (confirmed or awaiting
    confirmation) was played: 409 on `game`, nothing saved; correct its result instead."""
    game = lock_game(game)
    tournament = game.table.round.tournament
    require(by, tournament, "organise")
    require_open(tournament)
    by = signed_in(by)  # require refused the anonymous visitor
    if isinstance(based_on, bool) or not isinstance(based_on, int) or based_on < 0:
        raise RuleError("based_on", _("give the version this entry replaces (0 for the first)."))
    seats = {seat.player_id: seat for seat in game.table.seats.select_related("player")}
    if isinstance(player, bool) or not isinstance(player, int) or player not in seats:
        raise RuleError(
            "player",
            _("player {player} is not seated at table {table} of round {round}.").format(
                player=repr(player), table=game.table.number, round=game.table.round.number
            ),
        )
    where = _("game {game} at table {table}").format(game=game.number, table=game.table.number)
    played = game.results.filter(status__in=PLAYED).order_by("-version").first()
    if played is not None:
        raise Conflict(
            "game",
            _(
                "{where} already has a result (version {version}, {status}); it was played: "
                "correct its result instead of forfeiting it."
            ).format(where=where, version=played.version, status=played.status),
        )
    current = latest_version(game)
    if based_on != current:
        raise ResultConflict(based_on=based_on, current_version=current)
    if len(_present_in_play_order(game, _absent_in(game, player))) < 1:
        raise RuleError("player", _("nobody would be left to play {where}.").format(where=where))
    refuse_after_decision(tournament, game)
    result = _store_forfeit(game, by, tournament, extra=player)
    keep_in_step(tournament, game.table)
    results_changed(tournament)
    return result
