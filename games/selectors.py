"""Reads that the API and the pages share: games with everything shown about them.

Visibility follows the tournament's (`tournaments.selectors.can_view`): a game, result or
penalty of a private tournament does not exist for someone without a role in it.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from tournaments.selectors import can_view

from .models import Game, Penalty, Result, Seat


def results_shown() -> QuerySet[Result]:
    """Results with their racks and the people who entered and confirmed them."""
    return Result.objects.select_related("submitted_by", "confirmed_by").prefetch_related("racks")


def games_shown() -> QuerySet[Game]:
    """Games with their round, table, seated players, confirmed result and penalties,
    in a fixed handful of queries however many games are read."""
    return (
        Game.objects.select_related("table__round__tournament")
        .prefetch_related(
            Prefetch("table__seats", queryset=Seat.objects.select_related("player")),
            Prefetch(
                "results",
                queryset=results_shown().filter(status=Result.Status.CONFIRMED),
                to_attr="confirmed_results",
            ),
            Prefetch("penalties", queryset=Penalty.objects.select_related("recorded_by")),
        )
        .order_by("table__round__number", "table__number", "number")
    )


def with_result_flag(games: QuerySet[Game]) -> QuerySet[Game]:
    confirmed = Result.objects.filter(game=OuterRef("pk"), status=Result.Status.CONFIRMED)
    return games.annotate(has_result=Exists(confirmed))


def visible_game(user: Any, pk: int, queryset: QuerySet[Game] | None = None) -> Game | None:
    """The game if it exists and the user may see its tournament."""
    queryset = (
        Game.objects.select_related("table__round__tournament") if queryset is None else queryset
    )
    game = queryset.filter(pk=pk).first()
    if game is None or not can_view(user, game.table.round.tournament):
        return None
    return game


def visible_penalty(user: Any, pk: int) -> Penalty | None:
    penalty = Penalty.objects.select_related("game__table__round__tournament").filter(pk=pk).first()
    if penalty is None or not can_view(user, penalty.game.table.round.tournament):
        return None
    return penalty


# --- reads of the web pages (rounds, tables, players) --------------------------------------


def round_tables(round_: Any) -> QuerySet[Any]:
    """A round's tables with their seated players and their games, each game with its
    confirmed result (`confirmed_results`, racks included): a fixed handful of queries."""
    from .models import Table

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


def table_series(table: Any) -> QuerySet[Game]:
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
        )
        .order_by("number")
    )


def player_series(player: Any) -> QuerySet[Game]:
    """Every game at a table where the player sat, with the confirmed result and the
    player's penalties, in round and game order."""
    return (
        Game.objects.filter(table__seats__player=player)
        .select_related("table__round")
        .prefetch_related(
            Prefetch(
                "results",
                queryset=results_shown().filter(status=Result.Status.CONFIRMED),
                to_attr="confirmed_results",
            ),
            Prefetch(
                "penalties",
                queryset=Penalty.objects.filter(player=player),
                to_attr="player_penalties",
            ),
        )
        .order_by("table__round__number", "number")
    )
