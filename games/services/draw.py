"""The draw of the next round, previewed: which round opens next, in which stage, and the
draw opening it would make, said in words, with nothing saved (`round_draw`).

Terms (see also `games.services.seating`):
* preview — the draw that opening the round would make, said in words, with nothing
  saved (`round_draw`); committing it (`round_open` with the previewed `tables`, `seed`
  and `number`) opens exactly that draw, swaps made by hand included.
* missing results — games of earlier rounds without a confirmed result (none at all, or
  one waiting for confirmation); the next round then opens only with `open_anyway`.
* starter — who starts a game: game n of a series is started by seat ((n-1) mod seats)+1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from scoring.errors import Conflict, RuleError
from scoring.rules import games_at
from scoring.seating import Seating
from scoring.seating.words import quality_sentences, table_sizes_sentence, uneven_games
from tournaments.lifecycle import require_open
from tournaments.models import Round, Stage, Tournament
from tournaments.permissions import User, require
from tournaments.selectors import open_stages
from tournaments.services.validation import whole_number_between

from ..words import stage_game_words
from .gaps import RoundGaps, round_results_missing
from .matches import games_to_seat
from .seating import round_seating, stored_quality
from .seeded_seating import method_or_stage_default, stage_games_per_table
from .stages import require_stage_open_for_a_round

MAX_ROUND_NUMBER = 2**31 - 1  # the database column's limit


class RoundConflict(Conflict):
    """The client meant to open round `expected`, but the next round is another one: a
    repeated click (or a second organiser) opened it already. `last_round` is the round
    open now (0 for none), to go and look at."""

    def __init__(self, *, expected: int, last_round: int) -> None:
        self.last_round = last_round
        if expected == last_round:
            message = _("round {number} is already open; nothing new was opened.").format(
                number=expected
            )
        elif last_round:
            message = _(
                "round {number} is not the next round: the last one open is round {last}; "
                "reload and try again."
            ).format(number=expected, last=last_round)
        else:
            message = _(
                "round {number} is not the next round: the last one open is no round yet; "
                "reload and try again."
            ).format(number=expected)
        super().__init__("number", message, last_round=last_round)


def starter_of(game_number: int, seats: int) -> int:
    """Game n of a series is started by seat ((n-1) mod seats) + 1."""
    return (game_number - 1) % seats + 1


@dataclass(frozen=True)
class DrawPreview:
    """The draw `round_open` would make, and what the organiser is told about it.

    `tables` — player ids per table in seat order (what `round_open` takes back);
    `games` — per table, how many games it plays; `quality` — the seating engine's
    figures (plus `same_club_pairs`), `quality_words` the same in sentences;
    `table_sizes` — the tables by size and their games in a sentence; `uneven` — some
    players play fewer games than others; `gaps` — per earlier round, the games without a
    confirmed result (`round_open` then needs `open_anyway`).
    """

    number: int
    method: str
    seed: int | None
    tables: list[list[int]]
    games: list[int]
    quality: dict[str, Any]
    quality_words: list[str]
    table_sizes: str
    uneven: bool
    gaps: list[RoundGaps]
    stage: Stage | None = None
    # A stage playing one game per round: its game this round is (starter rotation).
    stage_game: int = 0
    stage_words: str = ""

    @property
    def needs_open_anyway(self) -> bool:
        return bool(self.gaps)

    @property
    def warnings(self) -> list[str]:
        return [gap.sentence for gap in self.gaps]

    def starters(self, table_index: int) -> list[int]:
        """The player who starts each game of a table's series, game 1 first."""
        seats = self.tables[table_index]
        first = max(self.stage_game, 1)
        return [
            seats[starter_of(n, len(seats)) - 1]
            for n in range(first, first + self.games[table_index])
        ]


def round_draw(
    *,
    tournament: Tournament,
    by: User,
    method: str | None = Round.Method.MANUAL,
    tables: object = None,
    seed: object = None,
    number: object = None,
    stage: object = None,
) -> DrawPreview:
    """The draw that opening the next round would make, without opening it: a preview.

    Takes what `round_open` takes. Without `tables`, a drawn method draws from `seed`
    (drawn when not given; a new seed is a re-draw). With `tables` — a previewed draw sent
    back, maybe with seats swapped by hand — it checks and measures those tables instead.
    The preview also lists the earlier rounds' games without a confirmed result.
    `stage` — the number of the stage the round belongs to, needed when two stages are
    open at once (a side event beside the main stage; `round_stage_of`).

    Saves nothing: it runs in a transaction that is always rolled back, so whatever the
    draw stores on the way (a planned schedule, a standings snapshot) is undone too.
    """
    with transaction.atomic():
        require(by, tournament, "organise")
        require_open(tournament)
        number = next_round_number(tournament, number)
        target = round_stage_of(tournament, stage)
        method = method_or_stage_default(method, target)
        seating = round_seating(tournament, method, number, tables, seed, target)
        preview = _preview(tournament, number, seating, target)
        transaction.set_rollback(True)
    return preview


def next_round_number(tournament: Tournament, number: object) -> int:
    """The next round's number; `number`, when given, must be it (else `RoundConflict`)."""
    last = tournament.rounds.aggregate(top=Max("number"))["top"] or 0
    if number is not None:
        number = whole_number_between(
            "number", number, low=1, high=MAX_ROUND_NUMBER, nullable=False
        )
        if number != last + 1:
            raise RoundConflict(expected=number, last_round=last)
    return last + 1


def round_stage_of(tournament: Tournament, stage: object) -> Stage | None:
    """The stage a round opened now belongs to: the one open stage, or the one named by
    `stage` (its number) when several are open — the main stage and a side event.
    Missing while two are open, or naming a stage that is not open: `RuleError` on
    `stage`. A stage that is done refuses: `Conflict` on `stage`."""
    candidates = open_stages(tournament)
    if stage is None or stage == "":
        if len(candidates) > 1:
            names = ", ".join(f"{s.number} ({s.name})" for s in candidates)
            raise RuleError(
                "stage",
                _("two stages are open (%(stages)s): say which one the round belongs to.")
                % {"stages": names},
            )
        chosen = candidates[0] if candidates else None
    else:
        number = whole_number_between("stage", stage, low=1, high=1000, nullable=False)
        chosen = next((s for s in candidates if s.number == number), None)
        if chosen is None:
            raise RuleError(
                "stage",
                _("stage %(number)s is not open for a round; open: %(stages)s.")
                % {
                    "number": number,
                    "stages": ", ".join(str(s.number) for s in candidates) or "-",
                },
            )
    if chosen is not None:
        require_stage_open_for_a_round(chosen)
    return chosen


def next_stage_game(stage: Stage | None) -> int:
    """The game of `stage` the next round plays, for a stage of one game per round (the
    starter rotates with it); 0 for any other round."""
    if stage is None or not stage.one_game_rounds:
        return 0
    return stage.rounds.count() + 1


def _preview(
    tournament: Tournament, number: int, seating: Seating, stage: Stage | None = None
) -> DrawPreview:
    tables = [list(table) for table in seating.tables]
    per_table = (
        1
        if stage is not None and stage.one_game_rounds
        else stage_games_per_table(tournament, stage)
    )
    game = next_stage_game(stage)
    sizes = [len(table) for table in tables]
    figures = stored_quality(seating)
    return DrawPreview(
        number=number,
        method=seating.method,
        seed=None if seating.method == Round.Method.MANUAL else seating.seed,
        tables=tables,
        games=[games_to_seat(tournament, games_at(size, per_table)) for size in sizes],
        quality=figures,
        quality_words=quality_sentences(figures),
        table_sizes=table_sizes_sentence(sizes, per_table),
        uneven=uneven_games(sizes, per_table),
        gaps=round_results_missing(tournament, number, stage),
        stage=stage,
        stage_game=game,
        stage_words=stage_game_words(stage, game) if stage is not None else "",
    )
