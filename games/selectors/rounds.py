"""Reads of the round pages: a round's tables with their seats and games, one table's
series (the scorekeeper's page); for a large round, its counts (`round_progress`), one
page of its tables (`round_tables_page`), "find my table" (`round_find`) and the seats
alone (`round_seats_shown`, the projector), each a fixed number of queries whatever the
round's size.

Terms:
* series score — a player's scores after sanctions summed over the confirmed games at
  their table in one round (`RackEntry.net_score`), summed by the database here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from tournaments.models import Round

from ..models import Game, Penalty, Result, Seat, Table
from .games import AllResults, ConfirmedResults, racks_scored, results_shown

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


def round_tables(round_: Round) -> QuerySet[Table]:
    """A round's tables with their seated players and their games, each game with its
    confirmed result (`confirmed_results`, racks included): a fixed handful of queries."""
    return (
        Table.objects.filter(round=round_)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch(
                "games",
                queryset=Game.objects.prefetch_related(
                    Prefetch(
                        "results",
                        queryset=results_shown().filter(status=Result.Status.CONFIRMED),
                        to_attr="confirmed_results",
                    )
                ),
            ),
        )
        .order_by("number")
    )


def table_games(table: Table) -> list[WithAnnotations[Game, ConfirmedResults]]:
    """A table of `round_tables`: its games, each with its `confirmed_results`."""
    return cast("list[WithAnnotations[Game, ConfirmedResults]]", list(table.games.all()))


# The round page shows this many tables at a time (with "find my table" across all).
TABLES_PER_PAGE = 20
# "Find my table" lists at most this many seats.
FOUND_AT_MOST = 20


@dataclass(frozen=True)
class RoundProgress:
    """A round's tables counted in SQL: how many, their seats and games, the games
    with a confirmed result, the numbers of the tables with games still to enter and how
    many tables have no game entered yet."""

    tables: int
    seats: int
    games: int
    entered: int
    waiting: list[int]
    unstarted: int

    @property
    def finished_tables(self) -> int:
        return self.tables - len(self.waiting)


def round_progress(round_: Round) -> RoundProgress:
    """One query: each table's seats, games and confirmed games, counted by the database."""
    rows = list(
        Table.objects.filter(round=round_)
        .annotate(
            seat_count=Count("seats", distinct=True),
            game_count=Count("games", distinct=True),
            # One confirmed result per game at most (a constraint): counting them counts
            # the games entered.
            entered=Count(
                "games__results",
                filter=Q(games__results__status=Result.Status.CONFIRMED),
                distinct=True,
            ),
        )
        .order_by("number")
        .values_list("number", "seat_count", "game_count", "entered")
    )
    return RoundProgress(
        tables=len(rows),
        seats=sum(row[1] for row in rows),
        games=sum(row[2] for row in rows),
        entered=sum(row[3] for row in rows),
        waiting=[row[0] for row in rows if row[3] < row[2]],
        unstarted=sum(1 for row in rows if not row[3]),
    )


def round_tables_page(round_: Round, numbers: list[int]) -> list[dict[str, Any]]:
    """The tables numbered `numbers` (one page of the round page), each with its seated
    players, how many games it has and has entered, and each seat's series score so far
    (summed by the database): three queries whatever the round's size."""
    tables = list(
        Table.objects.filter(round=round_, number__in=numbers)
        .annotate(
            game_count=Count("games", distinct=True),
            entered=Count(
                "games__results",
                filter=Q(games__results__status=Result.Status.CONFIRMED),
                distinct=True,
            ),
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("number")
    )
    series = {
        (row["result__game__table_id"], row["player_id"]): row["series"]
        for row in racks_scored()
        .filter(result__status=Result.Status.CONFIRMED, result__game__table__in=tables)
        .order_by()
        .values("result__game__table_id", "player_id")
        .annotate(series=Sum("net_score"))
    }
    return [
        {
            "table": table,
            "seats": [
                {
                    "seat": seat,
                    "series": series.get((table.pk, seat.player_id), 0) if table.entered else None,
                }
                for seat in table.seats.all()
            ],
            "games": table.game_count,
            "entered": table.entered,
        }
        for table in tables
    ]


def round_find(round_: Round, query: str) -> list[Seat]:
    """The seats of the round whose player's name holds `query` (any case) or whose start
    number is `query` ("#12" too): at most FOUND_AT_MOST, in table order; one query."""
    needle = query.strip().lstrip("#").strip()
    if not needle:
        return []
    match = Q(player__name__icontains=needle)
    if needle.isdigit():
        match |= Q(player__number=int(needle))
    return list(
        Seat.objects.filter(match, round=round_)
        .select_related("player", "table")
        .order_by("table__number", "position")[:FOUND_AT_MOST]
    )


def round_seats_shown(round_: Round) -> QuerySet[Table]:
    """A round's tables with their seated players only (the projector's table slides):
    two queries, no games or results."""
    return (
        Table.objects.filter(round=round_)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("number")
    )


def table_series(table: Table) -> QuerySet[WithAnnotations[Game, AllResults]]:
    """The games of one table, each with every result version (`all_results`, newest
    first, racks included) and its penalties: what the scorekeeper's page shows."""
    return (
        Game.objects.filter(table=table)
        .prefetch_related(
            Prefetch(
                "results",
                queryset=results_shown().order_by("-version"),
                to_attr="all_results",
            ),
            Prefetch(
                "penalties",
                queryset=Penalty.objects.select_related("player", "recorded_by", "voided_by"),
            ),
            "extensions",
        )
        .order_by("number")
    )
