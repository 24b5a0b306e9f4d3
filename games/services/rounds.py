"""Writes for rounds: open the next round (seat everyone, create the tables' games), swap
two players' seats and cancel the last round before any result — each one transaction,
refused first to anyone but the tournament's organisers.

Terms (RULES.md §7, `scoring.seating`):
* draw — who sits at which table in which seat: given by hand (`manual`) or drawn by the
  seating engine (`random`, `swiss`, `plan`), reproducibly from a stored `seed`.
* history — the seatings of the earlier rounds, which the draw avoids repeating.
* quality — the figures the seating engine gives for a draw (repeat meetings, starter
  balance, for Swiss the rank spread), stored with the round as the engine gave them.

Lock order, everywhere: the tournament row first, then games (see `games.services.locks`).

Not checked here: how good a draw is (the seating engine decides and measures it).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from scoring.errors import Conflict, RuleError, raise_all
from scoring.seating import (
    Seating,
    plan_rounds,
    quality,
    seat_random,
    seat_swiss,
    table_rank_spreads,
)
from tournaments.lifecycle import require_open
from tournaments.models import Player, Round, SeatingPlan, Tournament
from tournaments.permissions import User, require
from tournaments.services.validation import (
    choice,
    signed_in_or_none,
    stamp_history_user,
    whole_number_between,
)

from ..models import Game, Penalty, Result, Seat, Table
from .locks import lock_tournament
from .standings import standings_recompute

MAX_SEED = 2**62
MAX_ROUND_NUMBER = 2**31 - 1  # the database column's limit


class RoundConflict(Conflict):
    """The client meant to open round `expected`, but the next round is another one: a
    repeated click (or a second organiser) opened it already. `last_round` is the round
    open now (0 for none), to go and look at."""

    def __init__(self, *, expected: int, last_round: int) -> None:
        self.last_round = last_round
        if expected == last_round:
            message = f"round {expected} is already open; nothing new was opened."
        else:
            current = f"round {last_round}" if last_round else "no round yet"
            message = (
                f"round {expected} is not the next round: the last one open is {current}; "
                "reload and try again."
            )
        super().__init__("number", message, last_round=last_round)


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
        errors += _seat_errors(index, table, known, seen)
    missing = [p for p in active if p not in seen]
    if missing:
        names = ", ".join(f"{p} ({active[p].name})" for p in missing[:10])
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        errors.append(RuleError("tables", f"active players not seated: {names}{more}."))
    raise_all(errors)
    return tables  # type: ignore[return-value]


def _seat_errors(
    index: int, table: list[int], known: Mapping[int, str], seen: set[int]
) -> list[RuleError]:
    """What is wrong with the players of one hand-made table (`seen` collects them)."""
    errors = []
    for pid in table:
        if pid not in known:
            errors.append(RuleError("tables", f"table {index}: unknown player {pid}."))
        elif known[pid] != Player.Status.ACTIVE:
            errors.append(RuleError("tables", f"table {index}: player {pid} has withdrawn."))
        elif pid in seen:
            errors.append(RuleError("tables", f"table {index}: player {pid} is seated twice."))
        seen.add(pid)
    return errors


def _draw(
    tournament: Tournament,
    method: str,
    number: int,
    active: Mapping[int, Player],
    tables: object,
    seed: int,
) -> Seating:
    """The round's seating by `method`, with its quality as the seating engine gives it."""
    history = round_history(tournament, before=number)
    if method == Round.Method.MANUAL:
        seating = _check_manual_tables(tournament, tables, active)
        return Seating([tuple(t) for t in seating], seed, method, quality(seating, history))
    if method == Round.Method.RANDOM:
        return seat_random(list(active), history, tournament.table_size, seed)
    if method == Round.Method.SWISS:
        return seat_swiss(ranked_players(tournament, active), history, tournament.table_size, seed)
    return _planned(tournament, number, list(active), history, seed)


@transaction.atomic
def round_open(
    *,
    tournament: Tournament,
    by: User,
    method: str = Round.Method.MANUAL,
    tables: object = None,
    seed: object = None,
    number: object = None,
) -> Round:
    """Open the next round: seat every active player and create the tables' games.

    `manual` takes `tables` (player ids per table, seat order); `random`, `swiss` and
    `plan` seat the round with the seating engine, reproducibly from `seed` (drawn when
    not given and stored with the round). The seating's quality is stored with it.

    `number`, when given, is the round the client means to open; any other next number is
    a `RoundConflict`. A repeated request (a double click) thus opens one round, not two:
    under the tournament row lock the second finds its round already open.
    """
    tournament = lock_tournament(tournament)
    require(by, tournament, "organise")
    require_open(tournament)
    last = tournament.rounds.aggregate(top=Max("number"))["top"] or 0
    if number is not None:
        number = whole_number_between(
            "number", number, low=1, high=MAX_ROUND_NUMBER, nullable=False
        )
        if number != last + 1:
            raise RoundConflict(expected=number, last_round=last)
    number = last + 1
    method = choice("method", method, Round.Method)
    active = {p.id: p for p in tournament.players.filter(status=Player.Status.ACTIVE)}
    if len(active) < 2:
        raise RuleError("method", "at least two active players are needed to open a round.")
    if method != Round.Method.MANUAL and tables is not None:
        raise RuleError("tables", f"'{method}' seating draws the tables itself; leave them out.")
    if seed is None:
        seed = secrets.randbelow(2**31)
    seed = whole_number_between("seed", seed, low=0, high=MAX_SEED, nullable=False)
    seating = _draw(tournament, method, number, active, tables, seed)  # type: ignore[arg-type]

    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        method=method,
        seed=None if method == Round.Method.MANUAL else seating.seed,
        quality=_stored_quality(seating),
        created_by=signed_in_or_none(by),
    )
    _seat(tournament, round_, seating.tables, by)
    if tournament.status == Tournament.Status.UPCOMING:
        tournament.status = Tournament.Status.RUNNING
        stamp_history_user(tournament, by).save(update_fields=["status", "updated_at"])
    return round_


def _seat(tournament: Tournament, round_: Round, tables: Sequence[Sequence[int]], by: User) -> None:
    """The round's tables, seats and games (each table's series)."""
    for table_number, player_ids in enumerate(tables, start=1):
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


def _stored_quality(seating: Seating) -> dict[str, Any]:
    """The seating engine's figures as stored with a round; a Swiss round also keeps each
    table's rank spread, so the organiser sees which tables mix far-apart players."""
    stored: dict[str, Any] = dict(seating.quality)
    if seating.method == Round.Method.SWISS:
        stored["rank_spreads"] = list(seating.rank_spreads)
    return stored


def _planned(
    tournament: Tournament, number: int, players: list[int], history: list, seed: int
) -> Seating:
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
        return Seating([tuple(t) for t in planned], plan.seed, "plan", quality(planned, history))
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
    return schedule[0]


def round_history(tournament: Tournament, *, before: int) -> list[list[list[int]]]:
    """The seatings of the rounds before `before`: tables of player ids in seat order."""
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
    snapshot = standings_recompute(tournament_id=tournament.pk)
    rank = {row["player"]["id"]: row["rank"] for row in snapshot.rows} if snapshot else {}
    return sorted(
        active,
        key=lambda p: (rank.get(p, len(rank) + 1), -(active[p].rating or 0), active[p].number),
    )


def seating_quality(tournament: Tournament, round_: Round) -> dict[str, Any]:
    """The quality of a round as it is seated now (after a swap, say), given the rounds
    before it; a Swiss round's rank spread is measured against the current standings."""
    history = round_history(tournament, before=round_.number + 1)
    current, earlier = history[-1], history[:-1]
    tables = [tuple(t) for t in current]
    if round_.method != Round.Method.SWISS:
        return _stored_quality(Seating(tables, 0, round_.method, quality(current, earlier)))
    seated = {p.id: p for p in tournament.players.filter(pk__in=[p for t in current for p in t])}
    ranked = ranked_players(tournament, seated)
    spreads = table_rank_spreads(current, ranked)
    figures = quality(current, earlier, ranked)
    return _stored_quality(Seating(tables, 0, round_.method, figures, spreads))


def _seats_of(round_: Round, player_a: object, player_b: object) -> tuple[Seat, Seat]:
    """The seats of the two players to swap, or every reason why not."""
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
    round_.quality = seating_quality(tournament, round_)
    round_.save(update_fields=["quality"])
    return round_


def _tables_phrase(numbers: Sequence[int]) -> str:
    """ "table 2", "tables 1 and 4", "tables 1, 3 and 4"."""
    if len(numbers) == 1:
        return f"table {numbers[0]}"
    return "tables " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


def round_cancel_refusal(round_: Round) -> str | None:
    """Why this round cannot be cancelled, or None when it can: only the last round, and
    only while nothing of it was played (no result version of any status, no penalty, even
    a voided one). The confirmation page asks this before it offers the button."""
    last = Round.objects.filter(tournament=round_.tournament_id).aggregate(top=Max("number"))
    if round_.number != last["top"]:
        return (
            f"round {round_.number} is not the last round (round {last['top']} is); only the "
            "last round can be cancelled."
        )
    played = [
        f"{what} at {_tables_phrase(tables)}"
        for what, tables in (
            ("results", _tables_of(Result.objects.filter(game__table__round=round_))),
            ("penalties", _tables_of(Penalty.objects.filter(game__table__round=round_))),
        )
        if tables
    ]
    if played:
        return f"round {round_.number} has {' and '.join(played)}; it cannot be cancelled."
    return None


@transaction.atomic
def round_cancel(*, round_: Round, by: User) -> None:
    """Cancel the last round before anything of it is played: its tables, seats and games
    go, and its number is free again (the next round opened gets it). Cancelling the only
    round makes a running tournament upcoming again.

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
        raise Conflict("round", f"round {round_.number} was cancelled already.")
    round_ = current
    refusal = round_cancel_refusal(round_)
    if refusal is not None:
        raise Conflict("round", refusal)
    for seat in Seat.objects.filter(round=round_):
        seat._change_reason = f"round {round_.number} cancelled"
        stamp_history_user(seat, by).delete()
    round_.delete()  # its tables and games go with it
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
            raise RuleError("minutes", "give the minutes as a whole number.")
        if not 1 <= minutes <= ROUND_CLOCK_MAX_MINUTES:
            raise RuleError(
                "minutes", f"give between 1 and {ROUND_CLOCK_MAX_MINUTES} minutes (0 stops it)."
            )
        round_.ends_at = timezone.now() + timedelta(minutes=minutes)
    round_.save(update_fields=["ends_at"])
    return round_
