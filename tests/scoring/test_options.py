"""One table, one row per effect: how each rule option changes a game's scores.

Each row is (option overrides on the standard preset, game, expected scores). Every
option of the rule set appears in at least one row; the four that only matter during
play (meld, turn time, penalty draws) must leave the scores alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.game import GameIn, score_game
from scoring.rules import OPTIONS
from tests.scoring.helpers import exhausted, rules, rummikub, scores, tiles

# W goes out; L holds R10 (10); J holds a joker and a 7 (37 under the standard rules).
OUT = rummikub(1, tiles(1, ""), tiles(2, "R10"), tiles(3, "J 7"))
# Pool ran out: 13 in 1 tile, 3 in 2 tiles, 18 in 3 tiles.
RAN_OUT = exhausted(tiles(1, "R13"), tiles(2, "B1 B2"), tiles(3, "K5 K6 K7"))
# W goes out; one loser could not meld (rack 10), one declined (rack 5).
NO_MELD = rummikub(1, tiles(1, ""), tiles(2, "R10", "could_not"), tiles(3, "K5", "declined"))
# The docs/rules/scoring.md example: L charged 10, N (no meld) charged 39.
SECTION_4 = rummikub(1, tiles(1, ""), tiles(2, "R10"), tiles(3, "K13 B13 O13", "could_not"))
# Pool ran out with a 30-point winner and an 80-point loser.
BIG_RACKS = exhausted(tiles(1, "K13 K12 R5"), tiles(2, "J K11 R13 B13 O13"))

ROWS: list[tuple[str, dict[str, Any], GameIn, dict[int, int]]] = [
    ("standard", {}, OUT, {1: 47, 2: -10, 3: -37}),
    ("joker 50", {"joker_penalty": 50}, OUT, {1: 67, 2: -10, 3: -57}),
    ("joker free", {"joker_penalty": 0}, OUT, {1: 17, 2: -10, 3: -7}),
    # exhausted_winner + exhausted_scoring
    ("lowest points, difference", {}, RAN_OUT, {1: -10, 2: 25, 3: -15}),
    ("fewest tiles", {"exhausted_winner": "fewest_tiles"}, RAN_OUT, {1: 5, 2: 0, 3: -5}),
    (
        "fewest tiles, tie broken by points",
        {"exhausted_winner": "fewest_tiles"},
        exhausted(tiles(1, "R13"), tiles(2, "B2"), tiles(3, "K5 K6")),
        {1: -11, 2: 20, 3: -9},
    ),
    (
        "fewest tiles, tied on both",
        {"exhausted_winner": "fewest_tiles"},
        exhausted(tiles(1, "R2"), tiles(2, "B2"), tiles(3, "K5 K6")),
        {1: 9, 2: 9, 3: -9},
    ),
    ("full", {"exhausted_scoring": "full"}, RAN_OUT, {1: -13, 2: 31, 3: -18}),
    (
        "fewest tiles, full",
        {"exhausted_winner": "fewest_tiles", "exhausted_scoring": "full"},
        RAN_OUT,
        {1: 21, 2: -3, 3: -18},
    ),
    # no-meld charges
    ("no meld, no fixed charge", {}, NO_MELD, {1: 15, 2: -10, 3: -5}),
    ("no meld 100", {"no_meld_charge": 100}, NO_MELD, {1: 200, 2: -100, 3: -100}),
    ("no meld 0 replaces the rack", {"no_meld_charge": 0}, NO_MELD, {1: 0, 2: 0, 3: 0}),
    ("declined 200", {"no_meld_declined_charge": 200}, NO_MELD, {1: 210, 2: -10, 3: -200}),
    (
        "could not 100, declined 200",
        {"no_meld_charge": 100, "no_meld_declined_charge": 200},
        NO_MELD,
        {1: 300, 2: -100, 3: -200},
    ),
    (
        "no meld when the pool ran out, difference",
        {"no_meld_charge": 100},
        exhausted(tiles(1, "R2"), tiles(2, "R9", "could_not")),
        {1: 98, 2: -98},
    ),
    # no_meld_pays_each
    ("section 4, paid to the winner", {}, SECTION_4, {1: 49, 2: -10, 3: -39}),
    ("section 4, paid to each", {"no_meld_pays_each": True}, SECTION_4, {1: 49, 2: 29, 3: -39}),
    (
        "two no-meld losers pay each other",
        {"no_meld_pays_each": True},
        rummikub(1, tiles(1, ""), tiles(2, "R10", "could_not"), tiles(3, "R5", "declined")),
        {1: 15, 2: -5, 3: 5},
    ),
    # loss_cap
    ("cap 25", {"loss_cap": 25}, OUT, {1: 35, 2: -10, 3: -25}),
    (
        "cap after the no-meld charge",
        {"no_meld_charge": 100, "loss_cap": 25},
        NO_MELD,
        {1: 50, 2: -25, 3: -25},
    ),
    ("no cap, difference", {}, BIG_RACKS, {1: 50, 2: -50}),
    ("cap after the difference", {"loss_cap": 25}, BIG_RACKS, {1: 25, 2: -25}),
    # bonuses
    ("win bonus", {"win_bonus": 50}, OUT, {1: 97, 2: -10, 3: -37}),
    (
        "win bonus for each tied winner",
        {"win_bonus": 10},
        exhausted(tiles(1, "R12"), tiles(2, "B12"), tiles(3, "K12"), tiles(4, "O13 O7")),
        {1: 18, 2: 18, 3: 18, 4: -8},
    ),
    ("runner-up bonus", {"runner_up_bonus": 5}, OUT, {1: 47, 2: -5, 3: -37}),
    (
        "runner-up bonus for tied losers",
        {"runner_up_bonus": 5},
        rummikub(1, tiles(1, ""), tiles(2, "R10"), tiles(3, "B10"), tiles(4, "K13")),
        {1: 33, 2: -5, 3: -5, 4: -13},
    ),
    (
        "runner-up ties made by the cap",
        {"loss_cap": 25, "runner_up_bonus": 5},
        rummikub(1, tiles(1, ""), tiles(2, "J R10"), tiles(3, "J B9")),
        {1: 50, 2: -20, 3: -20},
    ),
    (
        "everyone tied: winners without losers, no runner-up",
        {"win_bonus": 10, "runner_up_bonus": 5},
        exhausted(tiles(1, "R5"), tiles(2, "B5")),
        {1: 10, 2: 10},
    ),
    (
        "the one loser of two is the runner-up",
        {"runner_up_bonus": 5},
        rummikub(1, tiles(1, ""), tiles(2, "R10")),
        {1: 10, 2: -5},
    ),
    # Options of play, not of scoring: the scores stay the standard ones.
    ("meld 0", {"initial_meld": 0}, OUT, {1: 47, 2: -10, 3: -37}),
    ("meld 200", {"initial_meld": 200}, OUT, {1: 47, 2: -10, 3: -37}),
    ("no turn limit", {"turn_seconds": None}, OUT, {1: 47, 2: -10, 3: -37}),
    ("turn 10 s", {"turn_seconds": 10}, OUT, {1: 47, 2: -10, 3: -37}),
    ("timeout draws 10", {"timeout_draw": 10}, OUT, {1: 47, 2: -10, 3: -37}),
    ("failed draw 0", {"failed_manipulation_draw": 0}, OUT, {1: 47, 2: -10, 3: -37}),
    ("placement 5/3/2/0", {"placement_points": {"4": [5, 3, 2, 0]}}, OUT, {1: 47, 2: -10, 3: -37}),
]


@pytest.mark.parametrize(
    ("overrides", "game", "expected"), [row[1:] for row in ROWS], ids=[row[0] for row in ROWS]
)
def test_option_effects(overrides: dict[str, Any], game: GameIn, expected: dict[int, int]) -> None:
    assert scores(score_game(game, rules(**overrides))) == expected


def test_every_option_has_a_row() -> None:
    covered = {name for _, overrides, _, _ in ROWS for name in overrides}
    assert covered == set(OPTIONS)


def test_play_options_change_no_score() -> None:
    standard = scores(score_game(OUT, rules()))
    for _, overrides, game, expected in ROWS:
        if game is OUT and not any(OPTIONS[name].affects_scoring for name in overrides):
            assert expected == standard
