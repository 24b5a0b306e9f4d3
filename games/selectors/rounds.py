"""Reads of the round pages: a round's tables with their seats and games, one table's
series (the scorekeeper's page).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.db.models import Prefetch, QuerySet

from tournaments.models import Round

from ..models import Game, Penalty, Result, Seat, Table
from .games import AllResults, ConfirmedResults, results_shown

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
