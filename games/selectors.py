"""Reads that the API and the pages share: games with everything shown about them, and
the standings table as the pages show it.

Visibility follows the tournament's (`tournaments.permissions.can_view`): a game, result
or penalty of a private tournament does not exist for someone without a role in it.

Terms:
* score after sanctions (`net_score`) — a rack's game score minus the unvoided sanction
  points recorded against that player in that game (RULES.md §6). `racks_scored` is its
  one definition for the pages and exports; the standings SQL
  (`games.services.standings`) sums the same thing, and a test holds the two together.
* shown metrics — the tournament's ranking metrics in ranking order, then the usual
  counts (games played, games won, score, penalties) that are not already among them.
* stale — the snapshot was computed from an older `results_version` than the
  tournament's; it is shown as it is (marked "updating…") while a worker catches up.
* page state — the few values that say whether anything a tournament's public pages show
  has changed (`page_state`): read in one query, it makes the pages' validators (ETag,
  Last-Modified) without reading the standings themselves.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, F, IntegerField, OuterRef, Prefetch, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from scoring.standings import METRICS, Metric
from tournaments.models import Player, Round, Tournament
from tournaments.permissions import can_view

from .models import Game, Penalty, RackEntry, Result, Seat, Standings, Table
from .services.standings import ranks_before_round, standings_for_read

ALWAYS_SHOWN = ("games_played", "games_won", "score", "penalties")


def racks_scored() -> QuerySet[RackEntry]:
    """Racks with `sanction` (unvoided sanction points of that player in that game) and
    `net_score` (the score after sanctions)."""
    sanctions = (
        Penalty.objects.filter(
            game=OuterRef("result__game"),
            player=OuterRef("player"),
            kind=Penalty.Kind.SANCTION,
            voided=False,
        )
        .values("game", "player")
        .annotate(total=Sum("points"))
        .values("total")
    )
    return RackEntry.objects.annotate(
        sanction=Coalesce(Subquery(sanctions, output_field=IntegerField()), 0),
        net_score=F("score") - F("sanction"),
    )


def results_shown() -> QuerySet[Result]:
    """Results with their racks (scored after sanctions) and the people who entered and
    confirmed them."""
    return Result.objects.select_related("submitted_by", "confirmed_by").prefetch_related(
        Prefetch("racks", queryset=racks_scored())
    )


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


def table_series(table: Table) -> QuerySet[Game]:
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


def player_series(player: Player) -> QuerySet[Game]:
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


# --- standings as the pages show them ------------------------------------------------------


# Up to this many players the standings come whole (the page, its fragment and the API,
# as API.md shows them); a larger field is shown a page of STANDINGS_PAGE_SIZE rows at a
# time, so a phone polling a 15,000-player event gets a few KB, not megabytes.
STANDINGS_WHOLE_UP_TO = 200
STANDINGS_PAGE_SIZE = 100


@dataclass(frozen=True)
class StandingsTable:
    columns: tuple[Metric, ...]
    rows: list[dict[str, Any]]  # this page's rows, as stored: rank, player {...}, metrics
    ranking: list[str]
    computed_at: datetime
    computed_version: int
    results_version: int
    stale: bool
    count: int = 0  # rows in the whole table
    page: int = 1
    pages: int = 1

    @property
    def cells(self) -> list[tuple[dict[str, Any], list[int | None]]]:
        """Each row with its metric values in column order (templates cannot index)."""
        keys = [column.key for column in self.columns]
        return [(row, [row["metrics"].get(key) for key in keys]) for row in self.rows]

    @property
    def paged(self) -> bool:
        return self.pages > 1


def standings_page_of(
    rows: list[dict[str, Any]], *, page: int | None = None, player_number: int | None = None
) -> tuple[list[dict[str, Any]], int, int]:
    """The rows to show, the page number and the page count. A field of up to
    STANDINGS_WHOLE_UP_TO players is one page; a larger one is cut into pages of
    STANDINGS_PAGE_SIZE, and `player_number` ("find me") picks the page that player is
    on. A page past the last shows the last (a table that shrank since the link was made).
    """
    if len(rows) <= STANDINGS_WHOLE_UP_TO:
        return rows, 1, 1
    pages = -(-len(rows) // STANDINGS_PAGE_SIZE)
    if player_number is not None:
        index = next(
            (i for i, row in enumerate(rows) if row["player"]["number"] == player_number), None
        )
        if index is not None:
            page = index // STANDINGS_PAGE_SIZE + 1
    page = min(max(page or 1, 1), pages)
    start = (page - 1) * STANDINGS_PAGE_SIZE
    return rows[start : start + STANDINGS_PAGE_SIZE], page, pages


def standings_table(
    tournament: Tournament,
    *,
    page: int | None = None,
    player_number: int | None = None,
    whole: bool = False,
) -> StandingsTable:
    """The latest snapshot and whether it is stale (`standings_for_read`: computed here
    when there is none, or no worker can be asked), with the columns the pages show: one
    page of it for a large field (`standings_page_of`), or all of it with `whole` (the
    CSV)."""
    snapshot, stale = standings_for_read(tournament)
    ranking = [key for key in snapshot.ranking if key in METRICS]
    keys = ranking + [key for key in ALWAYS_SHOWN if key not in ranking]
    rows, page, pages = (
        (snapshot.rows, 1, 1)
        if whole
        else standings_page_of(snapshot.rows, page=page, player_number=player_number)
    )
    return StandingsTable(
        columns=tuple(METRICS[key] for key in keys),
        rows=rows,
        ranking=list(snapshot.ranking),
        computed_at=snapshot.computed_at,
        computed_version=snapshot.computed_version,
        results_version=tournament.results_version,
        stale=stale,
        count=len(snapshot.rows),
        page=page,
        pages=pages,
    )


# --- what the public pages' validators are made of -----------------------------------------


@dataclass(frozen=True)
class PageState:
    """What a tournament's public pages depend on, besides their address and the reader."""

    tournament_id: int
    results_version: int
    updated_at: datetime
    computed_version: int | None  # the newest snapshot's (None: none yet)
    computed_at: datetime | None
    last_round_id: int | None  # the rounds are 1..number; a cancelled one leaves a gap in ids
    last_round_number: int | None
    last_round_at: datetime | None
    round_ends_at: datetime | None  # the last round's clock
    last_seat_id: int | None  # a seat swap stores new seats: a new highest id

    @property
    def stale(self) -> bool:
        return self.computed_version is None or self.computed_version < self.results_version

    @property
    def tag(self) -> str:
        """A short digest of everything above: equal tags, equal pages."""
        raw = "|".join(
            str(value)
            for value in (
                self.tournament_id,
                self.results_version,
                self.updated_at.isoformat(),
                self.computed_version,
                self.computed_at and self.computed_at.isoformat(),
                self.last_round_id,
                self.last_round_number,
                self.round_ends_at and self.round_ends_at.isoformat(),
                self.last_seat_id,
            )
        )
        return hashlib.blake2b(raw.encode(), digest_size=12).hexdigest()

    @property
    def last_modified(self) -> datetime:
        return max(t for t in (self.updated_at, self.computed_at, self.last_round_at) if t)


def page_state(tournament: Tournament) -> PageState:
    """The tournament's page state, in one query however large the field."""
    newest = Standings.objects.filter(tournament=OuterRef("pk")).order_by("-computed_version")
    last_round = Round.objects.filter(tournament=OuterRef("pk")).order_by("-number")
    last_seat = Seat.objects.filter(round__tournament=OuterRef("pk")).order_by("-id")
    row = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(
            computed_version=Subquery(newest.values("computed_version")[:1]),
            computed_at=Subquery(newest.values("computed_at")[:1]),
            last_round_id=Subquery(last_round.values("id")[:1]),
            last_round_number=Subquery(last_round.values("number")[:1]),
            last_round_at=Subquery(last_round.values("created_at")[:1]),
            round_ends_at=Subquery(last_round.values("ends_at")[:1]),
            last_seat_id=Subquery(last_seat.values("id")[:1]),
        )
        .values_list(
            "results_version",
            "updated_at",
            "computed_version",
            "computed_at",
            "last_round_id",
            "last_round_number",
            "last_round_at",
            "round_ends_at",
            "last_seat_id",
        )
        .get()
    )
    return PageState(tournament.pk, *row)


# --- the projector: standings with movement, the current round's tables --------------------


def standings_movement(
    tournament: Tournament, rows: list[dict[str, Any]], round_number: int | None
) -> list[int | None]:
    """For each row, places gained (positive) or lost since the standings before round
    `round_number` (the current one); None when there is nothing to compare with (no
    round before, or a player who had no rank then)."""
    if not round_number or round_number < 2:
        return [None] * len(rows)
    before = ranks_before_round(tournament, round_number)
    return [
        before[row["player"]["id"]] - row["rank"] if row["player"]["id"] in before else None
        for row in rows
    ]
