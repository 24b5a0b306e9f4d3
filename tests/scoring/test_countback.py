"""Tests of the countback metrics (second_best_game, third_best_game) and the caller's
extra metrics (matches_won, match_points) in scoring.standings."""

import pytest

from scoring.standings import GameLine, compute_standings, countback


def line(player: int, game: int, score: int, table: int = 1, round_: int = 1) -> GameLine:
    return GameLine(
        player, round_, table, game, score, 0 if score > 0 else -score, score > 0, False
    )


def test_countback_takes_the_second_and_third_best_single_games():
    out = countback({1: [10, 40, -5, 25], 2: [7], 3: []})
    assert out["second_best_game"] == {1: 25, 2: 0, 3: 0}
    assert out["third_best_game"] == {1: 10, 2: 0, 3: 0}


@pytest.mark.parametrize(
    ("ranking", "order"),
    [
        # equal best game (40): the second best game decides, then the third
        (["best_game", "second_best_game"], [2, 1]),
        (["best_game", "third_best_game"], [1, 2]),
    ],
)
def test_countback_breaks_a_tie_on_the_best_game(ranking, order):
    lines = [
        line(1, 1, 40), line(2, 1, -40),
        line(1, 2, 10), line(2, 2, -10),
        line(2, 3, 40, table=2, round_=2), line(1, 3, -40, table=2, round_=2),
        line(2, 4, 20, table=2, round_=2), line(1, 4, -20, table=2, round_=2),
        line(1, 5, 12, table=3, round_=3), line(2, 5, -12, table=3, round_=3),
    ]  # fmt: skip
    rows = compute_standings(
        players=[1, 2], lines=lines, penalties={}, ranking=ranking, lot_seed="t"
    )
    assert [r.player for r in rows] == order
    assert rows[0].rank == 1 and rows[1].rank == 2
    by_player = {r.player: r.metrics for r in rows}
    # player 1: 40, 12, 10, ...; player 2: 40, 20, -10, ...
    key = ranking[1]
    assert by_player[1][key] == {"second_best_game": 12, "third_best_game": 10}[key]
    assert by_player[2][key] == {"second_best_game": 20, "third_best_game": -10}[key]


def test_match_metrics_rank_from_the_callers_extra():
    lines = [line(1, 1, 5), line(2, 1, -5)]
    rows = compute_standings(
        players=[1, 2], lines=lines, penalties={}, ranking=["matches_won", "score"],
        lot_seed="t", extra={"matches_won": {2: 1}, "match_points": {2: 4}},
    )  # fmt: skip
    assert [r.player for r in rows] == [2, 1]
    assert rows[0].metrics["match_points"] == 4 and rows[1].metrics["matches_won"] == 0


def test_a_ranking_by_an_extra_metric_needs_it():
    with pytest.raises(ValueError, match="extra"):
        compute_standings(
            players=[1], lines=[], penalties={}, ranking=["match_points"], lot_seed="t"
        )
