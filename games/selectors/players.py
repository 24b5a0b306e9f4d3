"""Reads of a player's page: their series of games, round by round, and their place in the
standings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Prefetch, QuerySet

from tournaments.models import Player

from ..models import Game, Penalty, Result, Seat, Standings
from .games import SeriesGame, results_shown

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


def player_series(player: Player) -> QuerySet[WithAnnotations[Game, SeriesGame]]:
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


@dataclass(frozen=True)
class PlayerPlace:
    """Where a player stands now: their rank in the newest standings snapshot (None before
    any, or when not ranked) out of `field`, and their seat in the tournament's latest
    round (None when not seated in it)."""

    rank: int | None
    field: int
    stale: bool
    latest_round: int | None
    seat: Seat | None


def player_place(player: Player) -> PlayerPlace:
    """Reads the newest snapshot as stored (never recomputes: the standings page does)."""
    tournament = player.tournament
    snapshot = (
        Standings.objects.filter(tournament=tournament)
        .order_by("-computed_version")
        .values_list("rows", "computed_version")
        .first()
    )
    rank, field, stale = None, 0, False
    if snapshot is not None:
        rows, version = snapshot
        field = len(rows)
        rank = next((row["rank"] for row in rows if row["player"]["id"] == player.pk), None)
        stale = version < tournament.results_version
    latest = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    seat = (
        Seat.objects.filter(player=player, round__tournament=tournament, round__number=latest)
        .select_related("table__round")
        .first()
        if latest is not None
        else None
    )
    return PlayerPlace(rank=rank, field=field, stale=stale, latest_round=latest, seat=seat)
