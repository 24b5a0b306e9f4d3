"""How a round is seated: who is seated (the present players, a later stage's entrants),
tables given by hand checked, tables drawn by the seating engine (`random`, `swiss`,
`plan`, with the clubs and fixed tables it weighs) and measured. Shared by the preview
(`games.services.draw`) and opening the round (`games.services.rounds`).

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

Where the seating happens: `_players_to_seat` chooses who is seated (the present players),
`round_seating` is the one caller of `_draw` (the engine) for the preview and the commit
alike. A planned round stores its schedule (`SeatingPlan`) as it is drawn.

Not checked here: how good a draw is (the seating engine decides and measures it).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _

from scoring.errors import RuleError, raise_all
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
from tournaments.models import Member, Player, Round, SeatingPlan, Stage, Tournament
from tournaments.selectors import players_to_seat
from tournaments.services.validation import choice, whole_number_between

from ..models import RatingChange, Seat
from .seeded_seating import seeded_order
from .stages import stage_rows
from .standings import standings_recompute

MAX_SEED = 2**62


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
    return tables


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
        dealt = seat_seeded(ranked, tournament.table_size, method)
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


def _players_to_seat(tournament: Tournament, number: int, stage: Stage | None) -> dict[int, Player]:
    """The players round `number` seats, by id: the present ones (check-in); in a stage
    after the first (or a side event), only the stage's entrants (`StageEntry`)."""
    players = players_to_seat(tournament, number)
    if stage is not None and stage.number > 1:
        players = players.filter(stage_entries__stage=stage)
    return {p.id: p for p in players}


def round_seating(
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
        return _returned(tournament, method, number, active, tables, seed)
    return _draw(tournament, method, number, active, tables, seed, stage)


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


def stored_quality(seating: Seating) -> dict[str, Any]:
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
    if plan is not None and planned is not None:
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
    return stored_quality(_measured(tournament, round_.method, round_.number, tables, 0))
