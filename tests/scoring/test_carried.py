"""A stage's carried scores in the pure standings: added to `score` before ranking, the
same from per-player totals and from series lines."""

from __future__ import annotations

import pytest

from scoring.standings import (
    PlayerTotals,
    SeriesLine,
    compute_standings_from_series,
    compute_standings_from_totals,
)

PLAYERS = [1, 2, 3]
TOTALS = [PlayerTotals(1, 1, 1, 1, 30, 0, 30), PlayerTotals(2, 1, 0, 0, -10, 10, -10)]
SERIES = [SeriesLine(1, 1, 7, 1, 1, 1, 30, 0, 30), SeriesLine(2, 1, 7, 1, 0, 0, -10, 10, -10)]


@pytest.mark.parametrize(
    ("carried", "order", "scores"),
    [
        (None, [1, 3, 2], {1: 30, 2: -10, 3: 0}),
        ({2: 50}, [2, 1, 3], {1: 30, 2: 40, 3: 0}),
        ({3: 31, 1: -1}, [3, 1, 2], {1: 29, 2: -10, 3: 31}),
    ],
)
def test_carried_scores_count_in_score(carried, order, scores):
    common = {"players": PLAYERS, "penalties": {}, "ranking": ["score"], "lot_seed": "s"}
    by_totals = compute_standings_from_totals(totals=TOTALS, carried=carried, **common)
    by_series = compute_standings_from_series(series=SERIES, carried=carried, **common)
    assert [r.player for r in by_totals] == order
    assert {r.player: r.metrics["score"] for r in by_totals} == scores
    assert [(r.rank, r.player, r.metrics["score"]) for r in by_series] == [
        (r.rank, r.player, r.metrics["score"]) for r in by_totals
    ]


def test_carried_for_an_unknown_player_is_a_bug():
    with pytest.raises(ValueError, match="carried: player 9"):
        compute_standings_from_totals(
            players=PLAYERS,
            totals=TOTALS,
            penalties={},
            ranking=["score"],
            lot_seed="s",
            carried={9: 1},
        )
