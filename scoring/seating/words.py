"""A draw said in words: its table sizes and its quality, as the round preview shows them.

Pure Python — no Django, no ORM (terms: see ``scoring.seating``). Only the figures of
``scoring.seating.quality`` are read, plus ``same_club_pairs`` when the caller has it.

* ``table_sizes_sentence`` — "2 tables of 4 and 2 tables of 3; tables of 3 play 3 games."
  A table plays ``games_per_table`` games, or one per seated player when that is None
  (RULES.md §7), so uneven tables are said out loud: their players play fewer games, which
  ranking by the per-game metrics (``score_per_game``, ``won_per_game``) evens out.
* ``quality_sentences`` — one sentence per figure: repeat meetings, same-club pairs,
  starter balance and, for a Swiss draw, the rank spread.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

# Said under uneven tables while the tournament ranks by totals (its choice to change).
PER_GAME_HINT = (
    "Players at smaller tables play fewer games: rank by score_per_game or won_per_game "
    "(the tournament's ranking) so that they are not disadvantaged."
)


def games_at(seats: int, games_per_table: int | None) -> int:
    """How many games a table of `seats` plays (RULES.md §7)."""
    return games_per_table or seats


def _plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


def _and(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def table_sizes_sentence(sizes: Sequence[int], games_per_table: int | None = None) -> str:
    """The tables by size, largest first, and how many games each size plays.

    >>> table_sizes_sentence([4, 4, 3, 3])
    '2 tables of 4 and 2 tables of 3; tables of 3 play 3 games.'
    """
    counts = sorted(Counter(sizes).items(), reverse=True)
    if not counts:
        return "No tables."
    listed = _and([f"{_plural(n, 'table')} of {size}" for size, n in counts])
    if len(counts) == 1:
        size = counts[0][0]
        return f"{listed}, {_plural(games_at(size, games_per_table), 'game')} each."
    if games_per_table:
        return f"{listed}; every table plays {_plural(games_per_table, 'game')}."
    smaller = [f"tables of {size} play {_plural(size, 'game')}" for size, _ in counts[1:]]
    return f"{listed}; {_and(smaller)}."


def uneven_games(sizes: Sequence[int], games_per_table: int | None = None) -> bool:
    """Whether some players play fewer games than others in this round."""
    return len({games_at(size, games_per_table) for size in sizes}) > 1


def quality_sentences(quality: Mapping[str, Any]) -> list[str]:
    """The quality figures of a draw, one sentence each, in the order the organiser reads
    them: repeats, clubs, starters, rank spread. A figure that is absent is not said."""
    sentences = []
    if "repeat_pairs" in quality:
        sentences.append(_repeats(quality["repeat_pairs"], quality.get("max_meetings", 0)))
    if "same_club_pairs" in quality:
        pairs = quality["same_club_pairs"]
        sentences.append(
            "No two players of the same club share a table."
            if not pairs
            else f"{_plural(pairs, 'pair')} of players of the same club "
            f"{'shares' if pairs == 1 else 'share'} a table."
        )
    if "starter_balance" in quality:
        sentences.append(_starters(quality["starter_balance"]))
    if "rank_spread" in quality:
        sentences.append(_spread(quality["rank_spread"], quality.get("rank_spreads", [])))
    return sentences


def _repeats(pairs: int, most: int) -> str:
    if not pairs:
        return "Nobody meets an earlier opponent again."
    return (
        f"{_plural(pairs, 'pair')} of players {'meets' if pairs == 1 else 'meet'} again; "
        "after this round no two players "
        f"will have met more than {_plural(most, 'time')}."
    )


def _starters(balance: int) -> str:
    if balance <= 1:
        return "Starts are as even as they can be (most and fewest starts differ by at most 1)."
    return f"Starts are uneven: most and fewest starts differ by {balance}."


def _spread(widest: int, spreads: Sequence[int]) -> str:
    where = ""
    if spreads and widest:
        tables = [str(n) for n, spread in enumerate(spreads, start=1) if spread == widest]
        where = f" (table{'s' if len(tables) > 1 else ''} {_and(tables)})"
    return f"The widest table spans {_plural(widest, 'place')} in the standings{where}."
