"""Target-score matches at the tables (`scoring.match` has the rule): reading a table's
match, refusing a game after the decision, and keeping each table's games in step with
its match. Called inside the writes of `games.services.results`, under their locks.

Terms
-----
match table
    A table of a tournament with a ``target_score``, in a round that plays a series (not
    a stage round of one game per table: a race or a re-seated stage has its own rule).
counted games
    The table's games 1, 2, ... with a confirmed result, up to the first one without: a
    match is read in order, so a later game entered before an earlier one waits for it.
closed games
    When a match is decided, the table's games after the deciding one that have nothing
    recorded (no result, no penalty, no extension) are deleted: the sheet's remaining
    games are not played, and nothing waits for them (missing results, closing the round).
added game
    A match still running (or tied) after its last game has a result gets one more game,
    up to the games cap: a target match is as long as it needs to be.

Decisions where the rules are silent (docs/rules/decisions.md)
--------------------------------------------------------------
* A game after the decision is refused with a 409 naming the deciding game, even a
  correction of a game entered before a correction moved the decision earlier; such a
  surplus game stays as entered, counts in the standings like any played game and not
  in the match.
* A correction that undoes the decision reopens the match: the closed games come back
  (new games with the same numbers), so the series can be played on.
* The target and the games cap cannot change once a result has been entered
  (`tournaments.services.tournaments`): they decided which games were played.
* A seat whose player withdrew and whose table plays on scores 0 in the games without
  their rack; a substitute's games count for the seat's match.
* With a games cap, a round seats at most that many games per table.
* A forfeited game (`games.services.withdrawals.game_forfeit`) is a result like any
  other: refused after the decision, and it may decide the match or add the next game.
  A withdrawal that forfeits the seat's remaining games adds no game after them.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from scoring.errors import Conflict
from scoring.match import MatchGame, MatchState, match_state
from scoring.standings import lot_draw
from tournaments.models import Tournament

from ..models import Extension, Game, Penalty, RackEntry, Result, Table
from ..words import match_sentence


class MatchDecided(Conflict):
    """A game after the deciding game of a target-score match (HTTP 409)."""

    def __init__(self, game: Game, sentence: str, deciding_game: int) -> None:
        super().__init__(
            "game",
            _(
                "the match at this table is decided ({sentence}) in game {deciding}; "
                "game {number} is not played."
            ).format(sentence=sentence, deciding=deciding_game, number=game.number),
            deciding_game=deciding_game,
        )


def is_match_table(tournament: Tournament, table: Table) -> bool:
    if not tournament.target_score:
        return False
    stage = table.round.stage
    return stage is None or not stage.one_game_rounds


def games_to_seat(tournament: Tournament, games: int) -> int:
    """The games a new table of a round gets: no more than the games cap."""
    cap = tournament.target_games_cap if tournament.target_score else None
    return min(games, cap) if cap else games


def table_match(tournament: Tournament, table: Table) -> MatchState | None:
    """The match at ``table`` from its confirmed results (None: not a match table)."""
    if not is_match_table(tournament, table):
        return None
    assert tournament.target_score is not None
    seated = list(table.seats.order_by("position").values_list("player_id", flat=True))
    racks = RackEntry.objects.filter(
        result__game__table=table, result__status=Result.Status.CONFIRMED
    ).values_list("result__game__number", "player_id", "score", "winner", "result__end")
    sanctions: dict[tuple[int, int], int] = defaultdict(int)
    for number, player, points in Penalty.objects.filter(
        game__table=table, kind=Penalty.Kind.SANCTION, voided=False
    ).values_list("game__number", "player_id", "points"):
        sanctions[number, player] += points
    by_game: dict[int, dict[int, int]] = defaultdict(dict)
    winners: dict[int, set[int]] = defaultdict(set)
    rummikub: dict[int, bool] = {}
    for number, player, score, winner, end in racks:
        by_game[number][player] = score - sanctions[number, player]
        if winner:
            winners[number].add(player)
        rummikub[number] = end == Result.End.RUMMIKUB
    games: list[MatchGame] = []
    number = 1
    while number in by_game:
        scores = {p: by_game[number].get(p, 0) for p in seated}
        games.append(MatchGame(scores, frozenset(winners[number]), rummikub[number]))
        number += 1
    return match_state(
        seated,
        games,
        target=tournament.target_score,
        cap=tournament.target_games_cap,
        tiebreaks=tournament.ranking,
        lots=_lots(tournament, seated),
    )


def _lots(tournament: Tournament, seated: list[int]) -> dict[int, int]:
    """Each seated player's lot, as the standings draw it (`scoring.standings.lot_draw`)
    unless the player carries one."""
    from_file = {
        pk: lot
        for pk, lot in tournament.players.filter(pk__in=seated, lot__isnull=False).values_list(
            "id", "lot"
        )
        if lot is not None  # as the filter asks
    }
    seed = f"{tournament.pk}:{tournament.slug}"
    return {p: from_file.get(p, lot_draw(seed, p)) for p in seated}


def refuse_after_decision(tournament: Tournament, game: Game) -> None:
    """Raise `MatchDecided` for a game after the deciding game of its table's match."""
    state = table_match(tournament, game.table)
    if state is not None and state.decided and game.number > state.games:
        names = dict(game.table.seats.values_list("player_id", "player__name"))
        raise MatchDecided(game, match_sentence(state, names), state.games)


def keep_in_step(tournament: Tournament, table: Table) -> MatchState | None:
    """After a change at ``table``: close the games after a decision, or add the next game
    to a match that needs one (see "closed games" and "added game")."""
    state = table_match(tournament, table)
    if state is None:
        return None
    games = Game.objects.filter(table=table)
    if state.decided:
        recorded = (
            Exists(Result.objects.filter(game=OuterRef("pk")))
            | Exists(Penalty.objects.filter(game=OuterRef("pk")))
            | Exists(Extension.objects.filter(game=OuterRef("pk")))
        )
        games.filter(number__gt=state.games).exclude(recorded).delete()
        return state
    numbers = set(games.values_list("number", flat=True))
    seats = table.seats.count()
    cap = tournament.target_games_cap
    last = max(numbers, default=0)
    # A closed game the reopened match needs again (before a game entered after it), and
    # one more game when every game so far counts and the match still runs.
    wanted = [n for n in range(state.games + 1, last + 1) if n not in numbers]
    if state.games >= last and (cap is None or last < cap):
        wanted.append(last + 1)
    Game.objects.bulk_create(
        Game(table=table, number=n, starter_position=(n - 1) % seats + 1) for n in wanted
    )
    return state
