"""A player's page: every game they sat in, and a chart of their cumulative score.

Terms:
* cumulative score — the player's scores after sanctions summed round by round (what the
  chart draws); a round none of whose games has a result yet is left out, not drawn as 0.
* place — the player's current rank (newest standings snapshot) and table (latest round).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.models import Player, Tournament
from tournaments.web import tournament_context, tournament_page

from ..chart import line_chart
from ..models import Penalty
from ..selectors import player_place, player_series


def _player_rows(player: Player) -> tuple[list[dict[str, Any]], list[tuple[str, int]]]:
    """One row per game the player sat in, and the cumulative score after each round."""
    rows = []
    by_round: dict[int, int] = {}
    for game in player_series(player):
        result = game.confirmed_results[0] if game.confirmed_results else None
        rack = (
            next((r for r in result.racks.all() if r.player_id == player.pk), None)
            if result
            else None
        )
        penalties = game.player_penalties
        round_number = game.table.round.number
        if rack is not None:  # a round without a result yet is not plotted
            by_round[round_number] = by_round.get(round_number, 0) + rack.net_score
        rows.append(
            {
                "game": game,
                "round": round_number,
                "result": result,
                "rack": rack,
                # Shown beside the score; a game without a result has nothing to take it off.
                "sanction": rack.sanction
                if rack is not None
                else sum(
                    p.points for p in penalties if p.kind == Penalty.Kind.SANCTION and not p.voided
                ),
                "score": rack.net_score if rack is not None else None,
                "penalties": penalties,
            }
        )
    cumulative, total = [], 0
    for round_number in sorted(by_round):
        total += by_round[round_number]
        cumulative.append((f"R{round_number}", total))
    return rows, cumulative


@tournament_page("view")
def player_detail(request: HttpRequest, tournament: Tournament, player_number: int) -> HttpResponse:
    player = get_object_or_404(tournament.players, number=player_number)
    rows, cumulative = _player_rows(player)
    return render(
        request,
        "games/player_detail.html",
        {
            **tournament_context(request.user, tournament),
            "player": player,
            "place": player_place(player),
            "rows": rows,
            "cumulative": cumulative,
            "chart": line_chart(cumulative) if cumulative else None,
            "total": cumulative[-1][1] if cumulative else 0,
        },
    )
