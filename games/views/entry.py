"""The scorekeeper's table page — every game of the series with its result form, version
history and penalties — and the turn timer with its one-tap timeout.

Terms:
* table page — one page per table of a round (the QR code on the printed sheet opens it).
  A POST carries ``game`` (its number at the table) and ``action``: ``result``,
  ``penalty`` or ``void``.
* idempotency key — the game form's hidden ``idempotency_key`` (filled by
  static/js/offline.js with a random UUID per submission): the same submission sent
  again, e.g. from the phone's queue once the connection returns, lands once.
* open game — the one game shown with its form, "Game 2 of 4" (``?game=N``; by default the
  first game without a result). The other games are folded to one line: the scores of
  their newest version with an Edit link, or "not entered". Saving a result opens the
  next game without one, so a series is entered game after game without scrolling.
  Works without JavaScript; the keypad (static/js/keypad.js) only adds to it.
* entered — a game with at least one result version (confirmed or waiting).
* conflict — the entry was based on a version that is no longer the newest (someone else
  entered one meanwhile). Nothing is saved; the page says who entered which version and
  keeps the input, now based on the newest version, so sending it again replaces that
  one knowingly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring.errors import RuleError
from scoring.tiles import check_availability, joker_count, parse_tiles, rack_face_value
from tournaments.models import Tournament
from tournaments.web import add_rule_errors, tournament_context, tournament_page, whole_number

from ..forms.entry import GameEntry, PenaltyForm
from ..models import MAX_EXTENSIONS, Extension, Game, Penalty, Result, Table
from ..selectors.games import AllResults
from ..selectors.rounds import table_series

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise
    from django_stubs_ext import WithAnnotations
from ..services.extensions import extension_add
from ..services.matches import table_match
from ..services.results import (
    MAX_RACK_TEXT,
    ResultConflict,
    penalty_record,
    penalty_void,
    result_submit,
)
from ..words import match_sentence


def _table(tournament: Tournament, round_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round"),
        round__tournament=tournament,
        round__number=round_number,
        number=table_number,
    )


def _table_url(tournament: Tournament, table: Table, game: Game | None = None) -> str:
    url = reverse(
        "table-entry",
        kwargs={
            "slug": tournament.slug,
            "round_number": table.round.number,
            "table_number": table.number,
        },
    )
    return f"{url}?game={game.number}#game-{game.number}" if game else url


def _next_unentered(table: Table, after: int) -> Game | None:
    """The first game without a result after game `after`, else the first one before it."""
    games = list(table.games.filter(results__isnull=True).order_by("number"))
    return next((g for g in games if g.number > after), games[0] if games else None)


def _open_game(
    request: HttpRequest, games: Sequence[WithAnnotations[Game, AllResults]], posted: Game | None
) -> Game | None:
    """The game to show with its form: the one just posted (its input or errors), the one
    asked for by ``?game=N``, else the first without a result (None when all have one)."""
    if posted is not None:
        return posted
    wanted = whole_number(request.GET.get("game"))
    return next((g for g in games if g.number == wanted), None) or next(
        (g for g in games if not g.all_results), None
    )


@tournament_page("score")
def table_entry(
    request: HttpRequest, tournament: Tournament, round_number: int, table_number: int
) -> HttpResponse:
    table_ = _table(tournament, round_number, table_number)
    seats = list(table_.seats.select_related("player").order_by("position"))
    games = list(table_series(table_))
    bound: dict[int, dict[str, Any]] = {}  # game number -> forms to show with their input
    posted = None
    if request.method == "POST":
        posted = next(
            (g for g in games if g.number == whole_number(request.POST.get("game"))), None
        )
        action = ACTIONS.get(request.POST.get("action", ""))
        if posted is None or action is None:
            raise Http404(_("No such game or action."))
        response, shown = action(request, tournament, table_, posted, seats)
        if response is not None:
            return response
        bound[posted.number] = shown
    match = table_match(tournament, table_)
    if match is not None and match.decided:
        # A decided match takes no further game: only its counted games may be corrected.
        games_open = [g for g in games if g.number <= match.games]
        open_game = _open_game(request, games_open, posted)
    else:
        open_game = _open_game(request, games, posted)
    rack_value_url = reverse("rack-value", kwargs={"slug": tournament.slug})
    names = {seat.player_id: seat.player.name for seat in seats}
    match_totals = (
        [(seat.player.name, match.totals.get(seat.player_id, 0)) for seat in seats]
        if match is not None
        else []
    )
    top_messages, penalty_messages = _split_messages(request)
    series = []
    for game in games:
        shown = bound.get(game.number, {})
        latest = game.all_results[0] if game.all_results else None
        versions = [_version(result, names) for result in game.all_results]
        is_open = game == open_game
        series.append(
            {
                "game": game,
                "open": is_open,
                "newest": versions[0] if versions else None,
                "starter": next(
                    (s for s in seats if s.position == game.present_starter(seats)), None
                ),
                "entry": (
                    shown.get("entry")
                    or GameEntry(game, seats, latest=latest, rack_value_url=rack_value_url)
                )
                if is_open
                else None,
                "penalty_form": shown.get("penalty_form")
                or PenaltyForm(prefix=f"p{game.number}", seats=seats),
                "conflict": shown.get("conflict"),
                "versions": versions,
                "current": next(
                    (v for v in versions if v["result"].status == Result.Status.CONFIRMED), None
                ),
                "penalties": list(game.penalties.all()),
                "penalty_messages": penalty_messages.get(game.number, []),
                "extensions": [
                    (names.get(e.player_id, "?"), e.used) for e in game.extensions.all() if e.used
                ],
            }
        )
    return render(
        request,
        "games/table.html",
        {
            **tournament_context(request.user, tournament),
            "round": table_.round,
            "table": table_,
            "seats": seats,
            "series": series,
            "open_game": open_game,
            "top_messages": top_messages,
            "keypad_numbers": range(1, 14),
            "entered": sum(1 for game in games if game.all_results),
            "match": match,
            "match_sentence": match_sentence(match, names) if match and match.decided else "",
            "match_totals": match_totals,
            "match_contenders": ", ".join(names.get(p, "?") for p in match.contenders)
            if match
            else "",
        },
    )


def _version(result: Result, names: dict[int, str]) -> dict[str, Any]:
    """One version of a result as the history list shows it."""
    return {
        "result": result,
        "racks": [(names.get(rack.player_id, "?"), rack) for rack in result.racks.all()],
    }


def _submit_result(
    request: HttpRequest, tournament: Tournament, table: Table, game: Game, seats: list
) -> tuple[HttpResponse | None, dict[str, Any]]:
    rack_value_url = reverse("rack-value", kwargs={"slug": tournament.slug})
    entry = GameEntry(game, seats, data=request.POST, rack_value_url=rack_value_url)
    if not entry.is_valid():
        return None, {"entry": entry}
    try:
        result = result_submit(
            game=game,
            by=request.user,
            idempotency_key=request.POST.get("idempotency_key") or None,
            **entry.payload(),
        )
    except ResultConflict as conflict:
        # None when the game has no result at all (the page sent a made-up version).
        newest = (
            game.results.select_related("submitted_by")
            .filter(version=conflict.current_version)
            .first()
        )
        return None, {
            "entry": entry.rebased(request.POST, conflict.current_version),
            "conflict": {"error": conflict, "newest": newest},
        }
    except RuleError as error:
        entry.add_rule_errors(error)
        return None, {"entry": entry}
    # One whole sentence per case (saved now or already; confirmed or waiting), so no
    # status label is put inside brackets of a sentence.
    confirmed = result.status == Result.Status.CONFIRMED
    if result.replayed and confirmed:
        words = _("Game {number}: version {version} was saved already and is confirmed.")
    elif result.replayed:
        words = _("Game {number}: version {version} was saved already; it awaits confirmation.")
    elif confirmed:
        words = _("Game {number}: version {version} saved and confirmed.")
    else:
        words = _("Game {number}: version {version} saved; it awaits confirmation.")
    messages.success(request, words.format(number=game.number, version=result.version))
    following = _next_unentered(table, game.number)
    return redirect(_table_url(tournament, table, following)), {}


def _record_penalty(
    request: HttpRequest, tournament: Tournament, table: Table, game: Game, seats: list
) -> tuple[HttpResponse | None, dict[str, Any]]:
    form = PenaltyForm(request.POST, prefix=f"p{game.number}", seats=seats)
    if form.is_valid():
        try:
            penalty = penalty_record(game=game, by=request.user, **form.cleaned_data)
        except RuleError as error:
            add_rule_errors(form, error)
        else:
            messages.success(
                request,
                _("Game {number}: {penalty} recorded.").format(
                    number=game.number, penalty=_penalty_text(penalty)
                ),
                extra_tags=_penalty_tag(game),
            )
            return redirect(_penalties_url(tournament, table, game)), {}
    return None, {"penalty_form": form}


def _void_penalty(
    request: HttpRequest, tournament: Tournament, table: Table, game: Game, seats: list
) -> tuple[HttpResponse | None, dict[str, Any]]:
    penalty = get_object_or_404(game.penalties, pk=whole_number(request.POST.get("penalty")) or 0)
    try:
        penalty_void(penalty=penalty, by=request.user)
    except RuleError as error:
        messages.error(request, capfirst(error.message), extra_tags=_penalty_tag(game))
    else:
        messages.success(
            request,
            _("Game {number}: {penalty} voided.").format(
                number=game.number, penalty=_penalty_text(penalty)
            ),
            extra_tags=_penalty_tag(game),
        )
    return redirect(_penalties_url(tournament, table, game)), {}


# A message about a game's penalties is shown in that game's penalty list, where the
# redirect lands (`#game-N-penalties`), not at the top of the page, off-screen.
def _penalty_tag(game: Game) -> str:
    return f"penalties game-{game.number}"


def _penalties_url(tournament: Tournament, table: Table, game: Game) -> str:
    return _table_url(tournament, table, game).replace(
        f"#game-{game.number}", f"#game-{game.number}-penalties"
    )


def _split_messages(request: HttpRequest) -> tuple[list, dict[int, list]]:
    """The page's messages: those for the top, and per game number those about its
    penalties (tagged by `_penalty_tag`)."""
    top: list = []
    penalties: dict[int, list] = {}
    for message in messages.get_messages(request):
        tags = message.extra_tags.split()
        game = next((t for t in tags if t.startswith("game-")), None)
        if "penalties" in tags and game and game[5:].isdigit():
            penalties.setdefault(int(game[5:]), []).append(message)
        else:
            top.append(message)
    return top, penalties


ACTIONS = {"result": _submit_result, "penalty": _record_penalty, "void": _void_penalty}


# A penalty's kind as a message names it, without the label's explanation in brackets.
_PENALTY_WORDS: dict[str, _StrPromise] = {
    Penalty.Kind.TIMEOUT: gettext_lazy("timeout"),
    Penalty.Kind.FAILED_MANIPULATION: gettext_lazy("failed manipulation"),
    Penalty.Kind.SANCTION: gettext_lazy("referee sanction"),
}


def _penalty_text(penalty: Penalty) -> str:
    """ "timeout for Ada, draws 1", "referee sanction for Bo, 10 points"."""
    facts = {
        "penalty": _PENALTY_WORDS.get(penalty.kind, penalty.kind),
        "player": penalty.player.name,
        "points": penalty.points,
        "tiles": penalty.tiles_drawn,
    }
    if penalty.points and penalty.tiles_drawn:
        return _("{penalty} for {player}, {points} points, draws {tiles}").format(**facts)
    if penalty.points:
        return _("{penalty} for {player}, {points} points").format(**facts)
    if penalty.tiles_drawn:
        return _("{penalty} for {player}, draws {tiles}").format(**facts)
    return _("{penalty} for {player}").format(**facts)


# --- the turn timer ------------------------------------------------------------------------


@tournament_page("score")
def table_timer(
    request: HttpRequest, tournament: Tournament, round_number: int, table_number: int
) -> HttpResponse:
    """A countdown of the rules' turn time. The game is ?game=N, by default the first one
    without a confirmed result; the turn starts with that game's starter."""
    table_ = _table(tournament, round_number, table_number)
    seats = list(table_.seats.select_related("player").order_by("position"))
    games = list(table_.games.order_by("number"))
    done = set(
        Result.objects.filter(game__table=table_, status=Result.Status.CONFIRMED).values_list(
            "game__number", flat=True
        )
    )
    wanted = whole_number(request.GET.get("game"))
    game = next((g for g in games if g.number == wanted), None) or next(
        (g for g in games if g.number not in done), games[-1] if games else None
    )
    if game is None:
        raise Http404(_("This table has no games."))
    starter = game.present_starter(seats)
    start = next((i for i, s in enumerate(seats) if s.position == starter), 0)
    order = seats[start:] + seats[:start]  # turns go round from the starter
    used = dict(Extension.objects.filter(game=game).values_list("player_id", "used"))
    return render(
        request,
        "games/timer.html",
        {
            **tournament_context(request.user, tournament),
            "round": table_.round,
            "table": table_,
            "game": game,
            "games": [(g, g.number in done) for g in games],
            "order": order,
            "turn_seconds": tournament.rule_set.turn_seconds,
            "timeout_draw": tournament.rule_set.timeout_draw,
            "timer_players": [
                {
                    "id": seat.player_id,
                    "name": seat.player.name,
                    "seat": seat.position,
                    "extensions": used.get(seat.player_id, 0),
                }
                for seat in order
            ],
            "extensions": [(seat, used.get(seat.player_id, 0)) for seat in order],
            "max_extensions": MAX_EXTENSIONS,
        },
    )


def _timer_answer(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    game: Game,
    answer: dict[str, Any],
) -> HttpResponse:
    """htmx gets a line of text (and what the timer needs, as data attributes) for its
    status area; a plain POST goes back to the timer with the text as a message."""
    if request.headers.get("HX-Request"):
        return render(request, "games/_timeout_result.html", {**answer, "game": game})
    (messages.success if answer["ok"] else messages.error)(request, answer["text"])
    url = reverse(
        "table-timer",
        kwargs={
            "slug": tournament.slug,
            "round_number": table.round.number,
            "table_number": table.number,
        },
    )
    return redirect(f"{url}?game={game.number}")


@require_POST
@tournament_page("score")
def timeout_record(
    request: HttpRequest,
    tournament: Tournament,
    round_number: int,
    table_number: int,
    game_number: int,
) -> HttpResponse:
    """One tap on the timer: a timeout penalty for the player whose turn ran over. The
    answer carries an Undo button for a timeout recorded by mistake."""
    table_ = _table(tournament, round_number, table_number)
    game_ = get_object_or_404(table_.games, number=game_number)
    try:
        penalty = penalty_record(
            game=game_,
            by=request.user,
            player=whole_number(request.POST.get("player")),
            kind="timeout",
        )
    except RuleError as error:
        answer = {
            "text": _("Not recorded: {problem}").format(problem=error),
            "ok": False,
            "kind": "timeout",
        }
    else:
        answer = {
            "text": _("Recorded: {penalty}.").format(penalty=_penalty_text(penalty)),
            "ok": True,
            "kind": "timeout",
            "penalty": penalty,
        }
    return _timer_answer(request, tournament, table_, game_, answer)


@require_POST
@tournament_page("score")
def timeout_undo(
    request: HttpRequest,
    tournament: Tournament,
    round_number: int,
    table_number: int,
    game_number: int,
) -> HttpResponse:
    """Undo a timeout recorded by mistake from the timer: the penalty is voided (through
    `penalty_void`, so it stays in the history, struck through)."""
    table_ = _table(tournament, round_number, table_number)
    game_ = get_object_or_404(table_.games, number=game_number)
    penalty = get_object_or_404(
        game_.penalties.select_related("player"),
        pk=whole_number(request.POST.get("penalty")) or 0,
        kind=Penalty.Kind.TIMEOUT,
    )
    try:
        penalty_void(penalty=penalty, by=request.user)
    except RuleError as error:
        answer = {
            "text": _("Not undone: {problem}").format(problem=error),
            "ok": False,
            "kind": "undo",
        }
    else:
        answer = {
            "text": _("Undone: {penalty}.").format(penalty=_penalty_text(penalty)),
            "ok": True,
            "kind": "undo",
        }
    return _timer_answer(request, tournament, table_, game_, answer)


@require_POST
@tournament_page("score")
def extension_record(
    request: HttpRequest,
    tournament: Tournament,
    round_number: int,
    table_number: int,
    game_number: int,
) -> HttpResponse:
    """The timer's Extension button: one more time extension for the player whose turn it
    is (``step=-1`` takes one back); the timer adds a turn time to the running turn."""
    table_ = _table(tournament, round_number, table_number)
    game_ = get_object_or_404(table_.games, number=game_number)
    step = -1 if request.POST.get("step") == "-1" else 1
    player = whole_number(request.POST.get("player"))
    try:
        extension = extension_add(game=game_, by=request.user, player=player, step=step)
    except RuleError as error:
        answer = {
            "text": _("Not recorded: {problem}").format(problem=error.message),
            "ok": False,
            "kind": "extension",
        }
    else:
        name = next(
            (s.player.name for s in table_.seats.select_related("player") if s.player_id == player),
            "?",
        )
        facts = {"name": name, "used": extension.used, "most": MAX_EXTENSIONS, "game": game_.number}
        if step > 0:
            words = _("Extension taken: {name} has used {used} of {most} in game {game}.")
        else:
            words = _("Extension taken back: {name} has used {used} of {most} in game {game}.")
        answer = {
            "text": words.format(**facts),
            "ok": True,
            "kind": "extension",
            "step": step,
            "extension": extension,
        }
    return _timer_answer(request, tournament, table_, game_, answer)


# --- the rack value beside the tiles input --------------------------------------------------


@require_GET
@tournament_page("view")  # tile values only: a table link's phone may ask too
def rack_value(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The value of the tiles typed so far, or what is wrong with them: face values plus
    the tournament's joker penalty per joker (docs/rules/scoring.md#rack-value), before
    anything is submitted.

    htmx sends the input under its own form name (``g1-r2-tiles``); any parameter whose
    name ends in ``tiles`` is read.
    """
    text = next(
        (
            value
            for key, value in request.GET.items()
            if isinstance(value, str)  # always, in a request's query (never a list)
            and (key == "tiles" or key.endswith("-tiles"))
        ),
        "",
    )
    try:
        if len(text) > MAX_RACK_TEXT:
            raise RuleError(
                "tiles",
                _("at most {most} characters.").format(most=MAX_RACK_TEXT),
            )
        tiles = parse_tiles(text)
        check_availability([tiles])
    except RuleError as error:
        return render(request, "games/rack_value.html", {"error": error.message})
    jokers = joker_count(tiles)
    points = rack_face_value(tiles) + jokers * tournament.rule_set.joker_penalty
    return render(
        request,
        "games/rack_value.html",
        {"points": points, "count": len(tiles), "jokers": jokers, "empty": not tiles},
    )
