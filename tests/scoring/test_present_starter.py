"""The present starter: a game whose rotation's starter has left the table is started by
the next present seat after it in seat order (docs/rules/decisions.md)."""

from __future__ import annotations

import pytest

from scoring.seating.starters import present_starter


@pytest.mark.parametrize(
    ("starter", "positions", "absent", "expected"),
    [
        (1, [1, 2, 3, 4], [], 1),  # nobody left: the rotation stands
        (2, [1, 2, 3, 4], [4], 2),  # someone else left: the starter keeps the start
        (2, [1, 2, 3, 4], [2], 3),  # the starter left: the next seat starts
        (4, [1, 2, 3, 4], [4], 1),  # the last seat left: wraps to seat 1
        (2, [1, 2, 3, 4], [2, 3], 4),  # two left in a row: the first present after them
        (3, [1, 2, 3], [3, 1], 2),  # a table of three, wrapping past an absent seat 1
        (2, [1, 2], [1, 2], 2),  # nobody present: unchanged
        (3, [1, 2], [3], 3),  # a seat the table does not have: unchanged
    ],
)
def test_present_starter(starter, positions, absent, expected):
    assert present_starter(starter, positions, absent) == expected
