"""CSV exports of the tournaments layer: the player list.

Terms:
* players CSV — one header row, then one row per player by start number: `number, name,
  club, rating, status` (the import reads `name, club, rating` back). Written like every
  export by `csv_files.csv_text`: a BOM first, formula cells neutralised.
"""

from __future__ import annotations

from .csv_files import csv_text
from .models import Tournament

PLAYER_COLUMNS = ("number", "name", "club", "rating", "status")


def players_csv(tournament: Tournament) -> str:
    rows = (
        [player.number, player.name, player.club, player.rating, player.status]
        for player in tournament.players.order_by("number")
    )
    return csv_text(PLAYER_COLUMNS, rows)
