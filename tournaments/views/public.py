"""Public pages: the list of tournaments, a tournament with its live standings, a round
with "find my table", and a player with every game and a chart of the cumulative score.

Terms:
* series score — a player's scores summed over the confirmed games at their table in one
  round, sanction points taken off.
* cumulative score — the series scores summed round by round (what the chart draws).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.models import Penalty
from games.selectors import player_series, round_tables
from scoring.selectors import standings_table

from ..chart import line_chart
from ..forms import FindTableForm, SeatSwapForm
from ..models import Tournament
from ..selectors import tournaments_visible_to
from ..web import tournament_context, tournament_page


def home(request: HttpRequest) -> HttpResponse:
    """Running, upcoming and finished tournaments the user may see."""
    groups: dict[str, list[Tournament]] = {status: [] for status in Tournament.Status.values}
    for tournament in tournaments_visible_to(request.user).order_by("-starts_on", "name"):
        groups[tournament.status].append(tournament)
    sections = [(label, groups[value]) for value, label in Tournament.Status.choices]
    sections.sort(key=lambda section: ["Running", "Upcoming", "Finished"].index(section[0]))
    return render(request, "tournaments/home.html", {"sections": sections})


@tournament_page("view")
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            **tournament_context(request.user, tournament),
            "standings": standings_table(tournament),
        },
    )


def _sanctions(round_: Any) -> dict[tuple[int, int], int]:
    rows = (
        Penalty.objects.filter(game__table__round=round_, kind=Penalty.Kind.SANCTION, voided=False)
        .values("game_id", "player_id")
        .annotate(total=Sum("points"))
    )
    return {(row["game_id"], row["player_id"]): row["total"] for row in rows}


def _table_cards(round_: Any, query: str) -> list[dict[str, Any]]:
    """Each table with its seats (series score so far) and how many games are entered;
    `match` marks the tables where a player's name or start number fits the query."""
    sanctions = _sanctions(round_)
    needle = query.strip().lower().lstrip("#")
    cards = []
    for table in round_tables(round_):
        games = list(table.games.all())
        series: dict[int, int] = defaultdict(int)
        entered = 0
        for game in games:
            if game.confirmed_results:
                entered += 1
                for rack in game.confirmed_results[0].racks.all():
                    series[rack.player_id] += rack.score - sanctions.get(
                        (game.pk, rack.player_id), 0
                    )
        seats = [
            {
                "seat": seat,
                "series": series.get(seat.player_id) if entered else None,
                "match": bool(needle)
                and (needle in seat.player.name.lower() or needle == str(seat.player.number)),
            }
            for seat in table.seats.all()
        ]
        cards.append(
            {
                "table": table,
                "seats": seats,
                "games": len(games),
                "entered": entered,
                "match": any(seat["match"] for seat in seats),
            }
        )
    return cards


@tournament_page("view")
def round_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(tournament.rounds, number=number)
    return render_round(request, tournament, round_)


def render_round(
    request: HttpRequest,
    tournament: Tournament,
    round_: Any,
    *,
    swap_form: SeatSwapForm | None = None,
) -> HttpResponse:
    """The round page; the seat-swap view renders it again with its errors."""
    find = FindTableForm(request.GET or None)
    query = find.cleaned_data["q"] if find.is_valid() else ""
    cards = _table_cards(round_, query)
    page = tournament_context(request.user, tournament)
    # Offered while some table has not started; the service refuses a table that has.
    if swap_form is None and page["can_organise"] and not all(c["entered"] for c in cards):
        # Prefetched seats know their table, so the choice labels cost no query.
        swap_form = SeatSwapForm(seats=[seat["seat"] for card in cards for seat in card["seats"]])
    return render(
        request,
        "tournaments/round_detail.html",
        {
            **page,
            "round": round_,
            "quality": [
                (
                    key.replace("_", " "),
                    " / ".join(map(str, value)) if isinstance(value, list) else value,
                )
                for key, value in round_.quality.items()
            ],
            "cards": cards,
            "find": find,
            "query": query,
            "found": [seat for card in cards for seat in card["seats"] if seat["match"]],
            "swap_form": swap_form,
        },
    )


def _player_rows(player: Any) -> tuple[list[dict[str, Any]], list[tuple[str, int]]]:
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
        sanction = sum(
            p.points for p in penalties if p.kind == Penalty.Kind.SANCTION and not p.voided
        )
        score = rack.score - sanction if rack else None
        round_number = game.table.round.number
        by_round.setdefault(round_number, 0)
        if score is not None:
            by_round[round_number] += score
        rows.append(
            {
                "game": game,
                "round": round_number,
                "result": result,
                "rack": rack,
                "sanction": sanction,
                "score": score,
                "penalties": penalties,
            }
        )
    cumulative, total = [], 0
    for round_number in sorted(by_round):
        total += by_round[round_number]
        cumulative.append((f"R{round_number}", total))
    return rows, cumulative


@tournament_page("view")
def player_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    player = get_object_or_404(tournament.players, number=number)
    rows, cumulative = _player_rows(player)
    return render(
        request,
        "tournaments/player_detail.html",
        {
            **tournament_context(request.user, tournament),
            "player": player,
            "rows": rows,
            "cumulative": cumulative,
            "chart": line_chart(cumulative) if cumulative else None,
            "total": cumulative[-1][1] if cumulative else 0,
        },
    )
