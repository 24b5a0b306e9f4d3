"""CSV exports of the games layer, one writer each, shared by the pages and the API.

Terms:
* standings CSV — one header row, then one row per player: `rank, player_id, number,
  name, club, status`, then every metric of the ranking in ranking order, then every other
  metric the snapshot holds, in the order of `scoring.standings.METRICS`.
* results CSV — one row per rack of every confirmed result; `score` is the game score
  before sanction points and `sanction` what comes off it; `substitute` names whoever
  played the seat instead of its player (empty: the player did); `submitted_by` and
  `confirmed_by` are display names (`tournaments.people`: "Table 1, round 1" for a table
  link).
* qualified CSV — the players who take the tournament's qualification slots, in standings
  order: `event, qualify_event, slot, rank, number, name, club, member_code,
  decided_by_lot` (`slot` counts 1..N; `decided_by_lot` is 1 for a player whose slot
  was decided by lot at the last slot's tie).
* ranking CSV — the flat file for ranking submissions (a federation, a grand prix): one
  row per player, `event, date, rank, number, name, club, member_code, status, score,
  games_played, games_won`, best first; `event` and `date` on every row so the files of
  several events can be concatenated; `member_code` is the linked club member's code
  (empty when not linked or the club gives none); `score` is after sanction points.

Both are written by `tournaments.csv_files.csv_text`: a BOM first, formula cells
neutralised, numbers (negative scores too) left numbers.
"""

from __future__ import annotations

from scoring.standings import METRICS
from tournaments.csv_files import csv_text
from tournaments.models import Player, Tournament
from tournaments.people import user_display_name

from .models import Seat
from .selectors.games import confirmed_racks
from .selectors.standings import StandingsTable

STANDINGS_PLAYER_COLUMNS = ("rank", "player_id", "number", "name", "club", "status")
RESULTS_COLUMNS = (
    "round", "table", "game", "version", "end", "seat", "player_number", "player",
    "substitute", "tiles", "points", "tile_count", "jokers", "no_meld", "charge", "score",
    "sanction", "winner", "submitted_by", "confirmed_by",
)  # fmt: skip


def standings_metric_keys(table: StandingsTable) -> list[str]:
    """The metric columns: the ranking's, then every other metric the rows hold."""
    keys = [key for key in table.ranking if key in METRICS]
    present = {key for row in table.rows for key in row["metrics"]}
    return keys + [key for key in METRICS if key in present and key not in keys]


def standings_csv(table: StandingsTable) -> str:
    keys = standings_metric_keys(table)
    rows = (
        [
            row["rank"],
            row["player"]["id"],
            row["player"]["number"],
            row["player"]["name"],
            row["player"]["club"],
            row["player"]["status"],
            *(row["metrics"].get(key, "") for key in keys),
        ]
        for row in table.rows
    )
    return csv_text([*STANDINGS_PLAYER_COLUMNS, *keys], rows)


def results_csv(tournament: Tournament) -> str:
    positions = dict(
        ((seat.table_id, seat.player_id), seat.position)
        for seat in Seat.objects.filter(round__tournament=tournament).only(
            "table_id", "player_id", "position"
        )
    )
    rows = (
        [
            rack.result.game.table.round.number, rack.result.game.table.number,
            rack.result.game.number, rack.result.version, rack.result.end,
            positions.get((rack.result.game.table_id, rack.player_id)),
            rack.player.number, rack.player.name, rack.substitute,
            "" if rack.tiles is None else rack.tiles, rack.points, rack.tile_count,
            rack.jokers, rack.no_meld or "", rack.charge, rack.score, rack.sanction,
            int(rack.winner), user_display_name(rack.result.submitted_by),
            user_display_name(rack.result.confirmed_by),
        ]
        for rack in confirmed_racks(tournament)
    )  # fmt: skip
    return csv_text(RESULTS_COLUMNS, rows)


RANKING_COLUMNS = (
    "event", "date", "rank", "number", "name", "club", "member_code", "status", "score",
    "games_played", "games_won",
)  # fmt: skip


def ranking_csv(tournament: Tournament, table: StandingsTable) -> str:
    codes = dict(
        Player.objects.filter(tournament=tournament, member__isnull=False).values_list(
            "pk", "member__code"
        )
    )
    date = tournament.starts_on.isoformat() if tournament.starts_on else ""
    rows = (
        [
            tournament.slug, date, row["rank"], row["player"]["number"], row["player"]["name"],
            row["player"]["club"], codes.get(row["player"]["id"], ""), row["player"]["status"],
            row["metrics"].get("score", 0), row["metrics"].get("games_played", 0),
            row["metrics"].get("games_won", 0),
        ]
        for row in table.rows
    )  # fmt: skip
    return csv_text(RANKING_COLUMNS, rows)


QUALIFIED_COLUMNS = (
    "event", "qualify_event", "slot", "rank", "number", "name", "club", "member_code",
    "decided_by_lot",
)  # fmt: skip


def qualified_csv(tournament: Tournament, table: StandingsTable) -> str:
    """The qualified list (empty below the header when the tournament declares no slots)."""
    codes = dict(
        Player.objects.filter(tournament=tournament, member__isnull=False).values_list(
            "pk", "member__code"
        )
    )
    qualified = [row for row in table.rows if row.get("qualified")]
    rows = (
        [
            tournament.slug, tournament.qualify_event, slot, row["rank"],
            row["player"]["number"], row["player"]["name"], row["player"]["club"],
            codes.get(row["player"]["id"], ""), int(bool(row.get("slot_by_lot"))),
        ]
        for slot, row in enumerate(qualified, start=1)
    )  # fmt: skip
    return csv_text(QUALIFIED_COLUMNS, rows)


SEASON_COLUMNS = ("rank", "member_id", "member", "total", "events")


def season_csv(rows: list[dict], events: list[Tournament]) -> str:
    """One row per member: rank, total, then each event's contribution (in event order;
    empty where the member did not play, in brackets where it did not count)."""
    header = [*SEASON_COLUMNS, *(event.slug for event in events)]

    def cells(row: dict) -> list:
        by_event = {c["event"]: c for c in row["contributions"]}
        values = []
        for event in events:
            c = by_event.get(event.slug)
            values.append("" if c is None else c["value"] if c["counted"] else f"({c['value']})")
        return [row["rank"], row["member"]["id"], row["member"]["name"], row["total"],
                row["events"], *values]  # fmt: skip

    return csv_text(header, (cells(row) for row in rows))
