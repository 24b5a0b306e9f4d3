"""A draw said in words: its table sizes and its quality, as the round preview shows them.

Pure Python — no Django, no ORM (terms: see ``scoring.seating``). Only the figures of
``scoring.seating.quality`` are read, plus ``same_club_pairs`` when the caller has it.

* ``table_sizes_sentence`` — "2 tables of 4 and 2 tables of 3; tables of 3 play 3 games."
  A table plays ``scoring.rules.games_at`` games (``games_per_table``, or one per seated
  player when that is None), so uneven tables are said out loud: their players play fewer
  games, which ranking by the per-game metrics (``score_per_game``, ``won_per_game``)
  evens out.
* ``quality_sentences`` — one sentence per figure: repeat meetings, same-club pairs,
  starter balance and, for a Swiss draw, the rank spread.

The words go through ``scoring.i18n`` (the reader's language once Django installs its
translator): every count is said with ``ngettext``, so "1 table"/"2 tables" follow each
language's plural rules, and a list ("a, b and c") is joined by translated words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.i18n import _, gettext_noop, ngettext
from scoring.rules import games_at

# Said under uneven tables while the tournament ranks by totals (its choice to change).
# Marked here, translated where it is shown.
PER_GAME_HINT = gettext_noop(
    "Players at smaller tables play fewer games, and this tournament ranks by totals, "
    "which favour the bigger tables. To compare them fairly, change the tournament's "
    "ranking in its settings to score per game or games won per game."
)


def _games(count: int) -> str:
    return ngettext("{count} game", "{count} games", count).format(count=count)


def _and(parts: Sequence[str]) -> str:
    """ "a, b and c", with the language's own list separator and last "and"."""
    if len(parts) <= 1:
        return "".join(parts)
    return _("{items} and {last}").format(items=_(", ").join(parts[:-1]), last=parts[-1])


def table_sizes_sentence(sizes: Sequence[int], games_per_table: int | None = None) -> str:
    """The tables by size, largest first, and how many games each size plays.

    >>> table_sizes_sentence([4, 4, 3, 3])
    '2 tables of 4 and 2 tables of 3; tables of 3 play 3 games.'
    """
    counts = sorted(Counter(sizes).items(), reverse=True)
    if not counts:
        return _("No tables.")
    listed = _and(
        [
            ngettext("{count} table of {size}", "{count} tables of {size}", n).format(
                count=n, size=size
            )
            for size, n in counts
        ]
    )
    if len(counts) == 1:
        size = counts[0][0]
        return _("{tables}, {games} each.").format(
            tables=listed, games=_games(games_at(size, games_per_table))
        )
    if games_per_table:
        return ngettext(
            "{tables}; every table plays {count} game.",
            "{tables}; every table plays {count} games.",
            games_per_table,
        ).format(tables=listed, count=games_per_table)
    smaller = [
        ngettext(
            "tables of {size} play {count} game", "tables of {size} play {count} games", size
        ).format(size=size, count=size)
        for size, _n in counts[1:]
    ]
    return _("{tables}; {smaller}.").format(tables=listed, smaller=_and(smaller))


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
            _("No two players of the same club share a table.")
            if not pairs
            else ngettext(
                "{count} pair of players of the same club shares a table.",
                "{count} pairs of players of the same club share a table.",
                pairs,
            ).format(count=pairs)
        )
    if "starter_balance" in quality:
        sentences.append(_starters(quality["starter_balance"]))
    if "rank_spread" in quality:
        sentences.append(_spread(quality["rank_spread"], quality.get("rank_spreads", [])))
    return sentences


def _repeats(pairs: int, most: int) -> str:
    if not pairs:
        return _("Nobody meets an earlier opponent again.")
    meet = ngettext(
        "{count} pair of players meets again", "{count} pairs of players meet again", pairs
    ).format(count=pairs)
    limit = ngettext(
        "after this round no two players will have met more than {count} time",
        "after this round no two players will have met more than {count} times",
        most,
    ).format(count=most)
    return _("{meet}; {limit}.").format(meet=meet, limit=limit)


def _starters(balance: int) -> str:
    if balance <= 1:
        return _("Starts are as even as they can be (most and fewest starts differ by at most 1).")
    return _("Starts are uneven: most and fewest starts differ by {balance}.").format(
        balance=balance
    )


def _spread(widest: int, spreads: Sequence[int]) -> str:
    tables = [str(n) for n, spread in enumerate(spreads, start=1) if spread == widest]
    if not (spreads and widest):
        return ngettext(
            "The widest table spans {count} place in the standings.",
            "The widest table spans {count} places in the standings.",
            widest,
        ).format(count=widest)
    places = ngettext("{count} place", "{count} places", widest).format(count=widest)
    where = ngettext("table {tables}", "tables {tables}", len(tables)).format(tables=_and(tables))
    return _("The widest table spans {places} in the standings ({where}).").format(
        places=places, where=where
    )
