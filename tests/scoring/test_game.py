"""Validation of one game (docs/rules/tiles-and-games.md) and the shape of its result."""

from __future__ import annotations

import pytest

from scoring import game as game_module
from scoring.errors import RuleError, RuleErrors, as_error_dict
from scoring.game import GameIn, RackIn, RackOut, check_readable, score_game, validate_game
from scoring.tiles import face_value_bounds
from tests.scoring.helpers import (
    STANDARD,
    exhausted,
    rule_error,
    rules,
    rummikub,
    scores,
    tiles,
    totals,
)

WINNER = tiles(1, "")


def test_a_valid_game_validates() -> None:
    assert validate_game(rummikub(1, WINNER, tiles(2, "R5")), STANDARD) is None


# --- the table -----------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 5])
def test_two_to_four_racks(count: int) -> None:
    racks = [tiles(player, f"R{player}") for player in range(1, count + 1)]
    with rule_error(("racks",), "2 to 4", str(count)):
        validate_game(exhausted(*racks), STANDARD)


def test_each_player_once() -> None:
    with rule_error(("racks", 2, "player"), "player 12 appears twice"):
        validate_game(rummikub(11, tiles(11, ""), tiles(12, "R5"), tiles(12, "B5")), STANDARD)


def test_the_winner_must_be_at_the_table() -> None:
    with rule_error(("winner",), "player 99", "11, 12"):
        validate_game(rummikub(99, tiles(11, ""), tiles(12, "R5")), STANDARD)


def test_a_given_pool_exhausted_winner_must_be_at_the_table() -> None:
    with rule_error(("winner",), "player 99"):
        validate_game(exhausted(tiles(11, "R1"), tiles(12, "R5"), winner=99), STANDARD)


def test_an_unknown_end_is_named() -> None:
    game = GameIn("draw", (WINNER, tiles(2, "R5")), winner=1)  # type: ignore[arg-type]
    with rule_error(("end",), "'draw'"):
        validate_game(game, STANDARD)


def test_an_unknown_no_meld_flag_is_named() -> None:
    rack = RackIn(2, tiles=(), no_meld="forgot")  # type: ignore[arg-type]
    with rule_error(("racks", 1, "no_meld"), "'forgot'", "player 2"):
        validate_game(rummikub(1, WINNER, rack), STANDARD)


# --- one rack: tiles or totals -------------------------------------------------------------


@pytest.mark.parametrize(
    "rack",
    [
        RackIn(2, tiles=(), points=5),
        RackIn(2, tiles=(), tile_count=1),
        RackIn(2, tiles=(), jokers=1),
    ],
)
def test_tiles_and_totals_together(rack: RackIn) -> None:
    with rule_error(("racks", 1, "points"), "player 2", "both"):
        validate_game(rummikub(1, WINNER, rack), STANDARD)


def test_a_rack_with_neither_tiles_nor_points() -> None:
    with rule_error(("racks", 1, "tiles"), "player 2", "missing"):
        validate_game(rummikub(1, WINNER, RackIn(2)), STANDARD)


@pytest.mark.parametrize("rack", [RackIn(2, tile_count=3), RackIn(2, jokers=1)])
def test_totals_need_points(rack: RackIn) -> None:
    with rule_error(("racks", 1, "points"), "player 2", "points are required"):
        validate_game(rummikub(1, WINNER, rack), STANDARD)


@pytest.mark.parametrize(
    ("rack", "field", "words"),
    [
        (totals(2, -3), "points", ["negative", "-3"]),
        (totals(2, 5, tile_count=-1), "tile_count", ["-1"]),
        (totals(2, 5, tile_count=107), "tile_count", ["107", "106"]),
        (totals(2, 60, jokers=3), "jokers", ["3"]),
        (totals(2, 5, jokers=-1), "jokers", ["-1"]),
        (totals(2, 60, tile_count=1, jokers=2), "jokers", ["2 jokers", "among 1 tile"]),
        # 20 points cannot hold a joker charged 30
        (totals(2, 20, jokers=1), "points", ["20 points", "1 joker at 30"]),
        (totals(2, 20, tile_count=2, jokers=1), "points", ["20 points", "30"]),
        # 3 numbered tiles are worth 3 to 39
        (totals(2, 50, tile_count=3), "points", ["3 to 39", "50 points"]),
        (totals(2, 2, tile_count=3), "points", ["3 to 39", "2 points"]),
        (
            totals(2, 44, tile_count=2, jokers=1),
            "points",
            ["1 numbered tile can be worth 1 to 13", "44 points after 1 joker"],
        ),
        (totals(2, 5, tile_count=0), "points", ["0 to 0", "5 points"]),
        (totals(2, 729), "points", ["729", "728"]),
        (totals(2, 800, tile_count=106), "tile_count", ["106 numbered", "104"]),
    ],
)
def test_impossible_totals(rack: RackIn, field: str, words: list[str]) -> None:
    with rule_error(("racks", 1, field), "player 2", *words):
        validate_game(rummikub(1, WINNER, rack), STANDARD)


@pytest.mark.parametrize(
    "rack",
    [
        totals(2, 5),
        totals(2, 30, jokers=1),  # a lone joker
        totals(2, 60, tile_count=2, jokers=2),
        totals(2, 31, tile_count=2, jokers=1),
        totals(2, 43, tile_count=2, jokers=1),
        totals(2, 3, tile_count=3),
        totals(2, 39, tile_count=3),
        totals(2, 788, jokers=2),  # every numbered tile and both jokers
        totals(2, 788, tile_count=106, jokers=2),
    ],
)
def test_possible_totals(rack: RackIn) -> None:
    validate_game(rummikub(1, WINNER, rack), STANDARD)


def test_a_joker_rack_depends_on_the_penalty() -> None:
    rack = totals(2, 20, tile_count=1, jokers=1)
    validate_game(rummikub(1, WINNER, rack), rules(joker_penalty=20))
    with rule_error(("racks", 1, "points"), "20 points"):
        validate_game(rummikub(1, WINNER, rack), rules(joker_penalty=30))


# --- the tiles of the game -----------------------------------------------------------------


def test_availability_over_racks_given_as_tiles() -> None:
    game = rummikub(1, WINNER, tiles(2, "R5 R5"), totals(3, 10), tiles(4, "r5"))
    with rule_error(("racks", 3, "tiles"), "R5"):
        validate_game(game, STANDARD)


def test_availability_counts_bare_numbers() -> None:
    game = rummikub(1, WINNER, tiles(2, "B7 B7 R7 R7 O7 O7"), tiles(3, "K7 K7 7"))
    with rule_error(("racks", 2, "tiles"), "numbered 7"):
        validate_game(game, STANDARD)


def test_a_third_joker_over_tiles_and_totals() -> None:
    game = rummikub(1, WINNER, totals(2, 60, jokers=2), tiles(3, "J R5"))
    with rule_error(("racks", 2, "tiles"), "third joker"):
        validate_game(game, STANDARD)
    game = rummikub(1, WINNER, tiles(2, "J J"), totals(3, 35, jokers=1))
    with rule_error(("racks", 2, "jokers"), "third joker", "player 3"):
        validate_game(game, STANDARD)


def test_more_than_106_tiles_over_the_racks() -> None:
    sixty, fifty = face_value_bounds(60)[0], face_value_bounds(50)[0]
    game = rummikub(1, WINNER, totals(2, sixty, tile_count=60), totals(3, fifty, tile_count=50))
    with rule_error(("racks", 2, "tile_count"), "110 tiles", "106"):
        validate_game(game, STANDARD)


def test_a_rack_by_tiles_can_be_the_one_too_many() -> None:
    hundred = face_value_bounds(100)[0]
    game = rummikub(1, WINNER, totals(2, hundred, tile_count=100), tiles(3, "R1 B1 O1 K1 R2 B2 O2"))
    with rule_error(("racks", 2, "tiles"), "player 3", "107 tiles"):
        validate_game(game, STANDARD)
    game = rummikub(1, WINNER, totals(2, 720), tiles(3, "K13"))
    with rule_error(("racks", 2, "tiles"), "player 3", "733 points"):
        validate_game(game, STANDARD)


def test_more_face_value_than_the_game_has() -> None:
    game = rummikub(1, WINNER, totals(2, 400), tiles(3, "K13 K13"), totals(4, 400))
    with rule_error(("racks", 3, "points"), "826", "728"):
        validate_game(game, STANDARD)


def test_the_whole_game_total_counts_jokers_apart() -> None:
    # 728 face value and both jokers, split over two racks: everything, but possible.
    game = exhausted(totals(2, 300 + 60, jokers=2), totals(3, 428))
    validate_game(game, STANDARD)


# --- Rummikub end ----------------------------------------------------------------------------


def test_rummikub_needs_a_winner_or_one_blank_rack() -> None:
    with rule_error(("winner",), "winner", "leave their rack blank"):
        validate_game(rummikub(None, tiles(1, "R1"), tiles(2, "R5")), STANDARD)


def test_the_one_blank_rack_implies_the_winner() -> None:
    out = score_game(rummikub(None, tiles(1, "R4"), tiles(2, ""), tiles(3, "J")), STANDARD)
    assert out.winners == (2,)
    assert scores(out) == {1: -4, 2: 34, 3: -30}


def test_a_given_winner_with_a_blank_rack_is_the_same_game() -> None:
    racks = (tiles(1, "R4"), tiles(2, ""), tiles(3, "J"))
    assert score_game(rummikub(2, *racks), STANDARD) == score_game(rummikub(None, *racks), STANDARD)


def test_two_blank_racks_and_no_winner_name_both_players() -> None:
    game = rummikub(
        None,
        RackIn(1, tiles=(), name="Ada (seat 1)"),
        RackIn(2, tiles=(), name="Bo (seat 2)"),
        tiles(3, "R5"),
    )
    with rule_error(("winner",), "Ada (seat 1) and Bo (seat 2)", "choose the winner"):
        validate_game(game, STANDARD)


@pytest.mark.parametrize(
    ("rack", "field"),
    [(tiles(1, "R4"), "tiles"), (totals(1, 4), "points"), (totals(1, 30, jokers=1), "points")],
)
def test_the_winners_rack_is_empty(rack: RackIn, field: str) -> None:
    with rule_error(("racks", 0, field), "player 1", "empty"):
        validate_game(rummikub(1, rack, tiles(2, "R5")), STANDARD)


@pytest.mark.parametrize("rack", [tiles(1, ""), totals(1, 0), totals(1, 0, tile_count=0)])
def test_ways_to_enter_the_winners_empty_rack(rack: RackIn) -> None:
    out = score_game(rummikub(1, rack, tiles(2, "R5")), STANDARD)
    assert scores(out) == {1: 5, 2: -5}


def test_a_joker_is_not_empty_even_when_it_costs_nothing() -> None:
    free_jokers = rules(joker_penalty=0)
    with rule_error(("racks", 0, "points"), "player 1"):
        validate_game(rummikub(1, totals(1, 0, jokers=1), tiles(2, "R5")), free_jokers)


@pytest.mark.parametrize(
    ("rack", "field"),
    [(tiles(2, ""), "tiles"), (totals(2, 0), "points"), (totals(2, 0, tile_count=0), "points")],
)
def test_every_other_rack_is_not_empty(rack: RackIn, field: str) -> None:
    with rule_error(("racks", 1, field), "player 2", "empty", "player 1"):
        validate_game(rummikub(1, WINNER, rack, tiles(3, "R5")), STANDARD)


def test_the_winner_made_the_opening_meld() -> None:
    with rule_error(("racks", 0, "no_meld"), "player 1", "no-meld"):
        validate_game(rummikub(1, tiles(1, "", "could_not"), tiles(2, "R5")), STANDARD)


# --- pool exhausted ------------------------------------------------------------------------


def test_nobody_emptied_the_rack_when_the_pool_ran_out() -> None:
    with rule_error(("racks", 1, "tiles"), "player 2", "empty", "Rummikub"):
        validate_game(exhausted(tiles(1, "R5"), tiles(2, "")), STANDARD)


def test_fewest_tiles_needs_every_tile_count() -> None:
    game = exhausted(tiles(1, "R5"), totals(2, 10, tile_count=2), totals(3, 12))
    with rule_error(("racks", 2, "tile_count"), "player 3", "fewest tiles"):
        validate_game(game, rules(exhausted_winner="fewest_tiles"))
    validate_game(game, rules(exhausted_winner="lowest_points"))


def test_a_given_winner_must_be_lowest() -> None:
    game = exhausted(tiles(12, "R5"), tiles(13, "R9"), tiles(14, "K11"), winner=13)
    with rule_error(("winner",), "player 13 is not lowest", "player 12 has 5 points", "9 points"):
        validate_game(game, STANDARD)


def test_a_given_winner_must_have_fewest_tiles() -> None:
    game = exhausted(tiles(12, "R5 B5"), tiles(13, "R9 B9"), tiles(14, "K1 K2 K3"), winner=13)
    with rule_error(("winner",), "player 13", "fewest tiles", "2 tiles, 10 points"):
        validate_game(game, rules(exhausted_winner="fewest_tiles"))


def test_a_given_winner_may_be_any_of_the_tied_winners() -> None:
    game = exhausted(tiles(12, "R12"), tiles(13, "B12"), tiles(14, "K13"), winner=13)
    assert score_game(game, STANDARD).winners == (12, 13)
    wrong = exhausted(tiles(12, "R12"), tiles(13, "B12"), tiles(14, "K13"), winner=14)
    with rule_error(("winner",), "players 12, 13 have 12 points", "player 14 has 13 points"):
        validate_game(wrong, STANDARD)


def test_the_winner_is_decided_by_rack_value_not_the_no_meld_charge() -> None:
    game = exhausted(tiles(1, "R2", "could_not"), tiles(2, "R9"))
    out = score_game(game, rules(no_meld_charge=100))
    assert out.winners == (1,)
    assert scores(out) == {1: 7, 2: -7}


# --- sanctions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sanctions", "words"),
    [({99: 5}, ["player 99"]), ({2: 0}, ["player 2", "positive"]), ({2: -5}, ["-5"])],
)
def test_sanctions(sanctions: dict[int, int], words: list[str]) -> None:
    with rule_error(("sanctions",), *words):
        validate_game(rummikub(1, WINNER, tiles(2, "R5"), sanctions=sanctions), STANDARD)


def test_a_sanction_is_a_number_of_points() -> None:
    game = rummikub(1, WINNER, tiles(2, "R5"), sanctions={2: True})
    with rule_error(("sanctions",), "True"):
        validate_game(game, STANDARD)


# --- errors together -----------------------------------------------------------------------


def test_independent_errors_come_together() -> None:
    game = GameIn(
        "rummikub",
        (tiles(11, ""), totals(12, -1), tiles(12, "R5"), RackIn(14)),
        winner=None,
        sanctions={15: 3},
    )
    with pytest.raises(RuleErrors) as info:
        validate_game(game, STANDARD)
    assert as_error_dict([info.value], list_lengths={"racks": 4}) == {
        "racks": [
            {},
            {"points": ["player 12: points cannot be negative, got -1"]},
            {"player": ["player 12 appears twice"]},
            {"tiles": ["player 14: the rack is missing; give its tiles or its points"]},
        ],
        "sanctions": ["player 15 is not in this game"],
    }


def test_end_errors_come_together() -> None:
    game = rummikub(1, tiles(1, "R1", "declined"), tiles(2, ""))
    with pytest.raises(RuleErrors) as info:
        validate_game(game, STANDARD)
    paths = [error.path for error in info.value.errors]
    assert paths == [("racks", 0, "tiles"), ("racks", 0, "no_meld"), ("racks", 1, "tiles")]


def test_a_single_error_is_a_plain_rule_error() -> None:
    with pytest.raises(RuleError) as info:
        validate_game(rummikub(None, tiles(1, "R1"), tiles(2, "R5")), STANDARD)
    assert not isinstance(info.value, RuleErrors)


# --- the result ----------------------------------------------------------------------------


def test_the_result_keeps_the_input_order_and_describes_each_rack() -> None:
    game = rummikub(
        12,
        totals(14, 35, tile_count=2, jokers=1, no_meld="declined"),
        tiles(12, ""),
        tiles(13, "j y3 r4, 3"),
        sanctions={13: 5},
    )
    out = score_game(game, STANDARD)
    assert out.end == "rummikub" and out.winners == (12,)
    assert out.racks == (
        RackOut(14, None, 35, 2, 1, "declined", charge=35, score=-35, winner=False, sanction=0),
        RackOut(12, "", 0, 0, 0, None, charge=0, score=75, winner=True, sanction=0),
        RackOut(13, "R4 O3 3 J", 40, 4, 1, None, charge=40, score=-45, winner=False, sanction=5),
    )
    assert not out.zero_sum  # a sanction


def test_a_rack_by_totals_without_a_count_keeps_none() -> None:
    out = score_game(rummikub(1, WINNER, totals(2, 12)), STANDARD)
    assert out.racks[1].tile_count is None and out.racks[1].tiles is None


def test_the_zero_sum_check_is_real(monkeypatch: pytest.MonkeyPatch) -> None:
    # Break the arithmetic on purpose: the engine must refuse to return the result.
    monkeypatch.setattr(game_module, "_scores", lambda *args: {1: 5, 2: -4})
    with pytest.raises(AssertionError, match="zero-sum"):
        score_game(rummikub(1, WINNER, tiles(2, "R5")), STANDARD)


# --- names in messages, and every problem at once ---------------------------------------------


def named(player: int, text: str, name: str) -> RackIn:
    return RackIn(player, tiles=tiles(player, text).tiles, name=name)


def test_messages_name_players_by_the_names_given_never_by_id() -> None:
    game = rummikub(
        41,
        named(41, "R4", "Ada (seat 1)"),
        RackIn(42, points=-1, name="Bo (seat 2)"),
        named(43, "", "Cy (seat 3)"),
        sanctions={41: 0},
    )
    with pytest.raises(RuleErrors) as info:
        validate_game(game, STANDARD)
    messages = [error.message for error in info.value.errors]
    assert messages == [
        "Bo (seat 2): points cannot be negative, got -1",
        "Ada (seat 1)'s sanction must be a positive number of points, not 0",
        "Ada (seat 1) went out, so their rack must be empty, not 1 tile, 4 points",
        "Cy (seat 3)'s rack is empty, but only the winner, Ada (seat 1), went out",
    ]
    assert not any(str(player) in message for message in messages for player in (41, 42, 43))


def test_availability_names_the_player_whose_rack_overflows() -> None:
    game = rummikub(
        1,
        named(1, "", "Ada (seat 1)"),
        named(2, "J J", "Bo (seat 2)"),
        named(3, "J", "Cy (seat 3)"),
    )
    with rule_error(("racks", 2, "tiles"), "Cy (seat 3): a third joker"):
        validate_game(game, STANDARD)


def test_the_lowest_rack_message_names_players() -> None:
    game = exhausted(named(1, "R9", "Ada (seat 1)"), named(2, "R5", "Bo (seat 2)"), winner=1)
    with rule_error(("winner",), "Ada (seat 1) is not lowest", "Bo (seat 2) has 5 points"):
        validate_game(game, STANDARD)


def test_check_readable_reports_the_readable_racks_against_the_winner() -> None:
    errors = check_readable(
        "rummikub",
        1,
        [named(1, "R4", "Ada (seat 1)"), None, RackIn(3, points=-2, name="Cy (seat 3)")],
        STANDARD,
    )
    assert [(error.path, error.message) for error in errors] == [
        (("racks", 2, "points"), "Cy (seat 3): points cannot be negative, got -2"),
        (
            ("racks", 0, "tiles"),
            "Ada (seat 1) went out, so their rack must be empty, not 1 tile, 4 points",
        ),
    ]


def test_check_readable_implies_the_winner_from_the_blank_rack() -> None:
    racks = [named(1, "", "Ada (seat 1)"), None, named(3, "", "Cy (seat 3)")]
    errors = check_readable("rummikub", None, racks, STANDARD)
    assert [error.message for error in errors] == [
        "Ada (seat 1) and Cy (seat 3) all have blank racks; choose the winner who went out"
    ]
    assert check_readable("rummikub", None, racks[:2], STANDARD) == []


def test_check_readable_counts_the_tiles_of_the_racks_read() -> None:
    racks = [
        named(1, "", "Ada (seat 1)"),
        None,
        named(3, "J J", "Cy (seat 3)"),
        named(4, "J", "Di (seat 4)"),
    ]
    errors = check_readable("rummikub", None, racks, STANDARD)
    assert [(error.path, error.message) for error in errors] == [
        (("racks", 3, "tiles"), "Di (seat 4): a third joker (J): a game has only 2"),
    ]
