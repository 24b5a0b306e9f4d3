"""Placement points: points by finishing place at a table, in every game (the
German city championships' 4/3/1/0). Pure Python, no Django.

Terms
-----
finishing order
    The order in which the players of one game finished, from its result: the game's
    winner(s) first, then the other players by their game score (after sanction points),
    highest first.
place
    A player's position in the finishing order, 1 = best. Players who finish equal share
    the best of the places they take ("1224", competition ranking, as the standings' ranks
    do), and the place after them is skipped.
placement table
    The points each place earns, per table size (``{4: (4, 3, 1, 0), 3: (4, 2, 0), 2:
    (4, 0)}``): one whole number per place, never rising from a place to the next. A
    tournament keeps its table in its rules (option ``placement_points``); the size of a
    game's table is the number of racks in its result.
placement points
    The sum over a player's games of the points of the place they finished in.
first places
    The games a player won outright: the game's only winner. A game with several winners
    (a tied pool-exhausted end) gives no one a first place, but each of them the points
    of place 1. (A game without a winner — hand-made lines only, the results service
    always records one — orders everyone by score and gives no first place.)

Decisions where the rules are silent (docs/rules/decisions.md)
--------------------------------------------------------------
* The winner finishes first whatever the score says. A winner's game score is normally the
  highest at the table, but not always: a large ``runner_up_bonus`` or a referee's sanction
  can lift a loser's score above it. The game was won all the same, so the winner(s)
  take place 1 and ``first_places`` never exceeds ``games_won``. Only the losers are
  ordered by game score (after sanction points: a sanction can cost a loser a place).
* Ties: winners share place 1 (each gets place 1's points); losers with the same game
  score share the best place they take and each gets that place's points. So at a table
  of 4 under 4/3/1/0, two losers tied for second both get 3, and the last one 0; a table's
  points then add up to more than its row, never by a tie resolved by chance.
* The default table of 2 is 4/0: the winner gets 4, as at every other size, and every
  row gives 2 points per seat and game on average (4+3+1+0 = 8 over 4 seats, 4+2+0 = 6
  over 3, 4+0 = 4 over 2), so the size of the table a player is drawn to changes neither
  what a win is worth nor what a game is worth on average.
* A seat a substitute played (not credited to its player) still takes its place in the
  finishing order — the opponents finished where they finished — but earns its player
  nothing.
* A stored result keeps each seat's ``Finish`` (``finishes``): its place by that result's
  scores and winners alone, no setting of the tournament (the points are looked up when
  ranking). A sanction recorded later can move a loser; the standings place those games
  again rather than the stored place being rewritten.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from scoring.errors import Path, RuleError
from scoring.i18n import _

# Table size -> points by place, best first.
PlacementTable = Mapping[int, Sequence[int]]

DEFAULT_PLACEMENT_POINTS: dict[int, tuple[int, ...]] = {
    4: (4, 3, 1, 0),
    3: (4, 2, 0),
    2: (4, 0),
}
# The most points one place may earn: far above any real table, low enough that a sum
# over thousands of games stays a small whole number.
MAX_PLACE_POINTS = 1000


def check_placement_points(
    table: object, field_name: str | Path = "placement_points"
) -> dict[int, tuple[int, ...]]:
    """A placement table as an organiser typed it: for each table size 2-4 one whole
    number (0 to ``MAX_PLACE_POINTS``) per place, never rising from one place to the next.
    Sizes may be given as numbers or as their digits (a JSON object's keys are text);
    the sizes not given keep the default. Returns the whole table, sizes as numbers."""
    prefix: Path = (field_name,) if isinstance(field_name, str) else tuple(field_name)
    if not isinstance(table, Mapping):
        raise RuleError(
            prefix, _("must be an object of table size: points by place, e.g. {4: [4, 3, 1, 0]}")
        )
    checked: dict[int, tuple[int, ...]] = {}
    for key, points in table.items():
        where = (*prefix, str(key))
        size = _size(key)
        if size not in DEFAULT_PLACEMENT_POINTS:
            raise RuleError(
                where, _("{size} is not a table size: tables have 2 to 4 seats").format(size=key)
            )
        if isinstance(points, str | bytes) or not isinstance(points, Sequence):
            raise RuleError(
                where,
                _("a table of {size}: give a list of points, one per place").format(size=size),
            )
        values = tuple(points)
        if len(values) != size:
            raise RuleError(
                where,
                _("a table of {size} needs {size} places, not {count}").format(
                    size=size, count=len(values)
                ),
            )
        if any(not isinstance(v, int) or isinstance(v, bool) for v in values):
            raise RuleError(
                where,
                _("a table of {size}: each place's points must be a whole number").format(
                    size=size
                ),
            )
        if any(not 0 <= v <= MAX_PLACE_POINTS for v in values):
            raise RuleError(
                where,
                _("a table of {size}: each place's points must be from 0 to {most}").format(
                    size=size, most=MAX_PLACE_POINTS
                ),
            )
        if any(a < b for a, b in itertools.pairwise(values)):
            raise RuleError(
                where,
                _(
                    "a table of {size}: a better place cannot earn fewer points than a worse one"
                ).format(size=size),
            )
        checked[size] = values
    return {**DEFAULT_PLACEMENT_POINTS, **checked}


def _size(key: object) -> int | None:
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if isinstance(key, str) and key.strip().isdigit():
        return int(key)
    return None


def as_stored(table: PlacementTable) -> dict[str, list[int]]:
    """A checked table as JSON keeps it: sizes as text, smallest first."""
    return {str(size): list(table[size]) for size in sorted(table)}


def places(scores: Mapping[int, int]) -> dict[int, int]:
    """Each player's place by game score alone (1 = best), ties sharing the best place."""
    order = sorted(scores.values(), reverse=True)
    return {player: order.index(score) + 1 for player, score in scores.items()}


def finishing_places(
    scores: Mapping[int, int], winners: Collection[int] = ()
) -> dict[int, tuple[int, bool]]:
    """Each player's place in one game and whether it is shared: the ``winners`` first
    (all sharing place 1), then the others by game score, highest first (see the module
    doc). Without winners this is ``places``."""
    if not set(winners) <= scores.keys():
        raise ValueError("winners must be players of the game")
    won = [p for p in scores if p in winners]
    rest = {p: s for p, s in scores.items() if p not in winners}
    order = sorted(rest.values(), reverse=True)
    result = {p: (1, len(won) > 1) for p in won}
    for player, score in rest.items():
        result[player] = (len(won) + order.index(score) + 1, order.count(score) > 1)
    return result


class Finish(NamedTuple):
    """One seat's finish in one game as a stored rack keeps it (`RackEntry`'s fields of
    these names): its place in the game's finishing order by the game scores the result
    records (sanction points recorded afterwards left out: the standings place the few
    games with sanctions again), whether another seat finished in the same place, and how
    many seats the game had (the row of the placement table). None of it depends on the
    tournament's settings: the points are looked up by place and seats when ranking."""

    place: int
    place_shared: bool
    seats: int


def finishes(scores: Mapping[int, int], winners: Collection[int] = ()) -> dict[int, Finish]:
    """Each player's `Finish` in one game (``finishing_places`` with the table's size)."""
    seats = len(scores)
    return {
        player: Finish(place, shared, seats)
        for player, (place, shared) in finishing_places(scores, winners).items()
    }


def _row(table: PlacementTable, seats: int) -> Sequence[int]:
    """The points by place at a table of `seats` (a checked table has every size 2-4)."""
    row = table.get(seats)
    if row is None:
        raise ValueError(f"no placement points for a table of {seats}")
    return row


def placement_points(
    scores: Mapping[int, int],
    table: PlacementTable = DEFAULT_PLACEMENT_POINTS,
    winners: Collection[int] = (),
) -> dict[int, int]:
    """Each player's placement points for one game at a table of ``len(scores)``."""
    points = _row(table, len(scores))
    placed = finishing_places(scores, winners)
    return {player: points[place - 1] for player, (place, _shared) in placed.items()}


def first_place(scores: Mapping[int, int], winners: Collection[int] = ()) -> int | None:
    """The player who won the game outright, or None when first place is shared."""
    placed = finishing_places(scores, winners)
    firsts = [player for player, (place, _shared) in placed.items() if place == 1]
    return firsts[0] if len(firsts) == 1 else None


@dataclass(frozen=True, slots=True)
class GameFinish:
    """One confirmed game as the placement counts it: every seat's game score (after
    sanction points), who won, and the seats whose line does not count for their player
    (a substitute's, not credited)."""

    scores: Mapping[int, int]
    winners: frozenset[int]
    left_out: frozenset[int] = field(default=frozenset())


@dataclass
class PlacementTotals:
    """Per player: placement points and first places (only players with a counted game)."""

    points: dict[int, int] = field(default_factory=dict)
    firsts: dict[int, int] = field(default_factory=dict)


def placement_totals(
    games: Iterable[GameFinish], table: PlacementTable = DEFAULT_PLACEMENT_POINTS
) -> PlacementTotals:
    """Sum every counted seat's placement points and first places over ``games``."""
    totals = PlacementTotals()
    points, firsts = totals.points, totals.firsts
    for game in games:
        row = _row(table, len(game.scores))
        for player, (place, shared) in finishing_places(game.scores, game.winners).items():
            if player in game.left_out:
                continue
            points[player] = points.get(player, 0) + row[place - 1]
            alone = place == 1 and not shared and player in game.winners
            firsts[player] = firsts.get(player, 0) + int(alone)
    return totals


@dataclass(frozen=True, slots=True)
class PlaceCount:
    """How many games a player finished in one place at one table size: what the
    recompute's SQL counts (the finishing order computed there the same way as
    ``finishing_places``), summed here by ``placement_from_counts``."""

    player: int
    seats: int  # racks in the game's result
    place: int  # 1 = best
    # Another player finished in the same place. Only a winner's matters (a first place
    # is a winner's alone, and a shared place earns its points all the same), so a caller
    # may leave a loser's False: the recompute's SQL does.
    shared: bool
    winner: bool  # the player won the game
    games: int


def placement_from_counts(
    counts: Iterable[PlaceCount], table: PlacementTable = DEFAULT_PLACEMENT_POINTS
) -> PlacementTotals:
    """``placement_totals`` from counts of finishing places instead of whole games."""
    totals = PlacementTotals()
    points, firsts = totals.points, totals.firsts
    for count in counts:
        row = _row(table, count.seats)
        if not 1 <= count.place <= count.seats:
            raise ValueError(f"place {count.place} at a table of {count.seats}")
        points[count.player] = points.get(count.player, 0) + count.games * row[count.place - 1]
        alone = count.place == 1 and count.winner and not count.shared
        firsts[count.player] = firsts.get(count.player, 0) + (count.games if alone else 0)
    return totals
