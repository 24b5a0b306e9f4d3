"""Seeded seating of a re-seated stage: the pure draw of ``alternating`` and ``snake``.

Terms: ``ranked`` is the stage's players best first (their seeds); the tables and their
sizes are ``draw.table_sizes``'s (largest first). The seats at a table follow the seeds,
the best seed in seat 1.

* ``alternating`` deals the seeds round the tables in turn: with two tables, seeds 1, 3,
  5, 7 at one and 2, 4, 6, 8 at the other (a Belgian open's semi-finals).
* ``snake`` deals them to and fro: 1, 4, 5, 8 and 2, 3, 6, 7 — each pass of the tables
  runs back the way the last one came, so the tables' seed sums are as even as dealing
  allows.

Decision where the rules are silent: with tables of unequal sizes (tables of 4 and of
3), a table that is full is skipped and the deal goes on to the next in the pattern;
the larger tables come first, as every draw here makes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal

from scoring.errors import RuleError
from scoring.i18n import _
from scoring.seating.draw import Table, check_players, table_sizes

SeededMethod = Literal["alternating", "snake"]
SEEDED_METHODS: tuple[SeededMethod, ...] = ("alternating", "snake")


def _pattern(tables: int, method: SeededMethod) -> Iterator[int]:
    forward = list(range(tables))
    while True:
        yield from forward
        if method == "snake":
            yield from reversed(forward)


def seat_seeded(ranked: Sequence[int], table_size: int, method: SeededMethod) -> list[Table]:
    """The round's tables (seat order by seed) for ``ranked``, best first."""
    if method not in SEEDED_METHODS:
        raise RuleError(
            "method",
            _("'{method}' is not a seeded seating; choose alternating or snake").format(
                method=method
            ),
        )
    players = check_players(ranked)
    sizes = table_sizes(len(players), table_size)
    tables: list[list[int]] = [[] for _size in sizes]
    pattern = _pattern(len(sizes), method)
    for player in players:
        index = next(pattern)
        while len(tables[index]) >= sizes[index]:
            index = next(pattern)
        tables[index].append(player)
    return [tuple(table) for table in tables]
