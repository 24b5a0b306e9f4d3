"""Reads that the API and the pages share: games with everything shown about them, and
the standings table as the pages show it.

Visibility follows the tournament's (`tournaments.permissions.can_view`): a game, result
or penalty of a private tournament does not exist for someone without a role in it.

Terms:
* score after sanctions (`net_score`) — a rack's game score minus the unvoided sanction
  points recorded against that player in that game (docs/rules/penalties.md). `racks_scored` is its
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
from urllib.parse import quote

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from scoring.ratings import Rating
from scoring.standings import METRICS, Metric, rerank
from tournaments.models import Club, Division, Member, Player, Round, Tournament
from tournaments.permissions import User, can_view
from tournaments.selectors import division_members, divisions_list

from .models import Game, Penalty, RackEntry, RatingChange, Result, Seat, Standings, Table
from .services.standings import ranks_before_round, standings_for_read

ALWAYS_SHOWN = ("games_played", "games_won", "score", "penalties")


def racks_scored() -> QuerySet[RackEntry]:
    """Racks with `sanction` and `net_score` (see `RackEntryQuerySet.scored`)."""
    return RackEntry.objects.scored()


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
            "extensions",
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
# as docs/api/reference.md shows them); a larger field is shown a page of
# STANDINGS_PAGE_SIZE rows at a time, so a phone polling a 15,000-player event gets a few
# KB, not megabytes.
STANDINGS_WHOLE_UP_TO = 200
STANDINGS_PAGE_SIZE = 100
# `?withdrawn=hide`: the standings without the withdrawn players (the pages, their polled
# fragment, the CSV and the API alike); anything else shows them, after the active ones.
HIDE = "hide"


@dataclass(frozen=True)
class StandingsTable:
    columns: tuple[Metric, ...]
    rows: list[dict[str, Any]]  # this page's rows, as stored: rank, player {...}, metrics
    ranking: list[str]
    computed_at: datetime
    computed_version: int
    results_version: int
    stale: bool
    count: int = 0  # rows in the whole table (as shown: without the withdrawn if hidden)
    page: int = 1
    pages: int = 1
    withdrawn: int = 0  # withdrawn players in the snapshot, shown or not
    hide_withdrawn: bool = False
    division: Division | None = None  # the division shown (its players, ranked again)

    def query(self, page: int | None = None) -> str:
        """The query string that shows `page` (default: this one) the same way: the
        fragment's polls and the pager keep the division and the withdrawn players
        hidden if they are."""
        params = []
        page = self.page if page is None else page
        if self.division is not None:
            params.append(f"division={quote(self.division.slug)}")
        if self.paged and page > 1:
            params.append(f"page={page}")
        if self.hide_withdrawn:
            params.append(f"withdrawn={HIDE}")
        return "?" + "&".join(params) if params else ""

    @property
    def live_query(self) -> str:
        return self.query()

    @property
    def previous_query(self) -> str:
        return self.query(self.page - 1) or "?"

    @property
    def next_query(self) -> str:
        return self.query(self.page + 1)

    @property
    def cells(self) -> list[tuple[dict[str, Any], list[Any]]]:
        """Each row with its metric values in column order (templates cannot index)."""
        keys = [column.key for column in self.columns]
        return [(row, [_shown(row["metrics"].get(key)) for key in keys]) for row in self.rows]

    @property
    def paged(self) -> bool:
        return self.pages > 1


def _shown(value: Any) -> Any:
    """A per-game metric with its 2 decimal places ("30.00"); whole numbers as they are."""
    return f"{value:.2f}" if isinstance(value, float) else value


def within_division(rows: list[dict[str, Any]], members: set[int]) -> list[dict[str, Any]]:
    """The rows of a division's players, in the whole field's order, ranked again 1..n
    (`scoring.standings.rerank`: a shared rank stays shared; copies, the snapshot's rows
    are left as they are)."""
    kept = [row for row in rows if row["player"]["id"] in members]
    ranks = rerank([row["rank"] for row in kept])
    return [{**row, "rank": rank} for row, rank in zip(kept, ranks, strict=True)]


def ranks_within(before: dict[int, int], members: set[int]) -> dict[int, int]:
    """Earlier whole-field ranks (player id -> rank) as ranks within a division."""
    kept = sorted((rank, player) for player, rank in before.items() if player in members)
    ranks = rerank([rank for rank, _ in kept])
    return {player: rank for (_, player), rank in zip(kept, ranks, strict=True)}


# A division without prize labels still shows its first three on the final standings.
PRIZE_PLACES_AT_LEAST = 3


@dataclass(frozen=True)
class PrizePlace:
    rank: int  # within the division
    row: dict[str, Any]  # the standings row (whole-field rank inside)
    prize: str  # the division's label for this rank ("" : none)


@dataclass(frozen=True)
class DivisionPrizes:
    division: Division
    places: list[PrizePlace]


def division_prizes(tournament: Tournament, rows: list[dict[str, Any]]) -> list[DivisionPrizes]:
    """Each division's first places on the final standings, with its prize labels: the
    active players of the division ranked again within it (`within_division`), those
    ranked within its labels (at least PRIZE_PLACES_AT_LEAST places); the label of rank k
    is the k-th, so players sharing a rank share its label. Withdrawn players win no
    prize. Two queries (the divisions, every membership), whatever the size."""
    divisions = divisions_list(tournament)
    if not divisions:
        return []
    members: dict[int, set[int]] = {division.pk: set() for division in divisions}
    memberships = Player.divisions.through.objects.filter(division__tournament=tournament)
    for division_id, player_id in memberships.values_list("division_id", "player_id"):
        members[division_id].add(player_id)
    active = [row for row in rows if row["player"]["status"] != Player.Status.WITHDRAWN]
    shown = []
    for division in divisions:
        places = max(len(division.prizes), PRIZE_PLACES_AT_LEAST)
        kept = [row for row in active if row["player"]["id"] in members[division.pk]]
        ranks = rerank([row["rank"] for row in kept])
        labels = division.prizes
        shown.append(
            DivisionPrizes(
                division,
                [
                    PrizePlace(rank, row, labels[rank - 1] if rank <= len(labels) else "")
                    for row, rank in zip(kept, ranks, strict=True)
                    if rank <= places
                ],
            )
        )
    return shown


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
    hide_withdrawn: bool = False,
    division: Division | None = None,
) -> StandingsTable:
    """The latest snapshot and whether it is stale (`standings_for_read`: computed here
    when there is none, or no worker can be asked), with the columns the pages show: one
    page of it for a large field (`standings_page_of`), or all of it with `whole` (the
    CSV); without the withdrawn players with `hide_withdrawn`; only a `division`'s
    players with it, ranked again within it (`within_division`): one more query."""
    snapshot, stale = standings_for_read(tournament)
    ranking = [key for key in snapshot.ranking if key in METRICS]
    keys = ranking + [key for key in ALWAYS_SHOWN if key not in ranking]
    shown = snapshot.rows
    if division is not None:
        shown = within_division(shown, division_members(division))
    withdrawn = sum(row["player"]["status"] == Player.Status.WITHDRAWN for row in shown)
    if hide_withdrawn and withdrawn:
        # They are listed after every active player, so the ranks left run on unbroken.
        shown = [row for row in shown if row["player"]["status"] != Player.Status.WITHDRAWN]
    rows, page, pages = (
        (shown, 1, 1) if whole else standings_page_of(shown, page=page, player_number=player_number)
    )
    return StandingsTable(
        columns=tuple(METRICS[key].translated() for key in keys),
        rows=rows,
        ranking=list(snapshot.ranking),
        computed_at=snapshot.computed_at,
        computed_version=snapshot.computed_version,
        results_version=tournament.results_version,
        stale=stale,
        count=len(shown),
        page=page,
        pages=pages,
        withdrawn=withdrawn,
        hide_withdrawn=hide_withdrawn,
        division=division,
    )


# --- clubs: ranking lists, members' events and rating histories ----------------------


@dataclass(frozen=True)
class RatedMember:
    rank: int
    member: Member
    shown: int
    games: int


def club_ranking(club: Club) -> list[RatedMember]:
    """The club's rated members, best shown rating first (a shared rating shares a rank).
    One query whatever the size: each member with their newest rating and games rated."""
    newest = RatingChange.objects.filter(member=OuterRef("pk")).order_by("-position")
    members = (
        Member.objects.filter(club=club)
        .annotate(
            mu=Subquery(newest.values("mu")[:1]),
            sigma=Subquery(newest.values("sigma")[:1]),
            games=Count("rating_changes"),
        )
        .filter(mu__isnull=False)
    )
    rated = sorted(
        ((Rating(m.mu, m.sigma).shown, m) for m in members),
        key=lambda x: (-x[0], x[1].name, x[1].pk),
    )
    ranked: list[RatedMember] = []
    for place, (shown, member) in enumerate(rated, start=1):
        same = ranked and ranked[-1].shown == shown
        ranked.append(RatedMember(ranked[-1].rank if same else place, member, shown, member.games))
    return ranked


@dataclass(frozen=True)
class MemberEvent:
    tournament: Tournament
    player: Player
    rank: int | None  # None: no standings yet, or withdrawn
    score: int | None


def member_events(member: Member, user: User) -> list[MemberEvent]:
    """The tournaments the member played (that the user may see), newest first, with
    their rank and score from each tournament's newest standings. Three queries."""
    players = list(
        Player.objects.filter(member=member)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "-tournament_id")
    )
    players = [p for p in players if can_view(user, p.tournament)]
    newest = Standings.objects.filter(tournament=OuterRef("tournament")).order_by(
        "-computed_version"
    )
    snapshot_ids = (
        Player.objects.filter(pk__in=[p.pk for p in players])
        .annotate(snapshot=Subquery(newest.values("pk")[:1]))
        .values_list("snapshot", flat=True)
    )
    rows = dict(
        Standings.objects.filter(pk__in=list(snapshot_ids)).values_list("tournament", "rows")
    )
    events = []
    for player in players:
        row = next(
            (r for r in rows.get(player.tournament_id, []) if r["player"]["id"] == player.pk), None
        )
        active = row is not None and row["player"].get("status") != Player.Status.WITHDRAWN
        events.append(
            MemberEvent(
                player.tournament,
                player,
                row["rank"] if active else None,
                row["metrics"].get("score") if row else None,
            )
        )
    return events


def member_rating_history(member: Member) -> list[RatingChange]:
    return list(
        member.rating_changes.select_related("game__table__round__tournament").order_by("position")
    )


# --- a player's place ------------------------------------------------------------------------


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
    tournament: Tournament,
    rows: list[dict[str, Any]],
    round_number: int | None,
    before: dict[int, int] | None = None,
) -> list[int | None]:
    """For each row, places gained (positive) or lost since the standings before round
    `round_number` (the current one); None when there is nothing to compare with (no
    round before, or a player who had no rank then). `before`: those earlier ranks if the
    caller has them already (`ranks_before_round`, kept in a cache by the pages)."""
    if not round_number or round_number < 2:
        return [None] * len(rows)
    if before is None:
        before = ranks_before_round(tournament, round_number)
    return [
        before[row["player"]["id"]] - row["rank"] if row["player"]["id"] in before else None
        for row in rows
    ]
