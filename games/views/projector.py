"""The projector: a full-screen page for the venue's screen, nobody at the keyboard.

It cycles by itself (static/js/projector.js) between slides: the top of the standings
with each player's movement since the round before the current one, the current round's
tables (a slide per TABLES_PER_SLIDE tables), and the round clock when the organiser set
one (`games.services.rounds.round_clock_set`). Its live part polls like the standings
fragment (conditional, static/js/poll.js): a 304 while nothing changed.

Query string: `top` — how many standings rows (PROJECTOR_TOP by default); `cycle` —
seconds per slide (CYCLE_SECONDS by default; a test uses 1).

The final table's projector (`stage_projector`, `/t/<slug>/stages/<n>/projector/`): one
slide, no cycling, for the table everyone watches at the end: the stage's players in the
race's order with their wins as pips and their stage score, the race in words, the
current game's table (who sits where, who starts), polled the same conditional way.

Terms:
* movement — places gained (▲) or lost (▼) against the standings of the games of the
  rounds before the current one (`games.selectors.standings.standings_movement`); none in round 1.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from tournaments.models import Stage, Tournament
from tournaments.web import tournament_page, whole_number

from ..selectors.rounds import round_seats_shown, round_tables, table_games
from ..selectors.stages import stage_current_round
from ..selectors.standings import standings_movement, standings_table
from ..services.stages import stage_race, stage_rows
from ..words import round_stage_words
from .caching import Conditional, cached, ranks_before

PROJECTOR_TOP = 10
TOP_RANGE = (3, 50)
CYCLE_SECONDS = 15
CYCLE_RANGE = (1, 300)
TABLES_PER_SLIDE = 12
# Shown per standings row besides the player: the first few of the shown metrics.
PROJECTOR_COLUMNS = 3


def _bounded(value: object, default: int, bounds: tuple[int, int]) -> int:
    number = whole_number(value)
    return default if number is None else min(max(number, bounds[0]), bounds[1])


def _live_context(tournament: Tournament, top: int, cond: Conditional) -> dict[str, Any]:
    """The standings slide reads the stored snapshot and the earlier ranks the standings
    page keeps (`ranks_before`); the table slides read the seats alone (no games)."""
    table = cond.shown(standings_table(tournament, page=1))
    round_ = tournament.rounds.order_by("-number").first()
    cells = table.cells[:top]
    number = round_.number if round_ else None
    movement = standings_movement(
        tournament, [row for row, _ in cells], number, ranks_before(tournament, cond, number)
    )
    tables = list(round_seats_shown(round_)) if round_ else []
    return {
        "tournament": tournament,
        "standings": table,
        "columns": table.columns[:PROJECTOR_COLUMNS],
        "rows": [
            (row, values[:PROJECTOR_COLUMNS], moved, abs(moved or 0))
            for (row, values), moved in zip(cells, movement, strict=True)
        ],
        "round": round_,
        "table_slides": [
            tables[i : i + TABLES_PER_SLIDE] for i in range(0, len(tables), TABLES_PER_SLIDE)
        ],
        "top": top,
    }


def _live_html(tournament: Tournament, cond: Conditional, top: int) -> str:
    def render_live() -> str:
        context = _live_context(tournament, top, cond)
        cond.refresh()
        context["etag"] = cond.shared_etag
        return render_to_string("games/projector_live.html", context)

    if cond.state.stale:
        return render_live()
    return cached(cond.fragment_key("projector", top), render_live)


@require_GET
@tournament_page("view")
def projector(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    cond = Conditional(request, tournament, personal=False)
    if (answer := cond.not_modified()) is not None:
        return answer
    top = _bounded(request.GET.get("top"), PROJECTOR_TOP, TOP_RANGE)
    context = {
        "tournament": tournament,
        "live_html": mark_safe(_live_html(tournament, cond, top)),  # our own template's
        "cycle": _bounded(request.GET.get("cycle"), CYCLE_SECONDS, CYCLE_RANGE),
        "csrf_token": "",  # the screen posts nothing; the page is the same for everyone
    }
    return cond.finish(render(request, "games/projector.html", context))


@require_GET
@tournament_page("view")
def projector_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    cond = Conditional(request, tournament, personal=False)
    if (answer := cond.not_modified()) is not None:
        return answer
    top = _bounded(request.GET.get("top"), PROJECTOR_TOP, TOP_RANGE)
    return cond.finish(HttpResponse(_live_html(tournament, cond, top)))


# The final table's projector shows this many players at most (a final table is 4; a
# semi-final of 8 still fits on one screen).
STAGE_PROJECTOR_ROWS = 12


def _stage_live_context(tournament: Tournament, stage: Stage) -> dict[str, Any]:
    race = stage_race(stage)
    rows = stage_rows(stage, race)[:STAGE_PROJECTOR_ROWS]
    round_ = stage_current_round(stage)
    tables = list(round_tables(round_)) if round_ else []
    # The table is shown while its game is played; once every game of the stage's last
    # round is in, the screen shows the race alone ("Game 5 is next.").
    in_play = any(not game.confirmed_results for table in tables for game in table_games(table))
    target = stage.race_target or 0
    return {
        "tournament": tournament,
        "stage": stage,
        "race": race,
        "rows": [
            {
                "row": row,
                "pips": [i < (row.race_wins or 0) for i in range(target)],
                "leader": race is not None and race.state.champion == row.player.id,
            }
            for row in rows
        ],
        "round": round_ if in_play else None,
        "round_words": round_stage_words(round_) if round_ else "",
        "tables": tables,
    }


def _stage_live_html(tournament: Tournament, stage: Stage, cond: Conditional) -> str:
    def render_live() -> str:
        context = _stage_live_context(tournament, stage)
        cond.refresh()
        context["etag"] = cond.shared_etag
        return render_to_string("games/stage_projector_live.html", context)

    if cond.state.stale:
        return render_live()
    return cached(cond.fragment_key("stage-projector", stage.number), render_live)


@require_GET
@tournament_page("view")
def stage_projector(
    request: HttpRequest, tournament: Tournament, stage_number: int
) -> HttpResponse:
    stage = get_object_or_404(tournament.stages, number=stage_number)
    cond = Conditional(request, tournament, personal=False)
    if (answer := cond.not_modified()) is not None:
        return answer
    context = {
        "tournament": tournament,
        "stage": stage,
        "live_html": mark_safe(_stage_live_html(tournament, stage, cond)),  # our template's
        "csrf_token": "",  # the screen posts nothing; the page is the same for everyone
    }
    return cond.finish(render(request, "games/stage_projector.html", context))


@require_GET
@tournament_page("view")
def stage_projector_live(
    request: HttpRequest, tournament: Tournament, stage_number: int
) -> HttpResponse:
    stage = get_object_or_404(tournament.stages, number=stage_number)
    cond = Conditional(request, tournament, personal=False)
    if (answer := cond.not_modified()) is not None:
        return answer
    return cond.finish(HttpResponse(_stage_live_html(tournament, stage, cond)))
