"""Writes for a round's lifecycle: open the next round (seat everyone, create the tables'
games), swap two players' seats, cancel the last round before any result and set the
round clock — each one transaction, refused first to anyone but the tournament's
organisers. The draw itself (preview, seating) is `games.services.draw` and
`games.services.seating`.

Terms: draw, preview, present, missing results — see `games.services.draw` and
`games.services.seating`.

Lock order, everywhere: the tournament row first, then games (see `games.services.locks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError, raise_all
from scoring.rules import games_at
from tournaments.backups import backup_after_commit
from tournaments.lifecycle import require_open
from tournaments.models import Round, Stage, Tournament, Webhook
from tournaments.permissions import User, require
from tournaments.services.validation import signed_in_or_none, stamp_history_user
from tournaments.services.webhooks import webhooks_emit

from ..models import Game, Penalty, Result, Seat, Table
from ..words import tables_phrase
from .draw import next_round_number, next_stage_game, round_stage_of, starter_of
from .gaps import round_results_missing
from .locks import lock_tournament
from .matches import games_to_seat
from .seating import round_seating, seating_quality, stored_quality
from .seeded_seating import method_or_stage_default, stage_games_per_table


@transaction.atomic
def round_open(
    *,
    tournament: Tournament,
    by: User,
    method: str | None = Round.Method.MANUAL,
    tables: object = None,
    seed: object = None,
    number: object = None,
    open_anyway: object = False,
    stage: object = None,
) -> Round:
    """Open the next round: seat every present player (active and not checked in as
    absent for it) and create the tables' games.

    `manual` takes `tables` (player ids per table, seat order); `random`, `swiss` and
    `plan` seat the round with the seating engine, reproducibly from `seed` (drawn when
    not given and stored with the round). The seating's quality is stored with it.

    Committing a preview (`round_draw`): a drawn method with `tables`, `seed` and `number`
    opens exactly those tables (as previewed, swaps included), recording the method and
    seed. They are checked again here, under the tournament lock: the players must be
    exactly those to seat (else a `RuleError` on `tables`).

    `number`, when given, is the round the client means to open; any other next number is
    a `RoundConflict`. A repeated request (a double click) thus opens one round, not two:
    under the tournament row lock the second finds its round already open. So does a
    preview that went stale because another round was opened meanwhile.

    While an earlier round has games without a confirmed result, the round opens only with
    `open_anyway` (else a `Conflict` on `open_anyway` that lists them); in stages, the
    earlier rounds of the same stage.

    `stage` (a stage number) says which stage the round belongs to; needed only when two
    are open at once (`round_stage_of`). A stage that is done (a race won, a re-seated stage
    with all its games played) takes no more rounds: `Conflict` on `stage`. A stage
    playing one game per round (`Stage.one_game_rounds`) gets one game per table, its
    starter rotating with the stage's game number.
    """
    tournament = lock_tournament(tournament)
    require(by, tournament, "organise")
    require_open(tournament)
    if method is None or method == "":
        method = method_or_stage_default(method, round_stage_of(tournament, stage))
    returned = method != Round.Method.MANUAL and tables is not None and seed is not None
    if returned and number is None:
        raise RuleError("number", _("send the previewed draw back with its round number."))
    number = next_round_number(tournament, number)
    stage = round_stage_of(tournament, stage)
    _require_results_or_anyway(tournament, number, open_anyway, stage)
    seating = round_seating(tournament, method, number, tables, seed, stage)
    method = seating.method
    stage_game = next_stage_game(stage)  # counted before this round joins the stage

    round_ = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=number,
        method=method,
        seed=None if method == Round.Method.MANUAL else seating.seed,
        quality=stored_quality(seating),
        created_by=signed_in_or_none(by),
    )
    _seat(tournament, round_, seating.tables, by, stage_game, stage)
    if stage is not None and stage.status == Stage.Status.UPCOMING:
        stage.status = Stage.Status.RUNNING
        stamp_history_user(stage, by).save(update_fields=["status"])
    if tournament.status == Tournament.Status.UPCOMING:
        tournament.status = Tournament.Status.RUNNING
        stamp_history_user(tournament, by).save(update_fields=["status", "updated_at"])
    webhooks_emit(
        tournament=tournament,
        event=Webhook.Event.ROUND_OPENED,
        payload=lambda: opened_payload(round_),
    )
    # A copy of the database as the round starts (SQLite only; after the commit, off
    # the request): a laptop lost mid-round loses at most this round's entries.
    backup_after_commit("round")
    return round_


def opened_payload(round_: Round) -> dict[str, Any]:
    """What the `round.opened` webhook says: the round and who sits where."""
    tables: dict[int, list[dict[str, Any]]] = {}
    for table, position, number, name in (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "player__number", "player__name")
    ):
        tables.setdefault(table, []).append(
            {"seat": position, "player": {"number": number, "name": name}}
        )
    return {
        "round": {
            "number": round_.number,
            "method": round_.method,
            "opened_at": round_.created_at.isoformat(),
            "ends_at": round_.ends_at.isoformat() if round_.ends_at else None,
        },
        "tables": [{"number": number, "seats": seats} for number, seats in tables.items()],
    }


def _require_results_or_anyway(
    tournament: Tournament, number: int, open_anyway: object, stage: Stage | None = None
) -> None:
    """Refuse to open round `number` over earlier games without a confirmed result unless
    the organiser said to open anyway: a player of an unfinished table would be seated in
    two rounds at once."""
    if not isinstance(open_anyway, bool):
        raise RuleError("open_anyway", _("must be true or false."))
    if open_anyway:
        return
    gaps = round_results_missing(tournament, number, stage)
    if gaps:
        raise Conflict(
            "open_anyway",
            _("{gaps}. Say 'open anyway' to open round {number} all the same.").format(
                gaps="; ".join(gap.sentence for gap in gaps), number=number
            ),
            missing_results=[gap.sentence for gap in gaps],
        )


def _seat(
    tournament: Tournament,
    round_: Round,
    tables: Sequence[Sequence[int]],
    by: User,
    stage_game: int = 0,
    stage: Stage | None = None,
) -> None:
    """The round's tables, seats and games (each table's series; one game in a stage of
    one game per round, `stage_game` its number in the stage, for the starter)."""
    for table_number, player_ids in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=table_number)
        for position, pid in enumerate(player_ids, start=1):
            stamp_history_user(
                Seat(table=table, round=round_, player_id=pid, position=position), by
            ).save()
        per_table = stage_games_per_table(tournament, stage)
        games = 1 if stage_game else games_at(len(player_ids), per_table)
        if not stage_game:
            games = games_to_seat(tournament, games)
        first = max(stage_game, 1)
        Game.objects.bulk_create(
            Game(
                table=table,
                number=n,
                starter_position=starter_of(first + n - 1, len(player_ids)),
            )
            for n in range(1, games + 1)
        )


def _seats_of(round_: Round, player_a: object, player_b: object) -> tuple[Seat, Seat]:
    """The seats of the two players to swap, or every reason why not."""
    errors: list[RuleError] = []
    seats: dict[str, Seat] = {}
    for field, pid in (("player_a", player_a), ("player_b", player_b)):
        if isinstance(pid, bool) or not isinstance(pid, int):
            errors.append(RuleError(field, _("choose a player.")))
            continue
        seat = Seat.objects.select_related("player").filter(round=round_, player_id=pid).first()
        if seat is None:
            errors.append(
                RuleError(
                    field,
                    _("player {pid} has no seat in round {number}.").format(
                        pid=pid, number=round_.number
                    ),
                )
            )
        else:
            seats[field] = seat
    if not errors and player_a == player_b:
        errors.append(RuleError("player_b", _("choose two different players.")))
    raise_all(errors)
    return seats["player_a"], seats["player_b"]


@transaction.atomic
def seat_swap(*, round_: Round, by: User, player_a: object, player_b: object) -> Round:
    """Two players of one round exchange seats, at one table or across two.

    Refused once any game at an affected table has a result (any version, even one
    awaiting confirmation): the series there has begun. The seat rows are replaced, so
    their history shows who sat where before and who made the swap. The round's seating
    quality is computed again.
    """
    tournament = lock_tournament(round_.tournament)
    require(by, tournament, "organise")
    require_open(tournament)
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    a, b = _seats_of(round_, player_a, player_b)
    # The tournament row lock makes a result entered at the same moment wait for the swap
    # (and then see the new seats) or land first (and then the swap is refused below).
    if Result.objects.filter(game__table_id__in={a.table_id, b.table_id}).exists():
        raise RuleError(
            (), _("a game at these tables already has a result; seats stay as they are.")
        )
    # Delete, then create: swapping the players in place would break the one-seat-per-round
    # and one-player-per-position constraints half-way through.
    swapped = [(a, b.player), (b, a.player)]
    for seat, _player in swapped:
        seat._change_reason = "seat swap"
        stamp_history_user(seat, by).delete()
    for seat, player in swapped:
        new = Seat(table_id=seat.table_id, round=round_, player=player, position=seat.position)
        new._change_reason = "seat swap"
        stamp_history_user(new, by).save()
    round_.quality = seating_quality(tournament, round_)
    round_.save(update_fields=["quality"])
    return round_


def round_cancel_refusal(round_: Round) -> str | None:
    """Why this round cannot be cancelled, or None when it can: only the last round, and
    only while nothing of it was played (no result version of any status, no penalty, even
    a voided one). The confirmation page asks this before it offers the button."""
    last = Round.objects.filter(tournament=round_.tournament_id).aggregate(top=Max("number"))
    if round_.number != last["top"]:
        return _(
            "round {number} is not the last round (round {last} is); only the "
            "last round can be cancelled."
        ).format(number=round_.number, last=last["top"])
    results = _tables_of(Result.objects.filter(game__table__round=round_))
    penalties = _tables_of(Penalty.objects.filter(game__table__round=round_))
    facts = {"number": round_.number}
    if results and penalties:
        return _(
            "round {number} has results at {results} and penalties at {penalties}; "
            "it cannot be cancelled."
        ).format(**facts, results=tables_phrase(results), penalties=tables_phrase(penalties))
    if results:
        return _("round {number} has results at {tables}; it cannot be cancelled.").format(
            **facts, tables=tables_phrase(results)
        )
    if penalties:
        return _("round {number} has penalties at {tables}; it cannot be cancelled.").format(
            **facts, tables=tables_phrase(penalties)
        )
    return None


@transaction.atomic
def round_cancel(*, round_: Round, by: User) -> None:
    """Cancel the last round before anything of it is played: its tables, seats and games
    go, and its number is free again (the next round opened gets it). Cancelling the only
    round makes a running tournament upcoming again, and a stage's only round makes the
    stage upcoming again (its cut and carry-over may change once more).

    Refused (a `Conflict` on `round`) for what `round_cancel_refusal` names: what was
    played is kept. The seat rows' history records who cancelled. A stored `SeatingPlan`
    is left as it is: it plans by round number, so the round opened again with `plan` is
    seated as planned.
    """
    tournament = lock_tournament(round_.tournament_id)
    require(by, tournament, "organise")
    require_open(tournament)
    # Read again under the lock: a second click waited for the first, which cancelled it.
    current = Round.objects.filter(pk=round_.pk).first()
    if current is None:
        raise Conflict(
            "round", _("round {number} was cancelled already.").format(number=round_.number)
        )
    round_ = current
    refusal = round_cancel_refusal(round_)
    if refusal is not None:
        raise Conflict("round", refusal)
    for seat in Seat.objects.filter(round=round_):
        seat._change_reason = f"round {round_.number} cancelled"
        stamp_history_user(seat, by).delete()
    stage = round_.stage
    round_.delete()  # its tables and games go with it
    # Back to where opening its first round found it (the first stage also owns the rounds
    # opened before any stage: it runs while one is left).
    if (
        stage is not None
        and stage.status == Stage.Status.RUNNING
        and not stage.rounds.exists()
        and (stage.number > 1 or not tournament.rounds.filter(stage__isnull=True).exists())
    ):
        stage.status = Stage.Status.UPCOMING
        stamp_history_user(stage, by).save(update_fields=["status"])
    if tournament.status == Tournament.Status.RUNNING and not tournament.rounds.exists():
        # Back to where opening round 1 found it.
        tournament.status = Tournament.Status.UPCOMING
        stamp_history_user(tournament, by).save(update_fields=["status", "updated_at"])


def _tables_of(rows: Any) -> list[int]:
    """The table numbers of the results or penalties `rows`, in order."""
    return sorted(set(rows.values_list("game__table__number", flat=True)))


# The longest round clock an organiser may set, in minutes (a long session is 4 hours).
ROUND_CLOCK_MAX_MINUTES = 600


@transaction.atomic
def round_clock_set(*, round_: Round, by: User, minutes: object) -> Round:
    """Set the round clock to end `minutes` from now (shown counting down on the projector),
    or stop it with no minutes (None, blank or 0). Only an organiser, only while the
    tournament is not finished; the clock is the last round's, as the projector shows the
    current round."""
    tournament = lock_tournament(round_.tournament)
    require(by, tournament, "organise")
    require_open(tournament)
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    if minutes in (None, "", 0):
        round_.ends_at = None
    else:
        if isinstance(minutes, bool) or not isinstance(minutes, int):
            raise RuleError("minutes", _("give the minutes as a whole number."))
        if not 1 <= minutes <= ROUND_CLOCK_MAX_MINUTES:
            raise RuleError(
                "minutes",
                _("give between 1 and {round_clock_max_minutes} minutes (0 stops it).").format(
                    round_clock_max_minutes=ROUND_CLOCK_MAX_MINUTES
                ),
            )
        round_.ends_at = timezone.now() + timedelta(minutes=minutes)
    round_.save(update_fields=["ends_at"])
    return round_
