"""Who takes the tournament's qualification slots, marked on the standings rows as they
are stored (`scoring.qualification` holds the rules: passed down past the already
qualified, withdrawn players take none, a tie at the last slot decided by lot).

Rules decided here (the rules are silent; docs/rules/decisions.md, "Stages as a graph"):
* The slots follow the tournament's standings, or, when the tournament names a stage
  (`Tournament.qualify_stage`) and that stage is closed, its order as it closed
  (`Stage.final_order`: a race final's order too), its players first, then everyone else
  in the tournament's order.
"""

from __future__ import annotations

from scoring.qualification import Placed, qualifiers
from tournaments.models import Player, Tournament


def slot_order(tournament: Tournament, rows: list[dict]) -> list[dict]:
    """The rows in the order the qualification slots follow: a named stage's order once
    it is closed (`Stage.final_order`), its players first, then everyone else in the
    tournament's order, ranked on after them; else the tournament's standings. The rows
    are the stored ones (marking them marks the snapshot)."""
    stage = tournament.qualify_stage if tournament.qualify_stage_id is not None else None
    if stage is None or not stage.final_order:
        return rows
    by_player = {row["player"]["id"]: row for row in rows}
    placed = {player: rank for rank, player in stage.final_order if player in by_player}
    ordered: list[dict] = []
    for player in sorted(placed, key=lambda p: placed[p]):
        ordered.append({**by_player[player], "rank": placed[player], "_row": by_player[player]})
    rest = [row for row in rows if row["player"]["id"] not in placed]
    offset = len(placed)
    ordered += [{**row, "rank": offset + row["rank"], "_row": row} for row in rest]
    return ordered


def mark_qualified(rows: list[dict], already: set[int], slots: int) -> None:
    """Say on each row whether the player takes one of the tournament's qualification
    slots (`scoring.qualification`: passed down past the already qualified, withdrawn
    players take none, a tie at the last slot decided by lot): `qualified` on every row,
    `already_qualified` and `slot_by_lot` only where true."""
    result = qualifiers(
        [
            Placed(row["player"]["id"], row["rank"], row["metrics"].get("lot", 0))
            for row in rows
            if row["player"]["status"] != Player.Status.WITHDRAWN
        ],
        already,
        slots,
    )
    taken = set(result.qualified)
    by_lot = set(result.tie.players) if result.tie else set()
    for row in [row.get("_row", row) for row in rows]:
        player = row["player"]["id"]
        row["qualified"] = player in taken
        if player in already:
            row["already_qualified"] = True
        if player in by_lot:
            row["slot_by_lot"] = True
