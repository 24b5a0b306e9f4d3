"""The worked examples of docs/rules/scoring.md#worked-examples, exactly as written there."""

from __future__ import annotations

from scoring.game import score_game
from scoring.rules import PRESETS
from tests.scoring.helpers import STANDARD, charges, exhausted, rules, rummikub, scores, tiles


def test_example_1_rummikub_end_three_players() -> None:
    # P1 goes out; P2 holds 4, 10, 2; P3 holds a joker and 7.
    out = score_game(rummikub(1, tiles(1, ""), tiles(2, "4 10 2"), tiles(3, "J 7")), STANDARD)
    assert [rack.points for rack in out.racks] == [0, 16, 37]
    assert scores(out) == {1: 53, 2: -16, 3: -37}
    assert out.winners == (1,) and out.zero_sum


def test_example_2_rummikub_end_four_players() -> None:
    # A goes out; B's rack 5, C's 10, D's 3 (players 1-4 stand for A-D).
    game = rummikub(1, tiles(1, ""), tiles(2, "5"), tiles(3, "10"), tiles(4, "3"))
    out = score_game(game, STANDARD)
    assert scores(out) == {1: 18, 2: -5, 3: -10, 4: -3}
    assert out.zero_sum


def test_example_3_pool_exhausted_tied_winners_lowest_points_difference() -> None:
    game = exhausted(tiles(1, "R12"), tiles(2, "B12"), tiles(3, "K12"), tiles(4, "O13 O7"))
    out = score_game(game, STANDARD)
    assert out.winners == (1, 2, 3)
    assert charges(out) == {1: 0, 2: 0, 3: 0, 4: 8}  # D pays 20 - 12
    assert scores(out) == {1: 8, 2: 8, 3: 8, 4: -8}
    assert not out.zero_sum  # several winners: intended, not an error


def test_rules_section_4_no_meld_pays_each() -> None:
    # Winner W, normal loser L charged 10, no-meld loser N charged 39.
    game = rummikub(1, tiles(1, ""), tiles(2, "R10"), tiles(3, "K13 B13 O13", "could_not"))
    out = score_game(game, rules(no_meld_pays_each=True))
    assert scores(out) == {1: 49, 2: 29, 3: -39}
    assert not out.zero_sum


def test_the_joker_penalty_differs_by_preset() -> None:
    game = rummikub(1, tiles(1, ""), tiles(2, "J 7"))
    assert scores(score_game(game, PRESETS["standard"]))[2] == -37
    assert scores(score_game(game, PRESETS["mso"]))[2] == -57
    assert scores(score_game(game, rules(joker_penalty=25)))[2] == -32  # Belgian club play
