"""A player's page: every game they sat in, and a chart of their cumulative score.

Terms:
* cumulative score — the player's scores after sanctions summed round by round (what the
  chart draws); a round none of whose games has a result yet is left out, not drawn as 0,
  and so is a game a substitute played in the seat unless the tournament credits
  substitute games, as in the standings.
* place — the player's current rank (newest standings snapshot) and table (latest round).
* withdraw page — asks "withdraw #N name?" and, when their table is in play, what happens
  to the unplayed games (`games.services.withdrawals`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.errors import RuleError
from tournaments.models import Player, Tournament
from tournaments.web import add_rule_errors, tournament_context, tournament_page

from ..chart import line_chart
from ..forms.players import WithdrawForm
from ..models import Penalty
from ..selectors.players import player_place, player_series
from ..services.withdrawals import open_seat, player_withdraw
from ..words import forfeit_rule_text


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
        # A substitute's game counts for the seat's player only if the tournament says so
        # (the standings' rule, `scoring.standings` "substitute game"); a round without a
        # result yet is not plotted.
        counted = rack is not None and (
            not rack.substitute or player.tournament.credit_substitute_games
        )
        if counted and rack is not None:  # counted says it is; the checker needs it here
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
                "substitute": rack.substitute if rack is not None else "",
                "forfeit": rack is not None and rack.forfeit,
                # Played without them: they withdrew and the table played on.
                "absent": result is not None and rack is None,
            }
        )
    cumulative, total = [], 0
    for round_number in sorted(by_round):
        total += by_round[round_number]
        cumulative.append(
            (pgettext("round, short", "R{number}").format(number=round_number), total)
        )
    return rows, cumulative


@tournament_page("view")
def player_detail(request: HttpRequest, tournament: Tournament, player_number: int) -> HttpResponse:
    player = get_object_or_404(tournament.players, number=player_number)
    player.tournament = tournament
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
            "substitute_games": sum(1 for row in rows if row["substitute"]),
            "forfeits": sum(1 for row in rows if row["forfeit"]),
            "divisions": list(player.divisions.order_by("order", "name", "id")),
        },
    )


@tournament_page("organise")
def player_withdraw_page(
    request: HttpRequest, tournament: Tournament, player_number: int
) -> HttpResponse:
    """GET asks "Withdraw #N name?" — and, when their table in the latest round still has
    unplayed games, what happens to them; POST withdraws (`player_withdraw`)."""
    player = get_object_or_404(tournament.players, number=player_number)
    seat, games = open_seat(player)
    asks = bool(games)
    form = WithdrawForm(
        request.POST if request.method == "POST" else None,
        asks=asks,
        forfeit_help=forfeit_rule_text(tournament),
    )
    if request.method == "POST" and form.is_valid():
        try:
            player_withdraw(
                player=player, by=request.user, unplayed=form.cleaned_data.get("unplayed") or None
            )
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _("#{number} {name} is withdrawn.").format(number=player.number, name=player.name),
            )
            return redirect("tournament-players", slug=tournament.slug)
    return render(
        request,
        "games/player_withdraw.html",
        {
            **tournament_context(request.user, tournament),
            "player": player,
            "seat": seat if asks else None,
            "games": games,
            # The numbers as one list, so the template's sentence about them is one message.
            "game_numbers": [game.number for game in games],
            "form": form,
        },
        status=400 if form.errors else 200,
    )
