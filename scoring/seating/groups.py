"""Points, groups and rounds: the vocabulary the seating engines share.

The engines work on *points* ``0..n-1`` (the draw and the plan map player ids to points
and back) and on *groups* (a table before its seat order is chosen: a list of points). A
*round* is a list of groups that seats every point once.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

Group = list[int]
Round = list[Group]


def positions(groups: Sequence[Sequence[int]], n: int) -> list[int]:
    """``where[p]``: the index of point p's group, for points ``0..n-1``."""
    where = [0] * n
    for t, g in enumerate(groups):
        for p in g:
            where[p] = t
    return where


def exchange(groups: Round, where: list[int], a: int, b: int) -> None:
    """Swap points a and b, seated in different groups: each takes the other's place.

    The one swap of the engines: ``b`` takes ``a``'s index in ``a``'s group and vice
    versa, so the order inside the groups (which later tie-breaks look at) is kept.
    """
    ga, gb = groups[where[a]], groups[where[b]]
    ga[ga.index(a)] = b
    gb[gb.index(b)] = a
    where[a], where[b] = where[b], where[a]


def count_meetings(
    meetings: list[list[int]], groups: Iterable[Sequence[int]], step: int = 1
) -> None:
    """Add ``step`` to ``meetings[a][b]`` (and ``[b][a]``) for every pair in every group."""
    for g in groups:
        for a, b in itertools.combinations(g, 2):
            meetings[a][b] += step
            meetings[b][a] += step


def swap_meetings(
    groups: Round, where: list[int], meetings: list[list[int]], a: int, b: int
) -> int:
    """``exchange`` a and b and recount their meetings; returns the change in Σ C(m, 2).

    ``meetings[x][y]`` counts how often x and y share a group over a whole schedule (this
    round included), and Σ C(m, 2) over pairs is the schedule's cost (``search``).
    """
    mates_a = [x for x in groups[where[a]] if x != a]
    mates_b = [y for y in groups[where[b]] if y != b]
    delta = _move(meetings, a, b, mates_a) + _move(meetings, b, a, mates_b)
    exchange(groups, where, a, b)
    return delta


def _move(meetings: list[list[int]], leaving: int, joining: int, mates: Iterable[int]) -> int:
    """``joining`` takes ``leaving``'s place beside ``mates``: recount, return the cost change.

    A pair met m times: one meeting fewer changes C(m, 2) by -(m - 1), one more by +m.
    """
    delta = 0
    for x in mates:
        meetings[leaving][x] -= 1
        meetings[x][leaving] -= 1
        delta += meetings[joining][x] - meetings[leaving][x]
        meetings[joining][x] += 1
        meetings[x][joining] += 1
    return delta
