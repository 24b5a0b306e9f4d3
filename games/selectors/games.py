"""Reads of games, results, racks and penalties that the API, the pages and the exports
share: games with everything shown about them.

Visibility follows the tournament's (`tournaments.permissions.can_view`): a game, result
or penalty of a private tournament does not exist for someone without a role in it.

Terms:
* score after sanctions (`net_score`) — a rack's game score minus the unvoided sanction
  points recorded against that player in that game (docs/rules/penalties.md). `racks_scored` is its
  one definition for the pages and exports; the standings SQL
  (`games.services.standings`) sums the same thing, and a test holds the two together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from tournaments.models import Tournament
from tournaments.permissions import can_view

from ..models import Game, Penalty, RackEntry, Result, Seat

if TYPE_CHECKING:  # django-stubs' name for a model instance with prefetched lists
    from django_stubs_ext import WithAnnotations


class ConfirmedResults(TypedDict):
    """What a game read with its confirmed results carries (Prefetch to_attr)."""

    confirmed_results: list[Result]


class AllResults(TypedDict):
    """What a game read with every result version carries (Prefetch to_attr)."""

    all_results: list[Result]


class SeriesGame(TypedDict):
    """A player's game: its confirmed results and that player's penalties."""

    confirmed_results: list[Result]
    player_penalties: list[Penalty]


def racks_scored() -> QuerySet[RackEntry]:
    """Racks with `sanction` and `net_score` (see `RackEntryQuerySet.scored`)."""
    return RackEntry.objects.scored()


def results_shown() -> QuerySet[Result]:
    """Results with their racks (scored after sanctions) and the people who entered and
    confirmed them."""
    return Result.objects.select_related("submitted_by", "confirmed_by").prefetch_related(
        Prefetch("racks", queryset=racks_scored())
    )


def games_shown() -> QuerySet[WithAnnotations[Game, ConfirmedResults]]:
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
            "extensions",
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


def confirmed_racks(tournament: Tournament) -> QuerySet[RackEntry]:
    """Every rack of every confirmed result of the tournament, scored after sanctions,
    in round, table, game order (what the results export lists)."""
    return (
        racks_scored()
        .filter(
            result__game__table__round__tournament=tournament,
            result__status=Result.Status.CONFIRMED,
        )
        .select_related(
            "player", "result__game__table__round", "result__submitted_by", "result__confirmed_by"
        )
        .order_by(
            "result__game__table__round__number",
            "result__game__table__number",
            "result__game__number",
            "id",
        )
    )
