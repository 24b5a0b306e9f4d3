"""scoring.seating.words: a draw's table sizes and quality said in sentences."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.seating import table_sizes
from scoring.seating.words import (
    quality_sentences,
    table_sizes_sentence,
    uneven_games,
)


@pytest.mark.parametrize(
    ("sizes", "games_per_table", "sentence"),
    [
        ([4, 4, 3, 3], None, "2 tables of 4 and 2 tables of 3; tables of 3 play 3 games."),
        ([4, 4, 4, 4], None, "4 tables of 4, 4 games each."),
        ([4], None, "1 table of 4, 4 games each."),
        ([3, 2], None, "1 table of 3 and 1 table of 2; tables of 2 play 2 games."),
        ([4, 3], 4, "1 table of 4 and 1 table of 3; every table plays 4 games."),
        ([3, 3], 1, "2 tables of 3, 1 game each."),
        ([4, 3, 2], None, "1 table of 4, 1 table of 3 and 1 table of 2; tables of 3 play 3 "
                          "games and tables of 2 play 2 games."),
        ([], None, "No tables."),
    ],
)  # fmt: skip
def test_table_sizes_sentence(sizes, games_per_table, sentence):
    assert table_sizes_sentence(sizes, games_per_table) == sentence


@given(st.integers(2, 300), st.sampled_from([2, 3, 4]))
def test_the_sentence_counts_every_table_of_a_draw(players, size):
    sizes = table_sizes(players, size)
    sentence = table_sizes_sentence(sizes)
    counted = re.findall(r"(\d+) tables? of (\d+)", sentence)
    assert sum(int(n) * int(s) for n, s in counted) == players
    assert uneven_games(sizes) == (len(set(sizes)) > 1)
    assert not uneven_games(sizes, games_per_table=4)


@pytest.mark.parametrize(
    ("quality", "sentences"),
    [
        (
            {"repeat_pairs": 0, "max_meetings": 1, "starter_balance": 1},
            [
                "Nobody meets an earlier opponent again.",
                "Starts are as even as they can be (most and fewest starts differ by at most 1).",
            ],
        ),
        (
            {"repeat_pairs": 3, "max_meetings": 2, "starter_balance": 2, "same_club_pairs": 1},
            [
                "3 pairs of players meet again; after this round no two players will have met "
                "more than 2 times.",
                "1 pair of players of the same club shares a table.",
                "Starts are uneven: most and fewest starts differ by 2.",
            ],
        ),
        (
            {"same_club_pairs": 0, "rank_spread": 5, "rank_spreads": [3, 5, 2, 5]},
            [
                "No two players of the same club share a table.",
                "The widest table spans 5 places in the standings (tables 2 and 4).",
            ],
        ),
        (
            {"repeat_pairs": 1, "max_meetings": 2},
            [
                "1 pair of players meets again; after this round no two players will have met "
                "more than 2 times."
            ],
        ),
        ({}, []),
    ],
)
def test_quality_sentences(quality, sentences):
    assert quality_sentences(quality) == sentences
