"""Seating: who sits at which table, in which seat, round by round (pure Python)."""

from scoring.seating.draw import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    SWISS_REACH,
    Seating,
    SeatingError,
    plan_rounds,
    quality,
    replan,
    seat_random,
    seat_swiss,
    table_rank_spreads,
    table_sizes,
)

__all__ = [
    "MAX_TABLE_SIZE",
    "MIN_TABLE_SIZE",
    "SWISS_REACH",
    "Seating",
    "SeatingError",
    "plan_rounds",
    "quality",
    "replan",
    "seat_random",
    "seat_swiss",
    "table_rank_spreads",
    "table_sizes",
]
