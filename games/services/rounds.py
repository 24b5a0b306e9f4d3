"""Writes for rounds: preview and open the next round (seat everyone, create the tables'
games), swap two players' seats and cancel the last round before any result — each one
transaction, refused first to anyone but the tournament's organisers.

Terms (docs/rules/standings.md, `scoring.seating`):
* draw — who sits at which table in which seat: given by hand (`manual`) or drawn by the
  seating engine (`random`, `swiss`, `plan`), reproducibly from a stored `seed`.
* history — the seatings of the earlier rounds, which the draw avoids repeating.
* quality — the figures the seating engine gives for a draw (repeat meetings, same-club
  pairs, starter balance, for Swiss the rank spread), stored with the round as the engine
  gave them.
* present — an active player not marked absent for the round (check-in,
  `tournaments.selectors.players_to_seat`): only they are seated.
* clubs, fixed tables — what the drawn methods also weigh (`_seating_wishes`): players of
  one club apart as the tournament's `club_avoidance` says, and players with a
  `fixed_table` at that table. A hand-made (`manual`) seating is taken as given.
* preview — the draw that opening the round would make, said in words, with nothing
  saved (`round_draw`); committing it (`round_open` with the previewed `tables`, `seed`
  and `number`) opens exactly that draw, swaps made by hand included.
* missing results — games of earlier rounds without a confirmed result (none at all, or
  one waiting for confirmation); the next round then opens only with `open_anyway`.

Where the seating happens: `_players_to_seat` chooses who is seated (the present players),
`_seating` is the one caller of `_draw` (the engine) for the preview and the commit alike.

Lock order, everywhere: the tournament row first, then games (see `games.services.locks`).

Not checked here: how good a draw is (the seating engine decides and measures it).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError, raise_all
from scoring.ratings import Rating
from scoring.seating import (
    SAME_CLUB_APART,
    SAME_CLUB_LIGHT,
    SAME_CLUB_OFF,
    Seating,
    place_fixed,
    plan_rounds,
    quality,
    seat_random,
    seat_swiss,
    table_rank_spreads,
    table_sizes,
)
from scoring.seating.seeded import SEEDED_METHODS, seat_seeded
from scoring.seating.words import (
    games_at,
    quality_sentences,
    table_sizes_sentence,
    uneven_games,
)
from tournaments.backups import backup_after_commit
from tournaments.lifecycle import require_open
from tournaments.models import (
    Member,
    Player,
    Round,
    SeatingPlan,
    Stage,
    Tournament,
    Webhook,
)
from tournaments.permissions import User, require
from tournaments.selectors import open_stages, players_to_seat
from tournaments.services.validation import (
    choice,
    signed_in_or_none,
    stamp_history_user,
    whole_number_between,
)
from tournaments.services.webhooks import webhooks_emit

from ..models import Game, Penalty, RatingChange, Result, Seat, Table
from .gaps import RoundGaps, round_results_missing, tables_phrase
from .locks import lock_tournament
from .matches import games_to_seat
from .seeded_seating import method_or_stage_default, seeded_order, stage_games_per_table
from .stages import require_stage_open_for_a_round, stage_game_words, stage_rows
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
            message = _("round {number} is already open; nothing new was opened.").format(
                number=expected
            )
        elif last_round:
            message = _(
                "round {number} is not the next round: the last one open is round {last}; "
                "reload and try again."
            ).format(number=expected, last=last_round)
        else:
            message = _(
                "round {number} is not the next round: the last one open is no round yet; "
                "reload and try again."
            ).format(number=expected)
        super().__init__("number", message, last_round=last_round)


def starter_of(game_number: int, seats: int) -> int:
    """Game n of a series is started by seat ((n-1) mod seats) + 1."""
    return (game_number - 1) % seats + 1


def _check_manual_tables(
    tournament: Tournament,
    tables: object,
    active: Mapping[int, Player],
    *,
    largest: int | None = None,
) -> list[list[int]]:
    """Every present player exactly once, tables of 2..table_size (or `largest`, when a
    draw made them bigger), nobody else."""
    largest = largest or tournament.table_size
    if not isinstance(tables, list) or not tables:
        raise RuleError("tables", _("list the tables, each a list of player ids."))
    errors: list[RuleError] = []
    known = dict(tournament.players.values_list("id", "status"))
    seen: set[int] = set()
    for index, table in enumerate(tables, start=1):
        if not isinstance(table, list) or any(
            isinstance(p, bool) or not isinstance(p, int) for p in table
        ):
            errors.append(
                RuleError(
                    "tables", _("table {index}: must be a list of player ids.").format(index=index)
                )
            )
            continue
        if not 2 <= len(table) <= largest:
            errors.append(
                RuleError(
                    "tables",
                    _("table {index}: seats {count} players; a table seats 2 to {largest}.").format(
                        index=index, count=len(table), largest=largest
                    ),
                )
            )
        errors += _seat_errors(index, table, known, seen, active)
    missing = [p for p in active if p not in seen]
    if missing:
        names = ", ".join(f"{p} ({active[p].name})" for p in missing[:10])
        if len(missing) > 10:
            message = _("present players not seated: {names} and {more} more.").format(
                names=names, more=len(missing) - 10
            )
        else:
            message = _("present players not seated: {names}.").format(names=names)
        errors.append(
            RuleError(
                "tables",
                message,
            )
        )
    raise_all(errors)
    return tables  # type: ignore[return-value]


def _seat_errors(
    index: int,
    table: list[int],
    known: Mapping[int, str],
    seen: set[int],
    present: Mapping[int, Player],
) -> list[RuleError]:
    """What is wrong with the players of one hand-made table (`seen` collects them)."""
    errors = []
    for pid in table:
        if pid not in known:
            errors.append(
                RuleError(
                    "tables", _("table {index}: unknown player {pid}.").format(index=index, pid=pid)
                )
            )
        elif known[pid] != Player.Status.ACTIVE:
            errors.append(
                RuleError(
                    "tables",
                    _("table {index}: player {pid} has withdrawn.").format(index=index, pid=pid),
                )
            )
        elif pid not in present:
            errors.append(
                RuleError(
                    "tables",
                    _("table {index}: player {pid} is checked in as absent.").format(
                        index=index, pid=pid
                    ),
                )
            )
        elif pid in seen:
            errors.append(
                RuleError(
                    "tables",
                    _("table {index}: player {pid} is seated twice.").format(index=index, pid=pid),
                )
            )
        seen.add(pid)
    return errors


def _draw(
    tournament: Tournament,
    method: str,
    number: int,
    active: Mapping[int, Player],
    tables: object,
    seed: int,
    stage: Stage | None = None,
) -> Seating:
    """The round's seating by `method`, with its quality as the seating engine gives it.
    `active` are the players to seat (the present ones); their clubs and fixed tables
    go into the draw (`_seating_wishes`)."""
    history = round_history(tournament, before=number)
    clubs = _clubs(active)
    if method == Round.Method.MANUAL:
        seating = _check_manual_tables(tournament, tables, active)
        figures = quality(seating, history, clubs=clubs)
        return Seating([tuple(t) for t in seating], seed, method, figures)
    wishes = _seating_wishes(tournament, number, active)
    if method == Round.Method.RANDOM:
        return seat_random(list(active), history, tournament.table_size, seed, **wishes)
    if method == Round.Method.SWISS:
        ranked = _ranked_in_stage(stage, active) or ranked_players(tournament, active)
        return seat_swiss(ranked, history, tournament.table_size, seed, **wishes)
    if method in SEEDED_METHODS:
        ranked = seeded_order(stage, active) or ranked_players(tournament, active)
        dealt = seat_seeded(ranked, tournament.table_size, method)  # type: ignore[arg-type]
        tables = [tuple(t) for t in place_fixed(dealt, wishes["fixed"])]
        return Seating(tables, seed, method, quality(tables, history, clubs=clubs))
    planned = _planned(tournament, number, list(active), history, seed)
    tables = [tuple(t) for t in place_fixed(planned.tables, wishes["fixed"])]
    return Seating(tables, planned.seed, "plan", quality(tables, history, clubs=clubs))


def _ranked_in_stage(stage: Stage | None, active: Mapping[int, Player]) -> list[int]:
    """A later stage (or side event) seats Swiss by its own standings (so a stage
    re-seated every game is re-seated by how its games went); [] for stage 1 or none."""
    if stage is None or stage.number == 1:
        return []
    ranked = [row.player.id for row in stage_rows(stage) if row.player.id in active]
    return ranked + sorted(set(active) - set(ranked))


def _clubs(players: Mapping[int, Player]) -> dict[int, str]:
    """Each player's club as the draw compares them: " Haifa RC" and "haifa rc" are one."""
    return {pid: player.club.strip().casefold() for pid, player in players.items()}


def _seating_wishes(
    tournament: Tournament, number: int, active: Mapping[int, Player]
) -> dict[str, Any]:
    """The clubs, how hard to keep them apart in round `number`, and the fixed tables,
    as the seating engine takes them."""
    return {
        "clubs": _clubs(active),
        "same_club_mode": _same_club_mode(tournament, number),
        "fixed": _fixed_tables(tournament, number, active),
    }


def _same_club_mode(tournament: Tournament, number: int) -> str:
    """The tournament's `club_avoidance` for round `number`: apart in round 1 unless it is
    off; after that lighter (`weighted`) or not at all."""
    avoidance = tournament.club_avoidance
    if avoidance == Tournament.ClubAvoidance.OFF:
        return SAME_CLUB_OFF
    if number == 1:
        return SAME_CLUB_APART
    return SAME_CLUB_LIGHT if avoidance == Tournament.ClubAvoidance.WEIGHTED else SAME_CLUB_OFF


def _fixed_tables(
    tournament: Tournament, number: int, active: Mapping[int, Player]
) -> dict[int, int]:
    """Player id → fixed table of the players to seat. A table this round does not have
    (too few present) or more players fixed to a table than it seats is a `RuleError` on
    `fixed_table` naming them, before the engine is asked."""
    fixed = {pid: p.fixed_table for pid, p in active.items() if p.fixed_table is not None}
    sizes = table_sizes(len(active), tournament.table_size) if fixed else []
    by_table: dict[int, list[Player]] = {}
    for pid, table in sorted(fixed.items(), key=lambda item: active[item[0]].number):
        by_table.setdefault(table, []).append(active[pid])
    errors = []
    for table, players in sorted(by_table.items()):
        names = ", ".join(f"#{p.number} {p.name}" for p in players)
        if table > len(sizes):
            message = _(
                "{names}: fixed to table {table}, but round {number} seats {players} "
                "players at {tables} tables; change the fixed table."
            ).format(
                names=names, table=table, number=number, players=len(active), tables=len(sizes)
            )
        elif len(players) > sizes[table - 1]:
            message = _(
                "{names}: all fixed to table {table}, which seats {seats} in round "
                "{number}; change a fixed table."
            ).format(names=names, table=table, seats=sizes[table - 1], number=number)
        else:
            continue
        errors.append(RuleError("fixed_table", message))
    raise_all(errors)
    return fixed


@dataclass(frozen=True)
class DrawPreview:
    """The draw `round_open` would make, and what the organiser is told about it.

    `tables` — player ids per table in seat order (what `round_open` takes back);
    `games` — per table, how many games it plays; `quality` — the seating engine's
    figures (plus `same_club_pairs`), `quality_words` the same in sentences;
    `table_sizes` — the tables by size and their games in a sentence; `uneven` — some
    players play fewer games than others; `gaps` — per earlier round, the games without a
    confirmed result (`round_open` then needs `open_anyway`).
    """

    number: int
    method: str
    seed: int | None
    tables: list[list[int]]
    games: list[int]
    quality: dict[str, Any]
    quality_words: list[str]
    table_sizes: str
    uneven: bool
    gaps: list[RoundGaps]
    stage: Stage | None = None
    # A stage playing one game per round: its game this round is (starter rotation).
    stage_game: int = 0
    stage_words: str = ""

    @property
    def needs_open_anyway(self) -> bool:
        return bool(self.gaps)

    @property
    def warnings(self) -> list[str]:
        return [gap.sentence for gap in self.gaps]

    def starters(self, table_index: int) -> list[int]:
        """The player who starts each game of a table's series, game 1 first."""
        seats = self.tables[table_index]
        first = max(self.stage_game, 1)
        return [
            seats[starter_of(n, len(seats)) - 1]
            for n in range(first, first + self.games[table_index])
        ]


def round_draw(
    *,
    tournament: Tournament,
    by: User,
    method: str | None = Round.Method.MANUAL,
    tables: object = None,
    seed: object = None,
    number: object = None,
    stage: object = None,
) -> DrawPreview:
    """The draw that opening the next round would make, without opening it: a preview.

    Takes what `round_open` takes. Without `tables`, a drawn method draws from `seed`
    (drawn when not given; a new seed is a re-draw). With `tables` — a previewed draw sent
    back, maybe with seats swapped by hand — it checks and measures those tables instead.
    The preview also lists the earlier rounds' games without a confirmed result.
    `stage` — the number of the stage the round belongs to, needed when two stages are
    open at once (a side event beside the main stage; `_round_stage`).

    Saves nothing: it runs in a transaction that is always rolled back, so whatever the
    draw stores on the way (a planned schedule, a standings snapshot) is undone too.
    """
    with transaction.atomic():
        require(by, tournament, "organise")
        require_open(tournament)
        number = _next_number(tournament, number)
        target = _round_stage(tournament, stage)
        method = method_or_stage_default(method, target)
        seating = _seating(tournament, method, number, tables, seed, target)
        preview = _preview(tournament, number, seating, target)
        transaction.set_rollback(True)
    return preview


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
    are open at once (`_round_stage`). A stage that is done (a race won, a re-seated stage
    with all its games played) takes no more rounds: `Conflict` on `stage`. A stage
    playing one game per round (`Stage.one_game_rounds`) gets one game per table, its
    starter rotating with the stage's game number.
    """
    tournament = lock_tournament(tournament)
    require(by, tournament, "organise")
    require_open(tournament)
    if method is None or method == "":
        method = method_or_stage_default(method, _round_stage(tournament, stage))
    returned = method != Round.Method.MANUAL and tables is not None and seed is not None
    if returned and number is None:
        raise RuleError("number", _("send the previewed draw back with its round number."))
    number = _next_number(tournament, number)
    stage = _round_stage(tournament, stage)
    _require_results_or_anyway(tournament, number, open_anyway, stage)
    seating = _seating(tournament, method, number, tables, seed, stage)
    method = seating.method
    stage_game = _stage_game(stage)  # counted before this round joins the stage

    round_ = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=number,
        method=method,
        seed=None if method == Round.Method.MANUAL else seating.seed,
        quality=_stored_quality(seating),
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


def _next_number(tournament: Tournament, number: object) -> int:
    """The next round's number; `number`, when given, must be it (else `RoundConflict`)."""
    last = tournament.rounds.aggregate(top=Max("number"))["top"] or 0
    if number is not None:
        number = whole_number_between(
            "number", number, low=1, high=MAX_ROUND_NUMBER, nullable=False
        )
        if number != last + 1:
            raise RoundConflict(expected=number, last_round=last)
    return last + 1


def _round_stage(tournament: Tournament, stage: object) -> Stage | None:
    """The stage a round opened now belongs to: the one open stage, or the one named by
    `stage` (its number) when several are open — the main stage and a side event.
    Missing while two are open, or naming a stage that is not open: `RuleError` on
    `stage`. A stage that is done refuses: `Conflict` on `stage`."""
    candidates = open_stages(tournament)
    if stage is None or stage == "":
        if len(candidates) > 1:
            names = ", ".join(f"{s.number} ({s.name})" for s in candidates)
            raise RuleError(
                "stage",
                _("two stages are open (%(stages)s): say which one the round belongs to.")
                % {"stages": names},
            )
        chosen = candidates[0] if candidates else None
    else:
        number = whole_number_between("stage", stage, low=1, high=1000, nullable=False)
        chosen = next((s for s in candidates if s.number == number), None)
        if chosen is None:
            raise RuleError(
                "stage",
                _("stage %(number)s is not open for a round; open: %(stages)s.")
                % {
                    "number": number,
                    "stages": ", ".join(str(s.number) for s in candidates) or "-",
                },
            )
    if chosen is not None:
        require_stage_open_for_a_round(chosen)
    return chosen


def _stage_game(stage: Stage | None) -> int:
    """The game of `stage` the next round plays, for a stage of one game per round (the
    starter rotates with it); 0 for any other round."""
    if stage is None or not stage.one_game_rounds:
        return 0
    return stage.rounds.count() + 1


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


def _players_to_seat(tournament: Tournament, number: int, stage: Stage | None) -> dict[int, Player]:
    """The players round `number` seats, by id: the present ones (check-in); in a stage
    after the first (or a side event), only the stage's entrants (`StageEntry`)."""
    players = players_to_seat(tournament, number)
    if stage is not None and stage.number > 1:
        players = players.filter(stage_entries__stage=stage)
    return {p.id: p for p in players}


def _seating(
    tournament: Tournament,
    method: object,
    number: int,
    tables: object,
    seed: object,
    stage: Stage | None = None,
) -> Seating:
    """The seating of round `number`: drawn by `method` (`_draw`), or, for a drawn method
    given `tables` back from a preview, those tables checked and measured."""
    method = choice("method", method, Round.Method)
    active = _players_to_seat(tournament, number, stage)
    if len(active) < 2:
        raise RuleError(
            "method", _("at least two present players are needed to open a round (check-in).")
        )
    returned = method != Round.Method.MANUAL and tables is not None
    if returned and seed is None:
        raise RuleError(
            "tables",
            _(
                "'{method}' seating draws the tables itself; leave them out, or send back a "
                "previewed draw with its seed."
            ).format(method=method),
        )
    if seed is None:
        seed = secrets.randbelow(2**31)
    seed = whole_number_between("seed", seed, low=0, high=MAX_SEED, nullable=False)
    if returned:
        return _returned(tournament, method, number, active, tables, seed)  # type: ignore[arg-type]
    return _draw(tournament, method, number, active, tables, seed, stage)  # type: ignore[arg-type]


def _returned(
    tournament: Tournament,
    method: str,
    number: int,
    active: Mapping[int, Player],
    tables: object,
    seed: int,
) -> Seating:
    """A previewed draw sent back (maybe swapped by hand): checked like hand-made tables,
    except that a table may be as big as the draw makes them, and measured as the seating
    engine measures its own. A planned round stores its schedule as the preview drew it."""
    largest = max(table_sizes(len(active), tournament.table_size))
    checked = _check_manual_tables(tournament, tables, active, largest=largest)
    if method == Round.Method.PLAN:
        _draw(tournament, method, number, active, None, seed)
    return _measured(tournament, method, number, [tuple(t) for t in checked], seed)


def _measured(
    tournament: Tournament, method: str, number: int, tables: list[tuple[int, ...]], seed: int
) -> Seating:
    """These tables as round `number`'s seating, with the quality the seating engine gives
    (a Swiss draw's rank spread against the current standings)."""
    history = round_history(tournament, before=number)
    seated = {p.id: p for p in tournament.players.filter(pk__in=[p for t in tables for p in t])}
    clubs = _clubs(seated)
    if method != Round.Method.SWISS:
        return Seating(tables, seed, method, quality(tables, history, clubs=clubs))
    ranked = ranked_players(tournament, seated)
    spreads = table_rank_spreads(tables, ranked)
    return Seating(tables, seed, method, quality(tables, history, ranked, clubs), spreads)


def _preview(
    tournament: Tournament, number: int, seating: Seating, stage: Stage | None = None
) -> DrawPreview:
    tables = [list(table) for table in seating.tables]
    per_table = (
        1
        if stage is not None and stage.one_game_rounds
        else stage_games_per_table(tournament, stage)
    )
    game = _stage_game(stage)
    sizes = [len(table) for table in tables]
    figures = _stored_quality(seating)
    return DrawPreview(
        number=number,
        method=seating.method,
        seed=None if seating.method == Round.Method.MANUAL else seating.seed,
        tables=tables,
        games=[games_to_seat(tournament, games_at(size, per_table)) for size in sizes],
        quality=figures,
        quality_words=quality_sentences(figures),
        table_sizes=table_sizes_sentence(sizes, per_table),
        uneven=uneven_games(sizes, per_table),
        gaps=round_results_missing(tournament, number, stage),
        stage=stage,
        stage_game=game,
        stage_words=stage_game_words(stage, game) if stage is not None else "",
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
        games = 1 if stage_game else per_table or len(player_ids)
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
        raise RuleError("method", _("a planned schedule needs the tournament's rounds_planned."))
    if number > tournament.rounds_planned:
        raise RuleError(
            "method",
            _("all {rounds_planned} planned rounds are open; use random.").format(
                rounds_planned=tournament.rounds_planned
            ),
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
    strength, then start number — so a Swiss first round still seeds the strongest first.
    Strength is the club rating of a player linked to a rated club member (`scoring.
    ratings`, the shown number), else the `rating` the organiser entered, else 0."""
    snapshot = standings_recompute(tournament_id=tournament.pk)
    rank = {row["player"]["id"]: row["rank"] for row in snapshot.rows} if snapshot else {}
    strength = {pid: player.rating or 0 for pid, player in active.items()}
    strength.update(_club_ratings(active))
    return sorted(
        active, key=lambda p: (rank.get(p, len(rank) + 1), -strength[p], active[p].number)
    )


def _club_ratings(players: Mapping[int, Player]) -> dict[int, int]:
    """The shown club rating of each player linked to a rated member (one query)."""
    members = {p.member_id: pid for pid, p in players.items() if p.member_id is not None}
    if not members:
        return {}
    newest = RatingChange.objects.filter(member=OuterRef("pk")).order_by("-position")
    rated = (
        Member.objects.filter(pk__in=members)
        .annotate(mu=Subquery(newest.values("mu")[:1]), sigma=Subquery(newest.values("sigma")[:1]))
        .filter(mu__isnull=False)
        .values_list("pk", "mu", "sigma")
    )
    return {members[member]: Rating(mu, sigma).shown for member, mu, sigma in rated}


def seating_quality(tournament: Tournament, round_: Round) -> dict[str, Any]:
    """The quality of a round as it is seated now (after a swap, say), given the rounds
    before it; a Swiss round's rank spread is measured against the current standings."""
    current = round_history(tournament, before=round_.number + 1)[-1]
    tables = [tuple(t) for t in current]
    return _stored_quality(_measured(tournament, round_.method, round_.number, tables, 0))


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
