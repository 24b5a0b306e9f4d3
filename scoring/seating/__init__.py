"""Seating: who sits at which table, in which seat, round by round.

Pure Python — no Django, no ORM. Dataclasses and plain lists in, dataclasses out; the
services store the result (``Round.method``, ``Round.quality``, ``Table``, ``Seat``).

Terms (docs/rules/standings.md):

* **player** — an integer id (the services pass ``Player.pk``).
* **seat** — a place at a table. Seats are numbered from 1; a table is written as the
  tuple of its players in seat order, seat 1 first.
* **table** — the 2 to 4 players who play a series of games together in one round.
  ``table_sizes`` decides how many tables there are and how big each is.
* **round** — every active player seated at exactly one table: a list of tables, table
  1 first. A round's *seating* is that list.
* **history** — the seatings of the earlier rounds, oldest first. Players in the history
  who are no longer seated (withdrawn) are ignored; players missing from it (late
  entries) simply have met nobody.
* **meeting** — two players at the same table in the same round.
* **repeat** — a meeting of two players who already met in an earlier round. A pair that
  met in the round just before counts as a *recent* repeat, which we avoid first.
* **starter** — the player in seat 1, who starts the table's first game; the start then
  rotates seat by seat, so seat 2 starts the second game, and so on. Seat 1 goes to the
  player who has started least often so far.
* **point**, **group** — inside the engines a player is a point ``0..n-1`` and a table
  before its seat order is chosen is a group (a list of points); see ``groups``.

Methods:

* ``seat_random`` — fewest repeats given the history, then balanced starters;
  reproducible from its ``seed``.
* ``seat_swiss`` — tables filled from the top of the standings; repeats avoided by the
  smallest moves in the ranking.
* ``plan_rounds`` — the whole schedule (or, with the rounds played as history, the rest
  of it) at once, aiming for no repeat at all; known designs where they exist.
* ``quality`` — the figures stored with a round (with clubs: ``same_club_pairs``);
* ``place_fixed`` — players with a fixed table moved to it (see ``draw``).

Modules, each importing only those above it:

* ``groups`` — points, groups, rounds, and the one swap of two players between tables;
* ``designs`` — repeat-free schedules from finite fields and stored base rounds;
* ``search`` — local search over one round or a whole schedule;
* ``starters`` — starters balanced over a whole schedule, and the present starter of a
  game whose rotation's starter has left the table;
* ``draw`` — table sizes, the random draw, quality, fixed tables;
* ``swiss`` — the Swiss draw;
* ``plan`` — planned schedules (designs + search + starters + the draw's seat order);
* ``seeded`` — the seeded deals of a re-seated stage: ``alternating`` and ``snake``.

Only stdlib and ``scoring.errors`` are imported: no Django, no app.
"""

from scoring.seating.designs import design_rounds
from scoring.seating.draw import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    SAME_CLUB_APART,
    SAME_CLUB_LIGHT,
    SAME_CLUB_MODES,
    SAME_CLUB_OFF,
    History,
    Seating,
    SeatingError,
    Table,
    place_fixed,
    quality,
    seat_random,
    table_rank_spreads,
    table_sizes,
)
from scoring.seating.plan import plan_rounds
from scoring.seating.swiss import SWISS_REACH, seat_swiss

__all__ = [
    "MAX_TABLE_SIZE",
    "MIN_TABLE_SIZE",
    "SAME_CLUB_APART",
    "SAME_CLUB_LIGHT",
    "SAME_CLUB_MODES",
    "SAME_CLUB_OFF",
    "SWISS_REACH",
    "History",
    "Seating",
    "SeatingError",
    "Table",
    "design_rounds",
    "place_fixed",
    "plan_rounds",
    "quality",
    "seat_random",
    "seat_swiss",
    "table_rank_spreads",
    "table_sizes",
]
