"""The tile notation (docs/rules/tiles-and-games.md) and what one game's tiles can be."""

from __future__ import annotations

import pytest

from scoring.errors import RuleError
from scoring.tiles import (
    COLOURS,
    COPIES,
    JOKER,
    MAX_JOKERS,
    NUMBER_LIMIT,
    NUMBERED_TOTAL_VALUE,
    NUMBERS,
    TOTAL_TILES,
    Tile,
    check_availability,
    face_value_bounds,
    format_tiles,
    joker_count,
    parse_tile,
    parse_tiles,
    rack_face_value,
)

FULL_SET = [Tile(c, n) for c in COLOURS for n in NUMBERS for _ in range(COPIES)] + [JOKER] * 2


def test_the_tile_set() -> None:
    assert len(FULL_SET) == TOTAL_TILES == 106
    assert rack_face_value(FULL_SET) == NUMBERED_TOTAL_VALUE == 728
    assert (MAX_JOKERS, COPIES, NUMBER_LIMIT, list(NUMBERS)) == (2, 2, 8, list(range(1, 14)))


# --- parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "tile"),
    [
        ("R5", Tile("R", 5)),
        ("K13", Tile("K", 13)),
        ("O1", Tile("O", 1)),
        ("B10", Tile("B", 10)),
        ("Y7", Tile("O", 7)),  # yellow sets: Y is orange
        ("y7", Tile("O", 7)),
        ("r5", Tile("R", 5)),
        ("k13", Tile("K", 13)),
        ("J", JOKER),
        ("j", JOKER),
        ("7", Tile(None, 7)),
        ("13", Tile(None, 13)),
        ("1", Tile(None, 1)),
    ],
)
def test_good_tokens(token: str, tile: Tile) -> None:
    assert parse_tiles(token) == (tile,)
    assert parse_tile(token) == tile


def test_tokens_are_separated_by_spaces_and_or_commas() -> None:
    assert parse_tiles("R5,b6  J ,, 7\tk1\n y2") == (
        Tile("R", 5),
        Tile("B", 6),
        JOKER,
        Tile(None, 7),
        Tile("K", 1),
        Tile("O", 2),
    )


@pytest.mark.parametrize("text", ["", "   ", ",", " , ,\n"])
def test_nothing_written_is_an_empty_rack(text: str) -> None:
    assert parse_tiles(text) == ()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("X9", ["'X9'", "colour 'X'"]),
        ("G3", ["'G3'", "colour 'G'"]),
        ("R", ["'R'", "no number"]),
        ("y", ["'y'", "no number"]),
        ("R0", ["'R0'", "number 0", "1 to 13"]),
        ("R14", ["'R14'", "number 14", "1 to 13"]),
        ("0", ["'0'", "number 0"]),
        ("14", ["'14'", "number 14"]),
        ("J5", ["'J5'", "joker"]),
        ("JJ", ["'JJ'"]),
        ("hello", ["'hello'"]),
        ("5R", ["'5R'"]),
        ("RR5", ["'RR5'"]),
        ("R-5", ["'R-5'"]),
        ("R5;B6", ["'R5;B6'"]),
        ("R5.0", ["'R5.0'"]),
        ("\u0663", ["'\u0663'"]),  # an Arabic-Indic digit three is not a tile number
    ],
)
def test_bad_tokens_are_named(text: str, words: list[str]) -> None:
    with pytest.raises(RuleError) as info:
        parse_tiles(text)
    assert info.value.path == ("tiles",)
    for word in words:
        assert word in info.value.message


def test_the_first_bad_token_among_good_ones_is_named() -> None:
    with pytest.raises(RuleError) as info:
        parse_tiles("R5 B6 Q3 X9")
    assert "'Q3'" in info.value.message


def test_the_error_is_on_the_field_given() -> None:
    with pytest.raises(RuleError) as info:
        parse_tiles("R5 Z1", field=("racks", 2, "tiles"))
    assert info.value.path == ("racks", 2, "tiles")
    assert str(info.value).startswith("racks[2].tiles: ")


# --- the Tile value ------------------------------------------------------------------------


def test_tile_basics() -> None:
    assert str(Tile("R", 5)) == "R5"
    assert str(Tile(None, 7)) == "7"
    assert str(JOKER) == "J"
    assert JOKER.is_joker and not Tile(None, 7).is_joker and not Tile("K", 1).is_joker
    assert (Tile("K", 13).value, Tile(None, 7).value, JOKER.value) == (13, 7, 0)
    assert Tile("R", 5) == Tile("R", 5) and hash(Tile("R", 5)) == hash(Tile("R", 5))
    assert Tile("R", 5) != Tile("O", 5)
    assert repr(Tile("R", 5)) == "Tile(colour='R', number=5)"


@pytest.mark.parametrize(("colour", "number"), [("Y", 5), ("R", None), ("R", 0), (None, 14)])
def test_impossible_tiles_cannot_be_built(colour: str | None, number: int | None) -> None:
    with pytest.raises(ValueError):
        Tile(colour, number)


def test_tiles_sort_by_colour_then_number_bare_numbers_then_jokers() -> None:
    mixed = [JOKER, Tile(None, 2), Tile("K", 1), Tile("O", 3), Tile("R", 9), Tile("B", 10)]
    mixed += [Tile("B", 2), Tile(None, 1)]
    assert [str(tile) for tile in sorted(mixed)] == [
        "B2", "B10", "R9", "O3", "K1", "1", "2", "J",
    ]  # fmt: skip


# --- formatting ----------------------------------------------------------------------------


def test_format_is_canonical() -> None:
    assert format_tiles(parse_tiles("J 7 k13 y3 R5 b12 b1")) == "B1 B12 R5 O3 K13 7 J"
    assert format_tiles(()) == ""


def test_parse_of_format_is_the_sorted_rack() -> None:
    rack = parse_tiles("j, 7 K13 y3 r5 J B12 o3")
    assert parse_tiles(format_tiles(rack)) == tuple(sorted(rack))


# --- helpers -------------------------------------------------------------------------------


def test_face_value_and_jokers() -> None:
    rack = parse_tiles("R4 B10 K2 J 7")
    assert rack_face_value(rack) == 23
    assert joker_count(rack) == 1
    assert rack_face_value(()) == 0 and joker_count(()) == 0


@pytest.mark.parametrize(
    ("count", "bounds"),
    [
        (0, (0, 0)),
        (1, (1, 13)),
        (8, (8, 104)),  # eight 1s .. eight 13s
        (9, (10, 116)),  # eight 1s and a 2 .. eight 13s and a 12
        (104, (728, 728)),
    ],
)
def test_face_value_bounds(count: int, bounds: tuple[int, int]) -> None:
    assert face_value_bounds(count) == bounds


@pytest.mark.parametrize("count", [-1, 105])
def test_face_value_bounds_of_impossible_counts(count: int) -> None:
    with pytest.raises(ValueError):
        face_value_bounds(count)


# --- availability --------------------------------------------------------------------------


def test_the_whole_set_over_four_racks_is_available() -> None:
    check_availability([FULL_SET[0:30], FULL_SET[30:60], FULL_SET[60:90], FULL_SET[90:]])


def test_a_third_copy_is_named_on_its_rack() -> None:
    with pytest.raises(RuleError) as info:
        check_availability([parse_tiles("R5 R5"), parse_tiles("B1"), parse_tiles("r5")])
    assert info.value.path == ("racks", 2, "tiles")
    assert "third R5" in info.value.message


def test_a_ninth_tile_of_a_number_counts_bare_numbers() -> None:
    racks = [parse_tiles("B7 B7 R7 R7 O7 O7"), parse_tiles("K7 7"), parse_tiles("7")]
    with pytest.raises(RuleError) as info:
        check_availability(racks)
    assert info.value.path == ("racks", 2, "tiles")
    assert "ninth tile numbered 7" in info.value.message


def test_bare_numbers_alone_can_make_a_ninth() -> None:
    with pytest.raises(RuleError) as info:
        check_availability([parse_tiles("3 " * 5), parse_tiles("3 " * 4)])
    assert info.value.path == ("racks", 1, "tiles")
    assert "numbered 3" in info.value.message


def test_eight_of_a_number_with_bare_numbers_is_fine() -> None:
    check_availability([parse_tiles("B7 B7 7 7"), parse_tiles("7 7 K7 K7")])


def test_a_third_joker() -> None:
    with pytest.raises(RuleError) as info:
        check_availability([parse_tiles("J"), parse_tiles("R1 J"), parse_tiles("J")])
    assert info.value.path == ("racks", 2, "tiles")
    assert "third joker" in info.value.message


def test_a_107th_tile() -> None:
    with pytest.raises(RuleError) as info:
        check_availability([FULL_SET[:53], FULL_SET[53:], [Tile("R", 5)]])
    assert info.value.path == ("racks", 2, "tiles")
    assert "R5" in info.value.message and "106" in info.value.message


def test_racks_without_tiles_keep_their_index() -> None:
    with pytest.raises(RuleError) as info:
        check_availability([None, parse_tiles("R5 R5"), None, parse_tiles("R5")])
    assert info.value.path == ("racks", 3, "tiles")


def test_the_error_path_starts_with_the_field_given() -> None:
    with pytest.raises(RuleError) as info:
        check_availability([parse_tiles("J J J")], field=("games", 0, "racks"))
    assert info.value.path == ("games", 0, "racks", 0, "tiles")


def test_a_wall_of_digits_is_a_named_error_not_a_crash():
    from scoring.errors import RuleError
    from scoring.tiles import parse_tiles

    with pytest.raises(RuleError, match="numbers are 1 to 13"):
        parse_tiles("R" + "9" * 5000)
