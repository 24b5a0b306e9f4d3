"""CSV exports of the tournaments layer: the player list, a club's members.

Terms:
* players CSV — one header row, then one row per player by start number: `number, name,
  club, rating, status` (the import reads `name, club, rating` back). Written like every
  export by `csv_files.csv_text`: a BOM first, formula cells neutralised.
* members CSV — `name, code, joined_on` per member by name: what the members import reads.
"""

from __future__ import annotations

from .csv_files import csv_text
from .models import Club, Tournament

PLAYER_COLUMNS = ("number", "name", "club", "rating", "status")


def players_csv(tournament: Tournament) -> str:
    rows = (
        [player.number, player.name, player.club, player.rating, player.status]
        for player in tournament.players.order_by("number")
    )
    return csv_text(PLAYER_COLUMNS, rows)


def members_csv(club: Club) -> str:
    rows = (
        [member.name, member.code, member.joined_on.isoformat() if member.joined_on else ""]
        for member in club.members.order_by("name", "pk")
    )
    return csv_text(("name", "code", "joined_on"), rows)
