"""The standings as the pages and the API show them: the table (whole or a page of it,
within a division, without the withdrawn), the prize places per division, and the
projector's movement since the last round.

Terms:
* shown metrics — the tournament's ranking metrics in ranking order, then the usual
  counts (games played, games won, score, penalties) that are not already among them.
* stale — the snapshot was computed from an older `results_version` than the
  tournament's; it is shown as it is (marked "updating…") while a worker catches up.
* movement — a player's rank now against their rank in the standings of the rounds
  before the current one (`ranks_before_round`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.db.models import Count, Q

from scoring.standings import METRICS, Metric, rerank
from tournaments.models import Division, Player, Tournament
from tournaments.selectors import division_members, divisions_list

from ..services.standings import ranked_rows, standings_for_read

ALWAYS_SHOWN = ("games_played", "games_won", "score", "penalties")


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


def ranks_before_round(tournament: Tournament, round_number: int) -> dict[int, int]:
    """Each player's rank (by player id) in the standings of the games of the rounds
    before `round_number`: what "movement since the last round" compares with. Computed
    as a recompute is (a fixed handful of queries), not stored; penalties count as they
    stand now (a penalty carries no round of its own)."""
    players = list(
        Player.objects.filter(tournament=tournament)
        .annotate(penalty_count=Count("penalties", filter=Q(penalties__voided=False)))
        .values_list("id", "status", "penalty_count", "lot")
    )
    rows = ranked_rows(
        tournament,
        [p[0] for p in players],
        {p[0]: p[2] for p in players},
        {p[0] for p in players if p[1] == Player.Status.WITHDRAWN},
        before=round_number,
        lots={p[0]: p[3] for p in players if p[3] is not None},
    )
    return {row.player: row.rank for row in rows}
