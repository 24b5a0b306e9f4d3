"""CSV exports of the tournaments layer: the player list.

Terms:
* players CSV — one header row, then one row per player by start number: `number, name,
  club, rating, status` (the import reads `name, club, rating` back).
"""

from __future__ import annotations

import csv
import io

from .models import Tournament

PLAYER_COLUMNS = ("number", "name", "club", "rating", "status")


def players_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PLAYER_COLUMNS)
    for player in tournament.players.order_by("number"):
        writer.writerow([player.number, player.name, player.club, player.rating, player.status])
    return out.getvalue()
